#!/usr/bin/env bash
# Runs mrbtest (mruby's own test suite, built with mnrb's patches, plus the mnrb-compat gem's tests)
# and restates its totals as "N passed, N failed".
set -u
BIN=${1:?usage: run-mrbtest.sh MRBTEST}
out=$("$BIN" 2>&1); status=$?
echo "$out" | grep -E "^(Fail|Error|Crash|KO):|^  (Total|OK|KO|Crash|Skip):" | head -n 60
ok=$(echo "$out" | sed -nE 's/^ *OK: ([0-9]+)/\1/p' | tail -n1)
ko=$(echo "$out" | sed -nE 's/^ *KO: ([0-9]+)/\1/p' | tail -n1)
crash=$(echo "$out" | sed -nE 's/^ *Crash: ([0-9]+)/\1/p' | tail -n1)
failed=$(( ${ko:-1} + ${crash:-1} ))
[ "$status" -ne 0 ] && [ "$failed" -eq 0 ] && failed=1
echo "${ok:-0} passed, $failed failed"
[ "$failed" -eq 0 ]
