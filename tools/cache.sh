# Sourced by the scripts that build or install something once into the cache outside the clone and
# print where it is (codegen/build.sh, examples/go.sh, pulumi-cli/yaml.sh, python/venv.sh,
# python/sdk.sh): the cache's folder, the one option they take, and the lock under which a thing
# is made once however many callers ask at once.
#
#   CACHE                       ${VMAPI_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-vmapi}
#   cache_options NAME "$@"     takes --find-only (FIND_ONLY=1), refuses anything else
#   cache_found PATH CHECK...   prints PATH and exits 0 when the command CHECK... succeeds;
#                               otherwise, with --find-only, exits 1
#   cache_lock LOCK PATH CHECK... takes the cache's lock LOCK (build.lock: one Go build at a time,
#                               since two at once on 2 cores take longer than one after the other),
#                               then looks again as cache_found does: the caller that waited for
#                               another's build finds it made
#   cache_go_build BIN DIR WHAT HINT
#                               prints BIN when it is there; else, under build.lock, builds the Go
#                               main package in DIR into BIN (static, stripped; written whole or
#                               not at all), saying WHAT it builds, how long that takes the first
#                               time (HINT) and how long it took, and prints BIN

CACHE="${VMAPI_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-vmapi}"
FIND_ONLY=0

cache_options() {
  local name=$1 arg
  shift
  for arg in "$@"; do
    case "$arg" in
      --find-only) FIND_ONLY=1 ;;
      *) echo "usage: $name [--find-only]" >&2; exit 2 ;;
    esac
  done
}

cache_found() {
  local path=$1
  shift
  if "$@"; then echo "$path"; exit 0; fi
  if ((FIND_ONLY)); then exit 1; fi
  return 0
}

cache_lock() {
  local lock=$1
  shift
  mkdir -p "$CACHE"
  exec 9>"$CACHE/$lock"
  flock 9
  cache_found "$@"
}

cache_go_build() {
  local bin=$1 dir=$2 what=$3 hint=$4 start
  cache_found "$bin" test -x "$bin"
  cache_lock build.lock "$bin" test -x "$bin"
  mkdir -p "$(dirname "$bin")"
  echo "building $what into $bin (first time only: $hint)" >&2
  start=$(date +%s)
  (cd "$dir" && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$bin.tmp" . >&2)
  mv "$bin.tmp" "$bin"
  echo "built $what in $(($(date +%s) - start)) s" >&2
  echo "$bin"
  exit 0
}
