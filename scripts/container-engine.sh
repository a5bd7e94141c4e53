#!/usr/bin/env bash
# Sets up a Docker engine on a Debian 12 machine like the ones cfn-local is built on, for the container tests
# (.ci/run) and for anyone who wants `docker build .` to work there: installs Debian's docker.io, docker-compose
# (v1) and debootstrap when missing, starts dockerd when no engine answers, and makes sure the base images the
# Dockerfile names exist. When Docker Hub cannot be reached, it builds stand-ins for them:
#   node:20-bookworm-slim  a `debootstrap --variant=minbase bookworm` root file system from the Debian mirror apt on
#                          this machine uses, plus this machine's own Node 20 and npm, and a `node` user (uid 1000)
#   node:20-bookworm       the same plus python3, make, g++ and Node's headers, with npm set to build native
#                          addons from those headers (nodedir), as this machine's npm is
# The mirror and the npm settings are read from this machine's own apt and npm configuration and go only into the
# local stand-in images, never into the repository. Safe to run again: each step is skipped when already done.
#
# Usage: scripts/container-engine.sh        (as root; prints how long each step took)
# Environment: CFN_LOCAL_DOCKERD_LOG (default /var/log/cfn-local-dockerd.log),
#              CFN_LOCAL_STANDIN_DIR (scratch space for the root file system, default /var/tmp/cfn-local-standin),
#              CFN_LOCAL_PULL_TIMEOUT (seconds to try a real pull, default 30).
set -euo pipefail

NODE_MAJOR=20
SUITE=bookworm
SLIM=node:${NODE_MAJOR}-${SUITE}-slim
FULL=node:${NODE_MAJOR}-${SUITE}
DOCKERD_LOG=${CFN_LOCAL_DOCKERD_LOG:-/var/log/cfn-local-dockerd.log}
SCRATCH=${CFN_LOCAL_STANDIN_DIR:-/var/tmp/cfn-local-standin}
PULL_TIMEOUT=${CFN_LOCAL_PULL_TIMEOUT:-30}

say() { echo "[container-engine] $*" >&2; }
timed() { # timed LABEL COMMAND...: runs the command and says how long it took
  local label=$1 start=$SECONDS
  shift
  "$@"
  say "$label: $((SECONDS - start)) s"
}
engine_answers() { docker info >/dev/null 2>&1; }

install_packages() {
  local need=()
  command -v dockerd >/dev/null || need+=(docker.io)
  command -v docker-compose >/dev/null || need+=(docker-compose)
  command -v debootstrap >/dev/null || need+=(debootstrap)
  [ ${#need[@]} -eq 0 ] && return 0
  say "installing ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
}

start_engine() {
  engine_answers && { say 'a Docker engine already answers'; return 0; }
  say "starting dockerd (log: $DOCKERD_LOG)"
  # Debian's defaults (overlay2, cgroupfs, the default bridge) work here; setsid keeps it out of our process group.
  setsid dockerd >"$DOCKERD_LOG" 2>&1 < /dev/null &
  for _ in $(seq 1 120); do
    engine_answers && return 0
    sleep 0.5
  done
  say "dockerd did not answer within 60 s; the end of its log:"
  tail -n 30 "$DOCKERD_LOG" >&2
  return 1
}

# The first Debian mirror apt on this machine uses (deb822 .sources files, else the one-line format).
debian_mirror() {
  local uri
  uri=$(grep -hsE '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}' | grep -vE 'security' | head -n 1 || true)
  [ -n "$uri" ] || uri=$(grep -hsE '^deb\s' /etc/apt/sources.list /etc/apt/sources.list.d/*.list |
    awk '{for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) {print $i; exit}}' | grep -vE 'security' | head -n 1 || true)
  echo "${uri:-http://deb.debian.org/debian}"
}

# This machine's npm settings (global, then user file), with nodedir pointed at the headers inside the image.
npm_settings() {
  local file
  for file in "$(npm config get globalconfig 2>/dev/null)" "$(npm config get userconfig 2>/dev/null)"; do
    [ -f "$file" ] && grep -vE '^\s*(nodedir|prefix)\s*=' "$file" || true
  done
  echo 'nodedir=/usr/local'
}

image_present() { docker image inspect "$1" >/dev/null 2>&1; }
can_pull() { timeout "$PULL_TIMEOUT" docker pull -q "$1" >/dev/null 2>&1; }

# Node and npm of this machine, copied to where the official images keep them (/usr/local).
add_node() {
  local root=$1 node npm_dir
  node=$(readlink -f "$(command -v node)")
  npm_dir=$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")
  install -D -m 0755 "$node" "$root/usr/local/bin/node"
  mkdir -p "$root/usr/local/lib/node_modules" "$root/usr/local/include" "$root/usr/local/etc"
  cp -a "$npm_dir" "$root/usr/local/lib/node_modules/npm"
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
  ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
  npm_settings > "$root/usr/local/etc/npmrc"
  # npm may name a CA bundle (cafile): the image gets this machine's, at the same path.
  local cafile
  cafile=$(npm config get cafile 2>/dev/null || true)
  if [ -n "$cafile" ] && [ "$cafile" != null ] && [ -f "$cafile" ]; then install -D -m 0644 "$cafile" "$root$cafile"; fi
  chroot "$root" groupadd --gid 1000 node
  chroot "$root" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
}

build_slim_standin() {
  local root=$SCRATCH/rootfs mirror
  mirror=$(debian_mirror)
  rm -rf "$root" && mkdir -p "$SCRATCH/debs"
  say "debootstrap --variant=minbase $SUITE from $mirror"
  debootstrap --variant=minbase --cache-dir="$SCRATCH/debs" "$SUITE" "$root" "$mirror" >"$SCRATCH/debootstrap.log" 2>&1 ||
    { tail -n 30 "$SCRATCH/debootstrap.log" >&2; return 1; }
  add_node "$root"
  chroot "$root" apt-get clean
  rm -rf "$root"/var/lib/apt/lists/* "$root"/tmp/* "$root"/root/.npm
  tar -C "$root" -c . | docker import \
    -c 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' -c 'CMD ["node"]' \
    -c 'LABEL cfn-local.standin=true' - "$SLIM" >/dev/null
  rm -rf "$root"
}

build_full_standin() {
  local context=$SCRATCH/full
  rm -rf "$context" && mkdir -p "$context"
  cp -a "$(dirname "$(readlink -f "$(command -v node)")")/../include/node" "$context/include-node"
  cat > "$context/Dockerfile" <<EOF
FROM $SLIM
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends python3 make g++ >/dev/null \\
 && apt-get clean && rm -rf /var/lib/apt/lists/*
COPY include-node /usr/local/include/node
EOF
  docker build -q -t "$FULL" "$context" >/dev/null
  rm -rf "$context"
}

base_images() {
  if image_present "$SLIM" || can_pull "$SLIM"; then say "$SLIM is there"; else timed "stand-in $SLIM" build_slim_standin; fi
  if image_present "$FULL" || can_pull "$FULL"; then say "$FULL is there"; else timed "stand-in $FULL" build_full_standin; fi
}

[ "$(id -u)" -eq 0 ] || { say 'run as root (apt-get, dockerd, debootstrap)'; exit 1; }
timed 'packages' install_packages
timed 'engine' start_engine
timed 'base images' base_images
