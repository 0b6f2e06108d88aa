#!/usr/bin/env bash
# Prints the Python of a fresh venv into which pip installed the SDK's wheel (wheel.sh) with its
# dependencies resolved from the package index, as a user installs it, with `pulumi` at one end of
# the range the SDK declares; creates the venv when the cache has none for what it would hold.
#
#   packageVenv.sh lowest|newest   the venv's bin/python: `pulumi` at the lowest version the
#                                  wheel's requirement allows, or the newest the index serves in it
#   --find-only                    exit 1 instead of creating it
#
# The venv is keyed by what it holds: the wheel's digest and the pulumi version, so a new SDK or a
# new pulumi release makes another. `newest` asks the index for pulumi's versions each time.
# ${VMAPI_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-vmapi}/python-package-<digest>-pulumi-<version>/
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
source "$HERE/../cache.sh"
END="" args=()
for arg in "$@"; do [[ "$arg" == --* ]] && args+=("$arg") || END="$arg"; done
cache_options packageVenv.sh "${args[@]+"${args[@]}"}"
[[ "$END" == lowest || "$END" == newest ]] || { echo "usage: packageVenv.sh lowest|newest [--find-only]" >&2; exit 2; }

if ((FIND_ONLY)); then DIST="$(bash "$HERE/wheel.sh" --find-only)"; else DIST="$(bash "$HERE/wheel.sh")"; fi
WHEEL="$(compgen -G "$DIST/*.whl" | head -1)"
TOOL="$CACHE/python-build-$(sha256sum <"$HERE/requirements-build.txt" | cut -c1-12)"
# The wheel's pulumi requirement, and the version at the asked end of it.
VERSION="$("$TOOL/bin/python" - "$WHEEL" "$END" <<'PY'
import re, subprocess, sys, zipfile
from packaging.requirements import Requirement
from packaging.version import Version
wheel, end = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(wheel) as z:
    meta = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))
    lines = z.read(meta).decode().splitlines()
req = next(Requirement(l.split(":", 1)[1]) for l in lines if l.startswith("Requires-Dist:") and re.match(r"Requires-Dist:\s*pulumi\b", l) and not re.match(r"Requires-Dist:\s*pulumi[_-]", l))
if end == "lowest":
    lows = [Version(s.version) for s in req.specifier if s.operator in (">=", "==")]
    print(min(lows))
else:
    out = subprocess.run([sys.executable, "-m", "pip", "index", "versions", "pulumi", "--disable-pip-version-check"],
                         capture_output=True, text=True, check=True).stdout
    listed = re.search(r"Available versions: (.*)", out).group(1).split(", ")
    print(max(v for v in map(Version, listed) if not v.is_prerelease and v in req.specifier))
PY
)"
VENV="$CACHE/python-package-$(sha256sum <"$WHEEL" | cut -c1-12)-pulumi-$VERSION"

cache_found "$VENV/bin/python" test -f "$VENV/installed"
cache_lock python.lock "$VENV/bin/python" test -f "$VENV/installed"

echo "installing $(basename "$WHEEL") with pulumi $VERSION and their dependencies into a fresh venv, $VENV" >&2
start=$(date +%s)
rm -rf "$VENV"
python3 -m venv "$VENV"
# With dependency resolution, as a user installs it; --only-binary: grpcio from source would take
# most of an hour on 2 cores.
"$VENV/bin/python" -m pip install --quiet --no-input --disable-pip-version-check --only-binary=:all: \
  "$WHEEL" "pulumi==$VERSION" >&2
touch "$VENV/installed"
echo "installed them in $(($(date +%s) - start)) s" >&2
echo "$VENV/bin/python"
