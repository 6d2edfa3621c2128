#!/usr/bin/env bash
# What each app's image carries, measured without Docker: the node_modules that
# `npm ci --omit=dev` installs from the root package.json and lock (what every image installed
# before the per-app builds) and from the app's own dist/apps/<app>/package.json and lock
# (what the root Dockerfile installs now), and the compiled code the image copies (the app and
# the libs it imports). Installs into a temporary directory; the npm cache makes reruns quick.
#   bash tools/scripts/image-payload.sh [app...]   (default: gateway register webhook-worker)
set -euo pipefail
cd "$(dirname "$0")/../.."

apps=("$@")
[ ${#apps[@]} -gt 0 ] || apps=(gateway register webhook-worker)
projects=$(IFS=,; echo "${apps[*]}")
npx nx run-many -t build --projects="$projects" --outputStyle=static-failures-only >/dev/null

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Installs package.json and package-lock.json of directory $1 into $work/$2; prints the size of
# node_modules and the number of packages npm installed.
install() {
  mkdir -p "$work/$2"
  cp "$1/package.json" "$1/package-lock.json" "$work/$2/"
  (cd "$work/$2" && npm ci --omit=dev --no-audit --no-fund --loglevel=error >/dev/null)
  local bytes packages
  bytes=$(du -sb "$work/$2/node_modules" | cut -f1)
  packages=$(node -p 'Object.keys(require(process.argv[1]).packages).length' \
    "$work/$2/node_modules/.package-lock.json")
  awk -v b="$bytes" -v p="$packages" 'BEGIN { printf "%5.1f MiB, %3d packages", b / 1048576, p }'
}

# The app's compiled code and that of every lib it imports (as `nx build <app>` leaves dist/).
dist_size() {
  node -e '
    const { readCachedProjectGraph } = require("@nx/devkit");
    const graph = readCachedProjectGraph();
    const seen = new Set();
    const visit = (name) => {
      if (seen.has(name) || !graph.nodes[name]) return;
      seen.add(name);
      for (const dep of graph.dependencies[name] ?? []) visit(dep.target);
    };
    visit(process.argv[1]);
    for (const name of seen) {
      const { root, targets } = graph.nodes[name].data;
      if (targets?.build) console.log(`dist/${root}`);
    }
  ' "$1" | xargs du -cb | tail -1 | awk '{ printf "%.2f MiB", $1 / 1048576 }'
}

echo "root package.json (every app's image before): $(install . root)"
for app in "${apps[@]}"; do
  echo "$app: node_modules $(install "dist/apps/$app" "$app"), dist $(dist_size "$app")"
done
