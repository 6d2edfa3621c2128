# One image per Custodian app, built from the repository root:
#   docker build --build-arg APP=gateway -t custodian-gateway .
# APP is gateway (the public HTTP API on $PORT, 3000), register or webhook-worker (no public
# HTTP). Each app serves /health, /health/live and /metrics on its own $HEALTH_PORT (gateway
# 3003, register 3001, webhook-worker 3002), never to be published. Configured only through the
# environment (see apps/<app>/src/config/); by default the container runs the app's own
# migrations (creating the database if missing), then starts the app. docker-compose.yml and
# deploy/kubernetes instead run migrate.js once, apart (a one-shot service, a Job), and start
# the app with main.js alone.

ARG NODE_IMAGE=node:24-bookworm-slim

# 1. deps: every dependency, dev ones included, for the build. No install scripts: the build
#    needs none of them (Nx and SWC load their platform binaries from optional packages).
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund

# 2. build: the app and the libs it imports, each by its Nx build target (tsc, not bundled),
#    which also writes dist/apps/$APP/package.json and package-lock.json: the npm packages
#    that code uses at run time, and only those.
FROM deps AS build
ARG APP
ENV NX_DAEMON=false NX_NO_CLOUD=true
RUN case "$APP" in gateway|register|webhook-worker) ;; \
      *) echo "--build-arg APP=gateway|register|webhook-worker is required" >&2; exit 1 ;; esac
COPY . .
RUN npx nx run "$APP:build" --outputStyle=static

# 3. prod-deps: the app's runtime dependencies alone, from its own package.json and lock.
FROM ${NODE_IMAGE} AS prod-deps
ARG APP
WORKDIR /app
COPY --from=build /app/dist/apps/${APP}/package.json /app/dist/apps/${APP}/package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

# 4. runtime: only what `node -r ./tools/runtime/register-paths.js dist/...` needs, run as `node`.
FROM ${NODE_IMAGE} AS runtime
ARG APP
ENV APP=${APP} \
    NODE_ENV=production \
    NODE_OPTIONS=--max-semi-space-size=32 \
    HOST=0.0.0.0 \
    LOG_FORMAT=json
WORKDIR /app
# Files stay owned by root (read-only to the app); the process runs as the image's `node` user.
COPY tsconfig.base.json ./
COPY tools/runtime ./tools/runtime
COPY --from=prod-deps /app/package.json /app/package-lock.json ./
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
USER node
STOPSIGNAL SIGTERM
# Every app answers /health (readiness: its Postgres, Redis, RabbitMQ) on its health port.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "const e = process.env; const port = e.HEALTH_PORT || { gateway: 3003, register: 3001, 'webhook-worker': 3002 }[e.APP]; fetch('http://127.0.0.1:' + port + '/health', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Migrate, then exec so that node replaces the shell and receives SIGTERM itself.
CMD ["sh", "-c", "node -r ./tools/runtime/register-paths.js \"dist/apps/$APP/src/migrate.js\" && exec node -r ./tools/runtime/register-paths.js \"dist/apps/$APP/src/main.js\""]
