#!/usr/bin/env bash
# Prints the path of a folder holding `pulumi-language-java`, Pulumi's Java language host, building
# it from Go modules when the cache has none. The CLI runs `runtime: java` programs with it, and
# `pulumi package gen-sdk --language java` generates the Java SDK with it (tools/sdk).
#
#   build.sh             the folder
#   --find-only          exit 1 instead of building
#
# It comes from github.com/pulumi/pulumi-java/pkg at the version pinned in ./go.mod (v1.22.0), on
# the pulumi pkg/v3 and sdk/v3 that module requires (v3.228.0: its code generator does not compile
# beside the CLI's v3.274.1, hence a module of its own rather than the CLI's).
# The cache lives outside the clone, keyed by that version and a digest of go.mod and go.sum:
# ${VMAPI_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-vmapi}/pulumi-java-<version>-<digest>/
#
# Why build: `go install github.com/pulumi/pulumi-java/pkg/cmd/...@v1.22.0` is refused (the module
# has replace directives), and the vendor's plugin downloads are out of reach. This wrapper
# module copies pulumi-java's two replaces (logrus, gogo) and names the host as its tool.
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
source "$HERE/../cache.sh"
cache_options build.sh "$@"

VERSION="$(awk '$1 == "github.com/pulumi/pulumi-java/pkg" { print $2; exit }' "$HERE/go.mod")"
[[ -n "$VERSION" ]] || { echo "no github.com/pulumi/pulumi-java/pkg version in $HERE/go.mod" >&2; exit 1; }
DIGEST="$(cat "$HERE/go.mod" "$HERE/go.sum" | sha256sum | cut -c1-12)"
DIR="$CACHE/pulumi-java-$VERSION-$DIGEST"
HOST=pulumi-language-java

built() { test -x "$DIR/$HOST"; }
cache_found "$DIR" built
# The same lock as every Go build of the cache: two at once on 2 cores take longer than in turn.
cache_lock build.lock "$DIR" built

echo "building Pulumi's Java language host (pulumi-java $VERSION) into $DIR (first time only: CONTRIBUTING.md, \"Built once\", says how long)" >&2
start=$(date +%s)
rm -rf "$DIR.tmp"
mkdir -p "$DIR.tmp"
# The version the host reports to the engine (`pulumi about`, the plugin list).
(cd "$HERE" && CGO_ENABLED=0 go build -trimpath \
  -ldflags "-s -w -X github.com/pulumi/pulumi-java/pkg/version.Version=$VERSION" \
  -o "$DIR.tmp/$HOST" "github.com/pulumi/pulumi-java/pkg/cmd/$HOST" >&2)
# Written whole or not at all: a killed build leaves no folder that looks finished.
rm -rf "$DIR"
mv "$DIR.tmp" "$DIR"
echo "built it in $(($(date +%s) - start)) s" >&2
echo "$DIR"
