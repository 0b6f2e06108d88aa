#!/usr/bin/env bash
# Prints a Go module proxy folder serving the Go SDK (sdk/go/vmapi) at v0.1.0, the version its
# schema names, as `go get github.com/pulumi-vmapi/pulumi-vmapi/sdk/go/vmapi@v0.1.0` asks a proxy
# for it; makes it when the cache has none for this source.
#
#   proxy.sh             the folder: use it as GOPROXY=file://<folder>,<the usual proxy>
#   --find-only          exit 1 instead of making it
#
# The version's zip is made by golang.org/x/mod/zip (main.go, built once into the cache). The
# folder lives outside the clone, keyed by a digest of the SDK's files:
# ${VMAPI_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-vmapi}/goproxy-<digest>/
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
source "$HERE/../cache.sh"
cache_options proxy.sh "$@"

MODULE="github.com/pulumi-vmapi/pulumi-vmapi/sdk/go/vmapi"
VERSION="v$(node -p 'require(process.argv[1]).version' "$REPO/plugin/schema.json")"
SDK="$REPO/sdk/go/vmapi"
DIGEST="$( (echo "$VERSION"; cd "$SDK" && find . -type f | LC_ALL=C sort | while read -r f; do echo "$f"; cat "$f"; done) |
  sha256sum | cut -c1-12)"
OUT="$CACHE/goproxy-$DIGEST"
ZIP="$OUT/$MODULE/@v/$VERSION.zip"

cache_found "$OUT" test -f "$ZIP"
TOOL="$(bash -c 'source "$1/../cache.sh"; cache_options proxy.sh; cache_go_build "$2" "$1" "the module proxy writer (tools/gomodule)" "CONTRIBUTING.md, \"Built once\", says how long"' \
  _ "$HERE" "$CACHE/gomodule-$(cat "$HERE"/go.mod "$HERE"/go.sum "$HERE"/main.go | sha256sum | cut -c1-12)/bin/gomodule")"
cache_lock build.lock "$OUT" test -f "$ZIP"
rm -rf "$OUT.tmp"
# The version's time: the SDK's last commit, so the same source makes the same folder.
STAMP="$(git -C "$REPO" log -1 --format=%cI -- sdk/go/vmapi 2>/dev/null || true)"
"$TOOL" --dir "$SDK" --module "$MODULE" --version "$VERSION" ${STAMP:+--time "$STAMP"} --out "$OUT.tmp"
mv "$OUT.tmp" "$OUT"
echo "wrote $MODULE@$VERSION into the module proxy folder $OUT" >&2
echo "$OUT"
