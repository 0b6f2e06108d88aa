#!/usr/bin/env bash
# `npm run plugin:dist`: the plugin's release assets, three tarballs per platform, in the layout
# Pulumi's plugin installer reads: the resource plugin (`pulumi plugin install resource vmapi
# <version> --file <tarball>`, or the engine's own download from the schema's pluginDownloadURL)
# and the converter of `pulumi import --from vmapi` (`pulumi plugin install converter vmapi
# <version> --file <tarball>`: docs/migrating-from-terraform.md) and the policy pack's analyzer
# (`pulumi plugin install analyzer policy-vmapi <version> --file <tarball>`, or unpacked anywhere;
# `--policy-pack <its executable>`: docs/policies.md):
#
#   release/pulumi-resource-vmapi-v<version>-linux-amd64.tar.gz
#   release/pulumi-converter-vmapi-v<version>-linux-amd64.tar.gz
#   release/pulumi-analyzer-policy-vmapi-v<version>-linux-amd64.tar.gz
#   (the same three for linux-arm64)
#
# the resource tarball holding, at its root, `pulumi-resource-vmapi` (a Node.js single executable:
# Node 22 with the plugin's bundle in it, so the user's machine needs no Node and no npm),
# `LICENSE.node` and `THIRD_PARTY_NOTICES`; the converter tarball the same three files, the
# executable named `pulumi-converter-vmapi` (under that name it serves the Converter service
# instead: src/terraform/converterHook.ts); the analyzer tarball the same, the executable named
# `pulumi-analyzer-policy-vmapi` (it serves the Analyzer service: src/policy/analyzerHook.ts). The version is package.json's (the schema's must agree).
#
#   dist.sh                  both platforms
#   dist.sh --arch amd64     one (repeatable), e.g. the host's for the tests
#
# How: tools/plugin/bundle.ts bundles the plugin (esbuild) into two scripts: start.js
# (tools/plugin/snapshotMain.ts and the modules the plugin runs before its first answers) and
# provider.js (the modules it loads at the first request that needs them). Each platform's portable
# Node build (tools/node/install.sh, cached outside the clone; the other platform's under its
# emulator) makes a startup snapshot of start.js into a single-executable blob (`node
# --experimental-sea-config`, `useSnapshot`: the modules loaded, the schema parsed), with the
# provider's script and V8's code cache of it as assets, made by tools/plugin/codeCache.ts from a
# run of the plugin through `Configure`, then a preview's and a refresh's requests of Machines (an
# emulator of the API in the build's process answers), started from a snapshot of the same script (both snapshots
# made with codeCache.ts's SNAPSHOT_FLAGS, or V8 rejects the cache); postject injects the blob into
# a copy of that Node build. A snapshot and a code cache only run on the Node binary that made them.
#
# Each executable is run before it is packed (tools/plugin/smokeTest.ts): with no node on PATH it
# must answer GetPluginInfo and GetSchema as the engine asks them, then CheckConfig and Configure
# (which load the provider), and, named as the converter,
# the Converter service's GetPluginInfo, named as the analyzer, the Analyzer's. The other platform's runs under user-mode emulation:
# Debian's qemu-user-static, on that platform's C and C++ libraries from Debian's cross packages
# (the portable Node build links glibc and libstdc++), which this script asks for before it builds
# anything when they are missing (.ci/run installs them).
#
# release/ is git-ignored (VMAPI_RELEASE_DIR names another folder). A platform's two tarballs are
# rebuilt only when what they are made of changed (the bundle, the schema, this script and the
# ones that make and check it): release/.digest-<arch> records it, so a second run takes the
# bundle's few seconds.
# Runs one at a time (release/.lock): the tests call this too.
set -euo pipefail
SELF="$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
cd "$(dirname "$SELF")/../.."

NODE_VERSION=22.23.3
# The sentinel Node's single-executable support looks for (Node's docs, "Single executable applications").
SEA_FUSE=NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2
OUT="${VMAPI_RELEASE_DIR:-$PWD/release}"

archs=()
while (($#)); do
  case "$1" in
    --arch) [[ "${2:-}" == amd64 || "${2:-}" == arm64 ]] || { echo "dist.sh: --arch amd64 or arm64" >&2; exit 2; }
      archs+=("$2"); shift 2 ;;
    *) echo "usage: dist.sh [--arch amd64|arm64]..." >&2; exit 2 ;;
  esac
done
((${#archs[@]})) || archs=(amd64 arm64)

host_node="$(bash tools/node/install.sh "$NODE_VERSION")/node"
case "$(uname -m)" in
  x86_64) host_arch=amd64 ;;
  aarch64 | arm64) host_arch=arm64 ;;
  *) host_arch= ;;
esac
# The command that runs the executable of $1 (amd64 or arm64) here, in emulators[$1]: none for the
# host's; qemu-user-static with that platform's libraries for the other's, or a stop that says
# what to install.
declare -A emulators
find_emulator() {
  local arch=$1 qemu libs cross
  [[ "$arch" == "$host_arch" ]] && { emulators[$arch]=; return; }
  case "$arch" in
    arm64) qemu=qemu-aarch64-static libs=/usr/aarch64-linux-gnu cross=libstdc++6-arm64-cross ;;
    amd64) qemu=qemu-x86_64-static libs=/usr/x86_64-linux-gnu cross=libstdc++6-amd64-cross ;;
  esac
  if ! command -v "$qemu" >/dev/null || [[ ! -d "$libs/lib" ]]; then
    echo "dist.sh: the linux-$arch executable is checked by running it under emulation, which needs" \
      "Debian's qemu-user-static ($qemu) and $cross ($libs): as root," \
      "apt-get install -y --no-install-recommends qemu-user-static $cross (.ci/run does when they are missing)" >&2
    exit 1
  fi
  emulators[$arch]="$(command -v "$qemu") -L $libs"
}
for arch in "${archs[@]}"; do find_emulator "$arch"; done

version=$("$host_node" -p 'require("./package.json").version')
schema_version=$("$host_node" -p 'require("./plugin/schema.json").version')
[[ "$version" == "$schema_version" ]] ||
  { echo "dist.sh: package.json is $version but plugin/schema.json is $schema_version: run npm run schema:update" >&2; exit 1; }

mkdir -p "$OUT"
exec 9>"$OUT/.lock"
flock 9
work=$(mktemp -d "$OUT/.build.XXXXXX")
trap 'rm -rf "$work"' EXIT
start=$(date +%s)

"$host_node" -r ts-node/register/transpile-only tools/plugin/bundle.ts "$work" >/dev/null
digest=$(cat "$work/start.js" "$work/provider.js" "$work/schema.json" \
  "$SELF" tools/plugin/codeCache.ts \
  tools/plugin/smokeTest.ts tools/plugin/pluginClient.ts |
  sha256sum | cut -c1-32)

# Packs the executable of stage $1 (the resource plugin's, with its notices) under the name $2,
# checked first under that name by smokeTest.ts $3, into $work/$2-v<version>-linux-$4.tar.gz ($4:
# amd64 or arm64).
pack_renamed() {
  local stage=$1 name=$2 check=$3 arch=$4 renamed="$work/$4-$2"
  mkdir -p "$renamed"
  ln "$stage/pulumi-resource-vmapi" "$renamed/$name"
  ln "$stage/LICENSE.node" "$stage/THIRD_PARTY_NOTICES" "$renamed/"
  # shellcheck disable=SC2086 # the emulator's command: words, no paths with spaces
  "$host_node" -r ts-node/register/transpile-only tools/plugin/smokeTest.ts "$check" \
    "$renamed/$name" ${emulators[$arch]}
  tar -C "$renamed" --owner=0 --group=0 --numeric-owner -czf "$work/$name-v$version-linux-$arch.tar.gz" \
    "$name" LICENSE.node THIRD_PARTY_NOTICES
}

# Builds the tarball of $1 (amd64 or arm64) into release/.
build_asset() {
  local arch=$1 target stage blob asset node_dir node sea_flags
  target=linux-x64
  [[ "$arch" == arm64 ]] && target=linux-arm64
  stage="$work/$arch"
  blob="$work/$arch.blob"
  asset="pulumi-resource-vmapi-v$version-linux-$arch.tar.gz"
  mkdir -p "$stage"
  node_dir=$(bash tools/node/install.sh --target "$target" "$NODE_VERSION")
  # The platform's own Node makes its snapshot and its code cache (a snapshot and a code cache run
  # only on the Node binary that made them): the other platform's under its emulator.
  read -r -a node <<<"${emulators[$arch]} $node_dir/node"
  "$host_node" -r ts-node/register/transpile-only tools/plugin/codeCache.ts "$work" "${node[@]}" >/dev/null
  mv "$work/provider.cache" "$work/$arch.provider.cache"
  read -r -a sea_flags <<<"$("$host_node" -r ts-node/register/transpile-only \
    -p 'require("./tools/plugin/codeCache.ts").SNAPSHOT_FLAGS.join(" ")')"
  cat >"$work/$arch.sea.json" <<EOF
{
  "main": "$work/start.js",
  "output": "$blob",
  "disableExperimentalSEAWarning": true,
  "useSnapshot": true,
  "useCodeCache": false,
  "assets": { "provider.js": "$work/provider.js", "provider.cache": "$work/$arch.provider.cache" }
}
EOF
  (cd "$work" && "${node[@]}" "${sea_flags[@]}" --experimental-sea-config "$work/$arch.sea.json") >"$work/sea.log" 2>&1 ||
    { cat "$work/sea.log" >&2; exit 1; }
  # A module of Node's that a snapshot may not hold, loaded before it was taken: Node only warns.
  if grep -q "works in user snapshot" "$work/sea.log"; then
    echo "dist.sh: the startup snapshot holds a module Node does not support in one:" >&2
    cat "$work/sea.log" >&2
    exit 1
  fi
  cp "$node_dir/node" "$stage/pulumi-resource-vmapi"
  chmod 755 "$stage/pulumi-resource-vmapi"
  # postject warns about ELF notes it does not name ("Can't find string offset"): harmless.
  "$host_node" node_modules/postject/dist/cli.js "$stage/pulumi-resource-vmapi" NODE_SEA_BLOB "$blob" \
    --sentinel-fuse "$SEA_FUSE" >/dev/null 2>&1
  cp "$node_dir/../LICENSE" "$stage/LICENSE.node"
  cp "$work/THIRD_PARTY_NOTICES" "$stage/THIRD_PARTY_NOTICES"
  # shellcheck disable=SC2086 # the emulator's command: words, no paths with spaces
  "$host_node" -r ts-node/register/transpile-only tools/plugin/smokeTest.ts \
    "$stage/pulumi-resource-vmapi" ${emulators[$arch]}
  tar -C "$stage" --owner=0 --group=0 --numeric-owner -czf "$work/$asset" \
    pulumi-resource-vmapi LICENSE.node THIRD_PARTY_NOTICES
  # The converter's and the policy pack analyzer's tarballs: the same executable under their names.
  pack_renamed "$stage" pulumi-converter-vmapi --converter "$arch"
  pack_renamed "$stage" pulumi-analyzer-policy-vmapi --analyzer "$arch"
  local name
  for name in pulumi-resource-vmapi pulumi-converter-vmapi pulumi-analyzer-policy-vmapi; do
    mv "$work/$name-v$version-linux-$arch.tar.gz" "$OUT/"
  done
  echo "$digest" >"$OUT/.digest-$arch"
}

built=()
for arch in "${archs[@]}"; do
  asset="$OUT/pulumi-resource-vmapi-v$version-linux-$arch.tar.gz"
  converter_asset="$OUT/pulumi-converter-vmapi-v$version-linux-$arch.tar.gz"
  analyzer_asset="$OUT/pulumi-analyzer-policy-vmapi-v$version-linux-$arch.tar.gz"
  if [[ -f "$asset" && -f "$converter_asset" && -f "$analyzer_asset" &&
    "$(cat "$OUT/.digest-$arch" 2>/dev/null)" == "$digest" ]]; then
    echo "$asset"
    echo "$converter_asset"
    echo "$analyzer_asset"
    continue
  fi
  echo "building $(basename "$asset"), $(basename "$converter_asset") and $(basename "$analyzer_asset") (Node $NODE_VERSION single executable)" >&2
  rm -f "$OUT/.digest-$arch"
  build_asset "$arch"
  built+=("$arch")
  echo "$asset"
  echo "$converter_asset"
  echo "$analyzer_asset"
done
((${#built[@]})) && echo "built ${built[*]} in $(($(date +%s) - start)) s" >&2
exit 0
