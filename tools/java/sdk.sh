#!/usr/bin/env bash
# Prints the path of a Maven local repository holding the Java SDK of this repository (sdk/java,
# `mvn install`ed) and everything the Java quickstart (examples/java) needs to compile and run:
# com.pulumi:pulumi and its dependencies, the Maven plugins of both builds (compiler, resources,
# jar, install, exec). Makes it when the cache has none for these sources.
#
#   sdk.sh               the repository (run Maven with -Dmaven.repo.local=<it>, e.g. in MAVEN_OPTS)
#   --find-only          exit 1 instead of making it
#
# Outside the clone and never ~/.m2, so a fresh clone makes the same thing and a user's own Maven
# repository is left alone: ${VMAPI_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-vmapi}/java-maven-<digest>/repository,
# keyed by a digest of sdk/java and examples/java/pom.xml. One repository per digest, because a
# repository holds one jar per version: two clones whose SDKs differ at the same version each get
# their own. A new one starts as a copy of the newest one there, so after a change of the SDK
# only the SDK is built again (seconds), not downloaded again.
#
# What it runs, in copies of both folders (nothing is written into the clone): `mvn install` of
# the SDK, then in the example `mvn compile exec:java` of Pulumi's plugin discovery
# (com.pulumi.bootstrap.internal.Main packages, what the Java language host runs to learn which
# plugins a program needs): it compiles the example against the installed SDK, fetches what
# `exec:java` runs with, and must name the SDK's plugin.
# Needs a JDK (11 or newer) and Maven (3.8 or newer) on PATH. About 1 minute cold (downloads from
# Maven Central included), about half a minute after a change of the SDK alone.
set -euo pipefail

REPO="$(cd "$(dirname "$0")/../.." && pwd)"
source "$REPO/tools/cache.sh"
cache_options sdk.sh "$@"

# Every file the repository depends on: the SDK's (a Maven build's target/ left out) and the
# example's pom.
sources() {
  (cd "$REPO" && { find sdk/java -type f -not -path 'sdk/java/target/*'; echo examples/java/pom.xml; } | LC_ALL=C sort)
}
DIGEST="$(cd "$REPO" && sources | while read -r f; do echo "$f"; cat "$f"; done | sha256sum | cut -c1-12)"
DIR="$CACHE/java-maven-$DIGEST"

cache_found "$DIR/repository" test -d "$DIR/repository"
# Its own lock, not the Go builds' one: this is mostly downloads and javac.
cache_lock maven.lock "$DIR/repository" test -d "$DIR/repository"

for tool in java mvn; do
  command -v "$tool" >/dev/null || { echo "sdk.sh: no $tool on PATH: the Java SDK needs a JDK (11 or newer) and Maven (3.8 or newer)" >&2; exit 1; }
done
echo "installing the Java SDK (sdk/java) and what examples/java needs into $DIR/repository" >&2
start=$(date +%s)
work="$(mktemp -d)"
trap 'rm -rf "$work" "$DIR.tmp"' EXIT
rm -rf "$DIR.tmp"
mkdir -p "$DIR.tmp"
newest="$(ls -td "$CACHE"/java-maven-*/repository 2>/dev/null | grep -v '\.tmp/' | head -1 || true)"
if [[ -n "$newest" ]]; then
  echo "starting from a copy of $newest" >&2
  cp -a "$newest" "$DIR.tmp/repository"
fi

cp -r "$REPO/sdk/java" "$work/sdk"
rm -rf "$work/sdk/target"
mkdir "$work/example"
cp -r "$REPO/examples/java/pom.xml" "$REPO/examples/java/src" "$work/example/"
# The JVM options of tools/java/javaTools.ts (mavenOptions), for the same reasons: jansi.noreset
# (Debian's Maven 3.8.7 writes a terminal reset code to stdout as it exits, even with -B, which
# would end up in the plugin list below), and the first JIT tier only (3 times quicker here).
mvn_() {
  MAVEN_OPTS="${MAVEN_OPTS:-} -XX:TieredStopAtLevel=1 -Djansi.noreset=true" \
    mvn -B -q -Dmaven.repo.local="$DIR.tmp/repository" "$@"
}
mvn_ -f "$work/sdk/pom.xml" install >&2
plugins="$(mvn_ -f "$work/example/pom.xml" -Dorg.slf4j.simpleLogger.logFile=System.err compile exec:java \
  -DmainClass=com.pulumi.bootstrap.internal.Main -DmainArgs=packages)"
plugin_json="$(find "$REPO/sdk/java/src/main/resources" -name plugin.json | head -1)"
name="$(awk '$1 == "\"name\":" { gsub(/[",]/, "", $2); print $2; exit }' "$plugin_json")"
if [[ "$plugins" != *"\"$name\""* ]]; then
  echo "sdk.sh: the example's plugin discovery did not find the SDK's plugin \"$name\"; it printed: $plugins" >&2
  exit 1
fi
mv "$DIR.tmp" "$DIR"
echo "installed them in $(($(date +%s) - start)) s" >&2
echo "$DIR/repository"
