#!/usr/bin/env bash
# Prints the path of a folder holding `pulumi-language-yaml` (the Pulumi YAML language host),
# building it from Go modules when the cache has none.
#
#   yaml.sh              the folder (name it in Pulumi.yaml: plugins: languages: [{name: yaml, path: <it>}])
#   --find-only          exit 1 instead of building
#
# The cache lives outside the clone, keyed by version, so a fresh clone on the same machine reuses
# it: ${VMAPI_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-vmapi}/pulumi-language-yaml-<version>/
# How long a cold build takes (downloads included): CONTRIBUTING.md, "Built once".
#
# Why build: the CLI built by build.sh ships no language hosts, and the engine's plugin downloads
# are turned off (PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION) so a run uses pinned versions only.
# pulumi-yaml's module has no replace directives, so `go install module@version`
# builds it without a wrapper module.
set -euo pipefail

VERSION=v1.25.0
source "$(dirname "$0")/../cache.sh"
cache_options yaml.sh "$@"

DIR="$CACHE/pulumi-language-yaml-$VERSION"

cache_found "$DIR" test -x "$DIR/pulumi-language-yaml"
# The same lock as build.sh.
cache_lock build.lock "$DIR" test -x "$DIR/pulumi-language-yaml"

echo "building pulumi-language-yaml $VERSION from Go modules into $DIR (first time only: CONTRIBUTING.md, \"Built once\", says how long)" >&2
start=$(date +%s)
# Install into a temporary folder and rename it, so a killed build leaves no half-written binary.
rm -rf "$DIR.tmp"
GOBIN="$DIR.tmp" CGO_ENABLED=0 \
  go install -trimpath "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml@$VERSION" >&2
mv "$DIR.tmp" "$DIR"
echo "built pulumi-language-yaml $VERSION in $(($(date +%s) - start)) s" >&2
echo "$DIR"
