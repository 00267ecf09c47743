#!/usr/bin/env bash
# Obtains the mruby 3.1.0 source through Debian's source package `mruby`, unpacks it into $1 and
# applies mnrb's own patches (patches/mruby/*.patch, in name order). Idempotent: a tree whose stamp
# matches the patch set is left alone. The source is a build input only; it is never committed.
set -euo pipefail
dest=${1:?usage: fetch-mruby.sh DESTDIR [--stock]}
stock=${2:-}   # --stock: no patches (the baseline `make bench` compares against)
top=$(cd "$(dirname "$0")/.." && pwd)
version=3.1.0
cache="$top/build/cache"
if [ "$stock" = --stock ]; then stamp_want=stock; else stamp_want=$(cat "$top"/patches/mruby/*.patch | sha256sum | cut -c1-16); fi
if [ -f "$dest/.mnrb-stamp" ] && [ "$(cat "$dest/.mnrb-stamp")" = "$stamp_want" ]; then exit 0; fi

orig=$(ls "$cache"/mruby_${version}.orig.tar.* 2>/dev/null | head -n1 || true)
if [ -z "$orig" ]; then
  # Derive a deb-src entry from the machine's own Debian sources (no host name is written here).
  src_list=/etc/apt/sources.list.d/mnrb-deb-src.sources
  if ! apt-get source --print-uris mruby >/dev/null 2>&1; then
    if [ -f /etc/apt/sources.list.d/debian.sources ]; then
      sed 's/^Types:.*/Types: deb-src/' /etc/apt/sources.list.d/debian.sources > "$src_list"
    elif [ -f /etc/apt/sources.list ]; then
      grep -E '^deb ' /etc/apt/sources.list | sed 's/^deb /deb-src /' > /etc/apt/sources.list.d/mnrb-deb-src.list
    else
      echo "fetch-mruby: no Debian apt sources found" >&2; exit 1
    fi
    apt-get update -qq
  fi
  mkdir -p "$cache"
  (cd "$cache" && apt-get source --download-only -qq "mruby=${version}*" >/dev/null 2>&1 || \
                  apt-get source --download-only -qq mruby >/dev/null)
  orig=$(ls "$cache"/mruby_${version}.orig.tar.* 2>/dev/null | head -n1 || true)
  [ -n "$orig" ] || { echo "fetch-mruby: Debian's source package did not provide mruby ${version}" >&2; exit 1; }
fi

rm -rf "$dest.tmp" && mkdir -p "$dest.tmp"
tar -xf "$orig" -C "$dest.tmp" --strip-components=1
[ "$stock" = --stock ] || for p in "$top"/patches/mruby/*.patch; do
  patch -s -p1 -d "$dest.tmp" < "$p" || { echo "fetch-mruby: $(basename "$p") does not apply" >&2; exit 1; }
done
# parse.y/keywords must not look newer than the shipped generated files (bison/gperf are not needed then).
touch "$dest.tmp"/mrbgems/mruby-compiler/core/y.tab.c "$dest.tmp"/mrbgems/mruby-compiler/core/lex.def
echo "$stamp_want" > "$dest.tmp/.mnrb-stamp"
rm -rf "$dest" && mv "$dest.tmp" "$dest"
