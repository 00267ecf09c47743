#!/usr/bin/env bash
# Obtains the mruby 3.3.0 source through Debian's source package `mruby` of Debian 13 "trixie" (the
# stable release that ships 3.3.0), unpacks it into $1 and applies mnrb's own patches
# (patches/mruby/*.patch, in name order). Idempotent: a tree whose stamp matches the patch set is left
# alone. The source is a build input only; it is never committed.
# The source package comes through scripts/debian-source.sh (apt with a private state, no host name).
set -euo pipefail
dest=${1:?usage: fetch-mruby.sh DESTDIR [--stock]}
stock=${2:-}   # --stock: no patches (the baseline `make bench` compares against)
top=$(cd "$(dirname "$0")/.." && pwd)
version=3.3.0
suite=trixie
if [ "$stock" = --stock ]; then stamp_want=stock-$version; else stamp_want=$version-$(cat "$top"/patches/mruby/*.patch | sha256sum | cut -c1-16); fi
# up to date: the stamp is touched so that make sees it newer than these scripts and stops asking
if [ -f "$dest/.mnrb-stamp" ] && [ "$(cat "$dest/.mnrb-stamp")" = "$stamp_want" ]; then touch "$dest/.mnrb-stamp"; exit 0; fi

orig=$(bash "$top/scripts/debian-source.sh" mruby "$version" "$suite")

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
