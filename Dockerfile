# syntax=docker/dockerfile:1
#
# The product in a container (docs/deployment.md). Two stages:
# - build: every dependency (`npm ci`) and the prerendered site (`npm run build`);
# - runtime: the server's production dependencies only, its TypeScript sources run by tsx (as
#   `npm run serve` does), the migrations (applied at every start), the fonts the banners are drawn
#   with and the built site; runs as the unprivileged `node` user, data in the /data volume.
#
# Not built on the machines this repository is developed on (no container engine, no registry
# access): see "What was verified" in docs/deployment.md for what was run by hand instead.

ARG NODE_IMAGE=node:22-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
# Manifests first: the dependency layer is reused until one of them changes.
COPY package.json package-lock.json .npmrc ./
COPY packages/shared/package.json packages/shared/
COPY packages/skin/package.json packages/skin/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM ${NODE_IMAGE} AS runtime
WORKDIR /app
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
COPY package.json package-lock.json .npmrc ./
COPY packages/shared/package.json packages/shared/
COPY packages/skin/package.json packages/skin/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
# The server workspace's production dependencies (and @skanova/shared's). The on-device skin analysis
# comes along as a dependency of the shared package, but the server never loads it (an ESLint zone
# forbids the import): its model runtimes are removed.
RUN npm ci --omit=dev --workspace=@skanova/server --no-audit --no-fund \
 && rm -rf node_modules/@tensorflow node_modules/@vladmandic \
 && npm cache clean --force
COPY tsconfig.base.json ./
COPY packages/shared/tsconfig.json packages/shared/
COPY packages/shared/src packages/shared/src
COPY apps/server/tsconfig.json apps/server/
COPY apps/server/src apps/server/src
COPY apps/server/migrations apps/server/migrations
COPY apps/server/assets apps/server/assets
COPY --from=build /app/apps/web/build apps/web/build
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
# SIGTERM starts the graceful shutdown (docs/operations-processes.md); give it time to finish:
# `docker stop --time 40`, or `stop_grace_period` in compose.yaml.
STOPSIGNAL SIGTERM
# The health check asks /healthz and accepts only its 200 (no redirect is followed: an unknown page
# redirects to the home page, which must not pass for healthy). The image has no curl: Node asks.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz', { redirect: 'manual' }).then((r) => process.exit(r.status === 200 ? 0 : 1), () => process.exit(1))"]
CMD ["node", "--import", "tsx", "apps/server/src/main.ts"]
