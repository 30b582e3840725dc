"""Build of the compiled extensions (metadata lives in pyproject.toml).

Every C file is compiled for the baseline instruction set of the target: the
SIMD kernels enable AVX2/AVX-512 per function (csrc/ptn_config.h), and NEON is
part of every 64-bit ARM target.  So no -march/-m flag appears here, and one
wheel runs on every CPU of its architecture.  Flags differ per compiler:
gcc and clang get -O3 and hidden symbol visibility; MSVC gets /O2 (its
intrinsics need no flag).  Set PERCEPTRON_CYTHON_DEBUG=1 to build with bounds
and initialisation checks on in the Cython code.
"""
import glob
import multiprocessing
import os
import shutil

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

CSRC = "csrc"


def c_sources(group):
    """The C files of `group` in csrc/sources.txt, the one list of C sources
    (the C tests and tools/fuzz.sh read it too), as paths from here."""
    files, current = [], None
    with open(os.path.join(CSRC, "sources.txt"), encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line.startswith("[") and line.endswith("]"):
                current = line[1:-1]
            elif line and current == group:
                files.append(f"{CSRC}/{line}")
    if not files:
        raise RuntimeError(f"csrc/sources.txt lists no sources for [{group}]")
    return files


KERNEL_SOURCES = c_sources("kernels")

DEBUG = os.environ.get("PERCEPTRON_CYTHON_DEBUG", "") not in ("", "0")

COMPILER_DIRECTIVES = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "cdivision": True,
    "embedsignature": True,
    # Safe without the GIL on a free-threaded Python (3.14t): the loops run
    # without it already, and the modules keep no mutable state of their own
    # beyond what their import sets (docs/user_guide/thread_safety.rst), so
    # importing them need not turn the GIL back on.
    "freethreading_compatible": True,
}


def extension(name, extra_sources=()):
    path = name.replace(".", "/")
    return Extension(f"perceptron.{name}", [f"perceptron/{path}.pyx", *extra_sources],
                     include_dirs=[CSRC])


EXTENSIONS = [
    # the public C-level API: simd owns the kernels and the dispatch table,
    # the other modules reach them through its cimport-able API
    # (perceptron/simd.pxd); model scores a fitted linear model without the GIL
    extension("simd", KERNEL_SOURCES),
    extension("model"),
    # the compiled loops (perceptron/_core/)
    extension("_core.online"),
    extension("_core.row_passes"),
    extension("_core.ovr_epoch"),
    extension("_core.decision"),
    extension("_core.csr"),
    extension("_core.csr_canonical"),
    extension("_core.labels"),
    extension("_core.voted"),
    extension("_core.centroid"),
    extension("_core.kernel"),
    extension("_core.kernel_scoring"),
    extension("_core.structured"),
    extension("_core.candidates"),
    # file formats: plain C parsers (no kernels), each in the module that uses it
    extension("_core.svmlight", c_sources("svmlight")),
    extension("_core.model_file", c_sources("model_file")),
    # the tagger's hashed token features (plain C, no kernels)
    extension("_core.featurize", c_sources("featurize")),
    # feature dicts (python-crfsuite's items) hashed into CSR rows
    extension("_core.feature_dicts"),
]

# Cython's utility code (argument parsing, type imports, memoryviews, error
# helpers) compiled once into this module, which the others import, rather
# than once into each of them (Cython >= 3.1's shared utility module): about
# half of every generated .c file was this code.  It is not part of the
# cimport API: a downstream extension that cimports perceptron.simd or
# perceptron.model brings its own utility code, from its own Cython.
SHARED_UTILITY = "perceptron._cyutility"
SHARED_UTILITY_EXTENSION = Extension(SHARED_UTILITY, [SHARED_UTILITY.replace(".", "/") + ".c"])


CYTHON_STAMP = os.path.join("build", "cython-options.txt")


def cython_options_text(options):
    import Cython

    return repr(sorted({**options, "cython": Cython.__version__}.items()))


def cython_force(options):
    """Whether every .pyx must be translated again: cythonize compares the
    files' times only, so a .c made by another Cython, with other directives
    or without the shared utility module would otherwise stay.  The options
    of the last complete translation are kept in CYTHON_STAMP."""
    try:
        with open(CYTHON_STAMP, encoding="utf-8") as f:
            return f.read() != cython_options_text(options)
    except OSError:
        return True


def cython_done(options):
    os.makedirs(os.path.dirname(CYTHON_STAMP), exist_ok=True)
    with open(CYTHON_STAMP, "w", encoding="utf-8") as f:
        f.write(cython_options_text(options))


def cython_jobs():
    """Worker processes for cythonize (one per core), or 0 (none) where they
    would not start with fork: under spawn or forkserver each worker imports
    this setup.py again, which would start another build inside it."""
    if multiprocessing.get_start_method() != "fork":
        return 0
    return os.cpu_count() or 1


# Extensions built without the compiler's auto-vectorizer.  _online holds the
# CSR epoch (csrc/ptn_csr_online.h), scalar code over short rows: gcc turns
# its updates of 14 values into SSE2 code behind run-time overlap checks,
# which made a shuffled a9a epoch 4% slower (818 -> 783 us without).
NO_AUTOVECTORIZE = {"perceptron._core.online"}

# Extensions whose loops start on a 64-byte boundary (gcc and clang).  A
# shuffled float64 epoch over 200,000 rows of 1.6 KB took 26-29 ms in the
# package, against 21-22 ms for the same scan built apart and 22-24 ms for
# benchmarks/floor.c's loop; with the kernels' loops aligned, 21.8-24 ms
# (AMD EPYC, Zen 4, one process, alternated).  No other difference between
# the builds explained the gap.  The svmlight parser: a9a three times over
# (7 MB) parsed in 27.7-28.6 ms aligned, 27.8-29.7 ms not (the parser
# built apart, thread CPU time, alternated).
ALIGN_LOOPS = {"perceptron.simd", "perceptron._core.svmlight"}


def copy_public_sources():
    """perceptron/include: what get_include() points at, made from the sources.

    The C headers and sources of csrc/ (so that C programs can compile the
    kernels, the dispatch and the model code in, without Python), the
    scoring subset of embed/ (the reader and scalar scoring in two files) and the
    package's .pxd files under include/perceptron/ (so that a Cython
    extension finds both with one include path).  csrc/, embed/ and
    perceptron/*.pxd stay the only copies under version control.
    """
    include = os.path.join("perceptron", "include")
    if not os.path.isdir(CSRC):  # building from an installed tree: nothing to do
        return
    os.makedirs(os.path.join(include, "perceptron"), exist_ok=True)
    # *.inc: parts of one .c file each (simd_avx512_tail.inc, ...), which
    # that file includes
    kinds = ("*.h", "*.c", "*.inc")
    # embed/: the one-file scoring subset made from csrc/ (tools/amalgamate.py)
    sources = [path for folder in (CSRC, "embed") for kind in kinds
               for path in glob.glob(os.path.join(folder, kind))]
    names = {os.path.basename(path) for path in sources}
    # a C file renamed or removed in csrc/ must not linger in a built tree
    for path in [path for kind in kinds for path in glob.glob(os.path.join(include, kind))]:
        if os.path.basename(path) not in names:
            os.remove(path)
    for path in sources:
        shutil.copyfile(path, os.path.join(include, os.path.basename(path)))
    for path in glob.glob(os.path.join("perceptron", "*.pxd")):
        shutil.copyfile(path, os.path.join(include, "perceptron", os.path.basename(path)))


class BuildExt(build_ext):
    """Add the flags of the compiler in use (gcc/clang or MSVC)."""

    def build_extensions(self):
        if self.compiler.compiler_type == "msvc":
            flags = ["/O2"]
        else:
            # -g0: Python's CFLAGS carry -g, which would make the wheel 4x larger;
            # the symbol table (needed by the baseline-ISA check) stays
            flags = ["-O3", "-g0", "-fvisibility=hidden"]
            if DEBUG:
                flags = ["-O1", "-g"]
        for ext in self.extensions:
            extra = []
            if ext.name in NO_AUTOVECTORIZE and self.compiler.compiler_type != "msvc":
                extra = ["-fno-tree-vectorize"]  # gcc's spelling; clang takes it too
            if ext.name in ALIGN_LOOPS and self.compiler.compiler_type != "msvc":
                extra = extra + ["-falign-loops=64"]
            ext.extra_compile_args = flags + extra + list(ext.extra_compile_args or [])
        if self.parallel is None and self.compiler.compiler_type != "msvc":
            # pip asks for no -j: the extensions compile side by side, one per
            # core (a fresh build on 2 cores: 90 -> 50 s).  Not with MSVC,
            # whose compiler object sets itself up on its first compile,
            # which threads would race for.
            self.parallel = True
        super().build_extensions()


copy_public_sources()

CYTHON_OPTIONS = {"compiler_directives": COMPILER_DIRECTIVES,
                  "shared_utility_qualified_name": SHARED_UTILITY}

EXT_MODULES = cythonize([*EXTENSIONS, SHARED_UTILITY_EXTENSION], **CYTHON_OPTIONS,
                        force=cython_force(CYTHON_OPTIONS), nthreads=cython_jobs())
cython_done(CYTHON_OPTIONS)

setup(
    ext_modules=EXT_MODULES,
    cmdclass={"build_ext": BuildExt},
)
