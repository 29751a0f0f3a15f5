#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine (buildscripts/setup.sh), builds everything (scons -j2)
# and runs every test suite with buildscripts/resmoke.py. Arguments go to resmoke.py, e.g.
#   bash buildscripts/test.sh --suites core,pymongo
#   bash buildscripts/test.sh jstests/core/indexes.js
# The last line printed is resmoke's `N passed, N failed`; the exit code is non-zero when a
# test failed, no test ran, or the build failed.
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO"

bash buildscripts/setup.sh
echo "[test] building with scons -j2" >&2
scons -j2 -Q

PYTHON="$(sed -n 's/^PYTHON=//p' build.env)"
exec "${PYTHON:-python3}" buildscripts/resmoke.py "$@"
