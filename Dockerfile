# Slabdesk: the dashboard's server (the page, the API proxy that holds the key, the webhook door).
# Build: docker build -t slabdesk .   Run: see docs/deploy.md.

# 1. Dependencies with the native SQLite module compiled, the page's bundle and the compiled
#    server (dist/server.js, dist/users.js). Node 24: the active LTS line.
FROM node:24-bookworm AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

# 2. What runs: no compiler, no dev dependencies, not root.
FROM node:24-bookworm-slim AS run
ENV NODE_ENV=production \
    SLABDESK_USERS_DB=/data/users.db \
    SLABDESK_ACTIVITY_DB=/data/activity.db \
    SLABDESK_HUB_DB=/data/hub.db \
    SLABDESK_SANDBOX_DB=/data/sandbox.db \
    SLABDESK_WEBHOOK_PORT=4174
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
RUN mkdir -p /data /app/.sandbox && chown node:node /data /app/.sandbox
USER node
VOLUME ["/data"]
# 4173: the dashboard (sign-in required: add an account first). 4174: webhook deliveries only.
EXPOSE 4173 4174
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:4173/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "dist/server.js", "--host", "0.0.0.0", "--port", "4173", "--strictPort"]
