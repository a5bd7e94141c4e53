#!/usr/bin/env bash
# Sets up a Docker engine on a Debian 12 machine like the ones cfn-local is built on, for the container tests
# (.ci/run) and for anyone who wants `docker build .` to work there: installs Debian's docker.io, docker-compose
# (v1) and debootstrap when missing, starts dockerd when no engine answers, and makes sure the base images the
# Dockerfile names exist. When Docker Hub cannot be reached, it builds stand-ins for them:
#   debian:bookworm-slim   a `debootstrap --variant=minbase bookworm` root file system from the Debian mirror apt on
#                          this machine uses, without docs, man pages and locales, as Debian's slim images
#   node:20-bookworm-slim  that plus this machine's own Node 20 and npm, and a `node` user (uid 1000)
#   node:20-bookworm       that plus python3, make, g++ and Node's headers, with npm set to build native addons
#                          from those headers (nodedir), as this machine's npm is
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
DEBIAN_SLIM=debian:${SUITE}-slim
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

# What Debian's official slim images leave out (docs, man pages, locales), so the stand-in weighs what they weigh.
SLIM_DPKG_EXCLUDES='path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-exclude /usr/share/lintian/*'

build_debian_standin() {
  local root=$SCRATCH/rootfs mirror
  mirror=$(debian_mirror)
  rm -rf "$root" && mkdir -p "$SCRATCH/debs"
  say "debootstrap --variant=minbase $SUITE from $mirror"
  debootstrap --variant=minbase --cache-dir="$SCRATCH/debs" "$SUITE" "$root" "$mirror" >"$SCRATCH/debootstrap.log" 2>&1 ||
    { tail -n 30 "$SCRATCH/debootstrap.log" >&2; return 1; }
  echo "$SLIM_DPKG_EXCLUDES" > "$root/etc/dpkg/dpkg.cfg.d/docker-slim"
  find "$root/usr/share/doc" -mindepth 2 ! -name copyright ! -type d -delete 2>/dev/null || true
  rm -rf "$root"/usr/share/{man,info,locale,lintian}/* "$root"/var/cache/apt/*.bin "$root"/var/lib/apt/lists/* "$root"/tmp/*
  chroot "$root" apt-get clean
  tar -C "$root" -c . | docker import \
    -c 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' -c 'CMD ["bash"]' \
    -c 'LABEL cfn-local.standin=true' - "$DEBIAN_SLIM" >/dev/null
  rm -rf "$root"
}

# This machine's Node and npm, where the official images keep them (/usr/local), and their `node` user (uid 1000).
build_node_slim_standin() {
  local context=$SCRATCH/node-slim node npm_dir cafile
  rm -rf "$context" && mkdir -p "$context/cafile"
  node=$(readlink -f "$(command -v node)")
  npm_dir=$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")
  cp "$node" "$context/node"
  cp -a "$npm_dir" "$context/npm"
  npm_settings > "$context/npmrc"
  # npm may name a CA bundle (cafile): the image gets this machine's, at the same path.
  cafile=$(npm config get cafile 2>/dev/null || true)
  if [ -n "$cafile" ] && [ "$cafile" != null ] && [ -f "$cafile" ]; then
    mkdir -p "$context/cafile$(dirname "$cafile")" && cp "$cafile" "$context/cafile$cafile"
  fi
  printf '%s\n' "FROM $DEBIAN_SLIM" \
    'COPY node /usr/local/bin/node' \
    'COPY npm /usr/local/lib/node_modules/npm' \
    'COPY npmrc /usr/local/etc/npmrc' \
    'COPY cafile/ /' \
    'RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \' \
    ' && groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node' \
    'CMD ["node"]' > "$context/Dockerfile"
  docker build -q -t "$SLIM" "$context" >/dev/null
  rm -rf "$context"
}

build_full_standin() {
  local context=$SCRATCH/full
  rm -rf "$context" && mkdir -p "$context"
  cp -a "$(dirname "$(readlink -f "$(command -v node)")")/../include/node" "$context/include-node"
  printf '%s\n' "FROM $SLIM" \
    'RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends python3 make g++ >/dev/null \' \
    ' && apt-get clean && rm -rf /var/lib/apt/lists/*' \
    'COPY include-node /usr/local/include/node' > "$context/Dockerfile"
  docker build -q -t "$FULL" "$context" >/dev/null
  rm -rf "$context"
}

# Each image the Dockerfile names: kept if present, pulled if Docker Hub answers, else a stand-in built here.
ensure_image() {
  local image=$1 builder=$2
  if image_present "$image" || can_pull "$image"; then say "$image is there"; else timed "stand-in $image" "$builder"; fi
}

base_images() {
  ensure_image "$DEBIAN_SLIM" build_debian_standin
  ensure_image "$SLIM" build_node_slim_standin
  ensure_image "$FULL" build_full_standin
}

[ "$(id -u)" -eq 0 ] || { say 'run as root (apt-get, dockerd, debootstrap)'; exit 1; }
timed 'packages' install_packages
timed 'engine' start_engine
timed 'base images' base_images
