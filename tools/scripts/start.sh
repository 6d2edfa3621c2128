#!/usr/bin/env bash
# npm start: install if needed, check services, build, migrate each app, run all three in the
# foreground. Ctrl-C stops them cleanly (each app drains and closes its connections).
set -euo pipefail
cd "$(dirname "$0")/../.."
# The pinned Node 24 of tools/node (installed on first use), first on PATH for all below.
source tools/scripts/node-runtime.sh || exit 1

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "Installing dependencies (npm ci)..."
  npm ci --no-audit --no-fund
fi

node tools/scripts/check-services.js
echo "Building..."
# The three apps, the libs they import, the console's static files and the admin CLI (which the
# README's next step runs in another terminal), each from the Nx cache when unchanged.
npx nx run-many -t build --projects=gateway,register,webhook-worker,console,admin --outputStyle=static-failures-only

export NODE_ENV="${NODE_ENV:-development}"
export LOG_FORMAT="${LOG_FORMAT:-pretty}"
# Invitation e-mails link to the gateway; without SMTP_URL the register logs them instead.
export PUBLIC_BASE_URL="${PUBLIC_BASE_URL:-http://127.0.0.1:${PORT:-3000}}"
# A larger young generation: fewer objects promoted, fewer major-GC pauses in the p99.
export NODE_OPTIONS="${NODE_OPTIONS:---max-semi-space-size=32}"
run() { node -r ./tools/runtime/register-paths.js "$@"; }

for app in gateway register webhook-worker; do
  run "dist/apps/$app/src/migrate.js"
done

echo "Custodian is starting (Ctrl-C stops):"
echo "  API      http://127.0.0.1:${PORT:-3000}/api/v1"
echo "  console  http://127.0.0.1:${PORT:-3000}/console  (sign in as the owner of a workspace:"
echo "           npm run --silent admin -- workspace create --name Acme --plan pro --owner-email you@example.com;"
echo "           without SMTP_URL the sign-in e-mail, with its link, is in the register's log)"

# The three apps under one supervisor, which starts again an app that exits unexpectedly
# (with backoff, as compose and Kubernetes would) and stops them all on Ctrl-C or TERM.
exec node tools/scripts/supervise.js \
  register=dist/apps/register/src/main.js \
  webhook-worker=dist/apps/webhook-worker/src/main.js \
  gateway=dist/apps/gateway/src/main.js \
  -- -r ./tools/runtime/register-paths.js
