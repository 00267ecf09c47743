#!/usr/bin/env bash
# Obtains the mruby 3.3.0 source through Debian's source package `mruby` of Debian 13 "trixie" (the
# stable release that ships 3.3.0), unpacks it into $1 and applies mnrb's own patches
# (patches/mruby/*.patch, in name order). Idempotent: a tree whose stamp matches the patch set is left
# alone. The source is a build input only; it is never committed.
#
# apt runs with a private state under build/apt: a deb-src entry for trixie derived from the machine's
# own Debian sources (its mirrors, keyrings and components; no host name is written here), so the
# machine's apt configuration is neither read for another suite nor changed.
set -euo pipefail
dest=${1:?usage: fetch-mruby.sh DESTDIR [--stock]}
stock=${2:-}   # --stock: no patches (the baseline `make bench` compares against)
top=$(cd "$(dirname "$0")/.." && pwd)
version=3.3.0
suite=trixie
cache="$top/build/cache"
if [ "$stock" = --stock ]; then stamp_want=stock-$version; else stamp_want=$version-$(cat "$top"/patches/mruby/*.patch | sha256sum | cut -c1-16); fi
if [ -f "$dest/.mnrb-stamp" ] && [ "$(cat "$dest/.mnrb-stamp")" = "$stamp_want" ]; then exit 0; fi

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

orig=$(ls "$cache"/mruby_${version}.orig.tar.* 2>/dev/null | head -n1 || true)
if [ -z "$orig" ]; then
  apt_dir="$top/build/apt"
  rm -rf "$apt_dir" && mkdir -p "$apt_dir/parts" "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$cache"
  derive_sources | awk 'BEGIN { RS = ""; ORS = "\n\n" } !seen[$0]++' > "$apt_dir/parts/mnrb-$suite.list.tmp"
  if grep -q '^Types:' "$apt_dir/parts/mnrb-$suite.list.tmp"; then
    mv "$apt_dir/parts/mnrb-$suite.list.tmp" "$apt_dir/parts/mnrb-$suite.sources"
  else
    mv "$apt_dir/parts/mnrb-$suite.list.tmp" "$apt_dir/parts/mnrb-$suite.list"
  fi
  [ -s "$apt_dir/parts/"mnrb-$suite.* ] || { echo "fetch-mruby: no Debian apt sources found on this machine" >&2; exit 1; }
  : > "$apt_dir/none.list"
  apt_opts=(-o Dir::Etc::SourceList="$apt_dir/none.list" -o Dir::Etc::SourceParts="$apt_dir/parts"
            -o Dir::State::Lists="$apt_dir/lists" -o Dir::Cache="$apt_dir/cache" -o APT::Sandbox::User=root)
  apt-get "${apt_opts[@]}" update -qq
  (cd "$cache" && apt-get "${apt_opts[@]}" source --download-only -qq "mruby/$suite" >/dev/null)
  orig=$(ls "$cache"/mruby_${version}.orig.tar.* 2>/dev/null | head -n1 || true)
  [ -n "$orig" ] || { echo "fetch-mruby: Debian's source package did not provide mruby ${version}" >&2; exit 1; }
fi

rm -rf "$dest.tmp" && mkdir -p "$dest.tmp"
tar -xf "$orig" -C "$dest.tmp" --strip-components=1
[ "$stock" = --stock ] || for p in "$top"/patches/mruby/*.patch; do
  patch -s -p1 -d "$dest.tmp" < "$p" || { echo "fetch-mruby: $(basename "$p") does not apply" >&2; exit 1; }
done
# The patches carry parse.y and keywords, never the files generated from them: those are made here,
# once, with Debian's bison and gperf (as mruby's own rule would, paths relative to the tree), so that
# patches to the grammar compose and every build variant compiles the same parser. Then the generated
# files must not look older than their sources, or mruby's rake would make them again.
if [ "$stock" != --stock ]; then
  if grep -lq '^+++ b/mrbgems/mruby-compiler/core/parse.y' "$top"/patches/mruby/*.patch; then
    (cd "$dest.tmp" && bison -o mrbgems/mruby-compiler/core/y.tab.c mrbgems/mruby-compiler/core/parse.y) \
      || { echo "fetch-mruby: bison failed on the patched parse.y" >&2; exit 1; }
  fi
  if grep -lq '^+++ b/mrbgems/mruby-compiler/core/keywords' "$top"/patches/mruby/*.patch; then
    (cd "$dest.tmp" && gperf -L ANSI-C -C -p -j1 -i 1 -g -o -t -N mrb_reserved_word -k'1,3,$' \
       mrbgems/mruby-compiler/core/keywords > mrbgems/mruby-compiler/core/lex.def) \
      || { echo "fetch-mruby: gperf failed on the patched keywords" >&2; exit 1; }
  fi
fi
touch "$dest.tmp"/mrbgems/mruby-compiler/core/y.tab.c "$dest.tmp"/mrbgems/mruby-compiler/core/lex.def
echo "$stamp_want" > "$dest.tmp/.mnrb-stamp"
rm -rf "$dest" && mv "$dest.tmp" "$dest"
