# syntax=docker/dockerfile:1
# One image per component, all from this file:
#   docker build --target <gateway|keys|memories|tags|search|webhooks> -t memory-service/<name> .
# The components share code and node_modules; each final stage only sets its entry point, so the
# shared layers are built and stored once.

# 1. Production dependencies, exactly as package-lock.json pins them (Bun's image has no npm).
FROM node:22-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# No production dependency needs an install script, so none is run.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund

# 2. The offline model's weight-product kernel (services/search/embedder/dense.c): an AVX-512 and an
#    AVX2 variant, each chosen by a target attribute in the file, so no -m flag. The search service
#    checks the CPU before calling one, so the image still runs on nodes with neither (OpenBLAS then
#    does the products).
FROM debian:bookworm-slim AS kernel
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev && rm -rf /var/lib/apt/lists/*
COPY services/search/embedder/dense.c /src/dense.c
RUN gcc -O3 -shared -fPIC -o /src/dense.so /src/dense.c

# 3. The browser assets (the dashboard, GraphiQL, the /docs page), bundled once with Bun.build from
#    dashboard/ and the front-end packages (development dependencies): the runtime image carries
#    neither, and the gateway reads the result at start (WEB_ASSETS_DIR) instead of bundling.
FROM node:22-bookworm-slim AS devdeps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund

FROM oven/bun:1.4-slim AS web
WORKDIR /app
COPY --from=devdeps /app/node_modules ./node_modules
COPY package.json tsconfig.json ./
COPY gateway ./gateway
COPY dashboard ./dashboard
RUN bun gateway/web/build.ts /app/web

# 4. Runtime: Bun's official image with the code and production node_modules, owned by root and
#    only readable by the app user, so it runs with a read-only root filesystem (/tmp is the one
#    writable place: an emptyDir in Kubernetes, a tmpfs in docker-compose).
FROM oven/bun:1.4-slim AS runtime
WORKDIR /app
ENV NODE_ENV=production \
    LOG_LEVEL=info \
    DATA_DIR=/tmp/data \
    HOME=/tmp \
    BUN_RUNTIME_TRANSPILER_CACHE_PATH=0
COPY --from=deps /app/node_modules ./node_modules
COPY package.json tsconfig.json ./
COPY services ./services
COPY gateway ./gateway
USER 10001:10001

FROM runtime AS gateway
COPY --from=web /app/web ./web
ENV WEB_ASSETS_DIR=/app/web
EXPOSE 3000
CMD ["bun", "gateway/main.ts"]

FROM runtime AS keys
CMD ["bun", "services/keys/main.ts"]

FROM runtime AS memories
CMD ["bun", "services/memories/main.ts"]

FROM runtime AS tags
CMD ["bun", "services/tags/main.ts"]

FROM runtime AS webhooks
CMD ["bun", "services/webhooks/main.ts"]

FROM runtime AS search
# OpenBLAS and the kernel run the offline model's products (~3× and ~6× faster than tfjs's
# WASM kernels).
USER root
RUN apt-get update && apt-get install -y --no-install-recommends libopenblas0-pthread && rm -rf /var/lib/apt/lists/*
COPY --from=kernel /src/dense.so /app/lib/dense.so
ENV EMBEDDINGS_KERNEL=/app/lib/dense.so
USER 10001:10001
CMD ["bun", "services/search/main.ts"]
