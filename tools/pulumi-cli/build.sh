#!/usr/bin/env bash
# Prints the path of a `pulumi` CLI at v3.274.1 or newer, building it from Go modules when none
# is found. Order: $VMAPI_PULUMI (a path you choose), the cached build, a `pulumi` on PATH that is
# new enough, else a build (about 10 minutes on 2 cores; 40 s of it downloads) into the cache.
#
# The cache lives outside the clone, keyed by version, so a fresh clone on the same machine
# reuses it: ${VMAPI_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-vmapi}/pulumi-v3.274.1/bin/pulumi
#
# Why build: the pulumi npm package downloads the CLI from the vendor's site at run time, which
# these machines cannot reach; the Go module proxy serves github.com/pulumi/pulumi/pkg/v3 at
# exactly v3.274.1 (it refuses `latest`). go.mod here pins it, with pkg's own `replace` of the
# clipboard module (Go ignores replaces inside a dependency).
#
# Usage: tools/pulumi-cli/build.sh [--find-only]   (--find-only: exit 1 instead of building)
set -euo pipefail

VERSION=v3.274.1
MIN_MINOR=274
HERE="$(cd "$(dirname "$0")" && pwd)"
CACHE="${VMAPI_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-vmapi}"
BIN="$CACHE/pulumi-$VERSION/bin/pulumi"

# "v3.261.0" -> ok when major 3 and minor >= MIN_MINOR.
new_enough() {
  local v
  v="$("$1" version 2>/dev/null | tr -d '[:space:]')" || return 1
  [[ "$v" =~ ^v3\.([0-9]+)\. ]] && ((BASH_REMATCH[1] >= MIN_MINOR))
}

if [[ -n "${VMAPI_PULUMI:-}" ]]; then
  new_enough "$VMAPI_PULUMI" || { echo "VMAPI_PULUMI=$VMAPI_PULUMI is not a pulumi CLI v3.$MIN_MINOR or newer" >&2; exit 1; }
  echo "$VMAPI_PULUMI"; exit 0
fi
# The CLI's release archives ship the dynamic-provider plugin next to the binary (a "bundled"
# plugin, found there without a warning); this is the same script. It starts the plugin of the
# @pulumi/pulumi that the program's folder resolves, so each program uses its own SDK.
bundle_plugin() {
  local plugin
  plugin="$(dirname "$BIN")/pulumi-resource-pulumi-nodejs"
  [[ -x "$plugin" ]] && return
  cat >"$plugin.tmp" <<'SCRIPT'
#!/bin/sh
PULUMI_DYNAMIC_PROVIDER_SCRIPT_PATH=$(node -e "console.log(require.resolve('@pulumi/pulumi/cmd/dynamic-provider'))")
if [ ! -z "$PULUMI_DYNAMIC_PROVIDER_SCRIPT_PATH" ]; then
    node "$PULUMI_DYNAMIC_PROVIDER_SCRIPT_PATH" $@
fi
SCRIPT
  chmod +x "$plugin.tmp"
  mv "$plugin.tmp" "$plugin"
}

if [[ -x "$BIN" ]] && new_enough "$BIN"; then bundle_plugin; echo "$BIN"; exit 0; fi
if command -v pulumi >/dev/null && new_enough "$(command -v pulumi)"; then command -v pulumi; exit 0; fi
if [[ "${1:-}" == "--find-only" ]]; then exit 1; fi

mkdir -p "$(dirname "$BIN")"
# One build at a time per cache (parallel test workers or two clones may ask at once).
exec 9>"$CACHE/build.lock"
flock 9
if [[ -x "$BIN" ]] && new_enough "$BIN"; then bundle_plugin; echo "$BIN"; exit 0; fi

echo "building the pulumi CLI $VERSION from Go modules into $BIN (first time only: about 10 minutes on 2 cores)" >&2
start=$(date +%s)
cd "$HERE"
# -X sets the version: without it `pulumi version` prints nothing and the Automation API refuses the CLI.
CGO_ENABLED=0 go build -trimpath \
  -ldflags "-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=$VERSION" \
  -o "$BIN.tmp" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi >&2
mv "$BIN.tmp" "$BIN"
bundle_plugin
echo "built $("$BIN" version) in $(( $(date +%s) - start )) s" >&2
echo "$BIN"
