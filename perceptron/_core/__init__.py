"""The compiled loops: epochs over rows, scoring, the CSR check and the file
parsers, typed Cython over the SIMD kernels of ``perceptron.simd``.

Private: the estimators call these with checked input; nothing here checks
its arguments beyond what memory safety needs.
"""
