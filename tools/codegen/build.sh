#!/usr/bin/env bash
# Prints the path of the SDK code generator (main.go here), building it when the cache has none.
#
#   build.sh             the binary: run it as `codegen --schema <schema.json> --language go|python --out <dir>`
#   --find-only          exit 1 instead of building
#
# The cache lives outside the clone, keyed by the pkg/v3 version pinned in ./go.mod and a digest of
# go.mod, go.sum and main.go, so a fresh clone reuses it and any change to the source rebuilds:
# ${VMAPI_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-vmapi}/codegen-<version>-<digest>/bin/codegen
# A cold build takes about 5 minutes on 2 busy cores (seconds when the CLI's build left the Go build
# cache warm, since both compile the same pkg/v3).
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
FIND_ONLY=0
for arg in "$@"; do
  case "$arg" in
    --find-only) FIND_ONLY=1 ;;
    *) echo "usage: build.sh [--find-only]" >&2; exit 2 ;;
  esac
done

VERSION="$(awk '$1 == "github.com/pulumi/pulumi/pkg/v3" { print $2; exit }' "$HERE/go.mod")"
[[ -n "$VERSION" ]] || { echo "no github.com/pulumi/pulumi/pkg/v3 version in $HERE/go.mod" >&2; exit 1; }
DIGEST="$(cat "$HERE/go.mod" "$HERE/go.sum" "$HERE/main.go" | sha256sum | cut -c1-12)"
CACHE="${VMAPI_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-vmapi}"
BIN="$CACHE/codegen-$VERSION-$DIGEST/bin/codegen"

if [[ -x "$BIN" ]]; then echo "$BIN"; exit 0; fi
if ((FIND_ONLY)); then exit 1; fi

mkdir -p "$(dirname "$BIN")"
# The same lock as tools/pulumi-cli/build.sh: one Go build at a time per cache, since two at once
# on 2 cores take longer than one after the other.
exec 9>"$CACHE/build.lock"
flock 9
if [[ -x "$BIN" ]]; then echo "$BIN"; exit 0; fi

echo "building the SDK code generator (pkg/v3 $VERSION) into $BIN (first time only: about 5 minutes)" >&2
start=$(date +%s)
cd "$HERE"
CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$BIN.tmp" . >&2
mv "$BIN.tmp" "$BIN"
echo "built the SDK code generator in $(($(date +%s) - start)) s" >&2
echo "$BIN"
