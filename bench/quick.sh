#!/usr/bin/env bash
# `make bench-quick`: the seeds' tables at small sizes, in under 2 minutes: seed 000's ring (threads
# and ractors, mnrb beside CRuby and Go), seed 001's sweeps (mnrb-tune, 0.4 s per point), seed 002's
# noisy neighbour (0.5 s per run), seed 003's fib(27) x 10. Same machine, same run: compare ratios.
set -u
cd "$(dirname "$0")/.."
MNRB=bin/mnrb
GORING=build/bench/go-ring
command -v go >/dev/null 2>&1 || PATH=$PATH:/usr/local/go/bin
mkdir -p build/bench
(cd bench/go && go build -o ../../$GORING .) || { echo "cannot build the Go ring" >&2; exit 1; }
tmp=$(mktemp -d); pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; rm -rf "$tmp"' EXIT
t0=$SECONDS

echo "mnrb $($MNRB -v | cut -d' ' -f2), $(nproc) CPUs, $(uname -r), $(date -u '+%Y-%m-%d %H:%M UTC'); command: make bench-quick"
echo
echo "Seed 000, the ring at 1,000 x 100 (make bench runs 10,000 x 1,000):"
for np in 1 2; do
  echo "  mnrb threads, $np native thread(s):  $(env RUBY_MAX_PROC=$np $MNRB bench/ring.rb 1000 100)"
  echo "  mnrb ractors, $np native thread(s):  $(env RUBY_MAX_PROC=$np $MNRB bench/ractor_ring.rb 1000 100)"
done
echo "  CRuby $(ruby -e 'print RUBY_VERSION') threads:              $(ruby bench/ring.rb 1000 100)"
echo "  Go, GOMAXPROCS=1:                  $(env GOMAXPROCS=1 $GORING -n 1000 -laps 100)"
if [ -x build/cruby33/bin/ruby ]; then   # built by make bench (scripts/build-cruby33.sh); skipped when absent
  echo "  CRuby 3.3 M:N threads, 1 native:   $(env RUBY_MN_THREADS=1 RUBY_MAX_CPU=1 build/cruby33/bin/ruby bench/ring.rb 1000 100)"
  echo "  CRuby 3.3 ractors:                 $(build/cruby33/bin/ruby -W0 bench/ractor_ring.rb 1000 100)"
fi

bash bench/seed001.sh 0.4 build/bench

LATENCY_S=0.005 ruby bench/latency_server.rb "$tmp/lat5" > /dev/null 2>&1 &
pids+=($!)
for _ in $(seq 100); do [ -s "$tmp/lat5" ] && break; sleep 0.1; done
echo
echo "Seed 002, noisy neighbour: requests to a 5 ms server, 0.5 s alone and beside a thread doing c += 1"
for who in mnrb CRuby; do
  cmd=$MNRB; [ $who = CRuby ] && cmd=ruby
  for mode in alone cpu; do echo "  $who: $($cmd bench/noisy_neighbor.rb "$tmp/lat5" $mode 0.5)"; done
done

echo
echo "Seed 003: fib(27) x 10, serially, in 10 threads, in 10 ractors, in 10 forked processes"
for m in serial threads ractors fork; do
  echo "  mnrb:  $($MNRB bench/fib_modes.rb $m 27)"
  echo "  CRuby: $(ruby -W0 bench/fib_modes.rb $m 27)"
done
echo
echo "bench-quick took $((SECONDS - t0)) s"
