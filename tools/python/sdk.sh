#!/usr/bin/env bash
# Prints a folder holding the Python SDK of this repository (sdk/python, package pulumi_vmapi) as
# pip installs it, for PYTHONPATH beside the venv of venv.sh; installs it when the cache has none.
#
#   sdk.sh               the folder (run programs with PYTHONPATH=<it> "$(bash venv.sh)" ...)
#   --find-only          exit 1 instead of installing
#
# The SDK is installed, not put on PYTHONPATH as source: it reads its own version from the
# installed package's metadata (that is the plugin version it asks the engine for). The install
# is `pip install --no-deps --target` of a copy of sdk/python (setuptools builds in the source
# folder), with the venv's pip; its dependencies are the venv's. pip fetches setuptools for the
# build from the package index (cached by pip after the first time).
# The cache lives outside the clone, keyed by a digest of sdk/python's files and the interpreter:
# ${VMAPI_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-vmapi}/python-sdk-<digest>/
# Seconds, after venv.sh (how long each takes the first time: CONTRIBUTING.md, "Built once").
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
SDK="$(cd "$HERE/../../sdk/python" && pwd)"
source "$HERE/../cache.sh"
cache_options sdk.sh "$@"

if ((FIND_ONLY)); then PYTHON="$(bash "$HERE/venv.sh" --find-only)"; else PYTHON="$(bash "$HERE/venv.sh")"; fi
# The SDK's files (what a pip build of a copy would leave in the source folder left out).
files() {
  (cd "$SDK" && find . -type f -not -path '*/__pycache__/*' -not -path './build/*' \
    -not -path '*.egg-info/*' -not -path './dist/*' | LC_ALL=C sort)
}
DIGEST="$( (echo "$PYTHON"; cd "$SDK" && files | while read -r f; do echo "$f"; cat "$f"; done) | sha256sum | cut -c1-12)"
DIR="$CACHE/python-sdk-$DIGEST"

cache_found "$DIR" test -d "$DIR/pulumi_vmapi"
cache_lock python.lock "$DIR" test -d "$DIR/pulumi_vmapi"

echo "installing the Python SDK (sdk/python) into $DIR" >&2
start=$(date +%s)
work="$(mktemp -d)"
# Installed beside its final place and renamed, so a killed install leaves no half-written folder.
site="$DIR.tmp.$$"
trap 'rm -rf "$work" "$site"' EXIT
mkdir "$work/src"
(cd "$SDK" && files | while read -r f; do mkdir -p "$work/src/$(dirname "$f")"; cp "$f" "$work/src/$f"; done)
"$PYTHON" -m pip install --quiet --no-input --disable-pip-version-check --no-deps \
  --target "$site" "$work/src" >&2
mv "$site" "$DIR"
echo "installed it in $(($(date +%s) - start)) s" >&2
echo "$DIR"
