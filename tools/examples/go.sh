#!/usr/bin/env bash
# Prints the path of the Go quickstart's program (examples/go: the quickstart and its Automation
# API host, on the Go SDK in sdk/go/vmapi), building it when the cache has none for this source.
#
#   go.sh                the binary: run it in examples/go as `quickstart [--stack S] [--json] up|preview|refresh|destroy`
#   --find-only          exit 1 instead of building
#
# The cache lives outside the clone, keyed by a digest of the example's Go files and the SDK's, so
# a fresh clone reuses it and any change to either rebuilds:
# ${VMAPI_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-vmapi}/example-go-<digest>/bin/quickstart
# A cold build compiles the pulumi Go SDK, its Automation API and gRPC (how long it takes:
# CONTRIBUTING.md, "Built once"). After a change to the example or the SDK alone, the Go build
# cache makes it seconds.
set -euo pipefail

REPO="$(cd "$(dirname "$0")/../.." && pwd)"
source "$REPO/tools/cache.sh"
cache_options go.sh "$@"

# Every file the build reads: the example's module and the SDK's.
sources() {
  (cd "$REPO" && { ls examples/go/go.mod examples/go/go.sum examples/go/*.go; find sdk/go/vmapi -type f; } | LC_ALL=C sort)
}
DIGEST="$(cd "$REPO" && sources | while read -r f; do echo "$f"; cat "$f"; done | sha256sum | cut -c1-12)"
BIN="$CACHE/example-go-$DIGEST/bin/quickstart"

cache_go_build "$BIN" "$REPO/examples/go" "the Go quickstart (examples/go)" "CONTRIBUTING.md, \"Built once\", says how long"
