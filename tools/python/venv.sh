#!/usr/bin/env bash
# Prints the path of a Python interpreter whose venv has the `pulumi` Python SDK, creating the venv
# once when the cache has none.
#
#   venv.sh              the venv's bin/python (for Automation API programs: `import pulumi.automation`)
#   --find-only          exit 1 instead of creating it
#
# The venv holds exactly ./requirements.txt (the SDK and its dependencies, pinned; the SDK's
# version is the newest the package index serves at or below the CLI's, tools/pulumi-cli/go.mod).
# It lives outside the clone, keyed by that version, so a fresh clone reuses it:
# ${VMAPI_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-vmapi}/python-pulumi-<version>/
# A copy of requirements.txt inside marks a finished install; a different one rebuilds the venv.
# Needs python3 (3.9 or newer) with the venv module; grpcio comes as a binary wheel
# (how long the first time takes: CONTRIBUTING.md, "Built once").
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
source "$HERE/../cache.sh"
cache_options venv.sh "$@"

REQS="$HERE/requirements.txt"
VERSION="$(awk -F'==' '$1 == "pulumi" { print $2; exit }' "$REQS")"
[[ -n "$VERSION" ]] || { echo "no pulumi==<version> in $REQS" >&2; exit 1; }
VENV="$CACHE/python-pulumi-$VERSION"

cache_requirements_venv "$VENV" "$REQS" python "the pulumi Python SDK $VERSION"
