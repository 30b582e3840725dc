"""Run the test suite against the installed perceptron, once per SIMD level.

Usage: python run_installed_tests.py TESTS_DIR [--level LEVEL ...] [--jobs N] [-- PYTEST_ARGS]

The test command of every wheel (pyproject.toml's [tool.cibuildwheel]) and of
the local wheel and sdist runs (build_and_test_local.py).  It prints
``perceptron.simd_info()``, then for each level (by default every level the
CPU supports; ``auto`` lets the package choose the best) starts a fresh
interpreter with PERCEPTRON_SIMD forcing it, checks that ``simd_info()``
reports that level, and runs pytest on TESTS_DIR there.  pytest runs from an
empty temporary folder, so the installed package is the one imported; the
script refuses a perceptron imported from a source tree.  With ``--jobs N``
up to N levels run at once, each in a folder and a pytest temporary
directory of its own, their output echoed level by level as each ends (a
run of the suite is one busy core: on two cores, three levels take the
time of two).  Exit status 0 when every level passes.
"""
import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time

PROBE = """
import json, perceptron
print(json.dumps({"file": perceptron.__file__, "version": perceptron.__version__,
                  "info": perceptron.simd_info()}))
"""


def probe(env, cwd):
    """Import perceptron in a fresh interpreter; return what it reports."""
    proc = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, env=env, cwd=cwd,
                          encoding="utf-8", errors="replace")
    if proc.returncode != 0:
        raise SystemExit(f"importing perceptron failed (PERCEPTRON_SIMD="
                         f"{env.get('PERCEPTRON_SIMD', '')!r}):\n{proc.stderr}")
    found = json.loads(proc.stdout)
    package = pathlib.Path(found["file"]).parent
    if (package / "simd.pyx").exists():
        raise SystemExit(f"perceptron was imported from the source tree {package}, not from "
                         "the installed package: run from outside the source tree")
    return found


def pytest_command(tests, extra, basetemp=None):
    cmd = [sys.executable, "-m", "pytest", str(tests), f"--rootdir={tests}",
           "-p", "no:cacheprovider", *extra]
    return cmd if basetemp is None else cmd + [f"--basetemp={basetemp}"]


def summary_line(lines):
    """pytest's closing summary: its last line that is not blank."""
    last = ""
    for line in lines:
        if line.strip():
            last = line.strip().strip("=").strip()
    return last


def run_pytest(tests, env, cwd, extra):
    """Run pytest, echoing its output; return (exit status, closing summary line)."""
    proc = subprocess.Popen(pytest_command(tests, extra), stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, env=env, cwd=cwd, encoding="utf-8",
                            errors="replace")
    seen = []
    for line in proc.stdout:
        sys.stdout.write(line)
        seen.append(line)
    sys.stdout.flush()
    return proc.wait(), summary_line(seen)


def run_concurrently(tests, runs, cwd, extra, jobs):
    """Run pytest for each (level, env) of `runs`, up to `jobs` at a time,
    each in a folder of its own under cwd with its own --basetemp, its output
    kept in a file and echoed, in the order of `runs`, once it and the runs
    before it have ended.  Returns [(exit status, closing summary line)] in
    the order of `runs`."""
    pending = list(enumerate(runs))
    running = {}  # index in runs -> (process, log file)
    done = {}
    echoed = []
    while len(echoed) < len(runs):
        while pending and len(running) < jobs:
            j, (level, env) = pending.pop(0)
            folder = pathlib.Path(cwd) / f"run-{j}-{level}"
            folder.mkdir()
            log = open(folder / "pytest.log", "w+", encoding="utf-8", errors="replace")
            proc = subprocess.Popen(pytest_command(tests, extra, folder / "tmp"), stdout=log,
                                    stderr=subprocess.STDOUT, env=env, cwd=folder)
            running[j] = (proc, log)
        for j, (proc, log) in list(running.items()):
            status = proc.poll()
            if status is not None:
                log.seek(0)
                done[j] = (status, log.read())
                log.close()
                del running[j]
        while len(echoed) < len(runs) and len(echoed) in done:
            status, text = done[len(echoed)]
            print(f"\n== PERCEPTRON_SIMD={runs[len(echoed)][0]}: the suite's output", flush=True)
            sys.stdout.write(text)
            sys.stdout.flush()
            echoed.append((status, summary_line(text.splitlines())))
        if len(echoed) < len(runs):
            time.sleep(0.5)
    return echoed


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    pytest_args = []
    if "--" in argv:
        split = argv.index("--")
        argv, pytest_args = argv[:split], argv[split + 1:]
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tests", type=pathlib.Path, help="the tests/ folder to run")
    parser.add_argument("--level", action="append", dest="levels",
                        help="a SIMD level to force, or 'auto' (repeatable; "
                             "default: every level the CPU supports)")
    parser.add_argument("--jobs", type=int, default=1,
                        help="levels to test at once (default 1: one after the other)")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error(f"--jobs must be at least 1, got {args.jobs}")
    tests = args.tests.resolve()
    if not (tests / "conftest.py").is_file():
        parser.error(f"{tests} is not the tests folder (no conftest.py)")

    # The children write UTF-8 and this process echoes it whatever the console
    # encoding (a Windows runner's is not UTF-8).
    sys.stdout.reconfigure(errors="backslashreplace")
    base_env = dict(os.environ, PYTHONUTF8="1")
    base_env.pop("PERCEPTRON_SIMD", None)
    with tempfile.TemporaryDirectory(prefix="perceptron-tests-") as cwd:
        found = probe(base_env, cwd)
        print(f"perceptron {found['version']} installed at {pathlib.Path(found['file']).parent}")
        print("simd_info() = " + json.dumps(found["info"], indent=2), flush=True)
        levels = args.levels or found["info"]["supported"]

        results, runs = [], []  # results: (position in levels, level, exit status, summary)
        for at, level in enumerate(levels):
            env = dict(base_env, PERCEPTRON_SIMD=level)
            expected = found["info"]["best"] if level == "auto" else level
            reported = probe(env, cwd)["info"]["level"]
            print(f"\n== PERCEPTRON_SIMD={level}: simd_info()['level'] = {reported!r}", flush=True)
            if reported != expected:
                results.append((at, level, 1,
                                f"simd_info() reports {reported!r}, not {expected!r}"))
                continue
            if args.jobs == 1:
                status, summary = run_pytest(tests, env, cwd, pytest_args)
                results.append((at, level, status, summary))
            else:
                runs.append((at, level, env))
        if runs:
            done = run_concurrently(tests, [(level, env) for _, level, env in runs], cwd,
                                    pytest_args, args.jobs)
            results += [(at, level, *outcome) for (at, level, _), outcome in zip(runs, done)]
            results.sort()

    print("\n== installed-package test runs")
    for _, level, status, summary in results:
        print(f"{'ok  ' if status == 0 else 'FAIL'} PERCEPTRON_SIMD={level}: {summary}")
    return 0 if all(status == 0 for _, _, status, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
