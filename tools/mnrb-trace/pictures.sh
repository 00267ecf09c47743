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

# (3) a latency-sensitive thread (sleeps 1 ms in a loop: a stand-in for an I/O thread, as mnrb has no
#     managed I/O yet) next to a CPU-bound one: each wake-up waits up to a timeslice for the GVL
picture latency -- -e '
  done = false
  lat = Thread.new { n = 0; until done; sleep 0.001; n += 1; end; n }
  Thread.new { i = 0; i += 1 while i < 30_000_000; done = true }.join
  lat.join'

# (3b) the same, zoomed on the first timeslice's end: the latency thread runs for microseconds,
#      sleeps 1 ms, then wants the GVL for a whole timeslice
bin/mnrb-trace svg "$tmp/latency.pftrace" --from=100 --to=130 > "$out/latency-zoom.svg"
echo "$out/latency-zoom.svg: $(wc -c < "$out/latency-zoom.svg") bytes"

# (4) a Queue ping-pong (10 microseconds of it): each push hands the GVL to the popper, a wake
#     arrow and a switch on the same native thread
picture queue-ping-pong --from=1 --to=1.01 -- -e '
  a = Queue.new; b = Queue.new
  t = Thread.new { 2000.times { b << a.pop + 1 } }
  v = 0; 2000.times { a << v; v = b.pop }
  t.join'
