#!/usr/bin/env python3
"""The README is a front door for NAS owners.

- README.md starts with its first code block, and that block holds exactly
  the two commands: the one that sets up, builds and runs the daemon, and the
  one that sets up, builds and runs every test (the one .ci/run calls);
- the text before the first heading says what each command installs;
- the README stays short (at most MAX_LINES lines), so the detail lives in
  docs/ and DEVELOPING.md;
- within its first screens it tells each kind of NAS how to install
  (Debian/Ubuntu with `apt install ./…deb`, never `dpkg -i`; TrueNAS SCALE,
  Unraid, Synology, OpenMediaVault; FreeBSD and TrueNAS CORE), how to start
  (the token), how to turn on notifications, and the demo.

Usage: check_readme.py SOURCE_DIR
"""
import os
import re
import sys

MAX_LINES = 200
COMMANDS = ["bash scripts/run.sh", "bash scripts/test.sh"]
# What the first screens after the commands must name, each with why.
MUST_NAME = [
    ("apt install ./", "the Debian/Ubuntu install with its dependencies"),
    ("TrueNAS SCALE", "the TrueNAS SCALE install"),
    ("Unraid", "the Unraid install"),
    ("Synology", "the Synology install"),
    ("OpenMediaVault", "the OpenMediaVault install"),
    ("FreeBSD", "the FreeBSD install"),
    ("TrueNAS CORE", "the TrueNAS CORE install"),
    ("api_token", "the first start: the token"),
    ("alerts", "turning on notifications"),
    ("--demo", "the demo"),
]


def main():
    root = os.path.abspath(sys.argv[1])
    with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    failures = []
    if len(lines) > MAX_LINES:
        failures.append("README.md has %d lines, more than %d: move detail to docs/ or DEVELOPING.md"
                        % (len(lines), MAX_LINES))
    if not lines or not lines[0].startswith("```"):
        failures.append("README.md does not start with a code block (line 1: %r)" % (lines[:1] or ""))
        end = 0
    else:
        end = next((i for i in range(1, len(lines)) if lines[i].startswith("```")), len(lines))
        block = [l.strip() for l in lines[1:end] if l.strip()]
        if block != COMMANDS:
            failures.append("README.md's first code block is %r, not the two commands %r" % (block, COMMANDS))
    with open(os.path.join(root, ".ci", "run"), encoding="utf-8") as f:
        ci = f.read()
    if "scripts/test.sh" not in ci:
        failures.append(".ci/run does not run scripts/test.sh, the README's test command")

    first_heading = next((i for i in range(end, len(lines)) if lines[i].startswith("#")), len(lines))
    opening = "\n".join(lines[end + 1:first_heading])
    if len(re.findall(r"\binstalls\b", opening)) < 2 or "mosquitto" not in opening:
        failures.append("the text after the two commands does not say what each installs "
                        "(the run command's packages; the test command's, mosquitto among them)")

    screens = "\n".join(lines[end + 1:end + 1 + 150])
    for needle, why in MUST_NAME:
        if needle not in screens:
            failures.append("the 150 lines after the commands do not name %r (%s)" % (needle, why))
    fence = False
    for n, line in enumerate(lines, 1):
        if line.startswith("```"):
            fence = not fence
        elif fence and re.search(r"\bdpkg -i\b", line):
            failures.append("README.md:%d: tells owners `dpkg -i`, which installs no dependencies; "
                            "use `apt install ./…deb`" % n)

    for f in failures:
        print("FAIL: " + f)
    if failures:
        return 1
    print("README.md: %d lines, starts with the two commands, and names every install path, the "
          "token, notifications and the demo" % len(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
