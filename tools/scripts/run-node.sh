#!/usr/bin/env bash
# Runs one command with the project's pinned Node (tools/node) first on PATH: the npm scripts
# that start node themselves (admin, bench, faults, openapi) go through it, so they run on
# Node 24 like npm start and npm test, whatever Node npm itself was started with.
#   bash tools/scripts/run-node.sh node -r ./tools/runtime/register-paths.js dist/...
set -euo pipefail
source "$(dirname "$0")/node-runtime.sh"
exec "$@"
