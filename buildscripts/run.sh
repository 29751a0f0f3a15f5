#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine (buildscripts/setup.sh), builds (scons -j2) and starts
# mongod in the foreground with storage-level deduplication on 127.0.0.1:27017.
# Data lives in ${MONGOD_DBPATH:-$HOME/.mongod-dedup/data}; extra arguments go to mongod,
# e.g. `bash buildscripts/run.sh --quiet`; MONGOD_PORT changes the port. Stop it with Ctrl-C (SIGINT) or SIGTERM.
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO"

bash buildscripts/setup.sh
echo "[run] building with scons -j2" >&2
scons -j2 -Q

DBPATH="${MONGOD_DBPATH:-$HOME/.mongod-dedup/data}"
mkdir -p "$DBPATH"
echo "[run] starting mongod --dedup on 127.0.0.1:${MONGOD_PORT:-27017}, dbpath $DBPATH" >&2
exec "$REPO/build/install/bin/mongod" --dedup --dbpath "$DBPATH" --bind_ip 127.0.0.1 --port "${MONGOD_PORT:-27017}" "$@"
