# Sourced by the scripts that build or install something once into the cache outside the clone and
# print where it is (codegen/build.sh, examples/go.sh, pulumi-cli/yaml.sh, python/venv.sh, fuzz/venv.sh,
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
#   cache_requirements_venv VENV REQS BIN WHAT
#                               prints VENV/bin/BIN when VENV holds exactly the pinned REQS (a copy
#                               of REQS inside marks a finished install; another one rebuilds it);
#                               else, under python.lock, makes the venv from wheels only (a package
#                               built from source would need a compiler or most of an hour on 2
#                               cores), saying WHAT it holds and how long it took, and prints it

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

cache_requirements_venv() {
  local venv=$1 reqs=$2 bin=$3 what=$4 start
  # shellcheck disable=SC2317 # called through cache_found and cache_lock
  venv_ready() { [[ -x "$venv/bin/$bin" ]] && cmp -s "$reqs" "$venv/requirements.txt"; }
  cache_found "$venv/bin/$bin" venv_ready
  # Its own lock, not the Go builds' one: this is mostly downloads, and no Go build waits on it.
  cache_lock python.lock "$venv/bin/$bin" venv_ready
  echo "creating a venv with $what in $venv (first time only: CONTRIBUTING.md, \"Built once\", says how long)" >&2
  start=$(date +%s)
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --no-input --only-binary=:all: -r "$reqs" >&2
  cp "$reqs" "$venv/requirements.txt"
  echo "created it in $(($(date +%s) - start)) s" >&2
  echo "$venv/bin/$bin"
}
