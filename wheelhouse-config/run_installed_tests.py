"""Run the test suite against the installed perceptron, once per SIMD level.

Usage: python run_installed_tests.py TESTS_DIR [--level LEVEL ...] [-- PYTEST_ARGS]

The test command of every wheel (wheelhouse-config/cibuildwheel.toml) and of
the local wheel and sdist runs (build_and_test_local.py).  It prints
``perceptron.simd_info()``, then for each level (by default every level the
CPU supports; ``auto`` lets the package choose the best) starts a fresh
interpreter with PERCEPTRON_SIMD forcing it, checks that ``simd_info()``
reports that level, and runs pytest on TESTS_DIR there.  pytest runs from an
empty temporary folder, so the installed package is the one imported; the
script refuses a perceptron imported from a source tree.  Exit status 0 when
every level passes.
"""
import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile

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


def run_pytest(tests, env, cwd, extra):
    """Run pytest, echoing its output; return (exit status, closing summary line)."""
    cmd = [sys.executable, "-m", "pytest", str(tests), f"--rootdir={tests}",
           "-p", "no:cacheprovider", *extra]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
                            cwd=cwd, encoding="utf-8", errors="replace")
    last = ""
    for line in proc.stdout:
        sys.stdout.write(line)
        if line.strip():
            last = line.strip().strip("=").strip()
    sys.stdout.flush()
    return proc.wait(), last


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
    args = parser.parse_args(argv)
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

        results = []
        for level in levels:
            env = dict(base_env, PERCEPTRON_SIMD=level)
            expected = found["info"]["best"] if level == "auto" else level
            reported = probe(env, cwd)["info"]["level"]
            print(f"\n== PERCEPTRON_SIMD={level}: simd_info()['level'] = {reported!r}", flush=True)
            if reported != expected:
                results.append((level, 1, f"simd_info() reports {reported!r}, not {expected!r}"))
                continue
            status, summary = run_pytest(tests, env, cwd, pytest_args)
            results.append((level, status, summary))

    print("\n== installed-package test runs")
    for level, status, summary in results:
        print(f"{'ok  ' if status == 0 else 'FAIL'} PERCEPTRON_SIMD={level}: {summary}")
    return 0 if all(status == 0 for _, status, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
