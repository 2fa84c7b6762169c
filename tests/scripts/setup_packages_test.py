#!/usr/bin/env python3
"""What scripts/setup.sh installs for each command, run against stubs.

The real setup.sh runs with apt-get, dpkg-query, systemctl, update-rc.d, id
and npm replaced by stubs that record their calls (nothing is installed and
the machine is not touched; the policy-rc.d it places goes to a temporary
path through DP_POLICY_RC_D). It checks that:
  - the run command (scripts/run.sh: setup.sh without flags) installs what
    building and running diskpulsed and diskpulse needs and no test-only tool
    (no broker, no Prometheus, no browser, no GoogleTest);
  - the test command's setup (scripts/test.sh's flags) installs mosquitto,
    prometheus, prometheus-alertmanager, podman and docker.io while a policy-rc.d
    refuses every service start, removes that policy afterwards, disables
    the units their packages enable, and never enables or starts one;
  - a policy-rc.d that was already there is left as it was.

Usage: setup_packages_test.py SOURCE_DIR
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

TEST_ONLY = {"mosquitto", "prometheus", "prometheus-alertmanager", "chromium", "libgtest-dev",
             "libgmock-dev", "fio", "sqlite3", "curl", "python3-jsonschema", "nodejs", "npm",
             "libfaketime", "clang-14", "libc++-14-dev", "podman", "runc", "mmdebstrap",
             "dpkg-dev", "qemu-user-static", "python3-aiosmtpd", "docker.io"}
RUNTIME = {"g++", "cmake", "make", "pkg-config", "libboost-dev", "nlohmann-json3-dev",
           "libsqlite3-dev", "zlib1g-dev", "libssl-dev", "libmosquitto-dev", "liburing-dev",
           "smartmontools", "tzdata"}
SERVICES = {"mosquitto": ["mosquitto.service"], "prometheus": ["prometheus.service"],
            "prometheus-alertmanager": ["prometheus-alertmanager.service"],
            "podman": ["podman.socket", "podman.service", "podman-restart.service",
                       "podman-auto-update.timer"],
            "docker.io": ["docker.service", "docker.socket", "containerd.service"]}

STUBS = {
    # Nothing is installed: every package is missing.
    "dpkg-query": "exit 1\n",
    "id": 'if [ "$1" = -u ]; then echo 0; else /usr/bin/id "$@"; fi\n',
    # Records each call and, for an install, what the policy says of a start.
    "apt-get": 'policy=none\n'
               'if [ -x "$DP_POLICY_RC_D" ]; then "$DP_POLICY_RC_D" prometheus.service start;'
               ' policy=$?; fi\n'
               'echo "apt-get policy=$policy $*" >>"$STUB_LOG"\n',
    "systemctl": 'echo "systemctl $*" >>"$STUB_LOG"\n',
    "update-rc.d": 'echo "update-rc.d $*" >>"$STUB_LOG"\n',
    "npm": 'echo "npm $*" >>"$STUB_LOG"\nif [ "$1" = root ]; then echo "$STUB_DIR/npm-root"; fi\n',
}


def run_setup(source, env_flags, policy_before=None):
    tmp = tempfile.mkdtemp(prefix="dp-setup-test.")
    try:
        os.makedirs(os.path.join(tmp, "scripts"))
        shutil.copy(os.path.join(source, "scripts", "setup.sh"), os.path.join(tmp, "scripts"))
        bindir = os.path.join(tmp, "bin")
        os.makedirs(bindir)
        for name, body in STUBS.items():
            path = os.path.join(bindir, name)
            with open(path, "w") as f:
                f.write("#!/bin/sh\n" + body)
            os.chmod(path, 0o755)
        log = os.path.join(tmp, "log")
        open(log, "w").close()
        policy = os.path.join(tmp, "policy-rc.d")
        if policy_before is not None:
            with open(policy, "w") as f:
                f.write(policy_before)
            os.chmod(policy, 0o755)
        env = {k: v for k, v in os.environ.items() if not k.startswith("DP_SETUP_")}
        env.update(env_flags)
        env.update({"PATH": bindir + ":" + env.get("PATH", "/usr/bin:/bin"), "STUB_LOG": log,
                    "STUB_DIR": tmp, "DP_POLICY_RC_D": policy})
        r = subprocess.run(["bash", os.path.join(tmp, "scripts", "setup.sh")], env=env,
                           capture_output=True, text=True, timeout=120)
        if r.returncode != 0:
            raise AssertionError("setup.sh exited %d:\n%s%s" % (r.returncode, r.stdout, r.stderr))
        with open(log) as f:
            calls = f.read().splitlines()
        after = None
        if os.path.exists(policy):
            with open(policy) as f:
                after = f.read()
        return calls, after
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def installs(calls):
    """[(policy, [packages])] for each apt-get install call."""
    out = []
    for c in calls:
        m = re.match(r"apt-get policy=(\S+) (.*)$", c)
        if m and " install " in " " + m.group(2) + " ":
            pkgs = [w for w in m.group(2).split() if not w.startswith("-") and w != "install"]
            out.append((m.group(1), pkgs))
    return out


def main():
    source = os.path.abspath(sys.argv[1])
    failures = []

    def check(cond, what):
        if not cond:
            failures.append(what)

    # The run command calls setup.sh without any flag.
    with open(os.path.join(source, "scripts", "run.sh")) as f:
        run_sh = f.read()
    setup_lines = [l for l in run_sh.splitlines() if "setup.sh" in l and not l.lstrip().startswith("#")]
    check(len(setup_lines) == 1 and "DP_SETUP_" not in setup_lines[0],
          "scripts/run.sh should call scripts/setup.sh once, without DP_SETUP_ flags: %r" % setup_lines)

    calls, _ = run_setup(source, {})
    run_pkgs = {p for _, pkgs in installs(calls) for p in pkgs}
    check(not (run_pkgs & TEST_ONLY),
          "the run command installs test-only packages: %s" % sorted(run_pkgs & TEST_ONLY))
    check(RUNTIME <= run_pkgs, "the run command misses %s" % sorted(RUNTIME - run_pkgs))
    check(not any(c.startswith(("systemctl", "update-rc.d", "npm")) for c in calls),
          "the run command touches services or npm: %s" % [c for c in calls if not c.startswith("apt-get")])

    test_flags = {"DP_SETUP_TEST_TOOLS": "1", "DP_SETUP_BROWSER": "1"}
    calls, policy_after = run_setup(source, test_flags)
    inst = installs(calls)
    for svc, units in SERVICES.items():
        during = [policy for policy, pkgs in inst if svc in pkgs]
        check(during == ["101"],
              "the test command installs %s with service starts refused (policy-rc.d exit 101): %s"
              % (svc, during or "not installed"))
        idx = [i for i, c in enumerate(calls) if c.startswith("apt-get") and svc in c.split()]
        for unit in units:
            disabled = [i for i, c in enumerate(calls)
                        if re.match(r"systemctl .*\bdisable\b.* %s$" % re.escape(unit), c)]
            check(idx and disabled and min(disabled) > max(idx),
                  "the test command disables %s after installing %s: %s" % (unit, svc, calls))
    def verb(call):  # systemctl's command: its first word that is not an option
        return next((w for w in call.split()[1:] if not w.startswith("-")), "")
    bad = [c for c in calls if c.startswith("systemctl ")
           and verb(c) in ("enable", "start", "restart", "reenable", "unmask")]
    check(not bad, "setup.sh enables or starts a service: %s" % bad)
    check(policy_after is None, "the policy-rc.d setup.sh placed is still there")
    test_pkgs = {p for _, pkgs in inst for p in pkgs}
    check({"libgtest-dev", "chromium", "fio"} <= test_pkgs,
          "the test command misses test tools: %s" % sorted({"libgtest-dev", "chromium", "fio"} - test_pkgs))

    mine = "#!/bin/sh\n# the administrator's own\nexit 0\n"
    calls, policy_after = run_setup(source, test_flags, policy_before=mine)
    check(policy_after == mine, "setup.sh changed or removed an existing policy-rc.d")
    for svc, units in SERVICES.items():
        for unit in units:
            check(any(re.match(r"systemctl .*\bdisable\b.* %s$" % re.escape(unit), c) for c in calls),
                  "with an existing policy-rc.d, %s is still disabled" % unit)

    for f in failures:
        print("FAIL: " + f)
    if failures:
        return 1
    print("setup.sh: the run command installs %d runtime packages and no test tool; the test "
          "command installs %s with starts refused and their units disabled"
          % (len(run_pkgs), ", ".join(sorted(SERVICES))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
