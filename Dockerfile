# pegas-memory in a container: MCP over Streamable HTTP at :8765/mcp, plus /healthz, /readyz, /metrics.
#   docker build -t pegas-memory .
#   docker run -d -p 127.0.0.1:8765:8765 -e PEGAS_HTTP_TOKEN="$(openssl rand -hex 32)" \
#     -e PEGAS_DATABASE_URL=postgres://… -v pegas-data:/var/lib/pegas-memory pegas-memory
# The server listens on 0.0.0.0 inside the container, which is beyond loopback: it refuses to start without
# PEGAS_HTTP_TOKEN (>= 16 characters); clients send it as "Authorization: Bearer <token>". Every variable of
# deploy/pegas-memory.env can be passed with -e. Without PEGAS_DATABASE_URL the embedded database lives in the volume.

# ---- build: Node.js + npm bring Bun (the npm package `bun`) and compile one executable ----
FROM node:22-bookworm AS build
WORKDIR /src
COPY package.json package-lock.json ./
COPY patches ./patches
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY migrations ./migrations
COPY src ./src
RUN npm run build && ./dist/pegas-memory --version

# ---- runtime: the executable alone; it needs glibc only (ldd: libc, libpthread, libdl, libm) ----
FROM debian:bookworm-slim
RUN useradd --system --uid 10001 --user-group --home-dir /var/lib/pegas-memory --no-create-home \
      --shell /usr/sbin/nologin pegas-memory \
 && install -d -o pegas-memory -g pegas-memory -m 0700 /var/lib/pegas-memory
COPY --from=build /src/dist/pegas-memory /usr/local/bin/pegas-memory
USER pegas-memory
WORKDIR /var/lib/pegas-memory
ENV HOME=/var/lib/pegas-memory \
    PEGAS_DATA_DIR=/var/lib/pegas-memory \
    PEGAS_HTTP=0.0.0.0:8765
VOLUME ["/var/lib/pegas-memory"]
EXPOSE 8765
# `healthcheck` GETs /healthz of the address in PEGAS_HTTP and exits 0 or 1.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 CMD ["pegas-memory", "healthcheck"]
# SIGTERM: in-flight calls get their grace, the embedded database closes cleanly (docker stop waits 10 s).
STOPSIGNAL SIGTERM
ENTRYPOINT ["pegas-memory"]
CMD ["serve"]
