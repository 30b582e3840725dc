"""The compiled modules declare themselves free-threading compatible: on a
free-threaded interpreter (3.14t) importing every module of the package
leaves the GIL off, and each generated C file says so."""
import os
import pathlib
import re
import subprocess
import sys
import sysconfig

import pytest

import perceptron

PACKAGE = pathlib.Path(perceptron.__file__).resolve().parent

IMPORT_ALL = """
import importlib, pkgutil, sys, warnings
warnings.simplefilter("error", RuntimeWarning)   # 'the GIL has been enabled' is one
import perceptron
for info in pkgutil.walk_packages(perceptron.__path__, "perceptron."):
    if info.name.split(".")[-1] in ("__main__", "dask", "onnx", "plotting"):
        continue   # optional dependencies, or a command line that runs
    importlib.import_module(info.name)
print("gil enabled:", sys._is_gil_enabled())
"""


def compiled_modules():
    return sorted(p for p in PACKAGE.rglob("*.pyx"))


def test_importing_the_package_keeps_the_gil_off_on_a_free_threaded_build():
    if not sysconfig.get_config_var("Py_GIL_DISABLED"):
        pytest.skip("not a free-threaded interpreter")
    env = {k: v for k, v in os.environ.items() if k != "PYTHON_GIL"}
    proc = subprocess.run([sys.executable, "-c", IMPORT_ALL], capture_output=True, text=True,
                          env=env, cwd=os.path.dirname(PACKAGE), timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().endswith("gil enabled: False"), proc.stdout + proc.stderr


def test_every_generated_module_declares_itself_free_threading_compatible():
    """Cython writes the declaration (the module's Py_mod_gil slot) from the
    freethreading_compatible directive of setup.py."""
    pyx = compiled_modules()
    generated = [p.with_suffix(".c") for p in pyx if p.with_suffix(".c").exists()]
    if not generated:
        pytest.skip("no generated C files beside the .pyx files (an installed package)")
    assert len(generated) == len(pyx)
    shared = PACKAGE / "_cyutility.c"
    if shared.exists():
        generated.append(shared)
    undeclared = []
    for c_file in generated:
        text = c_file.read_text(encoding="utf-8", errors="replace")
        # the default when the C compiler is not told otherwise
        default = re.search(r"#ifdef CYTHON_FREETHREADING_COMPATIBLE\n"
                            r"#if CYTHON_FREETHREADING_COMPATIBLE\n#define \w+ \w+\n"
                            r"#else\n#define \w+ \w+\n#endif\n"
                            r"#else\n#define __Pyx_FREETHREADING_COMPATIBLE (\w+)\n#endif", text)
        if default is None or default.group(1) != "Py_MOD_GIL_NOT_USED":
            undeclared.append(c_file.name)
    assert not undeclared, f"modules that would turn the GIL on again: {undeclared}"
