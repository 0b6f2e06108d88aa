#!/usr/bin/env bash
# Prints the path of the `schemathesis` command of a venv that holds exactly ./requirements.txt
# (Schemathesis and its dependencies, pinned), creating the venv once when the cache has none.
#
#   venv.sh              the venv's bin/schemathesis (for npm run fuzz, tools/fuzz/main.ts)
#   --find-only          exit 1 instead of creating it
#
# It lives outside the clone, keyed by Schemathesis' version, so a fresh clone reuses it:
# ${VMAPI_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-vmapi}/schemathesis-<version>/
# A copy of requirements.txt inside marks a finished install; a different one rebuilds the venv.
# Needs python3 (3.9 or newer) with the venv module (every package a wheel); how long the first
# time takes: CONTRIBUTING.md, "Built once".
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
source "$HERE/../cache.sh"
cache_options venv.sh "$@"

REQS="$HERE/requirements.txt"
VERSION="$(awk -F'==' '$1 == "schemathesis" { print $2; exit }' "$REQS")"
[[ -n "$VERSION" ]] || { echo "no schemathesis==<version> in $REQS" >&2; exit 1; }
VENV="$CACHE/schemathesis-$VERSION"

ready() { [[ -x "$VENV/bin/schemathesis" ]] && cmp -s "$REQS" "$VENV/requirements.txt"; }
cache_found "$VENV/bin/schemathesis" ready
cache_lock python.lock "$VENV/bin/schemathesis" ready

echo "creating a venv with Schemathesis $VERSION in $VENV (first time only: CONTRIBUTING.md, \"Built once\", says how long)" >&2
start=$(date +%s)
rm -rf "$VENV"
python3 -m venv "$VENV"
# --only-binary: jsonschema_rs built from source would need a Rust toolchain; a wheel or nothing.
"$VENV/bin/python" -m pip install --quiet --no-input --only-binary=:all: -r "$REQS" >&2
cp "$REQS" "$VENV/requirements.txt"
echo "created it in $(($(date +%s) - start)) s" >&2
echo "$VENV/bin/schemathesis"
