#!/usr/bin/env bash
# Runs every test suite `make test` names and prints one closing line "N passed, N failed".
#   core C tests:  release, ASan+UBSan and TSan builds of the core
#   embedding:     examples/embed/host.c, a C program on include/mnrb.h (release and ASan+UBSan builds)
#   Floats:        test/float-compare.sh, random cases against Debian's CRuby (release and ASan+UBSan)
#   Random:        test/random/compare.rb, random (seed, method, argument) cases against Debian's CRuby
#   Ruby suite:    bin/mnrb as is; with 2 native threads and randomized 1-5 ms timeslices (stress);
#                  in 1:1 mode; and under the ASan+UBSan and TSan builds of the whole runtime (also with
#                  short random timeslices)
#   traces:        test/trace/test_traces.py (release and TSan builds)
#   stress:        test/stress/run.rb: the stress suite (release, ASan+UBSan, TSan), SIGTERM at random moments
#   trace tool:    test/trace/test_tool.py (bin/mnrb-trace; bad input also under its ASan+UBSan build)
#   mnrb-tune:     test/tune-tests.sh (synthetic CPU-, sleep-bound and mixed work; bad scripts)
set -u
cd "$(dirname "$0")/.."
B=build
total_pass=0; total_fail=0; summary=()
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$PWD/test/tsan.supp"

run() {  # run LABEL COMMAND...: the command's last "N passed, N failed" line is counted
  local label=$1; shift
  local log; log=$(mktemp)
  local t0=$SECONDS
  echo "=== $label"
  "$@" > "$log" 2>&1
  local rc=$?
  local line; line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n1)
  local p=0 f=0
  if [ -n "$line" ]; then
    p=$(echo "$line" | sed -E 's/^([0-9]+) passed.*/\1/')
    f=$(echo "$line" | sed -E 's/^[0-9]+ passed, ([0-9]+) failed.*/\1/')
  fi
  if [ -z "$line" ] || { [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; }; then f=$((f + 1)); fi
  grep -E '^(FAIL|not ok|  )' "$log" | head -n 60
  [ "$f" -ne 0 ] && tail -n 30 "$log"
  echo "    $label: ${p} passed, ${f} failed ($((SECONDS - t0)) s)"
  summary+=("$label: ${p} passed, ${f} failed")
  total_pass=$((total_pass + p)); total_fail=$((total_fail + f))
  rm -f "$log"
}

run "core (release)"  $B/host/core-tests
run "core (asan)"     $B/asan/core-tests
run "core (tsan)"     $B/tsan/core-tests
run "mrbtest (mruby + mnrb-compat)" bash test/run-mrbtest.sh $B/mruby/host/bin/mrbtest
run "cli"             bash test/cli-tests.sh bin/mnrb
run "mnrb-tune"       bash test/tune-tests.sh bin
run "embedding example" bash test/embed-tests.sh $B/host/embed-host
run "embedding example (asan+ubsan)" bash test/embed-tests.sh $B/asan/embed-host
run "floats vs CRuby (random seed)" bash test/float-compare.sh bin/mnrb
run "floats vs CRuby (asan+ubsan, random seed)" bash test/float-compare.sh $B/asan/mnrb 3000
run "Random vs CRuby (random seed)" ruby test/random/compare.rb bin/mnrb 5000
run "ruby"            bash test/run-ruby-tests.sh bin/mnrb
run "ruby (2 native threads, random 1-5 ms timeslices)" \
    env RUBY_MAX_PROC=2 MNRB_TIMESLICE=$((RANDOM % 5 + 1)) bash test/run-ruby-tests.sh bin/mnrb
run "ruby (1:1 threads)" env RUBY_MN_THREADS=0 bash test/run-ruby-tests.sh bin/mnrb
# the sanitizer runs use short random timeslices too: preemption then lands in far more places
run "ruby (asan+ubsan, random 1-5 ms timeslices)" \
    env MNRB_SANITIZER=asan MNRB_TIMESLICE=$((RANDOM % 5 + 1)) bash test/run-ruby-tests.sh $B/asan/mnrb
run "ruby (tsan, 2 native threads, random 1-5 ms timeslices)" \
    env MNRB_SANITIZER=tsan RUBY_MAX_PROC=2 MNRB_TIMESLICE=$((RANDOM % 5 + 1)) bash test/run-ruby-tests.sh $B/tsan/mnrb
# the stress suite (issue 18): programs doing everything at once, SIGTERM at random moments, their own
# data checks, RSS back to its baseline, no sanitizer report
run "stress"          ruby test/stress/run.rb bin/mnrb 25
run "stress (asan+ubsan)" env MNRB_SANITIZER=asan ruby test/stress/run.rb $B/asan/mnrb 20
run "stress (tsan, 2 native threads)" env MNRB_SANITIZER=tsan RUBY_MAX_PROC=2 ruby test/stress/run.rb $B/tsan/mnrb 15
# traces: each validated against Perfetto's schema, the thread state machine and GVL exclusivity
run "traces"          $B/pyvenv/bin/python test/trace/test_traces.py bin/mnrb
run "traces (tsan, 2 native threads)" \
    env MNRB_SANITIZER=tsan RUBY_MAX_PROC=2 $B/pyvenv/bin/python test/trace/test_traces.py $B/tsan/mnrb
# the trace reader: its numbers against check_trace.py's, its SVG, bad input (release and ASan+UBSan)
run "trace tool"      $B/pyvenv/bin/python test/trace/test_tool.py bin/mnrb bin/mnrb-trace $B/asan/mnrb-trace

echo
printf '%s\n' "${summary[@]}"
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
