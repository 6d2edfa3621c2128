#!/usr/bin/env bash
# npm test: every test, unit, integration and end-to-end, as the Nx targets test, integration
# and e2e of every project, against the real Postgres, Redis and RabbitMQ named by DATABASE_URL /
# TEST_DATABASE_URL, REDIS_URL and RABBITMQ_URL; ends with one line adding up every Jest run.
#   bash tools/scripts/test.sh [nx options]             all projects (npm test)
#   bash tools/scripts/test.sh --affected [nx options]  projects changed since NX_BASE or
#                                                       --base=<ref> (default main; npm run test:affected)
set -uo pipefail
cd "$(dirname "$0")/../.."
# The pinned Node 24 of tools/node (installed on first use), first on PATH for all below.
source tools/scripts/node-runtime.sh || exit 1

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund || exit 1
fi
node tools/scripts/check-test-files.js || exit 1
node tools/scripts/check-services.js || exit 1

command=(run-many)
if [ "${1:-}" = "--affected" ]; then
  command=(affected)
  shift
fi

# Each run records its counts here; cached unit runs restore theirs from the Nx cache.
rm -rf tmp/jest-results
# One Jest run at a time, each with two workers (jest.preset.js): both cores, and no more test
# files at once than one Jest run had before; timing-sensitive tests fail under more.
npx nx "${command[@]}" -t test integration e2e --parallel=1 --outputStyle=static "$@"
exec node tools/scripts/test-totals.js "$?"
