# cfn-local image: a build stage with dev dependencies compiles dist/ and generated/; a slim Node 20 runtime runs it as a non-root user.
# Documented in docs/container.md; test/e2e/startCommand.test.ts runs this file's CMD and HEALTHCHECK outside Docker.

# Both stages use the same Node 20 release on Debian bookworm (glibc), so better-sqlite3's native addon built here loads there.
FROM node:20-bookworm AS build
WORKDIR /app
COPY package.json package-lock.json ./
# Node 20's npm 10 ignores package.json "allowScripts", so install with no scripts and build only better-sqlite3
# (a prebuilt binary when one downloads, else node-gyp with the python3/make/g++ this full image ships).
# `npm install` rather than `npm ci`: vite (under vitest) names a Windows-only optional package that some registries
# do not serve, and `npm ci` then refuses the lock file as out of sync; install still follows the lock.
RUN npm install --ignore-scripts --no-audit --no-fund && npm rebuild better-sqlite3
COPY . .
# generated/*.json come from dev dependencies (the SDK's model, the resource spec): build first, then drop dev deps.
RUN npm run build && npm prune --omit=dev --ignore-scripts --no-audit --no-fund

FROM node:20-bookworm-slim
# AWS's SAM translator for Transform: AWS::Serverless-2016-10-31 (docs/template-language.md#sam), in its own virtualenv
# whose python3 comes first on PATH. On by default; a build that cannot reach PyPI passes --build-arg SAM_TRANSLATOR=false
# (SAM templates are then refused, naming the pip install).
ARG SAM_TRANSLATOR=true
RUN if [ "$SAM_TRANSLATOR" = "true" ]; then \
      apt-get update && apt-get install -y --no-install-recommends python3 python3-venv && rm -rf /var/lib/apt/lists/* \
      && python3 -m venv /opt/sam && /opt/sam/bin/pip install --no-cache-dir aws-sam-translator \
      && ln -s /opt/sam/bin/python3 /usr/local/bin/python3; \
    fi
ENV NODE_ENV=production \
    CFN_LOCAL_HOST=0.0.0.0 \
    CFN_LOCAL_PORT=4581 \
    CFN_LOCAL_DB=/data/cfn.db
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/generated ./generated
COPY --from=build /app/dist ./dist
# The app stays root-owned and read-only; only /data belongs to the unprivileged "node" user (uid 1000) of the base image.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 4581
# Slim images have no curl: ask Node's fetch. Reads CFN_LOCAL_PORT so a changed port keeps the check right.
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.CFN_LOCAL_PORT || 4581) + '/_cfn-local/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/cfn-local.cjs"]
