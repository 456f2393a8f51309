#!/usr/bin/env python3
"""Prints every test that failed and then passed when CTest ran it again (ctest --repeat
until-pass:N), with how its failed runs ended, from CTest's console output: its JUnit
report keeps only the last run of each test.
    scripts/flaky_tests.py build/ci/ctest-output.txt"""
import re
import sys

# "12/117 Test  #31: test_transport_conformance ....***Timeout 300.03 sec"; a run again has
# no "12/117" in front.
RESULT = re.compile(r"Test\s+#\d+: (\S+) \.*\s*(\*\*\*)?(\w[\w :]*?)\s+[\d.]+ sec")

def main(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.readlines()
    except OSError as e:
        sys.exit(f"flaky_tests.py: {path}: {e}")
    failures, passed = {}, set()
    for line in lines:
        m = RESULT.search(line)
        if not m:
            continue
        name, failed, outcome = m.group(1), m.group(2), m.group(3)
        if failed and outcome != "Skipped":
            failures.setdefault(name, []).append(outcome)
        elif outcome == "Passed":
            passed.add(name)
    flaky = [(name, ends) for name, ends in failures.items() if name in passed]
    for name, ends in flaky:
        print(f"  {name}: {', '.join(ends)}, then passed")
    return flaky

if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
