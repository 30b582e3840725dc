"""The C layer on its own: csrc/ compiled without Python and tested.

The same test program also runs on 64-bit ARM under QEMU user emulation when
a cross compiler and qemu-aarch64 are installed, which exercises the NEON
kernels on an x86 machine.
"""
import pathlib
import shutil
import subprocess

import pytest
from c_sources import CSRC, c_sources



pytestmark = pytest.mark.slow  # compilers (and QEMU)

SOURCES = ["tests/test_simd.c", *c_sources("kernels")]


def build_and_run(compiler, tmp_path, extra=(), runner=()):
    if not (CSRC / "dispatch.c").exists():
        pytest.skip("csrc/ is not beside the tests (installed-package run)")
    exe = tmp_path / f"test_kernels_{pathlib.Path(compiler).name}"
    cmd = [compiler, "-std=c99", "-O2", "-Wall", "-Wextra", "-Werror", "-pedantic",
           f"-I{CSRC}", *[str(CSRC / s) for s in SOURCES], "-lm", "-o", str(exe), *extra]
    build = subprocess.run(cmd, capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    run = subprocess.run([*runner, str(exe)], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "all kernels pass" in run.stdout
    return run.stdout


@pytest.mark.parametrize("compiler", ["cc", "gcc", "clang"])
def test_c_kernels_native(compiler, tmp_path):
    if shutil.which(compiler) is None:
        pytest.skip(f"{compiler} not found")
    out = build_and_run(compiler, tmp_path)
    assert "ok   scalar" in out


def test_c_kernels_neon_under_qemu(tmp_path):
    cross, qemu = shutil.which("aarch64-linux-gnu-gcc"), shutil.which("qemu-aarch64")
    if cross is None or qemu is None:
        pytest.skip("aarch64-linux-gnu-gcc and qemu-aarch64 are needed to run the NEON kernels "
                    "here (Debian: gcc-aarch64-linux-gnu qemu-user)")
    out = build_and_run(cross, tmp_path, extra=["-static"], runner=[qemu])
    assert "ok   neon" in out
