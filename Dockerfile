# One image for every app; docker-compose.yml picks the process with `command`.
# Node 22 (LTS); pnpm and turbo pinned to the versions the repository uses.
FROM node:22-bookworm-slim AS base
ENV PNPM_HOME=/pnpm PATH=/pnpm:$PATH
RUN npm install -g pnpm@10.34.9 turbo@2.11.11

# Only the workspace packages the apps need (turbo prune), so unrelated changes keep the layer cache.
FROM base AS pruner
WORKDIR /app
COPY . .
RUN turbo prune @rag/gateway @rag/worker @rag/watcher @rag/supervisor @rag/web --docker

FROM base AS installer
WORKDIR /app
COPY --from=pruner /app/out/json/ .
RUN pnpm install --frozen-lockfile
COPY --from=pruner /app/out/full/ .
# The web app the gateway serves at / (apps/web/dist), then production dependencies only.
RUN pnpm --filter @rag/web build && pnpm install --frozen-lockfile --prod --offline

# Run time: production dependencies and the sources. The apps run their TypeScript through tsx
# (a production dependency): the workspace packages export their sources, and Node's own type
# stripping does not take constructor parameter properties, which the code uses.
FROM node:22-bookworm-slim AS runner
WORKDIR /app
ENV NODE_ENV=production
COPY --from=installer /app .
COPY data/sample ./data/sample
COPY scripts/healthcheck.mjs scripts/install-ocr.sh ./scripts/
# OCR of scanned PDF pages and images (worker-parse, worker-ocr): tesseract with Japanese (horizontal and
# vertical), English and orientation detection, pdftoppm,
# and tiffsplit for multi-page TIFFs.
# git and ssh for Git sources (the watcher fetches repositories over https, ssh or from a path).
RUN bash scripts/install-ocr.sh \
    && apt-get update -qq && apt-get install -y -qq --no-install-recommends git openssh-client ca-certificates >/dev/null \
    && rm -rf /var/lib/apt/lists/*
RUN useradd --system --uid 1001 rag && mkdir -p /app/data/inbox /app/models && chown -R rag /app/data /app/models
USER rag
# Workers and the watcher: their LIVENESS_FILE; the gateway: its /healthz URL given as the argument (docker-compose.yml).
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=4 CMD ["node", "scripts/healthcheck.mjs"]
CMD ["node", "--import", "tsx", "apps/gateway/src/main.ts"]
