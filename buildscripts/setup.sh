#!/usr/bin/env bash
# Idempotent setup for a fresh Debian 12 machine (run as root):
#   Debian packages, WiredTiger 11.3.1 (with buildscripts/patches) into a versioned cache outside the repo,
#   mongosh 2.x from npm, and a Python venv with pymongo and pytest.
# Every step checks whether its result is already there, so re-running is cheap.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DEPS="${MONGO_DEDUP_DEPS:-/opt/mongo-dedup-deps}"
WT_VERSION=11.3.1
# Our patches to WiredTiger (buildscripts/patches); bump WT_PATCH_LEVEL when they change so
# that every machine builds the new library into a new cache directory.
WT_PATCH_LEVEL=1
WT_PREFIX="$DEPS/wiredtiger-$WT_VERSION-p$WT_PATCH_LEVEL"
TOOLS="$DEPS/tools-v1"          # mongosh + python venv
log() { printf '[setup] %s\n' "$*" >&2; }

PKGS=(build-essential scons cmake ninja-build pkg-config python3-venv python3-pip
      libmongoc-dev libbson-dev libsnappy-dev libzstd-dev zlib1g-dev liblz4-dev
      libboost-all-dev libmurmurhash-dev libgtest-dev libyaml-cpp-dev libpcre2-dev
      libgoogle-perftools-dev libssl-dev libidn-dev libicu-dev patch zstd nodejs npm clang libclang-rt-14-dev xdelta3 tzdata)

missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# nodejs/npm may come from outside Debian (preinstalled); accept working binaries.
if command -v node >/dev/null && command -v npm >/dev/null; then
  missing=("${missing[@]/nodejs}"); missing=("${missing[@]/npm}")
fi
read -ra missing <<< "${missing[*]:-}"
if [ ${#missing[@]} -gt 0 ]; then
  log "installing Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

mkdir -p "$DEPS"
if [ ! -f "$WT_PREFIX/.complete" ]; then
  log "building WiredTiger $WT_VERSION into $WT_PREFIX (about 11 minutes on 2 cores)"
  work="$(mktemp -d)"
  ( cd "$work"
    python3 -m pip download -q --no-deps --no-binary :all: "wiredtiger==$WT_VERSION"
    tar xzf "wiredtiger-$WT_VERSION.tar.gz"
    src="wiredtiger-$WT_VERSION"
    [ -f "$src/CMakeLists.txt" ] || { echo "WiredTiger source tree not found in sdist" >&2; exit 1; }
    for p in "$REPO"/buildscripts/patches/wiredtiger-"$WT_VERSION"-*.patch; do
      patch -s -d "$src" -p1 < "$p"
    done
    mkdir -p "$src/cmake_build" && cd "$src/cmake_build"
    cmake -G Ninja -DCMAKE_BUILD_TYPE=Release -DENABLE_STRICT=0 -DENABLE_PYTHON=0 \
      -DENABLE_SNAPPY=1 -DENABLE_ZSTD=1 -DENABLE_ZLIB=1 -DENABLE_LZ4=1 -DHAVE_UNITTEST=0 \
      -DCMAKE_INSTALL_PREFIX="$WT_PREFIX" .. > cmake.log 2>&1 || { tail -40 cmake.log >&2; exit 1; }
    ninja -j2 >/dev/null
    ninja install >/dev/null )
  rm -rf "$work"
  touch "$WT_PREFIX/.complete"
fi

mkdir -p "$TOOLS"
if [ ! -x "$TOOLS/node_modules/.bin/mongosh" ]; then
  log "installing mongosh 2.x from npm"
  ( cd "$TOOLS" && npm install --silent --no-audit --no-fund mongosh@2 >/dev/null )
fi
if [ ! -x "$TOOLS/venv/bin/pytest" ] ||
   ! "$TOOLS/venv/bin/python" -c 'import pymongo, pytest_timeout, zstandard, snappy, backports.zstd' 2>/dev/null; then
  log "creating the Python venv (pymongo, pytest)"
  python3 -m venv "$TOOLS/venv"
  # pymongo >= 4.13 uses backports.zstd (before Python 3.14) for zstd wire compression.
  "$TOOLS/venv/bin/pip" install -q 'pymongo>=4.8,<5' pytest pytest-timeout zstandard backports.zstd python-snappy matplotlib
fi

# pymongo's own test suite, of the version the venv has (the driver_transactions suite runs
# its transactions specification tests against a replica set of ours): its source distribution,
# unpacked, never modified.
PYMONGO_VERSION="$("$TOOLS/venv/bin/python" -c 'import pymongo; print(pymongo.version)')"
PYMONGO_SRC="$TOOLS/pymongo-src-$PYMONGO_VERSION"
if [ ! -f "$PYMONGO_SRC/test/unified_format.py" ]; then
  log "fetching pymongo $PYMONGO_VERSION's test suite (its source distribution)"
  dl="$(mktemp -d)"
  "$TOOLS/venv/bin/pip" download -q --no-binary :all: --no-deps "pymongo==$PYMONGO_VERSION" -d "$dl"
  mkdir -p "$PYMONGO_SRC.tmp"
  tar xzf "$dl"/pymongo-*.tar.gz -C "$PYMONGO_SRC.tmp" --strip-components=1
  rm -rf "$PYMONGO_SRC" "$dl" && mv "$PYMONGO_SRC.tmp" "$PYMONGO_SRC"
fi

# A file the build and the test runner read to find the dependencies.
cat > "$REPO/build.env" <<ENV
WT_PREFIX=$WT_PREFIX
MONGOSH=$TOOLS/node_modules/.bin/mongosh
PYTHON=$TOOLS/venv/bin/python
PYMONGO_SRC=$PYMONGO_SRC
ENV
log "ready: WiredTiger in $WT_PREFIX, tools in $TOOLS"
