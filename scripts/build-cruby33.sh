#!/usr/bin/env bash
# Builds CRuby 3.3.8 (the release that ships the seed's M:N scheduler, "MaNy": RUBY_MN_THREADS=1,
# RUBY_MAX_CPU) from Debian stable's source package `ruby3.3`, for `make bench` to measure beside
# mnrb. Installs into build/cruby33 (bin/ruby there); built once and kept: a second run with the
# binary in place does nothing. Needs only Debian's packages: the tarball carries its generated
# files, and the bundled gems are left out (the benchmarks use none of them).
#   usage: build-cruby33.sh [JOBS]
set -euo pipefail
jobs=${1:-2}
top=$(cd "$(dirname "$0")/.." && pwd)
version=3.3.8
prefix="$top/build/cruby33"
src="$top/build/cruby33-src"
[ -x "$prefix/bin/ruby" ] && "$prefix/bin/ruby" -e 'exit(RUBY_VERSION == ARGV[0])' "$version" && exit 0

orig=$(bash "$top/scripts/debian-source.sh" ruby3.3 "$version")
rm -rf "$src" "$prefix" && mkdir -p "$src"
tar -xf "$orig" -C "$src" --strip-components=1
# Debian's tarball leaves the bundled gems out and CRuby's make would download them: none, then
: > "$src/gems/bundled_gems"
log="$top/build/cruby33.log"
echo "building CRuby $version from Debian's ruby3.3 source package (log: $log)" >&2
(
  cd "$src"
  ./configure --prefix="$prefix" --disable-install-doc --disable-install-rdoc --without-gmp \
    --with-out-ext=fiddle,psych,readline,win32,win32ole,dbm,gdbm,tk
  make -j"$jobs"
  make install-nodoc
) > "$log" 2>&1 || { tail -n 40 "$log" >&2; echo "build-cruby33: the build failed (log: $log)" >&2; exit 1; }
"$prefix/bin/ruby" -e 'exit(RUBY_VERSION == ARGV[0])' "$version" \
  || { echo "build-cruby33: the installed ruby is not $version" >&2; exit 1; }
rm -rf "$src"
