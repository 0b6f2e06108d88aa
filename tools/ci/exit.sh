# Sourced by .ci/run: the run's one EXIT trap, what it undoes, and the jest runs whose results
# make the run's closing line. A later `trap ... EXIT` would replace this one, so .ci/run sets
# none of its own (test/unit/tools/ciExit.test.ts checks both).
#
#   ci_background OUT CMD...  runs CMD in the background in a process group of its own, stdout
#                             to file OUT and stderr to OUT.log (both removed at exit); sets
#                             CI_BACKGROUND_PID. A run that ends first kills the whole group (a
#                             Go build's compilers too)
#   ci_temp VAR               sets VAR to the path of a new temporary file, removed at exit
#   ci_at_exit CMD            runs CMD (one shell word list, eval'd) at exit, its output on stderr
#   ci_jest NAME CMD...       runs the jest command line CMD with --json --outputFile; its results
#                             count in the closing line (a run that fails ends .ci/run, set -e)
#
# At exit, however the run ends (its last line, a failing step, a signal): the ci_at_exit
# commands, the background groups killed, the temporary files removed, then the closing line:
# `N passed, N failed` (tools/ci/testCount.js over every jest run started), alone and last on
# stdout. A jest run that left no results counts as a failed run. With no jest run started (a
# check failed first) there is no closing line, and the exit code says the run failed.

CI_RESULTS="$(mktemp -d "${TMPDIR:-/tmp}/vmapi-ci-results.XXXXXX")"
CI_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
ci_results=()
ci_temps=("$CI_RESULTS")
ci_groups=()
ci_exits=()

ci_background() {
  local out="$1"
  shift
  ci_temps+=("$out" "$out.log")
  # setsid gives CMD a process group of its own (a background job of a script is no group
  # leader, so setsid runs CMD in place: $! is the group's id).
  setsid "$@" >"$out" 2>"$out.log" &
  CI_BACKGROUND_PID=$!
  ci_groups+=("$CI_BACKGROUND_PID")
}

ci_temp() {
  local file
  file="$(mktemp "${TMPDIR:-/tmp}/vmapi-ci.XXXXXX")"
  ci_temps+=("$file")
  printf -v "$1" '%s' "$file"
}

ci_at_exit() { ci_exits+=("$1"); }

ci_jest() {
  local file="$CI_RESULTS/$(printf '%02d' "${#ci_results[@]}")-$1.json"
  shift
  ci_results+=("$file")
  "$@" --json --outputFile="$file"
}

ci_exit() {
  local code=$? cmd pid
  trap - EXIT INT TERM
  set +e
  for cmd in "${ci_exits[@]}"; do eval "$cmd" >&2; done
  for pid in "${ci_groups[@]}"; do
    kill -0 "$pid" 2>/dev/null && kill -TERM -- "-$pid" 2>/dev/null
  done
  for pid in "${ci_groups[@]}"; do wait "$pid" 2>/dev/null; done
  local line=""
  if ((${#ci_results[@]} > 0)); then
    line="$(node "$CI_ROOT/tools/ci/testCount.js" "${ci_results[@]}")" || code=$((code == 0 ? 1 : code))
  fi
  rm -rf "${ci_temps[@]}"
  [[ -n "$line" ]] && echo "$line"
  exit "$code"
}

trap ci_exit EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
