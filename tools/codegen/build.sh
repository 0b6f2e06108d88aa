#!/usr/bin/env bash
# Prints the path of the SDK code generator (main.go here), building it when the cache has none.
#
#   build.sh             the binary: run it as `codegen --schema <schema.json> --language go|python --out <dir>`
#   --find-only          exit 1 instead of building
#
# The cache lives outside the clone, keyed by the pkg/v3 version pinned in ./go.mod and a digest of
# go.mod, go.sum and main.go, so a fresh clone reuses it and any change to the source rebuilds:
# ${VMAPI_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-vmapi}/codegen-<version>-<digest>/bin/codegen
# How long a cold build takes: CONTRIBUTING.md, "Built once" (far less when the CLI's build left
# the Go build cache warm, since both compile the same pkg/v3).
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
source "$HERE/../cache.sh"
cache_options build.sh "$@"

VERSION="$(awk '$1 == "github.com/pulumi/pulumi/pkg/v3" { print $2; exit }' "$HERE/go.mod")"
[[ -n "$VERSION" ]] || { echo "no github.com/pulumi/pulumi/pkg/v3 version in $HERE/go.mod" >&2; exit 1; }
DIGEST="$(cat "$HERE/go.mod" "$HERE/go.sum" "$HERE/main.go" | sha256sum | cut -c1-12)"
BIN="$CACHE/codegen-$VERSION-$DIGEST/bin/codegen"

cache_go_build "$BIN" "$HERE" "the SDK code generator (pkg/v3 $VERSION)" "CONTRIBUTING.md, \"Built once\", says how long"
