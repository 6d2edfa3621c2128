#!/usr/bin/env bash
# npm test: every test, unit, integration and end-to-end, against the real Postgres, Redis and
# RabbitMQ named by DATABASE_URL / TEST_DATABASE_URL, REDIS_URL and RABBITMQ_URL.
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
node tools/scripts/check-services.js
npm run build --silent # the end-to-end tests run the built apps from dist/
exec npx jest --ci --maxWorkers=2 "$@"
