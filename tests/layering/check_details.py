#!/usr/bin/env python3
"""Verdict::details is for people: nothing in the product decides on it.

The judge, the alerts and the evaluator read the typed fields of a Verdict
(rule, segment_from, over_window, drift, stands_out, covered_by, ...); the
JSON `details` is written for the page, the API and the alert text. This
check fails on any read of a verdict's details as logic in service/src: a
call of value/contains/find/at/count/get on it, or an element read on the
right of an assignment or in a condition. Writes (`x.details["k"] = ...`)
and copies for display into another details are allowed.

  check_details.py ROOT            check the tree
  check_details.py --self-test ROOT  prove the check catches what it says
"""
import pathlib
import re
import sys

READ_CALL = re.compile(r"\bdetails\s*(\.|->)\s*(value|contains|find|at|count|get|is_\w+)\s*\(")
# details["k"] read in a condition or compared: `if (v.details["x"]`, `== ...`
READ_INDEX = re.compile(r"(\bif\s*\(|&&|\|\||!|==|!=)\s*[\w.>\-]*details\s*\[")
ALLOWED = {"model/verdict.cc"}  # the JSON form itself


def offences(text):
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        code = line.split("//", 1)[0]
        if READ_CALL.search(code) or READ_INDEX.search(code):
            out.append((n, line.strip()))
    return out


def check(root):
    src = pathlib.Path(root) / "service" / "src"
    bad = []
    for path in sorted(src.rglob("*")):
        if path.suffix not in (".cc", ".h"):
            continue
        rel = path.relative_to(src).as_posix()
        if rel in ALLOWED:
            continue
        for n, line in offences(path.read_text(errors="replace")):
            bad.append(f"service/src/{rel}:{n}: {line}")
    return bad


def self_test():
    caught = [
        'if (v.details.value("drift", false)) return;',
        'const auto s = own.details.value("segment_from", from);',
        'if (!env.details.contains("window")) {',
        'return v->details.value("stands_out", false);',
        'if (v.details["stands_out"]) x();',
    ]
    passed = [
        'v.details["drift"] = true;',
        'env.details["window"] = over.details["window"];',
        '// details.value("x") in a comment',
        'j["details"] = v.details;',
    ]
    ok = True
    for line in caught:
        if not offences(line):
            print(f"self-test: not caught: {line}")
            ok = False
    for line in passed:
        if offences(line):
            print(f"self-test: wrongly caught: {line}")
            ok = False
    return ok


def main(argv):
    if len(argv) >= 2 and argv[1] == "--self-test":
        ok = self_test()
        print("check_details self-test:", "ok" if ok else "FAILED")
        return 0 if ok else 1
    bad = check(argv[1] if len(argv) > 1 else ".")
    for line in bad:
        print(line)
    if bad:
        print(f"{len(bad)} read(s) of Verdict::details as logic: read a typed field instead "
              "(model/verdict.h); details is for people")
        return 1
    print("verdict details: display only")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
