"""Build the example extension against the installed perceptron package.

    python setup.py build_ext --inplace

perceptron.get_include() gives both the C headers and the .pxd files; OpenMP
(for prange) is used when the compiler has it, else the loops run serially.
"""
import sys

import perceptron
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


class BuildExt(build_ext):
    def build_extensions(self):
        if self.compiler.compiler_type == "msvc":
            flags = ["/openmp"]
        elif sys.platform == "darwin":
            flags = []  # Apple clang has no OpenMP without an extra library
        else:
            flags = ["-fopenmp"]
        for ext in self.extensions:
            ext.extra_compile_args += flags
            ext.extra_link_args += flags
        super().build_extensions()


extension = Extension("score", ["score.pyx"], include_dirs=[perceptron.get_include()])

setup(
    name="perceptron-embed-example",
    ext_modules=cythonize([extension], include_path=[perceptron.get_include()],
                          compiler_directives={"language_level": 3}),
    cmdclass={"build_ext": BuildExt},
)
