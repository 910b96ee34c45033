# One image for every app; docker-compose.yml picks the process with `command`.
FROM node:20-bookworm-slim AS base
ENV PNPM_HOME=/pnpm PATH=/pnpm:$PATH
RUN npm install -g pnpm@10 turbo@2

# Only the workspace packages the apps need (turbo prune), so unrelated changes keep the layer cache.
FROM base AS pruner
WORKDIR /app
COPY . .
RUN turbo prune @rag/gateway @rag/worker-parse @rag/worker-chunk @rag/worker-embed @rag/worker-store \
    @rag/worker-retrieve @rag/worker-rerank @rag/worker-llm @rag/watcher @rag/supervisor @rag/web --docker

FROM base AS installer
WORKDIR /app
COPY --from=pruner /app/out/json/ .
RUN pnpm install --frozen-lockfile
COPY --from=pruner /app/out/full/ .
# The web app the gateway serves at / (apps/web/dist).
RUN pnpm --filter @rag/web build

FROM node:20-bookworm-slim AS runner
WORKDIR /app
ENV NODE_ENV=production
COPY --from=installer /app .
COPY data/sample ./data/sample
RUN useradd --system --uid 1001 rag && mkdir -p /app/data /app/models && chown -R rag /app/data /app/models
USER rag
CMD ["node", "--import", "tsx", "apps/gateway/src/main.ts"]
