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

cache_requirements_venv "$VENV" "$REQS" schemathesis "Schemathesis $VERSION"
