#!/usr/bin/env python3
"""What CTest's own summary leaves out, one test a line, for scripts/test.sh:
    scripts/ctest_summary.py skipped build/ci/ctest-junit.xml
        every test CTest skipped, with the reason the test gave (its line that says
        "skipped"), from CTest's JUnit report (ctest --output-junit FILE);
    scripts/ctest_summary.py flaky build/ci/ctest-output.txt
        every test that failed and then passed when CTest ran it again (ctest --repeat
        until-pass:N), with how its failed runs ended, from CTest's console output: the
        JUnit report keeps only each test's last run."""
import re
import sys
import xml.etree.ElementTree as ET

def reason(case):
    lines = [l.strip() for l in (case.findtext("system-out") or "").splitlines() if l.strip()]
    said = [l for l in lines if "skip" in l.lower()]
    if said:
        return said[-1]
    skipped = case.find("skipped")
    return skipped.get("message", "no reason given") if skipped is not None else "disabled"

def skipped(path):
    try:
        cases = ET.parse(path).getroot().iter("testcase")
    except (OSError, ET.ParseError) as e:
        sys.exit(f"ctest_summary.py: {path}: {e}")
    return [(c.get("name"), reason(c)) for c in cases if c.get("status") in ("notrun", "disabled")]

# "12/117 Test  #31: test_transport_conformance ....***Timeout 300.03 sec"; a run again has
# no "12/117" in front.
RESULT = re.compile(r"Test\s+#\d+: (\S+) \.*\s*(\*\*\*)?(\w[\w :]*?)\s+[\d.]+ sec")

def flaky(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.readlines()
    except OSError as e:
        sys.exit(f"ctest_summary.py: {path}: {e}")
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
    return [(name, ", ".join(ends) + ", then passed") for name, ends in failures.items() if name in passed]

if __name__ == "__main__":
    readers = {"skipped": skipped, "flaky": flaky}
    if len(sys.argv) != 3 or sys.argv[1] not in readers:
        sys.exit(__doc__)
    for name, what in readers[sys.argv[1]](sys.argv[2]):
        print(f"  {name}: {what}")
