#!/usr/bin/env bash
# Prints the path of a folder holding `pulumi-language-yaml` (the Pulumi YAML language host),
# building it from Go modules when the cache has none.
#
#   yaml.sh              the folder (name it in Pulumi.yaml: plugins: languages: [{name: yaml, path: <it>}])
#   --find-only          exit 1 instead of building
#
# The cache lives outside the clone, keyed by version, so a fresh clone on the same machine reuses
# it: ${VMAPI_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-vmapi}/pulumi-language-yaml-<version>/
# A cold build takes about 2 minutes on 2 busy cores (downloads included).
#
# Why build: the CLI built by build.sh ships no language hosts, and the vendor's plugin downloads
# are out of reach. pulumi-yaml's module has no replace directives, so `go install module@version`
# builds it without a wrapper module.
set -euo pipefail

VERSION=v1.25.0
FIND_ONLY=0
for arg in "$@"; do
  case "$arg" in
    --find-only) FIND_ONLY=1 ;;
    *) echo "usage: yaml.sh [--find-only]" >&2; exit 2 ;;
  esac
done

CACHE="${VMAPI_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-vmapi}"
DIR="$CACHE/pulumi-language-yaml-$VERSION"

if [[ -x "$DIR/pulumi-language-yaml" ]]; then echo "$DIR"; exit 0; fi
if ((FIND_ONLY)); then exit 1; fi

mkdir -p "$CACHE"
# The same lock as build.sh: one Go build at a time per cache, since two at once on 2 cores take
# longer than one after the other.
exec 9>"$CACHE/build.lock"
flock 9
if [[ -x "$DIR/pulumi-language-yaml" ]]; then echo "$DIR"; exit 0; fi

echo "building pulumi-language-yaml $VERSION from Go modules into $DIR (first time only: about 2 minutes)" >&2
start=$(date +%s)
# Install into a temporary folder and rename it, so a killed build leaves no half-written binary.
rm -rf "$DIR.tmp"
GOBIN="$DIR.tmp" CGO_ENABLED=0 \
  go install -trimpath "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml@$VERSION" >&2
mv "$DIR.tmp" "$DIR"
echo "built pulumi-language-yaml $VERSION in $(($(date +%s) - start)) s" >&2
echo "$DIR"
