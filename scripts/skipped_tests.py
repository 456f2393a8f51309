#!/usr/bin/env python3
"""Prints every test CTest skipped, with the reason the test gave (its line that says
"skipped"), from CTest's JUnit report (ctest --output-junit FILE).
    scripts/skipped_tests.py build/ci/ctest-junit.xml"""
import sys
import xml.etree.ElementTree as ET

def reason(case):
    lines = [l.strip() for l in (case.findtext("system-out") or "").splitlines() if l.strip()]
    said = [l for l in lines if "skip" in l.lower()]
    if said:
        return said[-1]
    skipped = case.find("skipped")
    return skipped.get("message", "no reason given") if skipped is not None else "disabled"

def main(path):
    try:
        cases = ET.parse(path).getroot().iter("testcase")
    except (OSError, ET.ParseError) as e:
        sys.exit(f"skipped_tests.py: {path}: {e}")
    skipped = [(c.get("name"), reason(c)) for c in cases if c.get("status") in ("notrun", "disabled")]
    for name, why in skipped:
        print(f"  {name}: {why}")
    return skipped

if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
