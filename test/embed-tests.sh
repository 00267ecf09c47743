#!/usr/bin/env bash
# The embedding example (examples/embed/host.c) as a user of include/mnrb.h would run it: each step's
# output, the exit status of its script, and bad input (a missing script, a syntax error).
#   test/embed-tests.sh BIN          prints "N passed, N failed" last
set -u
BIN=${1:?usage: embed-tests.sh BIN}
DEMO=examples/embed/demo.rb
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

source "$(dirname "$0")/lib/check.sh"

printf 'def broken(\n  1 +\n' > "$tmp/syntax.rb"
printf 'raise KeyError, "no key here"\n' > "$tmp/raises.rb"

check "usage"                      2 "usage:"                        -- "$BIN"
check "code from a string"         0 "C read: hello from the main ractor" -- "$BIN" "$DEMO"
check "two ractors from C"         0 'ractors returned: ["left", 6765, "hello from the main ractor"] ["right", 10946, "hello from the main ractor"]' -- "$BIN" "$DEMO"
check "exception rescued in C"     0 "C rescued: #<ArgumentError: no such widget>" -- "$BIN" "$DEMO"
check "failing ractor's cause"     0 "ractor failed: Ractor::RemoteError, cause #<IndexError: out of widgets>" -- "$BIN" "$DEMO"
check "the script and its ARGV"    0 'script demo.rb ARGV=["0", "x"]' -- "$BIN" "$DEMO" 0 x
check "C without the GVL, threads" 0 "checksums agree with a second run: true" -- "$BIN" "$DEMO"
check "GVL released while in C"    0 "the event posted while a thread waited in C: true" -- "$BIN" "$DEMO"
check "Thread#kill reaches C"      0 "killed in C: true, the wait ended: interrupted, waiters left: 0" -- "$BIN" "$DEMO"
check "C method's ArgumentError"   0 "bad input: negative timeout"  -- "$BIN" "$DEMO"
check "exit status of the script"  7 "bad input"                    -- "$BIN" "$DEMO" 7
check "missing script"             1 "cannot load such file -- $tmp/none.rb (LoadError)" -- "$BIN" "$tmp/none.rb"
check "syntax error"               1 "$tmp/syntax.rb:2: syntax error" -- "$BIN" "$tmp/syntax.rb"
check "uncaught exception"         1 "no key here (KeyError)"        -- "$BIN" "$tmp/raises.rb"
check "runtime settings from env"  0 "killed in C: true"            -- env RUBY_MAX_PROC=1 "$BIN" "$DEMO"
check "1:1 threads"                0 "killed in C: true"            -- env RUBY_MN_THREADS=0 "$BIN" "$DEMO"

check_summary
