# Shared by the command-line test scripts (cli-tests.sh, embed-tests.sh): run a command, compare its
# exit status and look for a piece of its output (stdout and stderr together); count the results.
#   source test/lib/check.sh; check NAME STATUS SUBSTRING -- COMMAND...; ...; check_summary
pass=0; fail=0

check() {
  local name=$1 want_status=$2 want_out=$3; shift 4
  local out status
  out=$("$@" 2>&1); status=$?
  if [ "$status" = "$want_status" ] && [[ "$out" == *"$want_out"* ]]; then
    pass=$((pass + 1)); echo "ok   $name"
  else
    fail=$((fail + 1)); echo "FAIL $name: status $status (want $want_status), output: $(echo "$out" | head -c 600)"
  fi
}

check_summary() {  # the closing line test/run-all.sh counts; fails if any check did
  echo "$pass passed, $fail failed"
  [ "$fail" -eq 0 ]
}
