#!/usr/bin/env bash
# Downloads a source package of Debian's stable suite into build/cache (the .dsc, the upstream
# tarball and Debian's changes), for the builds that take their inputs from Debian: mruby 3.3.0 (the
# engine, scripts/fetch-mruby.sh) and CRuby 3.3 (the anchor `make bench` measures beside mnrb,
# scripts/build-cruby33.sh). Prints the path of the upstream tarball. Idempotent: a tarball already
# in the cache is not downloaded again.
#
# apt runs with a private state under build/apt: a deb-src entry for the suite derived from the
# machine's own Debian sources (its mirrors, keyrings and components; no host name is written here),
# so the machine's apt configuration is neither read for another suite nor changed.
#   usage: debian-source.sh PACKAGE VERSION [SUITE]     (SUITE defaults to trixie, Debian 13)
set -euo pipefail
pkg=${1:?usage: debian-source.sh PACKAGE VERSION [SUITE]}
version=${2:?usage: debian-source.sh PACKAGE VERSION [SUITE]}
suite=${3:-trixie}
top=$(cd "$(dirname "$0")/.." && pwd)
cache="$top/build/cache"

find_orig() { ls "$cache"/${pkg}_${version}.orig.tar.* 2>/dev/null | head -n1 || true; }

# The machine's Debian archive entries (not its -security/-updates suites) as deb-src entries for $suite.
derive_sources() {
  local f
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    awk -v suite="$suite" 'BEGIN { RS = ""; ORS = "\n\n" }
      /(^|\n)Suites:[ \t]*[a-z]+([ \t\n]|$)/ && /debian-archive-keyring|(^|\n)URIs:[^\n]*debian/ {
        gsub(/(^|\n)Types:[^\n]*/, "\nTypes: deb-src"); gsub(/(^|\n)Suites:[^\n]*/, "\nSuites: " suite)
        gsub(/(^|\n)Components:[^\n]*/, "\nComponents: main"); sub(/^\n/, ""); print }' "$f"
  done
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    awk -v suite="$suite" '$1 == "deb" && $0 ~ /debian/ && $3 !~ /-/ {
        uri = ($2 ~ /^\[/) ? $3 : $2; opts = ($2 ~ /^\[/) ? $2 " " : ""
        print "deb-src " opts uri " " suite " main" }' "$f"
  done
}

orig=$(find_orig)
if [ -z "$orig" ]; then
  apt_dir="$top/build/apt"
  mkdir -p "$apt_dir/parts" "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$cache"
  rm -f "$apt_dir/parts/"*
  derive_sources | awk 'BEGIN { RS = ""; ORS = "\n\n" } !seen[$0]++' > "$apt_dir/parts/mnrb-$suite.list.tmp"
  if grep -q '^Types:' "$apt_dir/parts/mnrb-$suite.list.tmp"; then
    mv "$apt_dir/parts/mnrb-$suite.list.tmp" "$apt_dir/parts/mnrb-$suite.sources"
  else
    mv "$apt_dir/parts/mnrb-$suite.list.tmp" "$apt_dir/parts/mnrb-$suite.list"
  fi
  [ -s "$apt_dir/parts/"mnrb-$suite.* ] || { echo "debian-source: no Debian apt sources found on this machine" >&2; exit 1; }
  : > "$apt_dir/none.list"
  apt_opts=(-o Dir::Etc::SourceList="$apt_dir/none.list" -o Dir::Etc::SourceParts="$apt_dir/parts"
            -o Dir::State::Lists="$apt_dir/lists" -o Dir::Cache="$apt_dir/cache" -o APT::Sandbox::User=root)
  apt-get "${apt_opts[@]}" update -qq
  (cd "$cache" && apt-get "${apt_opts[@]}" source --download-only -qq "$pkg/$suite" >/dev/null)
  orig=$(find_orig)
  [ -n "$orig" ] || { echo "debian-source: Debian's source package $pkg ($suite) did not provide version $version" >&2; exit 1; }
fi
echo "$orig"
