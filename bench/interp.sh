#!/usr/bin/env bash
# The interpreter's rows (issue 22): one small program per kind of Ruby code (bench/interp/*.rb; each
# prints the seconds of its timed loop), mnrb beside CRuby in this run, best of N interleaved runs;
# then fib(30) beside stock mruby 3.3.0 (no threads runtime) and CRuby. Usage:
#   bash bench/interp.sh [MNRB] [RUBY] [RUNS]     (defaults: bin/mnrb, ruby, 3)
# A row's ratio is mnrb's best time over CRuby's best time: under 1.00 is faster than CRuby.
set -u
cd "$(dirname "$0")/.."
MNRB=${1:-bin/mnrb}
RUBY=${2:-ruby}
RUNS=${3:-3}
STOCK=build/stock/bin/mruby
rv=$($RUBY -e 'print RUBY_VERSION')

rows=(
  "fib_include:seed 003's fib (array literal + include? per call), fib(24) x 10"
  "cmethod_block:C methods with a block (reverse_each, index, each_with_index...)"
  "kwargs:methods taking keyword arguments"
  "yield:a Ruby method yielding to a block; &blk.call"
  "times:Integer#times, upto, Range#each, step with a block"
  "class_new:Class#new with initialize"
  "ivar:instance variables, attr_accessor"
  "fib:recursive calls, fib(30)"
  "nqueens:n-queens (10), arrays and blocks"
  "binary_trees:binary trees (allocation, recursion)"
  "nbody:float loop, n-body"
  "matmul:float loop, matrix multiply 120x120"
  "gc_alloc:GC-heavy allocation beside 1M live objects"
  "const:constants read in a loop (top-level, A::B, a method's lexical scope)"
)

best() {  # command...: the smallest of the printed seconds over RUNS runs (called interleaved by row())
  "$@" 2>/dev/null | tail -n1
}
min() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == "" || b !~ /^[0-9.]+$/) print a; else if (a == "" || b < a) print b; else print a }'; }

echo "The interpreter (issue 22): each program's timed loop, best of $RUNS interleaved runs, mnrb beside CRuby $rv (no JIT); ratio = mnrb / CRuby (target: at most 1.00, none above 1.30)"
echo
printf '| %-78s | %8s | %8s | %6s |\n' "program (bench/interp/)" "mnrb s" "CRuby s" "ratio"
printf '|%s|%s|%s|%s|\n' "--------------------------------------------------------------------------------" "----------" "----------" "--------"
worst=0; over=0
for row in "${rows[@]}"; do
  name=${row%%:*}; label=${row#*:}
  m=""; c=""
  for _ in $(seq "$RUNS"); do
    m=$(min "$m" "$(best $MNRB bench/interp/$name.rb)")
    c=$(min "$c" "$(best $RUBY bench/interp/$name.rb)")
  done
  r=$(awk -v a="$m" -v b="$c" 'BEGIN { if (a > 0 && b > 0) printf "%.2f", a / b; else print "-" }')
  printf '| %-78s | %8s | %8s | %6s |\n' "$name: $label" "${m:-failed}" "${c:-failed}" "$r"
  [ "$r" != - ] && worst=$(awk -v a="$worst" -v b="$r" 'BEGIN { print (b > a) ? b : a }')
  [ "$r" != - ] && awk -v r="$r" 'BEGIN { exit !(r > 1.0) }' && over=$((over + 1))
done
echo
echo "Rows above 1.00x CRuby: $over of ${#rows[@]}; worst $worst x."
# where the rows started: issue 22's measurements (mnrb 0.1.0 on mruby 3.1.0 / CRuby 3.1.2, one run
# each, best of three), kept here so that each run shows before and after together
echo "Before (issue 22, mnrb 0.1.0 on mruby 3.1.0 / CRuby 3.1.2): fib_include 6.2x, cmethod_block 7.9x, kwargs 5.4x, yield 5.4x, times 2.4x, class_new 2.9x, ivar 2.0-2.3x, fib, nqueens and binary_trees 1.7-2.1x, nbody and matmul 1.8x, gc_alloc 2.6x (const: 1.17x at its first make bench, 2026-11-26 15:09 UTC)."
if [ -x "$STOCK" ]; then
  echo
  echo "fib(30) (bench/fib.rb), best of $RUNS interleaved runs: mnrb, stock mruby 3.3.0, CRuby $rv"
  bm=""; bs=""; bc=""
  for _ in $(seq "$RUNS"); do
    bm=$(min "$bm" "$($MNRB bench/fib.rb 30 | sed -nE 's/.*: ([0-9.]+) s/\1/p')")
    bs=$(min "$bs" "$($STOCK bench/fib.rb 30 | sed -nE 's/.*: ([0-9.]+) s/\1/p')")
    bc=$(min "$bc" "$($RUBY bench/fib.rb 30 | sed -nE 's/.*: ([0-9.]+) s/\1/p')")
  done
  awk -v m="$bm" -v s="$bs" -v c="$bc" 'BEGIN { printf "  mnrb %.3f s, stock mruby %.3f s, CRuby %.3f s: mnrb/stock %.2f, mnrb/CRuby %.2f (target: at most 1.00)\n", m, s, c, m / s, m / c }'
fi
