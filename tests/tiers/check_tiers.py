#!/usr/bin/env python3
"""Every registered test carries exactly one tier label.

  check_tiers.py CTEST BUILD_DIR   reads `ctest --show-only=json-v1` of the build
  check_tiers.py --self-test       requires the check to name a test without a
                                   tier and one with two, so a check that
                                   stopped reading the labels fails too

A test without a tier is run by no `ctest -L <tier>` (scripts/test.sh --fast
runs `-L unit`), and one with two is run twice by a run of both tiers.
"""
import json
import subprocess
import sys

TIERS = {"unit", "e2e", "browser", "cross", "package"}


def labels_of(test):
    for prop in test.get("properties", []):
        if prop.get("name") == "LABELS":
            return list(prop.get("value", []))
    return []


def problems(listing):
    """What is wrong with the tiers in a json-v1 listing, one line a test."""
    out = []
    tests = listing.get("tests", [])
    if not tests:
        out.append("no tests are registered: nothing to check")
    for test in tests:
        tiers = [l for l in labels_of(test) if l in TIERS]
        if len(tiers) != 1:
            out.append("%s: %s" % (test["name"],
                                   "no tier label" if not tiers else
                                   "tier labels " + ", ".join(tiers) + " (one only)"))
    return out


def self_test():
    listing = {"tests": [
        {"name": "good", "properties": [{"name": "LABELS", "value": ["unit"]}]},
        {"name": "none", "properties": [{"name": "TIMEOUT", "value": 10}]},
        {"name": "other", "properties": [{"name": "LABELS", "value": ["slow"]}]},
        {"name": "two", "properties": [{"name": "LABELS", "value": ["unit", "e2e"]}]},
    ]}
    got = problems(listing)
    want = ["none: no tier label", "other: no tier label",
            "two: tier labels unit, e2e (one only)"]
    if got != want:
        print("self-test: expected %r, got %r" % (want, got))
        return 1
    if problems({"tests": []}) == []:
        print("self-test: an empty listing passed")
        return 1
    print("self-test: the check names tests without a tier and with two")
    return 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) != 3:
        print(__doc__)
        return 2
    ctest, build = argv[1], argv[2]
    listing = json.loads(subprocess.run([ctest, "--show-only=json-v1"], cwd=build, check=True,
                                        capture_output=True, text=True).stdout)
    found = problems(listing)
    for line in found:
        print(line)
    if found:
        print("%d of %d tests lack exactly one tier label of: %s"
              % (len(found), len(listing.get("tests", [])), " ".join(sorted(TIERS))))
        return 1
    counts = {}
    for test in listing["tests"]:
        tier = [l for l in labels_of(test) if l in TIERS][0]
        counts[tier] = counts.get(tier, 0) + 1
    print("every test has one tier: " +
          ", ".join("%s %d" % (k, counts[k]) for k in sorted(counts)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
