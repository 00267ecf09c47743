#!/usr/bin/env bash
# Regenerates the pictures in docs/images/ (seed 002's scenarios) with bin/mnrb and bin/mnrb-trace:
#   bash tools/mnrb-trace/pictures.sh        (from the repository's top; `make` first)
# Timings differ from run to run and machine to machine; the shapes should not.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=docs/images
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"

picture() {  # picture NAME [mnrb-trace svg options] -- mnrb arguments
  local name=$1; shift
  local svg_opts=()
  while [ "$1" != "--" ]; do svg_opts+=("$1"); shift; done
  shift
  bin/mnrb --trace="$tmp/$name.pftrace" "$@"
  bin/mnrb-trace svg "$tmp/$name.pftrace" "${svg_opts[@]}" > "$out/$name.svg"
  echo "$out/$name.svg: $(wc -c < "$out/$name.svg") bytes"
}

# (1) two CPU-bound threads take turns at each 100 ms timeslice
picture two-cpu-bound -- -e '
  ths = 2.times.map { Thread.new { i = 0; i += 1 while i < 15_000_000 } }
  ths.each(&:join)'

# (2) ten CPU-bound threads: each runs a timeslice, then waits for the nine others
picture ten-cpu-bound -- -e '
  ths = 10.times.map { Thread.new { i = 0; i += 1 while i < 8_000_000 } }
  ths.each(&:join)'

# (3) seed 002: a thread serving I/O (reads a pipe another thread writes every 2 ms) next to a
#     CPU-bound one. With CRuby's policy (MNRB_WAKEUP_PREEMPT=0) each readiness waits up to a
#     timeslice for the GVL; with mnrb's wake-up preemption the reader runs at once.
io_neighbour='
  r, w = IO.pipe
  done = false
  Thread.new { until done; sleep 0.002; w.write "x"; end }
  reader = Thread.new { n = 0; until done; r.read(1); n += 1; end; n }
  Thread.new { i = 0; i += 1 while i < 30_000_000; done = true }.join
  w.write "x"; reader.join'
MNRB_WAKEUP_PREEMPT=0 picture io-neighbour-cruby-policy -- -e "$io_neighbour"
picture io-neighbour -- -e "$io_neighbour"

# (3b) the same, zoomed on 30 ms: the reader waits ~100 ms per byte with CRuby's policy; with
#      mnrb's it runs within microseconds of each readiness, preempting the counter
bin/mnrb-trace svg "$tmp/io-neighbour-cruby-policy.pftrace" --from=100 --to=130 > "$out/io-neighbour-cruby-policy-zoom.svg"
bin/mnrb-trace svg "$tmp/io-neighbour.pftrace" --from=100 --to=130 > "$out/io-neighbour-zoom.svg"
echo "$out/io-neighbour*-zoom.svg written"

# (4) a Queue ping-pong (10 microseconds of it): each push hands the GVL to the popper, a wake
#     arrow and a switch on the same native thread
picture queue-ping-pong --from=1 --to=1.01 -- -e '
  a = Queue.new; b = Queue.new
  t = Thread.new { 2000.times { b << a.pop + 1 } }
  v = 0; 2000.times { a << v; v = b.pop }
  t.join'

# (5) two ractors computing in parallel on two native threads, each with its own GVL and heap
RUBY_MAX_PROC=2 picture two-ractors -- -e '
  def fib(n) = n < 2 ? n : fib(n - 1) + fib(n - 2)
  rs = 2.times.map { Ractor.new { a = []; 30.times { |i| fib(20); a << "x" * 1000; a.clear if i % 5 == 0 }; :done } }
  rs.each(&:take)'
