#!/usr/bin/env bash
# Prints the path of a Go Pulumi program built with its Automation API host (runner/runner.go),
# building it when the cache has none for this source.
#
#   go.sh [DIR]          the binary of the program in DIR (default examples/go): run it in DIR as
#                        `<binary> [--stack S] [--json] up|preview|refresh|destroy`
#   --find-only          exit 1 instead of building
#
# The program is an ordinary Pulumi Go program: its main.go is `pulumi.Run(<function>)`. No Go
# language host can be built here, so its package is built with runner/runner.go in place of its
# main.go (`go build -overlay`) and a file naming that function `hosted`: the runner hosts the very
# function `pulumi up` would run, and the program's own files are built as they are.
#
# The cache lives outside the clone, keyed by a digest of the program's Go files, the SDK's and the
# runner, so a fresh clone reuses it and any change to one rebuilds:
# ${VMAPI_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-vmapi}/program-go-<digest>/bin/program
# A cold build compiles the pulumi Go SDK, its Automation API and gRPC (how long it takes:
# CONTRIBUTING.md, "Built once"). After a change to the program or the SDK alone, the Go build
# cache makes it seconds.
set -euo pipefail

REPO="$(cd "$(dirname "$0")/../.." && pwd)"
source "$REPO/tools/cache.sh"
args=()
for arg in "$@"; do [[ "$arg" == --* ]] && args+=("$arg") || PROGRAM="$arg"; done
cache_options go.sh "${args[@]+"${args[@]}"}"
PROGRAM="$(cd "${PROGRAM:-$REPO/examples/go}" && pwd)"
RUNNER="$REPO/tools/examples/runner/runner.go"

# The function main.go hands to pulumi.Run.
HOSTED="$(grep -oP 'pulumi\.Run\(\K\w+(?=\))' "$PROGRAM/main.go" | head -1)"
[[ -n "$HOSTED" ]] || { echo "$PROGRAM/main.go: no pulumi.Run(<function>)" >&2; exit 1; }
# Every file the build reads: the program's module, the SDK's, the runner.
sources() {
  { ls "$PROGRAM"/go.mod "$PROGRAM"/go.sum "$PROGRAM"/*.go; echo "$RUNNER"; find "$REPO/sdk/go/vmapi" -type f; } |
    LC_ALL=C sort
}
DIGEST="$( (echo "$HOSTED"; sources | while read -r f; do echo "${f#"$REPO"/}"; cat "$f"; done) | sha256sum | cut -c1-12)"
BIN="$CACHE/program-go-$DIGEST/bin/program"

cache_found "$BIN" test -x "$BIN"
OVERLAY="$(mktemp -d)"
trap 'rm -rf "$OVERLAY"' EXIT
printf 'package main\n\n// hosted is the program the runner runs inline: what main.go hands to pulumi.Run.\nvar hosted = %s\n' \
  "$HOSTED" >"$OVERLAY/hosted.go"
printf '{"Replace": {"%s": "%s", "%s": "%s"}}\n' "$PROGRAM/main.go" "$RUNNER" \
  "$PROGRAM/zz_hosted.go" "$OVERLAY/hosted.go" >"$OVERLAY/overlay.json"
# The build reads and writes a copy of the module's files (-modfile): a build that records the
# checksums of what the runner imports (-mod=mod) leaves the program's own go.mod and go.sum as
# they are, and so the digest above.
cp "$PROGRAM/go.mod" "$OVERLAY/go.mod"
cp "$PROGRAM/go.sum" "$OVERLAY/go.sum"
GOFLAGS="${GOFLAGS:+$GOFLAGS }-overlay=$OVERLAY/overlay.json -modfile=$OVERLAY/go.mod" \
  cache_go_build "$BIN" "$PROGRAM" "the Go program ${PROGRAM#"$REPO"/} with its Automation API host" "CONTRIBUTING.md, \"Built once\", says how long"
