#!/usr/bin/env bash
# The cost of GVL metrics (mrbgems/mnrb-gvltools) on the ring, the hand-off-bound worst case: every
# metric on vs all off, interleaved runs (so that a neighbour's load hits both alike), the best and
# the median of each, and their ratios.
#   bench/gvltools-overhead.sh [RUNS] [N] [LAPS]     (defaults: 7 10000 100)
set -u
cd "$(dirname "$0")/.."
runs=${1:-7} n=${2:-10000} laps=${3:-100}
secs() { sed -nE 's/.*: ([0-9.]+) s, .*/\1/p' | head -n1; }
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
best() { sort -n | head -n1; }
off=() on=()
for ((i = 0; i < runs; i++)); do
  off+=("$(bin/mnrb bench/ring.rb "$n" "$laps" | secs)")
  on+=("$(bin/mnrb -r ./bench/gvltools_on.rb bench/ring.rb "$n" "$laps" | secs)")
done
m_off=$(printf '%s\n' "${off[@]}" | median) b_off=$(printf '%s\n' "${off[@]}" | best)
m_on=$(printf '%s\n' "${on[@]}" | median) b_on=$(printf '%s\n' "${on[@]}" | best)
echo "ring $n x $laps, $runs interleaved runs each"
echo "  off: ${off[*]}  (best $b_off s, median $m_off s)"
echo "  on:  ${on[*]}  (best $b_on s, median $m_on s)"
awk -v a="$b_on" -v b="$b_off" -v c="$m_on" -v d="$m_off" \
  'BEGIN { printf "  every metric on / off: %.2fx (best), %.2fx (median)\n", a / b, c / d }'
