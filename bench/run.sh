#!/usr/bin/env bash
# `make bench`: the seeds' tables (ring, seed 001's sweeps through mnrb-tune, seed 002's noisy
# neighbour, seed 003's fib x 10) and mnrb's own targets, every system measured in this one run on
# this machine (compare ratios within a run, never absolute times across runs).
# `make demo` (--demo): just the seed's 10,000-thread ring, mnrb next to Go.
set -u
cd "$(dirname "$0")/.."
MNRB=bin/mnrb
STOCK=build/stock/bin/mruby
GORING=build/bench/go-ring
demo=${1:-}
# CRuby 3.3.8, the release that ships the seed's M:N scheduler (scripts/build-cruby33.sh; make bench builds it)
RUBY33=build/cruby33/bin/ruby
[ -x "$RUBY33" ] || RUBY33=
export RUBY33

if ! command -v go >/dev/null 2>&1; then
  if [ -x /usr/local/go/bin/go ]; then PATH=$PATH:/usr/local/go/bin
  else DEBIAN_FRONTEND=noninteractive apt-get install -y -qq golang-go >/dev/null; fi
fi
mkdir -p build/bench
(cd bench/go && go build -o ../../$GORING .) || { echo "cannot build the Go ring" >&2; exit 1; }

# field VALUE_AFTER PATTERN: pulls "N s" or "N ns/hand-off" out of a result line
secs() { sed -nE 's/.*: ([0-9.]+) s, .*/\1/p' | head -n1; }
nsph() { sed -nE 's/.* ([0-9.]+) ns\/hand-off.*/\1/p' | head -n1; }

ring_row() {  # label n laps command...
  local label=$1 n=$2 laps=$3; shift 3
  local out; out=$("$@" 2>&1)
  local s ns; s=$(echo "$out" | secs); ns=$(echo "$out" | nsph)
  if [ -z "$ns" ]; then printf '| %-44s | %9s | %8s | %10s | %s\n' "$label" "$n x $laps" "-" "-" "failed: $(echo "$out" | tail -n1)"; return; fi
  local ten_m; ten_m=$(awk -v ns="$ns" 'BEGIN { printf "%.1f", ns * 1e7 / 1e9 }')
  printf '| %-44s | %9s | %8s | %10s | %12s |\n' "$label" "$n x $laps" "$s" "$ns" "$ten_m"
  LAST_NS=$ns
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0 && b > 0) printf "%.2f", a / b; else printf "-" }'; }

header() {
  echo
  echo "$1"
  echo
  printf '| %-44s | %9s | %8s | %10s | %12s |\n' "system" "size" "ring s" "ns/hop" "10M hops, s"
  printf '|%s|%s|%s|%s|%s|\n' "----------------------------------------------" "-----------" "----------" "------------" "--------------"
}

cpu=$(sed -nE 's/^model name[^:]*: *//p' /proc/cpuinfo | head -n1)
echo "mnrb $($MNRB -v | cut -d' ' -f2) (commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)), $(nproc) CPUs ($cpu), Linux $(uname -r), $(date -u '+%Y-%m-%d %H:%M UTC'), load average $(cut -d' ' -f1 /proc/loadavg) at the start; command: make $([ "$demo" = --demo ] && echo demo || echo bench)"
header "Seed 000's ring: 10,000 threads or ractors x 1,000 laps (10M hand-offs; creation excluded; the 10M column extrapolates the smaller runs)"
# mnrb's thread rows and Go's: best of 3 rounds, interleaved (one run of either moves by 20-30% from
# run to run on this VM, with where its 10,000 stacks and records land in memory)
ring_best() {  # label n laps command...: prints the fastest of the runs ring_best_run saved for label
  local label=$1 n=$2 laps=$3; shift 3
  local f; f=build/bench/best.$(echo "$label" | tr -c 'a-zA-Z0-9' _)
  ring_row "$label" "$n" "$laps" sort -t' ' -k2 -g "$f"   # ring_row parses the best line
  rm -f "$f"
}
ring_best_run() {  # label command...: runs once, keeps "<ns> <output line>"
  local label=$1; shift
  local f; f=build/bench/best.$(echo "$label" | tr -c 'a-zA-Z0-9' _)
  local out; out=$("$@" 2>&1 | grep 'ns/hand-off' | head -n1)
  [ -n "$out" ] && echo "x $(echo "$out" | nsph) $out" >> "$f"
}
L1="mnrb M:N threads, 1 native thread"; L2="mnrb M:N threads, 2 native threads"
G1="Go, GOMAXPROCS=1 (unbuffered channels)"; G2="Go, GOMAXPROCS=2"
rm -f build/bench/best.*
for round in 1 2 3; do
  ring_best_run "$L1" env RUBY_MAX_PROC=1 $MNRB bench/ring.rb 10000 1000
  ring_best_run "$G1" env GOMAXPROCS=1 $GORING -n 10000 -laps 1000
  ring_best_run "$L2" env RUBY_MAX_PROC=2 $MNRB bench/ring.rb 10000 1000
  ring_best_run "$G2" env GOMAXPROCS=2 $GORING -n 10000 -laps 1000
done
ring_best "$L1" 10000 1000; t1=$LAST_NS
ring_best "$L2" 10000 1000; t2=$LAST_NS
ring_best "$G1" 10000 1000; g1=$LAST_NS
ring_best "$G2" 10000 1000; g2=$LAST_NS
echo
echo "mnrb / Go in this run (best of 3 interleaved each): $(ratio "$t1" "$g1")x with 1 native thread (GOMAXPROCS=1), $(ratio "$t2" "$g2")x with 2 (target: at most 0.7x GOMAXPROCS=1)."
[ "$demo" = --demo ] && exit 0
header "Seed 000's ring, continued: ractors and the other systems (one run each)"
ring_row "mnrb M:N ractors, 1 native thread"   10000 1000 env RUBY_MAX_PROC=1 $MNRB bench/ractor_ring.rb 10000 1000; r1=$LAST_NS
ring_row "mnrb M:N ractors, 2 native threads"  10000 1000 env RUBY_MAX_PROC=2 $MNRB bench/ractor_ring.rb 10000 1000; r2=$LAST_NS
ring_row "stock mruby Fibers (interpreter's floor)" 10000 1000 $STOCK bench/fiber_ring.rb 10000 1000
ring_row "mnrb 1:1 threads (RUBY_MN_THREADS=0)" 10000 10  env RUBY_MN_THREADS=0 $MNRB bench/ring.rb 10000 10
ring_row "CRuby $(ruby -e 'print RUBY_VERSION') threads (1:1, GVL)" 10000 10 ruby bench/ring.rb 10000 10
ring_row "CRuby $(ruby -e 'print RUBY_VERSION') ractors" 1000 100 ruby -W0 bench/ractor_ring.rb 1000 100
if [ -n "$RUBY33" ]; then
  v33=$($RUBY33 -e 'print RUBY_VERSION')
  ring_row "CRuby $v33 M:N threads, 1 native thread" 10000 100 env RUBY_MN_THREADS=1 RUBY_MAX_CPU=1 $RUBY33 bench/ring.rb 10000 100; c1=$LAST_NS
  ring_row "CRuby $v33 M:N threads, 2 native threads" 10000 100 env RUBY_MN_THREADS=1 RUBY_MAX_CPU=2 $RUBY33 bench/ring.rb 10000 100; c2=$LAST_NS
  ring_row "CRuby $v33 ractors (M:N)" 10000 100 env RUBY_MAX_CPU=2 $RUBY33 -W0 bench/ractor_ring.rb 10000 100; c3=$LAST_NS
  ring_row "CRuby $v33 threads (1:1, RUBY_MN_THREADS=0)" 10000 10 env RUBY_MN_THREADS=0 $RUBY33 bench/ring.rb 10000 10
fi
echo
echo "Ratios in this run: mnrb ractor ring / thread ring $(ratio "$r1" "$t1")x with 1 native thread, $(ratio "$r2" "$t2")x with 2 (target: at most 1.5x);"
echo "2 native threads / 1: threads $(ratio "$t2" "$t1")x, ractors $(ratio "$r2" "$r1")x (target: no slower)."
[ -n "$RUBY33" ] && echo "The seed's own system (CRuby $v33, MaNy) / mnrb: threads $(ratio "$c1" "$t1")x with 1 native thread, $(ratio "$c2" "$t2")x with 2; ractors $(ratio "$c3" "$r2")x."

header "Ring: 1,000 threads x 100 laps (100,000 hand-offs)"
# mnrb's first row and Go's first row: best of 3 rounds, interleaved, as above; the shuffled rows
# pass the token along one fixed random cycle instead of creation order (bench/ring.rb), so that
# the hardware prefetcher's share of the in-order ring shows
S1="mnrb M:N, 1 native thread"; SG1="Go, GOMAXPROCS=1"
S1S="mnrb M:N, 1 native thread, shuffled order"; SG1S="Go, GOMAXPROCS=1, shuffled order"
for round in 1 2 3; do
  ring_best_run "$S1" env RUBY_MAX_PROC=1 $MNRB bench/ring.rb 1000 100 5
  ring_best_run "$SG1" env GOMAXPROCS=1 $GORING -n 1000 -laps 100
  ring_best_run "$S1S" env RUBY_MAX_PROC=1 $MNRB bench/ring.rb 1000 100 5 shuffled
  ring_best_run "$SG1S" env GOMAXPROCS=1 $GORING -n 1000 -laps 100 -shuffled
done
ring_best "$S1" 1000 100; k1=$LAST_NS
ring_row "mnrb M:N, 2 native threads"  1000 100 env RUBY_MAX_PROC=2 $MNRB bench/ring.rb 1000 100 5
ring_row "mnrb 1:1 (RUBY_MN_THREADS=0)" 1000 100 env RUBY_MN_THREADS=0 $MNRB bench/ring.rb 1000 100
ring_row "CRuby $(ruby -e 'print RUBY_VERSION') (1:1 threads, GVL)" 1000 100 ruby bench/ring.rb 1000 100
[ -n "$RUBY33" ] && ring_row "CRuby $v33 M:N threads, 1 native thread" 1000 100 env RUBY_MN_THREADS=1 RUBY_MAX_CPU=1 $RUBY33 bench/ring.rb 1000 100
[ -n "$RUBY33" ] && ring_row "CRuby $v33 M:N threads, 2 native threads" 1000 100 env RUBY_MN_THREADS=1 RUBY_MAX_CPU=2 $RUBY33 bench/ring.rb 1000 100
ring_best "$SG1" 1000 100; kg1=$LAST_NS
ring_row "Go, GOMAXPROCS=2"            1000 100 env GOMAXPROCS=2 $GORING -n 1000 -laps 100
ring_row "stock mruby Fibers (interpreter's floor)" 1000 100 $STOCK bench/fiber_ring.rb 1000 100
ring_best "$S1S" 1000 100; k1s=$LAST_NS
ring_best "$SG1S" 1000 100; kg1s=$LAST_NS
echo
echo "mnrb / Go at 1,000 threads (1 native thread, GOMAXPROCS=1; best of 3 interleaved each): $(ratio "$k1" "$kg1")x in creation order (target: at most 0.5x), $(ratio "$k1s" "$kg1s")x in the shuffled order."

echo
echo "fib(32) in one thread, best of 5 interleaved runs: mnrb (safepoint checks, no preemption pending) vs stock mruby 3.3.0"
best_m=999; best_s=999
for i in 1 2 3 4 5; do
  m=$($MNRB bench/fib.rb 32 | sed -nE 's/.*: ([0-9.]+) s/\1/p')
  s=$($STOCK bench/fib.rb 32 | sed -nE 's/.*: ([0-9.]+) s/\1/p')
  best_m=$(awk -v a="$best_m" -v b="$m" 'BEGIN { print (b < a) ? b : a }')
  best_s=$(awk -v a="$best_s" -v b="$s" 'BEGIN { print (b < a) ? b : a }')
done
awk -v m="$best_m" -v s="$best_s" 'BEGIN { printf "  mnrb %.3f s, stock mruby %.3f s: mnrb/stock = %.3f\n", m, s, m / s }'

echo
echo "Observation costs on the ring (10,000 x 100), best of 5 interleaved runs (ns per hand-off):"
best_n=1e9; best_p=1e9; best_t=1e9
for i in 1 2 3 4 5; do
  n=$(build/bench/mnrb-no-events bench/ring.rb 10000 100 | nsph)
  p=$($MNRB bench/ring.rb 10000 100 | nsph)
  t=$($MNRB --trace=build/bench/ring.pftrace bench/ring.rb 10000 100 | nsph)
  best_n=$(awk -v a="$best_n" -v b="$n" 'BEGIN { print (b < a) ? b : a }')
  best_p=$(awk -v a="$best_p" -v b="$p" 'BEGIN { print (b < a) ? b : a }')
  best_t=$(awk -v a="$best_t" -v b="$t" 'BEGIN { print (b < a) ? b : a }')
done
size=$(stat -c %s build/bench/ring.pftrace); rm -f build/bench/ring.pftrace
awk -v n="$best_n" -v p="$best_p" -v t="$best_t" -v sz="$size" 'BEGIN {
  printf "  event sites compiled out %.1f, with no hook (as shipped) %.1f: %.3fx\n", n, p, p / n
  printf "  --trace on %.1f: %.2fx; about %.0f ns per event (3 events per hand-off); trace %.0f MB (%.0f bytes per hand-off)\n",
         t, t / p, (t - p) / 3, sz / 1e6, sz / 1e6 }'

build/bench/event-cost

echo
echo "Thread creation (10,000 threads that each park on a Queue):"
$MNRB bench/create.rb 10000 | sed 's/^/  /'

echo
echo "Timer accuracy (200 sleeps of 0.5 ms), mnrb vs CRuby:"
$MNRB bench/sleep.rb 0.0005 200 | sed 's/^/  mnrb:  /'
ruby bench/sleep.rb 0.0005 200 | sed 's/^/  CRuby: /'
bash bench/io.sh

echo
echo "Seed 002's timelines, drawn from this run's traces (tools/mnrb-trace/pictures.sh: bin/mnrb --trace, then"
echo "bin/mnrb-trace svg): two and ten CPU-bound threads taking turns; an I/O thread beside a CPU-bound one,"
echo "with CRuby's wake-up policy and with mnrb's; two ractors running in parallel."
bash tools/mnrb-trace/pictures.sh > /dev/null
for p in two-cpu-bound ten-cpu-bound io-neighbour-cruby-policy io-neighbour two-ractors; do echo "  Chart: docs/images/$p.svg"; done
bash bench/seed001.sh 1 docs/bench

echo
echo "Ractors (mnrb: one mrb_state per ractor; the ring is in the first table). Ring of 1,000 ractors x 100 laps, mnrb and CRuby:"
env RUBY_MAX_PROC=1 $MNRB bench/ractor_ring.rb 1000 100 | sed "s/^/  mnrb, 1 native thread: /"
ruby -W0 bench/ractor_ring.rb 1000 100 | sed "s/^/  CRuby $(ruby -e 'print RUBY_VERSION'): /"
[ -n "$RUBY33" ] && $RUBY33 -W0 bench/ractor_ring.rb 1000 100 | sed "s/^/  CRuby $v33: /"
echo "Ractor creation (1,000 ractors that each wait for a message):"
$MNRB bench/ractor_create.rb 1000 | sed 's/^/  /'
echo "Ractors created and finished one after another (bench/ractor_churn.rb 20000: \`Ractor.new(i) { |k| k * 2 }.take\`, 1 native thread; issue 20: no slower than CRuby 3.3, resident set flat):"
env RUBY_MAX_PROC=1 $MNRB bench/ractor_churn.rb 20000 | sed 's/^/  mnrb:  /'
[ -n "$RUBY33" ] && $RUBY33 -W0 bench/ractor_churn.rb 20000 | sed "s/^/  CRuby $v33: /"
echo "Memory per ractor (resident set growth over 500 ractors waiting for a message):"
env RUBY_MAX_PROC=1 $MNRB bench/ractor_memory.rb 500 | sed 's/^/  /'
echo "Message throughput from the main ractor to another (one-way stream, bench/ractor_messages.rb):"
$MNRB bench/ractor_messages.rb | sed 's/^/  mnrb:  /'
ruby -W0 bench/ractor_messages.rb | sed 's/^/  CRuby: /'
echo "CPU-parallel fib(32) x 4 (issue 20: 2 ractors at least 1.95x faster than 1 on 2 cores; load average $(cut -d' ' -f1 /proc/loadavg) at the start;"
echo "each interpreter runs the same script: best of 3 interleaved rounds; \"2 processes\" is the speed-up the machine gives two forked jobs at that moment):"
$MNRB bench/ractor_fib.rb 32 3 | sed 's/^/  mnrb:  /'
ruby -W0 bench/ractor_fib.rb 32 3 | sed 's/^/  CRuby: /'
[ -n "$RUBY33" ] && $RUBY33 -W0 bench/ractor_fib.rb 32 3 | sed "s/^/  CRuby $v33: /"
echo "Code with many methods (issue 20: a ractor runs any code at the main ractor's speed, N ractors scale; bench/ractor_many_methods.rb:"
echo "30,000 methods defined from source in one class, each called 20 times; load average $(cut -d' ' -f1 /proc/loadavg); best of 3 interleaved rounds;"
echo "\"processes\": fresh processes of the same interpreter, the machine's own scaling at that moment):"
$MNRB bench/ractor_many_methods.rb 30000 20 2 3 | sed 's/^/  mnrb:  /'
ruby -W0 bench/ractor_many_methods.rb 30000 20 2 3 | sed 's/^/  CRuby: /'
[ -n "$RUBY33" ] && $RUBY33 -W0 bench/ractor_many_methods.rb 30000 20 2 3 | sed "s/^/  CRuby $v33: /"

echo
echo "Regexp (bench/regexp.rb: the same patterns over about 3 MB of generated log lines), best of 3 interleaved runs, mnrb vs CRuby $(ruby -e 'print RUBY_VERSION'):"
for i in 1 2 3; do $MNRB bench/regexp.rb | sed 's/^/M|/'; ruby bench/regexp.rb | sed 's/^/C|/'; done | awk -F'|' '
  { n = $2; sub(/:.*/, "", n); sub(/ \(.*/, "", n); t = $2; sub(/^[^:]*: +/, "", t); r = t; sub(/ s .*/, "", t); sub(/^[^(]*/, "", r)
    k = $1 n; if (!(k in best) || t + 0 < best[k]) best[k] = t + 0; res[k] = r
    if (!(n in seen)) { seen[n] = 1; order[++count] = n } }
  END { for (i = 1; i <= count; i++) { n = order[i]; m = best["M" n]; c = best["C" n]
          printf "  %-30s mnrb %.3f s, CRuby %.3f s: %.2fx%s\n", n, m, c, m / c, (res["M" n] == res["C" n]) ? "" : "  RESULTS DIFFER" } }'
echo "  the engine alone (bench/onig_search.c: onig_search in a C loop over the same lines, no interpreter):"
cc -O2 bench/onig_search.c -o build/bench/onig-search -lonig && build/bench/onig-search

echo
bash bench/interp.sh $MNRB ruby 3

# the engine under mnrb: before (the last mnrb on mruby 3.1.0, built by make bench) and after
[ -x build/before/bin/mnrb ] && bash bench/engine_compare.sh build/before/bin/mnrb $MNRB
