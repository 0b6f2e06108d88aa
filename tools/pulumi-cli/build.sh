#!/usr/bin/env bash
# Prints the path of a `pulumi` CLI, building it from Go modules when none is found.
#
#   build.sh             the CLI the project tests with: the version pinned in ./go.mod (v3.274.1)
#   build.sh --lowest    the lowest CLI the project supports: the version pinned in ./lowest/go.mod
#                        (v3.259.0), which .ci/run uses for its run with the lowest @pulumi/pulumi
#   --find-only          exit 1 instead of building
#
# Order (without --lowest): $VMAPI_PULUMI (a path you choose, v3.<lowest minor> or newer), else
# the cached build of the pinned version, else a build of it into the cache (how long that takes:
# CONTRIBUTING.md, "Built once"). A `pulumi` on PATH is never used, whatever its version: a run
# proves things on the pinned CLI unless VMAPI_PULUMI says otherwise. With --lowest: the cached
# build, else a build (VMAPI_PULUMI is not consulted: the point is that exact version).
#
# The cache lives outside the clone, keyed by version, so a fresh clone on the same machine
# reuses it: ${VMAPI_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-vmapi}/pulumi-<version>/bin/pulumi
#
# Why build: the pulumi npm package downloads the CLI from the vendor's site at run time, which a
# machine without access to it (a CI runner behind a proxy, say) cannot do, and which gives no
# pinned version; the Go module proxy serves github.com/pulumi/pulumi/pkg/v3 at exact versions.
# Each go.mod here pins one, with pkg's own `replace` of the clipboard module (Go ignores replaces
# inside a dependency).
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
MODULE="$HERE"
FIND_ONLY=0
LOWEST=0
for arg in "$@"; do
  case "$arg" in
    --find-only) FIND_ONLY=1 ;;
    --lowest) LOWEST=1; MODULE="$HERE/lowest" ;;
    *) echo "usage: build.sh [--lowest] [--find-only]" >&2; exit 2 ;;
  esac
done

# The version a module pins: "v3.274.1".
pinned() { awk '$1 == "github.com/pulumi/pulumi/pkg/v3" { print $2; exit }' "$1/go.mod"; }
VERSION="$(pinned "$MODULE")"
LOWEST_VERSION="$(pinned "$HERE/lowest")"
[[ "$VERSION" =~ ^v3\.([0-9]+)\. ]] || { echo "no github.com/pulumi/pulumi/pkg/v3 version in $MODULE/go.mod" >&2; exit 1; }
MIN_MINOR="${BASH_REMATCH[1]}"
[[ "$LOWEST_VERSION" =~ ^v3\.([0-9]+)\. ]]
SUPPORTED_MINOR="${BASH_REMATCH[1]}"
CACHE="${VMAPI_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-vmapi}"
BIN="$CACHE/pulumi-$VERSION/bin/pulumi"

# "v3.261.0" -> ok when major 3 and minor >= $2.
new_enough() {
  local v
  v="$("$1" version 2>/dev/null | tr -d '[:space:]')" || return 1
  [[ "$v" =~ ^v3\.([0-9]+)\. ]] && ((BASH_REMATCH[1] >= $2))
}

if ((!LOWEST)) && [[ -n "${VMAPI_PULUMI:-}" ]]; then
  new_enough "$VMAPI_PULUMI" "$SUPPORTED_MINOR" ||
    { echo "VMAPI_PULUMI=$VMAPI_PULUMI is not a pulumi CLI $LOWEST_VERSION or newer" >&2; exit 1; }
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

if [[ -x "$BIN" ]] && new_enough "$BIN" "$MIN_MINOR"; then bundle_plugin; echo "$BIN"; exit 0; fi
if ((FIND_ONLY)); then exit 1; fi

mkdir -p "$(dirname "$BIN")"
# One build at a time per cache (parallel test workers or two clones may ask at once).
exec 9>"$CACHE/build.lock"
flock 9
if [[ -x "$BIN" ]] && new_enough "$BIN" "$MIN_MINOR"; then bundle_plugin; echo "$BIN"; exit 0; fi

echo "building the pulumi CLI $VERSION from Go modules into $BIN (first time only: minutes; CONTRIBUTING.md, \"Built once\", says how many)" >&2
start=$(date +%s)
# A build that is stopped (.ci/run ending first kills its group) leaves no half-written binary.
trap 'rm -f "$BIN.tmp"' EXIT
cd "$MODULE"
# -X sets the version: without it `pulumi version` prints nothing and the Automation API refuses the CLI.
CGO_ENABLED=0 go build -trimpath \
  -ldflags "-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=$VERSION" \
  -o "$BIN.tmp" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi >&2
mv "$BIN.tmp" "$BIN"
bundle_plugin
echo "built $("$BIN" version) in $(($(date +%s) - start)) s" >&2
echo "$BIN"
