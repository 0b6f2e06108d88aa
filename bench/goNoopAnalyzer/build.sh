#!/usr/bin/env bash
# Prints the path of a folder holding the no-op analyzer of bench/policyPack.ts (main.go here)
# as `pulumi-analyzer-policy-noop`, building it when the cache has none for this source.
#
#   build.sh             the folder (give <it>/pulumi-analyzer-policy-noop to --policy-pack)
#   --find-only          exit 1 instead of building
#
# The cache lives outside the clone, keyed by a digest of go.mod, go.sum and main.go, so a fresh
# clone reuses it and any change to the source rebuilds:
# ${VMAPI_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-vmapi}/go-noop-analyzer-<digest>/pulumi-analyzer-policy-noop
# It compiles the same pulumi sdk/v3 as the CLI (tools/pulumi-cli), whose build leaves Go's build
# cache warm for it: about a minute then on 2 busy cores; a few minutes with an empty one.
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
source "$HERE/../../tools/cache.sh"
cache_options build.sh "$@"

DIGEST="$(cat "$HERE/go.mod" "$HERE/go.sum" "$HERE/main.go" | sha256sum | cut -c1-12)"
DIR="$CACHE/go-noop-analyzer-$DIGEST"

# cache_go_build prints the binary's path (and exits its subshell); the caller wants its folder.
bin=$(cache_go_build "$DIR/pulumi-analyzer-policy-noop" "$HERE" "the Go no-op analyzer (bench/goNoopAnalyzer)" "about a minute")
dirname "$bin"
