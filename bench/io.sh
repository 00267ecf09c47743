#!/usr/bin/env bash
# `make bench`, I/O part: seed 002's noisy neighbour, seed 001's I/O-bound sweep, a 10,000-connection
# echo server, seed 003's fib x 10 (serial, threads, fork); mnrb beside CRuby (and Go) in one run.
# Loopback only. Called by bench/run.sh; runs alone too: bash bench/io.sh
set -u
cd "$(dirname "$0")/.."
MNRB=${MNRB:-bin/mnrb}
GOECHO=build/bench/go-echo
CONNS=${ECHO_CONNS:-10000}
mkdir -p build/bench
if ! command -v go >/dev/null 2>&1 && [ -x /usr/local/go/bin/go ]; then PATH=$PATH:/usr/local/go/bin; fi
(cd bench/go && go build -o ../../$GOECHO ./echo) || { echo "cannot build the Go echo tools" >&2; exit 1; }
ulimit -n 20000 2>/dev/null || true
tmp=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; rm -rf "$tmp"; }
trap cleanup EXIT

start_server() {  # start_server NAME COMMAND...: starts it, waits for its port file
  local name=$1; shift
  rm -f "$tmp/$name"
  "$@" "$tmp/$name" > /dev/null 2>&1 &
  pids+=($!)
  for _ in $(seq 100); do [ -s "$tmp/$name" ] && return 0; sleep 0.1; done
  echo "server $name did not start" >&2
  return 1
}

echo
echo "Noisy neighbour (seed 002): request/response with a server answering after 5 ms, for 2 s, alone and"
echo "next to a thread doing c += 1; the counter's rate shows what it keeps of a core (server: CRuby)"
start_server lat5 ruby bench/latency_server.rb
RUBY33=${RUBY33:-}
v33=; [ -n "$RUBY33" ] && v33=$($RUBY33 -e 'print RUBY_VERSION')
whos=(mnrb "mnrb, CRuby's policy (MNRB_WAKEUP_PREEMPT=0)" CRuby)
[ -n "$RUBY33" ] && whos+=("CRuby $v33 M:N")
for who in "${whos[@]}"; do
  case $who in
    mnrb) cmd=($MNRB) ;;
    CRuby) cmd=(ruby) ;;
    "CRuby $v33 M:N") cmd=(env RUBY_MN_THREADS=1 $RUBY33) ;;
    *) cmd=(env MNRB_WAKEUP_PREEMPT=0 $MNRB) ;;
  esac
  for mode in alone cpu counter; do
    echo "  $who: $("${cmd[@]}" bench/noisy_neighbor.rb "$tmp/lat5" $mode)"
  done
done

echo
echo "Blocking calls that return at once, /dev/zero to /dev/null, 100,000 times (best of 3, interleaved):"
for mode in "" sys; do
  bio_m=; bio_c=
  for _ in 1 2 3; do
    t=$($MNRB bench/blocking_io.rb 100000 $mode | awk '{print $(NF-1)}'); bio_m=$(printf '%s\n' $bio_m $t | sort -g | head -1)
    t=$(ruby bench/blocking_io.rb 100000 $mode | awk '{print $(NF-1)}'); bio_c=$(printf '%s\n' $bio_c $t | sort -g | head -1)
  done
  what="output.write(input.read(10))"; [ -n "$mode" ] && what="output.syswrite(input.sysread(10)), no buffers"
  echo "  $what: mnrb $bio_m s, CRuby $bio_c s ($(awk -v m="$bio_m" -v c="$bio_c" 'BEGIN { printf "%.2fx", m / c }'))"
done

echo
echo "Wake-up latency beside a CPU-bound thread (1 ms sleeps, 200 of them):"
echo "  mnrb:                $($MNRB bench/wake_latency.rb)"
echo "  mnrb, CRuby's policy: $(MNRB_WAKEUP_PREEMPT=0 $MNRB bench/wake_latency.rb)"
echo "  CRuby:               $(ruby bench/wake_latency.rb)"
[ -n "$RUBY33" ] && echo "  CRuby $v33 M:N:      $(env RUBY_MN_THREADS=1 $RUBY33 bench/wake_latency.rb)"

echo
echo "I/O-bound sweep (seed 001): 30 requests to a loopback server answering after 50 ms (server: mnrb)"
start_server lat50 env LATENCY_S=0.05 $MNRB bench/latency_server.rb
echo "  mnrb:"
$MNRB bench/io_sweep.rb "$tmp/lat50" | sed 's/^/    /'
echo "  CRuby $(ruby -e 'print RUBY_VERSION'):"
ruby bench/io_sweep.rb "$tmp/lat50" | sed 's/^/    /'

echo
echo "Echo server, a thread (goroutine) per connection: $CONNS connections held at once, 10 lines each"
echo "(load generator: Go)"
start_server echo-mnrb $MNRB bench/echo_server.rb
echo "  mnrb:  $($GOECHO load "$tmp/echo-mnrb" "$CONNS" 10)"
start_server echo-cruby ruby bench/echo_server.rb
echo "  CRuby: $(timeout 300 $GOECHO load "$tmp/echo-cruby" "$CONNS" 10 || echo 'did not finish in 300 s')"
start_server echo-go $GOECHO server
echo "  Go:    $($GOECHO load "$tmp/echo-go" "$CONNS" 10)"

echo
echo "Seed 003: fib(27) x 10, serially, in 10 threads, in 10 ractors, in 10 forked processes (peak"
echo "memory: the parent's plus each child's)"
for m in serial threads ractors fork; do
  echo "  mnrb:  $($MNRB bench/fib_modes.rb $m 27)"
  echo "  CRuby: $(ruby -W0 bench/fib_modes.rb $m 27)"
  [ -n "$RUBY33" ] && echo "  CRuby $v33 M:N: $(env RUBY_MN_THREADS=1 $RUBY33 -W0 bench/fib_modes.rb $m 27)"
done
