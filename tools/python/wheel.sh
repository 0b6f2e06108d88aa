#!/usr/bin/env bash
# Prints a folder holding the Python SDK (sdk/python) built as a wheel and an sdist by the standard
# build front end (`python -m build`, pinned in requirements-build.txt), building them when the
# cache has none for this source.
#
#   wheel.sh             the folder: pulumi_vmapi-<version>-py3-none-any.whl, pulumi_vmapi-<version>.tar.gz
#   --find-only          exit 1 instead of building
#
# The build runs on a copy of sdk/python (setuptools writes build/ and *.egg-info beside the
# sources); `build` makes its isolated environment with setuptools from the package index.
# The cache lives outside the clone: the front end's venv keyed by its pinned requirements,
# ${VMAPI_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-vmapi}/python-build-<digest>/, and the
# packages keyed by a digest of sdk/python's files, .../python-dist-<digest>/.
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
SDK="$(cd "$HERE/../../sdk/python" && pwd)"
source "$HERE/../cache.sh"
cache_options wheel.sh "$@"

REQS="$HERE/requirements-build.txt"
TOOL="$CACHE/python-build-$(sha256sum <"$REQS" | cut -c1-12)"
files() {
  (cd "$SDK" && find . -type f -not -path '*/__pycache__/*' -not -path './build/*' \
    -not -path '*.egg-info/*' -not -path './dist/*' | LC_ALL=C sort)
}
DIGEST="$( (cd "$SDK" && files | while read -r f; do echo "$f"; cat "$f"; done) | sha256sum | cut -c1-12)"
DIST="$CACHE/python-dist-$DIGEST"

built() { compgen -G "$DIST/*.whl" >/dev/null && compgen -G "$DIST/*.tar.gz" >/dev/null; }
cache_found "$DIST" built
cache_lock python.lock "$DIST" built

start=$(date +%s)
if ! [[ -x "$TOOL/bin/python" ]]; then
  echo "creating the build front end's venv in $TOOL" >&2
  rm -rf "$TOOL.tmp"
  python3 -m venv "$TOOL.tmp"
  "$TOOL.tmp/bin/python" -m pip install --quiet --no-input --disable-pip-version-check -r "$REQS" >&2
  mv "$TOOL.tmp" "$TOOL"
fi
echo "building the Python SDK's wheel and sdist (python -m build) into $DIST" >&2
work="$(mktemp -d)"
trap 'rm -rf "$work" "$DIST.tmp"' EXIT
mkdir "$work/src"
(cd "$SDK" && files | while read -r f; do mkdir -p "$work/src/$(dirname "$f")"; cp "$f" "$work/src/$f"; done)
"$TOOL/bin/python" -m build --outdir "$DIST.tmp" "$work/src" >&2
mv "$DIST.tmp" "$DIST"
echo "built them in $(($(date +%s) - start)) s" >&2
echo "$DIST"
