# Venue Loyalty: one image for every process; ROLE=api, ROLE=worker or ROLE=all (the default) picks what it runs.
# Build: npm ci + npm run build (the server in dist/, the dashboard in web/dist). Runtime: production dependencies only.
# `npm ci --ignore-scripts`: package.json's `prepare` (the build a clone gets from `npm ci`) needs scripts/, src/ and
# web/, copied only later here, where `npm run build` builds; no dependency needs an install script (esbuild's is off).

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY src ./src
COPY web ./web
RUN npm run build

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/var/lib/venue-loyalty/data
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY --from=build /app/web/dist ./web/dist
# The wallet card's default icon (a pass needs one).
COPY assets ./assets
# The sources too, so that `npm run cli -- …` (node --import tsx src/cli.ts) works inside the container.
COPY tsconfig.json ./
COPY src ./src
# DATA_DIR is a folder inside the volume, not the mount point: `npm run cli -- restore` renames DATA_DIR.
RUN mkdir -p /var/lib/venue-loyalty/data && chown -R node:node /var/lib/venue-loyalty
USER node
VOLUME /var/lib/venue-loyalty
EXPOSE 3000
# Readiness: the database answers. A ROLE=worker container serves no HTTP; compose.yaml turns this off for it.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Exactly package.json's "start" (without its prestart build check: the image is built already).
CMD ["node", "--enable-source-maps", "--max-semi-space-size=4", "dist/main.js"]
