#!/usr/bin/env bash
# Runs mnrb's Ruby-level tests with BIN (bin/mnrb, or `ruby` to check expectations on CRuby).
#
#   test/run-ruby-tests.sh BIN [FILE...]
#
# FILEs default to every test/ruby/*_test.rb and test/ruby/expect/*.rb.
# - *_test.rb runs as `BIN -r test/lib/unit.rb FILE`; its last stdout line must be the
#   summary `N passed, N failed[, N skipped]`. A file that crashes, hangs, exits non-zero with
#   a clean summary, or runs fewer tests than it defines counts as 1 failed.
# - expect/*.rb runs as `BIN FILE` and counts as 1 test. Header comments say what must happen:
#     # expect-status: N          exit status (default 0)
#     # expect-stdout: TEXT       TEXT appears on stdout; several of them must appear in order
#     # expect-stderr: TEXT       TEXT appears on stderr (any order: backtrace layouts differ)
#     # expect-no-stdout: TEXT    TEXT does not appear on stdout (same for expect-no-stderr)
#     # expect-mnrb-only: WHY       skipped unless BIN is mnrb (CRuby behaves otherwise, e.g. hangs)
# The environment passes through (RUBY_MAX_PROC, MNRB_TIMESLICE, MNTEST_VERBOSE, ...).
# TEST_TIMEOUT (seconds, default 300) bounds each file. The last output line is always
# `N passed, N failed`; the exit status is 1 if anything failed.

set -u

if [ $# -lt 1 ]; then
  echo "usage: $0 BIN [FILE...]" >&2
  exit 2
fi

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=$1
shift
case $BIN in */*) BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN") ;; esac
TIMEOUT=${TEST_TIMEOUT:-300}
UNIT=$ROOT/test/lib/unit.rb
TMP=$(mktemp -d "${TMPDIR:-/tmp}/mnrb-ruby-tests.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

if [ $# -eq 0 ]; then
  set -- "$ROOT"/test/ruby/*_test.rb "$ROOT"/test/ruby/expect/*.rb
fi

total_passed=0
total_failed=0
total_skipped=0

# show_tail FILE: the last lines of a captured stream, indented.
show_tail() {
  [ -s "$1" ] && tail -n 15 "$1" | sed 's/^/    | /'
}

# header FILE KEY: the values of `# KEY: value` comment lines, one per line.
header() {
  sed -n "s/^# $2: //p" "$1"
}

# describe_status STATUS: a word for how the process ended.
describe_status() {
  case $1 in
    124) echo "timed out after ${TIMEOUT}s" ;;
    13[0-9]|14[0-9]) echo "killed by signal $(($1 - 128))" ;;
    *) echo "exit status $1" ;;
  esac
}

# run_bin OUT ERR ARGS...: BIN ARGS with a time limit (SIGKILL 10 s after the SIGTERM). The
# outer redirection keeps bash's own "Killed" notice out of the report.
run_bin() {
  local out=$1 err=$2
  shift 2
  { timeout -k 10 "$TIMEOUT" "$BIN" "$@" >"$out" 2>"$err" </dev/null; } 2>/dev/null
}

run_unit_file() {
  local file=$1 out=$TMP/out err=$TMP/err status summary p f s defined ran problem=""
  run_bin "$out" "$err" -r "$UNIT" "$file"
  status=$?
  summary=$(tail -n 1 "$out")
  if [[ $summary =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed(,\ ([0-9]+)\ skipped)?$ ]]; then
    p=${BASH_REMATCH[1]} f=${BASH_REMATCH[2]} s=${BASH_REMATCH[4]:-0}
    defined=$(grep -c '^ *def test_' "$file")
    ran=$((p + f + s))
    if [ "$status" -eq 124 ] || { [ "$f" -eq 0 ] && [ "$status" -ne 0 ]; }; then
      problem=$(describe_status "$status")
    elif [ -z "${MNTEST_FILTER:-}" ] && [ "$ran" -ne "$defined" ]; then
      problem="ran $ran of the $defined tests defined in the file"
    fi
    [ -n "$problem" ] && [ "$f" -eq 0 ] && f=1
  else
    p=0 f=1 s=0
    problem="no summary line ($(describe_status "$status"))"
  fi
  total_passed=$((total_passed + p))
  total_failed=$((total_failed + f))
  total_skipped=$((total_skipped + s))
  if [ "$f" -eq 0 ]; then
    echo "ok   $file: $summary"
    return
  fi
  echo "FAIL $file: $p passed, $f failed${problem:+ -- $problem}"
  if [ -n "$problem" ]; then
    show_tail "$out"
    show_tail "$err"
  else
    grep -v '^[0-9]* passed, ' "$out" | sed 's/^/    /'
  fi
}

# check_expect FILE: prints one line per unmet expectation.
check_expect() {
  local file=$1 status=$2 out err rest needle want
  out=$(cat "$TMP/out")
  err=$(cat "$TMP/err")
  want=$(header "$file" expect-status)
  [ "$status" -eq "${want:-0}" ] || echo "expected status ${want:-0}, got $(describe_status "$status")"
  rest=$out
  while IFS= read -r needle; do
    if [[ $rest == *"$needle"* ]]; then
      rest=${rest#*"$needle"}
    else
      echo "stdout lacks (in order): $needle"
    fi
  done < <(header "$file" expect-stdout)
  while IFS= read -r needle; do
    [[ $err == *"$needle"* ]] || echo "stderr lacks: $needle"
  done < <(header "$file" expect-stderr)
  while IFS= read -r needle; do
    [[ $out == *"$needle"* ]] && echo "stdout unexpectedly has: $needle"
  done < <(header "$file" expect-no-stdout)
  while IFS= read -r needle; do
    [[ $err == *"$needle"* ]] && echo "stderr unexpectedly has: $needle"
  done < <(header "$file" expect-no-stderr)
  return 0
}

run_expect_file() {
  local file=$1 status problems
  if [ -n "$(header "$file" expect-mnrb-only)" ] && [[ $(basename "$BIN") != mnrb* ]]; then
    total_skipped=$((total_skipped + 1))
    echo "skip $file (mnrb-only)"
    return
  fi
  # Run from the file's directory so that messages name it the same way on every runtime.
  (cd "$(dirname "$file")" && run_bin "$TMP/out" "$TMP/err" "$(basename "$file")")
  status=$?
  problems=$(check_expect "$file" "$status")
  if [ -z "$problems" ]; then
    total_passed=$((total_passed + 1))
    echo "ok   $file"
  else
    total_failed=$((total_failed + 1))
    echo "FAIL $file"
    echo "$problems" | sed 's/^/    /'
    show_tail "$TMP/out"
    show_tail "$TMP/err"
  fi
}

files=()
for arg in "$@"; do
  case $arg in /*) files+=("$arg") ;; *) files+=("$PWD/$arg") ;; esac
done
cd "$ROOT" || exit 2

for file in "${files[@]}"; do
  file=${file#"$ROOT"/}
  if [ ! -f "$file" ]; then
    echo "FAIL $file: no such file"
    total_failed=$((total_failed + 1))
  elif [[ $file == */expect/*.rb ]]; then
    run_expect_file "$file"
  else
    run_unit_file "$file"
  fi
done

[ "$total_skipped" -gt 0 ] && echo "($total_skipped skipped)"
echo "$total_passed passed, $total_failed failed"
[ "$total_failed" -eq 0 ]
