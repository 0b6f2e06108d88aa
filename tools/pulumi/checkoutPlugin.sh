#!/usr/bin/env bash
# The install step of tools/pulumi/checkoutPlugin.ts, under the cache's checkout-plugin.lock
# (tools/cache.sh), so that runs at the same time (two `npm run pulumi`, two checkouts on one
# PULUMI_HOME) install the launcher once, and none pulls the plugin's folder from under another
# run's engine by installing it again:
#
#   PULUMI_HOME=... checkoutPlugin.sh CLI VERSION LAUNCHER MARK
#
# prints the installed executable, $PULUMI_HOME/plugins/resource-vmapi-v$VERSION/pulumi-resource-vmapi,
# once it holds LAUNCHER's text: found so under the lock, or installed then by
# `CLI plugin install resource vmapi VERSION --file LAUNCHER --reinstall`. The folder is replaced
# only when this tool installed what it holds: an executable that begins with MARK, the start of
# every launcher it writes. Anything else (a release the user installed, a build of their own) is
# left as it is: exits 3, saying on stderr what is there and what to do.
set -euo pipefail
# shellcheck source=../cache.sh
source "$(dirname "$0")/../cache.sh"
(($# == 4)) || { echo "usage: checkoutPlugin.sh CLI VERSION LAUNCHER MARK" >&2; exit 2; }
cli=$1 version=$2 launcher=$3 mark=$4
: "${PULUMI_HOME:?checkoutPlugin.sh installs into PULUMI_HOME, which is not set}"
dir="$PULUMI_HOME/plugins/resource-vmapi-v$version"
installed="$dir/pulumi-resource-vmapi"

cache_lock checkout-plugin.lock "$installed" cmp -s "$launcher" "$installed"
if [[ -e "$dir" ]] && ! cmp -s <(head -c "${#mark}" "$installed" 2>/dev/null) <(printf '%s' "$mark"); then
  echo "$dir holds a vmapi $version plugin that npm run pulumi did not install (a release, or a build of" \
    "your own); it is left as it is. To run programs on this checkout's plugin, use a PULUMI_HOME of" \
    "their own (unset PULUMI_HOME: npm run pulumi then uses .vmapi/pulumi-home), or remove that plugin:" \
    "PULUMI_HOME=$PULUMI_HOME pulumi plugin rm resource vmapi $version --yes" >&2
  exit 3
fi
[[ -e "$dir" ]] && echo "replacing the vmapi $version plugin in $PULUMI_HOME with this checkout's" >&2
if ! out=$("$cli" plugin install resource vmapi "$version" --file "$launcher" --reinstall 2>&1); then
  echo "pulumi plugin install resource vmapi $version --file $launcher --reinstall failed:" >&2
  echo "$out" >&2
  exit 1
fi
echo "$installed"
