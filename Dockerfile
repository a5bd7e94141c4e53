# cfn-local image: a build stage with every dependency compiles dist/ and generated/; a slim Debian runtime with Node
# alone runs only the files the server needs (scripts/runtime-files.mjs) as a non-root user.
# Documented in docs/container.md. test/e2e/startCommand.test.ts runs this file's CMD and HEALTHCHECK outside
# Docker; test/container/ builds the image and runs it (.ci/run, after scripts/container-engine.sh).

# Both stages use the same Node 20 release on Debian bookworm (glibc), so better-sqlite3's native addon built here loads there.
FROM node:20-bookworm AS build
WORKDIR /app
# The package files alone first: this layer, the slow one, is reused until the lock file changes.
COPY package.json package-lock.json ./
# Node 20's npm 10 ignores package.json "allowScripts", so install with no scripts and build only better-sqlite3
# (a prebuilt binary when one downloads, else node-gyp with the python3/make/g++ this full image ships).
RUN npm ci --ignore-scripts --no-audit --no-fund && npm rebuild better-sqlite3
COPY . .
# generated/*.json come from dev dependencies (the SDK's model, the resource spec); the runtime gets none of them.
RUN npm run build && node scripts/runtime-files.mjs /runtime

# The runtime is Debian's slim image and Node alone, copied from the build stage (the same release, which built the
# native addon): no npm, yarn or corepack, which node:20-bookworm-slim would add.
FROM debian:bookworm-slim
COPY --from=build /usr/local/bin/node /usr/local/bin/node
# The unprivileged "node" user (uid 1000) of the Node images; only /data belongs to it, the app stays root-owned.
RUN groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node \
 && mkdir -p /data && chown node:node /data
# AWS's SAM translator for Transform: AWS::Serverless-2016-10-31 (docs/template-language.md#sam), in its own virtualenv
# whose python3 comes first on PATH. On by default; a build that cannot reach PyPI passes --build-arg SAM_TRANSLATOR=false
# (SAM templates are then refused, naming the pip install).
ARG SAM_TRANSLATOR=true
RUN if [ "$SAM_TRANSLATOR" = "true" ]; then \
      apt-get update && apt-get install -y --no-install-recommends python3 python3-venv && rm -rf /var/lib/apt/lists/* \
      && python3 -m venv /opt/sam && /opt/sam/bin/pip install --no-cache-dir aws-sam-translator \
      && ln -s /opt/sam/bin/python3 /usr/local/bin/python3; \
    fi
# openssl makes the certificate of the HTTPS ResponseURLs that functions' custom resource handlers PUT to
# (docs/lambda-runtime.md); python3, when the translator is in, runs python3* functions.
RUN apt-get update && apt-get install -y --no-install-recommends openssl && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    CFN_LOCAL_HOST=0.0.0.0 \
    CFN_LOCAL_PORT=4581 \
    CFN_LOCAL_DB=/data/cfn.db
WORKDIR /app
# The bundle, its code cache, generated/ and better-sqlite3's addon: ~6 MB, no node_modules tree.
COPY --from=build /runtime/ ./
USER node
VOLUME /data
EXPOSE 4581
# A check every 3 s makes the container healthy ~3 s after start (the server answers in under a second); it is
# cheap: bash's /dev/tcp, no curl in slim images and no Node process per check. It follows CFN_LOCAL_PORT.
# (Docker 25+ has --start-interval for a quick first check only; Debian 12's engine 20.10 refuses the flag.)
HEALTHCHECK --interval=3s --timeout=2s --start-period=10s --retries=3 \
  CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/${CFN_LOCAL_PORT:-4581} && printf 'GET /_cfn-local/health HTTP/1.0\\r\\n\\r\\n' >&3 && head -n 1 <&3 | grep -q ' 200 '"]
CMD ["node", "dist/cfn-local.cjs"]
