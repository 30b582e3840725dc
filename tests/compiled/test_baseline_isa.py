"""One wheel, every CPU: wheelhouse-config/check_baseline_isa.py finds AVX
code outside the functions marked for it, and the C kernels and the built
extensions have none.

The checker lives in wheelhouse-config/ (in the checkout and the sdist), so
these tests skip when the suite runs from a copy of tests/ against an
installed wheel; the wheel scripts run the checker on the wheel itself.
"""
import pathlib
import re
import platform
import shutil
import subprocess
import sys

import pytest

import perceptron
from c_sources import c_sources

ROOT = pathlib.Path(__file__).resolve().parents[2]
CHECKER = ROOT / "wheelhouse-config" / "check_baseline_isa.py"
CSRC = ROOT / "csrc"


KERNEL_SOURCES = c_sources("kernels")

pytestmark = [
    pytest.mark.slow,  # compilers and objdump
    pytest.mark.skipif(not CHECKER.exists(),
                       reason="wheelhouse-config/ is not beside the tests (a copy of tests/)"),
    pytest.mark.skipif(not sys.platform.startswith("linux") or platform.machine() != "x86_64",
                       reason="the check reads x86-64 ELF binaries"),
    pytest.mark.skipif(shutil.which("objdump") is None,
                       reason="objdump (binutils) is needed to disassemble"),
]

# One baseline function and one marked for AVX2, both with a loop the
# compiler vectorises at -O3.
SAMPLE = """
void scale(int n, double a, double *x) { for (int i = 0; i < n; i++) x[i] *= a; }
__attribute__((target("avx2,fma")))
void scale_avx2(int n, double a, double *x) { for (int i = 0; i < n; i++) x[i] *= a; }
"""


def check(*paths):
    return subprocess.run([sys.executable, str(CHECKER), *map(str, paths)],
                          capture_output=True, text=True)


def shared_object(tmp_path, name, sources, flags=(), compiler="gcc"):
    if shutil.which(compiler) is None:
        pytest.skip(f"{compiler} not found")
    out = tmp_path / name
    cmd = [compiler, "-O3", "-shared", "-fPIC", f"-I{CSRC}", *flags, *map(str, sources),
           "-o", str(out)]
    build = subprocess.run(cmd, capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    return out


def test_avx_in_a_marked_function_passes(tmp_path):
    (tmp_path / "sample.c").write_text(SAMPLE)
    so = shared_object(tmp_path, "ok.so", [tmp_path / "sample.c"])
    result = check(so)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "AVX only inside scale_avx2" in result.stdout


def test_avx_leaking_into_a_baseline_function_fails(tmp_path):
    (tmp_path / "sample.c").write_text(SAMPLE)
    so = shared_object(tmp_path, "leak.so", [tmp_path / "sample.c"], flags=["-mavx2"])
    result = check(so)
    assert result.returncode == 1
    assert "FAIL leak.so" in result.stdout
    assert "     scale: " in result.stdout and "scale_avx2:" not in result.stdout


def test_a_stripped_binary_cannot_be_checked(tmp_path):
    (tmp_path / "sample.c").write_text(SAMPLE)
    so = shared_object(tmp_path, "stripped.so", [tmp_path / "sample.c"], flags=["-s"])
    result = check(so)
    assert result.returncode == 2
    assert "is stripped" in result.stderr


@pytest.mark.parametrize("compiler", ["gcc", "clang"])
def test_c_kernels_keep_avx_inside_the_marked_kernels(compiler, tmp_path):
    if not (CSRC / "dispatch.c").exists():
        pytest.skip("csrc/ is not beside the tests")
    so = shared_object(tmp_path, f"kernels_{compiler}.so", [CSRC / s for s in KERNEL_SOURCES],
                       compiler=compiler)
    result = check(so)
    assert result.returncode == 0, result.stdout + result.stderr
    # the check saw the AVX kernels (which functions hold the code after
    # inlining is the compiler's choice: names ending in _avx2 / _avx512)
    assert re.search(r"\bptn_\w+_avx2\b", result.stdout), result.stdout
    assert re.search(r"\bptn_\w+_avx512\b", result.stdout), result.stdout


def test_the_imported_extensions_keep_avx_inside_the_marked_kernels():
    package = pathlib.Path(perceptron.__file__).parent
    extensions = sorted(package.rglob("*.so"))
    if not extensions:
        pytest.skip(f"no ELF extension modules in {package}")
    result = check(*extensions)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.count("ok   ") == len(extensions)
