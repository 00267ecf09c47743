"""The little test runner the trace suites share: @test registers a function, expect() fails it
with a message, run() runs the registered tests whose names contain a filter and prints one line
per test, then "N passed, N failed" (the line test/run-all.sh counts)."""

TESTS = []


def test(fn):
    TESTS.append(fn)
    return fn


class Failed(Exception):
    pass


def expect(cond, msg):
    if not cond:
        raise Failed(msg)


def run(name_filter=""):
    """Returns the exit status: 1 if a test failed."""
    passed = failed = 0
    for fn in TESTS:
        if name_filter not in fn.__name__:
            continue
        try:
            fn()
            print(f"ok   {fn.__name__}", flush=True)
            passed += 1
        except Exception as e:  # Failed, timeouts, checker and parse errors
            print(f"FAIL {fn.__name__}\n  {type(e).__name__}: {e}", flush=True)
            failed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0
