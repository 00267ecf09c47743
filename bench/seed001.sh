#!/usr/bin/env bash
# Seed 001 ("How many threads is too many?"): its CPU-bound sweep (1, 2, 3, 4, 6, 8, 12, 24 workers)
# and its I/O-bound sweep (1, 2, 3, 5, 6, 10, 15, 30 workers, 50 ms requests on loopback), run by
# mnrb-tune for mnrb's threads, ractors and forked processes and CRuby's threads and processes.
# Tables on stdout; charts seed001-cpu.svg and seed001-io.svg in CHART_DIR.
#   bench/seed001.sh [SECONDS_PER_POINT [CHART_DIR]]   (default 1 and docs/bench; make bench-quick: less, build/bench)
set -u
cd "$(dirname "$0")/.."
dur=${1:-1}
out=${2:-docs/bench}
mkdir -p "$out"
tmp=$(mktemp -d); server=
# CRuby 3.3 (MaNy: RUBY_MN_THREADS=1 for the whole sweep; mnrb's default and CRuby 3.1 ignore it) when built
compare=(--compare ruby); [ -n "${RUBY33:-}" ] && compare+=(--compare "$RUBY33")
export RUBY_MN_THREADS=1
trap '[ -n "$server" ] && kill $server 2>/dev/null; rm -rf "$tmp"' EXIT

echo
echo "Seed 001, CPU-bound: fib(20) per unit, $dur s per point (bin/mnrb-tune bench/tune/fib.rb --compare ruby${RUBY33:+ --compare $RUBY33})"
bin/mnrb-tune bench/tune/fib.rb --levels 1,2,3,4,6,8,12,24 --duration "$dur" "${compare[@]}" \
  --svg "$out/seed001-cpu.svg" 2>&1 | sed -n '/^mode /,$p' | sed 's/^/  /'

LATENCY_S=0.05 bin/mnrb bench/latency_server.rb "$tmp/port" > /dev/null 2>&1 &
server=$!
for _ in $(seq 100); do [ -s "$tmp/port" ] && break; sleep 0.1; done
echo
echo "Seed 001, I/O-bound: one 50 ms loopback request per unit, $dur s per point (bin/mnrb-tune bench/tune/request.rb --compare ruby${RUBY33:+ --compare $RUBY33})"
MNRB_TUNE_PORTFILE="$tmp/port" bin/mnrb-tune bench/tune/request.rb --levels 1,2,3,5,6,10,15,30 --duration "$dur" \
  "${compare[@]}" --svg "$out/seed001-io.svg" 2>&1 | sed -n '/^mode /,$p' | sed 's/^/  /'
