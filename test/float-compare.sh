#!/usr/bin/env bash
# Compares mnrb's Floats with CRuby's on random cases: test/float/gen.rb runs under CRuby and
# writes each case with CRuby's answer (bits and to_s of random doubles, + - * / on random,
# subnormal, huge and boundary operands, decimal strings including exact midpoints, float
# literals); test/float/check.rb runs them under BIN and prints "N passed, N failed" last.
#
#   test/float-compare.sh BIN [CASES]
#
# CASES defaults to 20000 (plus every power of two and its neighbours, and CASES/4 literals).
# The seed is random and printed; FLOAT_COMPARE_SEED=N replays a run. RUBY (default
# /usr/bin/ruby) is the CRuby that writes the expectations.
set -u

if [ $# -lt 1 ]; then
  echo "usage: $0 BIN [CASES]" >&2
  exit 2
fi
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=$1
CASES=${2:-20000}
RUBY=${RUBY:-/usr/bin/ruby}
SEED=${FLOAT_COMPARE_SEED:-$(( (RANDOM << 15) | RANDOM ))}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/mnrb-float-compare.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

echo "seed $SEED, $CASES cases (replay: FLOAT_COMPARE_SEED=$SEED $0 $BIN $CASES)"
if ! "$RUBY" "$ROOT/test/float/gen.rb" "$CASES" "$SEED" "$TMP" 2>"$TMP/gen.err"; then
  cat "$TMP/gen.err"
  echo "0 passed, 1 failed"
  exit 1
fi
"$BIN" "$ROOT/test/float/check.rb" "$TMP"
status=$?
[ "$status" -eq 0 ] || echo "seed $SEED: $BIN exited with status $status"
exit "$status"
