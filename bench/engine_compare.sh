#!/usr/bin/env bash
# An engine change measured: two mnrb binaries, BEFORE and AFTER, on the rows an engine move must not
# make worse (fib, the rings, creating threads and ractors, memory per thread and ractor, the Regexp
# cases, the noisy neighbour), interleaved in one run, best of 3 (memory: lowest of 3). A row more than
# 3% worse is marked WORSE: a defect to fix or to explain.
#   bash bench/engine_compare.sh BEFORE AFTER
# `make bench-engine` builds BEFORE from MNRB_BEFORE_REV (the last commit on mruby 3.1.0) and runs this.
set -u
cd "$(dirname "$0")/.."
BEFORE=${1:?usage: engine_compare.sh BEFORE_BIN AFTER_BIN}
AFTER=${2:?usage: engine_compare.sh BEFORE_BIN AFTER_BIN}
tmp=$(mktemp -d)
server=
cleanup() { [ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT

num() { sed -nE "s#$1#\\1#p" | head -n1; }   # num REGEX-with-one-group

# row LABEL UNIT LOWER_IS_BETTER(1|0) REGEX COMMAND... : COMMAND runs with $BIN replaced, 3 times each
row() {
  local label=$1 unit=$2 lower=$3 re=$4; shift 4
  local b a best_b= best_a=
  for _ in 1 2 3; do
    for who in before after; do
      local bin=$BEFORE; [ $who = after ] && bin=$AFTER
      local args=() x
      for x in "$@"; do args+=("${x//\$BIN/$bin}"); done
      local v; v=$("${args[@]}" 2>&1 | num "$re")
      [ -z "$v" ] && continue
      if [ $who = before ]; then b=$v; best_b=$(awk -v a="${best_b:-}" -v v="$v" -v l="$lower" 'BEGIN { print (a == "" || (l ? v < a : v > a)) ? v : a }')
      else a=$v; best_a=$(awk -v a="${best_a:-}" -v v="$v" -v l="$lower" 'BEGIN { print (a == "" || (l ? v < a : v > a)) ? v : a }'); fi
    done
  done
  awk -v l="$label" -v u="$unit" -v b="${best_b:-0}" -v a="${best_a:-0}" -v lower="$lower" 'BEGIN {
    if (b <= 0 || a <= 0) { printf "| %-52s | %12s | %12s | %7s | failed |\n", l, b, a, "-"; exit }
    r = a / b; worse = lower ? r > 1.03 : r < 0.97
    printf "| %-52s | %9.4g %-2s | %9.4g %-2s | %6.3fx | %s |\n", l, b, u, a, u, r, worse ? "WORSE" : "" }'
}

echo
echo "The engine: $("$BEFORE" -v) (before) and $("$AFTER" -v) (after), this run, best of 3 interleaved (memory: lowest)."
echo
printf '| %-52s | %12s | %12s | %7s | %s |\n' "row" "before" "after" "after/before" ""
printf '|%s|%s|%s|%s|%s|\n' "------------------------------------------------------" "--------------" "--------------" "---------" "---"
row "fib(30), one thread"                     s  1 'fib\(30\): ([0-9.]+) s'          '$BIN' bench/fib.rb 30
row "thread ring 10,000 x 1,000, 1 native thread" ns 1 '.* ([0-9.]+) ns/hand-off.*'   env RUBY_MAX_PROC=1 '$BIN' bench/ring.rb 10000 1000
row "ractor ring 10,000 x 1,000, 1 native thread" ns 1 '.* ([0-9.]+) ns/hand-off.*'   env RUBY_MAX_PROC=1 '$BIN' bench/ractor_ring.rb 10000 1000
row "creating 10,000 threads (each parks), per thread" us 1 '.*\(([0-9.]+) us/thread\).*' '$BIN' bench/create.rb 10000
row "memory per parked thread"                KiB 1 '.*; ([0-9.]+) KiB resident per thread' '$BIN' bench/create.rb 10000
row "creating 10,000 ractors, per ractor"     us 1 '.*: ([0-9.]+) us each'            env RUBY_MAX_PROC=1 '$BIN' bench/ractor_create.rb 10000
row "memory per waiting ractor (500)"         KiB 1 '.*: ([0-9.]+) KiB each.*'        env RUBY_MAX_PROC=1 '$BIN' bench/ractor_memory.rb 500
# the Regexp cases: one bench/regexp.rb run gives them all (best of 3 per case and binary)
for _ in 1 2 3; do "$BEFORE" bench/regexp.rb | sed 's/^/B|/'; "$AFTER" bench/regexp.rb | sed 's/^/A|/'; done | awk -F'|' '
  { n = $2; sub(/:.*/, "", n); sub(/ \(.*/, "", n); t = $2; sub(/^[^:]*: +/, "", t); sub(/ s .*/, "", t)
    k = $1 "|" n; if (!(k in best) || t + 0 < best[k]) best[k] = t + 0
    if (!(n in seen)) { seen[n] = 1; order[++count] = n } }
  END { for (i = 1; i <= count; i++) { n = order[i]; b = best["B|" n]; a = best["A|" n]
          printf "| %-52s | %9.4g %-2s | %9.4g %-2s | %6.3fx | %s |\n", "Regexp: " n, b, "s", a, "s", a / b, (a / b > 1.03) ? "WORSE" : "" } }'

ruby bench/latency_server.rb "$tmp/lat5" > /dev/null 2>&1 &
server=$!
for _ in $(seq 100); do [ -s "$tmp/lat5" ] && break; sleep 0.1; done
row "noisy neighbour: requests/s beside c += 1"  req/s 0 '.* ([0-9.]+) req/s.*'   '$BIN' bench/noisy_neighbor.rb "$tmp/lat5" cpu
row "noisy neighbour: requests/s alone"          req/s 0 '.* ([0-9.]+) req/s.*'   '$BIN' bench/noisy_neighbor.rb "$tmp/lat5" alone
