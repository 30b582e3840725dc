# cython: language_level=3
"""Run-time choice of the SIMD kernels, and what the CPU can do.

The table of kernels is chosen once, when this module is imported: the best
level the CPU supports, or the one named by the environment variable
``PERCEPTRON_SIMD`` (``scalar``, ``avx2``, ``avx512``, ``neon``; ``auto`` or
empty for the best).  A level that is unknown, or not supported by this CPU,
is not an error: the module warns (``RuntimeWarning``) and uses the best
supported level, so a setting meant for one machine never stops the package
from loading on another.  ``simd_info()`` tells which level is in use.
"""
import os
import platform
import warnings

import numpy as np

cdef extern from "ptn_dispatch.h" nogil:
    const char *ptn_level_name(int level)
    int ptn_level_from_name(const char *name)
    int ptn_level_compiled(int level)
    int ptn_level_supported(int level)
    int ptn_best_level()
    const ptn_simd *ptn_simd_for_level(int level)
    int ptn_dispatch_init(int requested)
    const ptn_simd *ptn_active_simd()
    int PTN_LEVEL_COUNT

cdef extern from "ptn_cpu.h" nogil:
    ctypedef struct ptn_cpu_features:
        int x86
        int arm64
        int sse2
        int avx
        int fma
        int avx2
        int avx512f
        int os_ymm
        int os_zmm
        int neon
        int avx512dq
        int f16c
        int amd
    void ptn_cpu_detect(ptn_cpu_features *out)

ENV_VAR = "PERCEPTRON_SIMD"
# The layout version of the kernel table and of the model struct that Cython
# and C code compiled against this package relies on (csrc/ptn_simd.h).
ABI_VERSION = PTN_SIMD_ABI_VERSION
LEVELS = tuple(ptn_level_name(i).decode() for i in range(PTN_LEVEL_COUNT))

cdef const ptn_simd *_active = NULL
# Whether rows read in rising order are prefetched in software too (see
# prefetch_sequential in simd.pxd); set below, from the CPU's vendor.
cdef bint _prefetch_sequential = True


cdef const ptn_simd *active_simd_abi1() noexcept nogil:
    return _active


cdef bint prefetch_sequential() noexcept nogil:
    return _prefetch_sequential


def _sequential_prefetch_default():
    """The policy for rows read in rising order: prefetch them in software
    (True) except on AMD's cores, whose own prefetchers stream rising rows
    faster alone.  On an AMD EPYC (Zen 4, AVX-512), 200,000 rows read in
    order by the scan: 400 B rows 3.24 ms without software prefetch, 4.51 ms
    with rows named 32 ahead; 1,600 B rows 11.5 ms without, 15.9 ms with 8
    ahead (benchmarks/bench_floor.py).  On an Intel Xeon (family 6, model
    167) the same requests made in-order epochs 8-15% faster."""
    cdef ptn_cpu_features f
    ptn_cpu_detect(&f)
    return not f.amd


def _set_prefetch_sequential(flag):
    """Set whether rows read in rising order are prefetched in software;
    returns the previous setting.  Prefetching never changes a result, only
    the time: for tests and benchmarks, which compare both."""
    global _prefetch_sequential
    previous = bool(_prefetch_sequential)
    _prefetch_sequential = bool(flag)
    return previous


cdef const ptn_simd *sparse_dot_kernels_abi1(size_t weight_bytes) noexcept nogil:
    if weight_bytes > PTN_SPARSE_GATHER_MIN_BYTES:
        return _active
    return ptn_simd_for_level(0)


cdef double dot_f32(Py_ssize_t n, const float *x, const float *y) noexcept nogil:
    return _active.dot_f32(<size_t>n, x, y)


cdef double dot_f64(Py_ssize_t n, const double *x, const double *y) noexcept nogil:
    return _active.dot_f64(<size_t>n, x, y)


cdef void axpy_f32(Py_ssize_t n, float a, const float *x, float *y) noexcept nogil:
    _active.axpy_f32(<size_t>n, a, x, y)


cdef void axpy_f64(Py_ssize_t n, double a, const double *x, double *y) noexcept nogil:
    _active.axpy_f64(<size_t>n, a, x, y)


cdef void axpy_f32_f64(Py_ssize_t n, double a, const float *x, double *y) noexcept nogil:
    _active.axpy_f32_f64(<size_t>n, a, x, y)


def _choose_level():
    """Initialise the dispatch table from the environment; return (level, request)."""
    request = os.environ.get(ENV_VAR, "").strip().lower()
    if request in ("", "auto"):
        return ptn_dispatch_init(-1), None
    code = ptn_level_from_name(request.encode("ascii", "replace"))
    best = ptn_level_name(ptn_best_level()).decode()
    if code < 0:
        warnings.warn(
            f"{ENV_VAR}={request!r} is not a SIMD level (expected one of "
            f"{', '.join(LEVELS)} or 'auto'); using {best!r}",
            RuntimeWarning, stacklevel=2)
        return ptn_dispatch_init(-1), request
    if not ptn_level_supported(code):
        reason = ("was not compiled into this build" if not ptn_level_compiled(code)
                  else "is not supported by this CPU")
        warnings.warn(
            f"{ENV_VAR}={request!r}: that level {reason}; using {best!r}",
            RuntimeWarning, stacklevel=2)
        return ptn_dispatch_init(-1), request
    return ptn_dispatch_init(code), request


_level, _request = _choose_level()
_active = ptn_active_simd()
_prefetch_sequential = _sequential_prefetch_default()


def simd_info():
    """Describe the CPU's vector capabilities and the kernels in use.

    Returns
    -------
    info : dict
        ``level``: the level whose kernels run (``"scalar"``, ``"avx2"``,
        ``"avx512"`` or ``"neon"``); ``best``: the best level this CPU
        supports; ``requested``: the value of ``PERCEPTRON_SIMD`` if it was
        set, else None; ``supported`` and ``compiled``: lists of levels;
        ``cpu``: a dict of the detected features (``avx2``, ``fma``,
        ``avx512f``, ``avx512dq``, ``neon``, ... and whether the operating
        system saves the wide registers, ``os_ymm`` / ``os_zmm``);
        ``machine``: the architecture name; ``prefetch_sequential``: whether
        the loops also prefetch rows they read in rising order in software
        (off on AMD CPUs, whose hardware prefetchers do better alone), as
        they always do rows read in a shuffled order.
    """
    cdef ptn_cpu_features f
    ptn_cpu_detect(&f)
    return {
        "level": ptn_level_name(_active.level).decode(),
        "best": ptn_level_name(ptn_best_level()).decode(),
        "requested": _request,
        "supported": [name for i, name in enumerate(LEVELS) if ptn_level_supported(i)],
        "compiled": [name for i, name in enumerate(LEVELS) if ptn_level_compiled(i)],
        "machine": platform.machine(),
        "prefetch_sequential": bool(_prefetch_sequential),
        "cpu": {
            "x86": bool(f.x86), "arm64": bool(f.arm64), "sse2": bool(f.sse2),
            "avx": bool(f.avx), "fma": bool(f.fma), "avx2": bool(f.avx2),
            "avx512f": bool(f.avx512f), "os_ymm": bool(f.os_ymm),
            "os_zmm": bool(f.os_zmm), "neon": bool(f.neon), "avx512dq": bool(f.avx512dq),
            "f16c": bool(f.f16c), "amd": bool(f.amd),
        },
    }


cdef const ptn_simd *_table(level) except NULL:
    if level is None:
        return _active
    if level not in LEVELS:
        raise ValueError(f"level must be one of {LEVELS}, got {level!r}")
    cdef const ptn_simd *k = ptn_simd_for_level(LEVELS.index(level))
    if k == NULL:
        raise ValueError(f"SIMD level {level!r} is not supported on this machine")
    return k


def _py_dot(x, y, level=None):
    """x . y with the kernel of `level` (None: the active one); for tests."""
    cdef const ptn_simd *k = _table(level)
    cdef const float[::1] xf, yf
    cdef const double[::1] xd, yd
    if x.dtype != y.dtype or x.shape != y.shape or x.ndim != 1:
        raise ValueError("x and y must be 1-D arrays of the same dtype and length")
    if x.dtype.name == "float32":
        xf, yf = x, y
        return k.dot_f32(<size_t>xf.shape[0], &xf[0] if xf.shape[0] else NULL,
                         &yf[0] if yf.shape[0] else NULL)
    if x.dtype.name == "float64":
        xd, yd = x, y
        return k.dot_f64(<size_t>xd.shape[0], &xd[0] if xd.shape[0] else NULL,
                         &yd[0] if yd.shape[0] else NULL)
    raise TypeError(f"dtype must be float32 or float64, got {x.dtype}")


def _py_dots(x, W, level=None, tails=False):
    """The dot products of x with every row of W, by the `dots` kernel of
    `level` (None: the active one), as a float64 array; for tests.  With
    `tails` (float32 only), by ``dots_f32_tails``, given the rows' tails in
    double."""
    cdef const ptn_simd *k = _table(level)
    cdef const float[::1] xf
    cdef const float[:, ::1] Wf
    cdef const double[::1] xd
    cdef const double[:, ::1] Wd
    cdef double[:, ::1] Tf
    cdef size_t[::1] tq
    cdef Py_ssize_t m, c
    if x.dtype != W.dtype or x.ndim != 1 or W.ndim != 2 or W.shape[1] != x.shape[0]:
        raise ValueError("x must be 1-D and W 2-D with rows of x's length, of x's dtype")
    if x.dtype.name not in ("float32", "float64"):
        raise TypeError(f"dtype must be float32 or float64, got {x.dtype}")
    m = W.shape[0]
    out = np.zeros(m, dtype=np.float64)
    cdef double[::1] o = out
    ptrs = np.zeros(max(m, 1), dtype=np.uintp)
    cdef size_t[::1] p = ptrs
    if m == 0 or x.shape[0] == 0:
        return out
    if x.dtype.name == "float32":
        xf, Wf = x, W
        for c in range(m):
            p[c] = <size_t>&Wf[c, 0]
        if tails:
            # each row's tail in double, as a caller of dots_f32_tails keeps it
            # (zeroed rows: the padding past the tail is the caller's)
            tail_rows = np.zeros((m, PTN_F32_TAIL_MAX))
            tp = np.zeros(m, dtype=np.uintp)
            Tf = tail_rows
            tq = tp
            for c in range(m):
                ptn_f32_tail_to_double(<size_t>xf.shape[0], &Wf[c, 0], &Tf[c, 0])
                tq[c] = <size_t>&Tf[c, 0]
            k.dots_f32_tails(<size_t>xf.shape[0], &xf[0], <const float *const *>&p[0],
                             <const double *const *>&tq[0], <size_t>m, &o[0])
        else:
            k.dots_f32(<size_t>xf.shape[0], &xf[0], <const float *const *>&p[0], <size_t>m,
                       &o[0])
    else:
        xd, Wd = x, W
        for c in range(m):
            p[c] = <size_t>&Wd[c, 0]
        k.dots_f64(<size_t>xd.shape[0], &xd[0], <const double *const *>&p[0], <size_t>m, &o[0])
    return out


def _py_axpy(a, x, y, level=None):
    """y += a * x in place with the kernel of `level`; for tests.

    float32 x into float64 y uses the mixed-precision kernel."""
    cdef const ptn_simd *k = _table(level)
    cdef const float[::1] xf
    cdef float[::1] yf
    cdef const double[::1] xd
    cdef double[::1] yd
    if x.shape != y.shape or x.ndim != 1:
        raise ValueError("x and y must be 1-D arrays of the same length")
    if x.dtype.name == "float32" and y.dtype.name == "float64":
        xf, yd = x, y
        if xf.shape[0]:
            k.axpy_f32_f64(<size_t>xf.shape[0], <double>a, &xf[0], &yd[0])
        return
    if x.dtype != y.dtype:
        raise ValueError("x and y must have the same dtype (or float32 x and float64 y)")
    if x.dtype.name == "float32":
        xf, yf = x, y
        if xf.shape[0]:
            k.axpy_f32(<size_t>xf.shape[0], <float>a, &xf[0], &yf[0])
    elif x.dtype.name == "float64":
        xd, yd = x, y
        if xd.shape[0]:
            k.axpy_f64(<size_t>xd.shape[0], <double>a, &xd[0], &yd[0])
    else:
        raise TypeError(f"dtype must be float32 or float64, got {x.dtype}")


def _py_narrow(op, x, y, a=0.0, level=None):
    """A narrow-row kernel of `level` (None: the active one); for tests.

    x: a 1-D float16, bfloat16, int8 or uint8 array (read as stored, through
    an unsigned view).  op "dot": x . y with float32 y (ndot); "axpy":
    y += a * x in place, y float32 (naxpy) or float64 (naxpy_f64);
    "convert": y[:] = x as float32 (nconvert)."""
    cdef const ptn_simd *k = _table(level)
    cdef int kind = {"float16": PTN_X_F16, "bfloat16": PTN_X_BF16, "int8": PTN_X_I8,
                     "uint8": PTN_X_U8}.get(x.dtype.name, 0)
    cdef const unsigned char[::1] xb
    cdef float[::1] yf
    cdef double[::1] yd
    cdef size_t n = <size_t>x.shape[0]
    if kind == 0 or x.ndim != 1 or y.shape != x.shape:
        raise ValueError("x must be a 1-D narrow array and y of its length")
    xb = x.view(np.uint8)
    if n == 0:
        return 0.0
    if y.dtype.name == "float64":
        if op != "axpy":
            raise ValueError("float64 y: axpy only")
        yd = y
        k.naxpy_f64(kind, n, <double>a, &xb[0], &yd[0])
        return None
    yf = y
    if op == "dot":
        return k.ndot(kind, n, &xb[0], &yf[0])
    if op == "axpy":
        k.naxpy(kind, n, <float>a, &xb[0], &yf[0])
    elif op == "convert":
        k.nconvert(kind, n, &xb[0], &yf[0])
    else:
        raise ValueError(f"unknown op {op!r}")


def _py_sqdist(x, y, level=None):
    """sum((x - y)**2) with the kernel of `level` (None: the active one); for tests."""
    cdef const ptn_simd *k = _table(level)
    cdef const float[::1] xf, yf
    cdef const double[::1] xd, yd
    if x.dtype != y.dtype or x.shape != y.shape or x.ndim != 1:
        raise ValueError("x and y must be 1-D arrays of the same dtype and length")
    if x.dtype.name == "float32":
        xf, yf = x, y
        return k.sqdist_f32(<size_t>xf.shape[0], &xf[0] if xf.shape[0] else NULL,
                            &yf[0] if yf.shape[0] else NULL)
    if x.dtype.name == "float64":
        xd, yd = x, y
        return k.sqdist_f64(<size_t>xd.shape[0], &xd[0] if xd.shape[0] else NULL,
                            &yd[0] if yd.shape[0] else NULL)
    raise TypeError(f"dtype must be float32 or float64, got {x.dtype}")


def _py_exp(x, out, level=None):
    """out[:] = exp(x) with the kernel of `level` (out may be x); for tests."""
    cdef const ptn_simd *k = _table(level)
    cdef const double[::1] xd
    cdef double[::1] od
    if x.dtype.name != "float64" or out.dtype.name != "float64":
        raise TypeError(f"x and out must be float64, got {x.dtype} and {out.dtype}")
    if x.shape != out.shape or x.ndim != 1:
        raise ValueError("x and out must be 1-D arrays of the same length")
    xd, od = x, out
    if xd.shape[0]:
        k.exp_f64(<size_t>xd.shape[0], &xd[0], &od[0])


def _py_block(A, shift, BT, level=None):
    """out (m, p) = (A - shift) @ BT with the dot_block kernel of `level`, for
    A (m, lda) C-contiguous of which the first d = BT.shape[0] columns are
    used (lda > d exercises the row stride), shift (d,) and BT (d, p)
    float64; for tests."""
    cdef const ptn_simd *k = _table(level)
    cdef const float[:, ::1] Af
    cdef const double[:, ::1] Ad
    cdef const double[::1] sh
    cdef const double[:, ::1] B
    if A.ndim != 2 or BT.ndim != 2 or shift.ndim != 1 or shift.shape[0] != BT.shape[0] \
            or A.shape[1] < BT.shape[0]:
        raise ValueError("A (m, lda), shift (d,) and BT (d, p) with lda >= d are needed")
    if BT.dtype.name != "float64" or shift.dtype.name != "float64":
        raise TypeError("shift and BT must be float64")
    cdef Py_ssize_t m = A.shape[0], lda = A.shape[1], d = BT.shape[0], p = BT.shape[1]
    out = np.full((m, p), np.nan)
    cdef double[:, ::1] o = out
    sh, B = shift, BT
    if m == 0 or p == 0:
        return out
    if d == 0:
        out[:] = 0.0
        return out
    if A.dtype.name == "float32":
        Af = A
        k.dot_block_f32(<size_t>m, <size_t>d, &Af[0, 0], <size_t>lda, &sh[0], <size_t>p, &B[0, 0],
                        &o[0, 0])
    elif A.dtype.name == "float64":
        Ad = A
        k.dot_block_f64(<size_t>m, <size_t>d, &Ad[0, 0], <size_t>lda, &sh[0], <size_t>p, &B[0, 0],
                        &o[0, 0])
    else:
        raise TypeError(f"A's dtype must be float32 or float64, got {A.dtype}")
    return out


def _py_rbf_block(na, nb, gamma, buf, level=None):
    """buf (m, p) <- exp(-gamma * max(na[:, None] + nb - 2 buf, 0)) in place with
    the rbf_block kernel of `level`; for tests."""
    cdef const ptn_simd *k = _table(level)
    cdef const double[::1] a, b
    cdef double[:, ::1] o
    if buf.ndim != 2 or na.shape != (buf.shape[0],) or nb.shape != (buf.shape[1],):
        raise ValueError("na (m,), nb (p,) and buf (m, p) are needed")
    a, b, o = na, nb, buf
    if buf.shape[0] and buf.shape[1]:
        k.rbf_block_f64(<size_t>buf.shape[0], <size_t>buf.shape[1], &a[0], &b[0], <double>gamma,
                        &o[0, 0])


cdef int _narrow_kind(X):
    """The narrow kind of X's dtype (ptn_simd.h: PTN_X_F16, ...), 0 for others."""
    return {"float16": PTN_X_F16, "bfloat16": PTN_X_BF16, "int8": PTN_X_I8,
            "uint8": PTN_X_U8}.get(X.dtype.name, 0)


cdef int _scan_setup(ptn_scan *s, X, const ptrdiff_t[::1] r, const signed char[::1] yy, w,
                    double b, double margin, Py_ssize_t start, Py_ssize_t stop,
                    Py_ssize_t ahead) except -1:
    """The checks of the scan wrappers below, and the fields of s but X and w."""
    wide = X.dtype.name in ("float32", "float64")
    if X.ndim != 2 or w.shape != (X.shape[1],) or \
            (X.dtype != w.dtype if wide else w.dtype.name != "float32") or \
            yy.shape[0] != X.shape[0]:
        raise ValueError("X (n, d), w (d,) of X's dtype (float32 for narrow X) and y (n,) "
                         "are needed")
    if not (0 <= start <= stop <= r.shape[0]):
        raise ValueError("0 <= start <= stop <= len(rows) is needed")
    if r.shape[0] and (np.min(r) < 0 or np.max(r) >= X.shape[0]):
        raise ValueError("rows must index rows of X")
    if X.shape[0] == 0 or X.shape[1] == 0 or r.shape[0] == 0:
        raise ValueError("X, w and rows must not be empty")
    s.d = <size_t>X.shape[1]
    s.rows = &r[0]
    s.n_rows = <size_t>r.shape[0]
    s.ahead = <size_t>ahead
    s.by_row = NULL
    s.y = &yy[0]
    s.b = b
    s.margin = margin
    return 0


def _py_scan(X, rows, y, w, double b, double margin, Py_ssize_t start, Py_ssize_t stop,
             Py_ssize_t ahead=0, level=None):
    """The scan kernel of `level` over positions [start, stop) of `rows`: returns
    (position of the first row with not (margin < y*a < inf), its activation),
    or (stop, None); for tests.  X (n, d) C-contiguous, w (d,) of X's dtype,
    rows intp, y int8 in {-1, +1}.  Narrow X (float16, bfloat16, int8,
    uint8) with float32 w: the level's nscan."""
    cdef const ptn_simd *k = _table(level)
    cdef const float[:, ::1] Xf
    cdef const double[:, ::1] Xd
    cdef const unsigned char[:, ::1] Xb
    cdef const float[::1] wf
    cdef const double[::1] wd
    cdef const ptrdiff_t[::1] r = rows
    cdef const signed char[::1] yy = y
    cdef ptn_scan s
    cdef double act = 0.0
    cdef size_t pos
    cdef int kind = _narrow_kind(X)
    _scan_setup(&s, X, r, yy, w, b, margin, start, stop, ahead)
    if kind:
        Xb, wf = X.view(np.uint8), w
        s.X = &Xb[0, 0]
        s.w = &wf[0]
        pos = k.nscan(kind, &s, <size_t>start, <size_t>stop, &act)
    elif X.dtype.name == "float32":
        Xf, wf = X, w
        s.X = &Xf[0, 0]
        s.w = &wf[0]
        pos = k.scan_f32(&s, <size_t>start, <size_t>stop, &act)
    elif X.dtype.name == "float64":
        Xd, wd = X, w
        s.X = &Xd[0, 0]
        s.w = &wd[0]
        pos = k.scan_f64(&s, <size_t>start, <size_t>stop, &act)
    else:
        raise TypeError(f"X's dtype must be float32 or float64, got {X.dtype}")
    return (<Py_ssize_t>pos, None if pos == <size_t>stop else act)


def _py_scan_plain(X, rows, y, w, double b, double margin, double eta, bint fit_intercept,
                   Py_ssize_t start, Py_ssize_t stop, Py_ssize_t ahead=0, level=None):
    """The plain scan of `level` (the scan with the binary rule's updates in
    it) over positions [start, stop) of `rows`, updating w in place; for
    tests.  Returns (position it stopped at, the non-finite activation there
    or None, bias, mistakes, updates, loss, raw loss), the counts from zero.
    The arguments as for ``_py_scan``; w must be writable."""
    cdef const ptn_simd *k = _table(level)
    cdef const float[:, ::1] Xf
    cdef const double[:, ::1] Xd
    cdef const unsigned char[:, ::1] Xb
    cdef float[::1] wf
    cdef double[::1] wd
    cdef int kind = _narrow_kind(X)
    cdef const ptrdiff_t[::1] r = rows
    cdef const signed char[::1] yy = y
    cdef ptn_scan s
    cdef ptn_plain p
    cdef double act = 0.0
    cdef size_t pos
    _scan_setup(&s, X, r, yy, w, b, margin, start, stop, ahead)
    p.rule = ptn_rule_make(PTN_RULE_PERCEPTRON, eta, margin, 0.0)
    p.sqnorm = NULL
    p.fit_intercept = fit_intercept
    p.b = b
    p.mistakes = 0
    p.updates = 0
    p.loss = 0.0
    p.raw_loss = 0.0
    if kind:
        Xb, wf = X.view(np.uint8), w
        s.X = &Xb[0, 0]
        s.w = &wf[0]
        pos = k.nscan_plain(kind, &s, <size_t>start, <size_t>stop, &act, &p)
    elif X.dtype.name == "float32":
        Xf, wf = X, w
        s.X = &Xf[0, 0]
        s.w = &wf[0]
        pos = k.scan_plain_f32(&s, <size_t>start, <size_t>stop, &act, &p)
    elif X.dtype.name == "float64":
        Xd, wd = X, w
        s.X = &Xd[0, 0]
        s.w = &wd[0]
        pos = k.scan_plain_f64(&s, <size_t>start, <size_t>stop, &act, &p)
    else:
        raise TypeError(f"X's dtype must be float32 or float64, got {X.dtype}")
    return (<Py_ssize_t>pos, None if pos == <size_t>stop else act, p.b, p.mistakes, p.updates,
            p.loss, p.raw_loss)


def _py_sdot(val, idx, w, level=None):
    """sum(val * w[idx]) of a sparse row with the sdot kernel of `level`; for tests.
    val float32/float64, idx int32/int64, w of val's dtype."""
    cdef const ptn_simd *k = _table(level)
    cdef const float[::1] vf, wf
    cdef const double[::1] vd, wd
    cdef const int32_t[::1] i32
    cdef const int64_t[::1] i64
    _check_sparse_args(val, idx, w)
    cdef size_t nnz = <size_t>val.shape[0]
    if nnz == 0:
        return 0.0
    if val.dtype.name == "float32":
        vf, wf = val, w
        if idx.dtype.name == "int32":
            i32 = idx
            return k.sdot_f32_i32(nnz, &vf[0], &i32[0], &wf[0])
        i64 = idx
        return k.sdot_f32_i64(nnz, &vf[0], &i64[0], &wf[0])
    vd, wd = val, w
    if idx.dtype.name == "int32":
        i32 = idx
        return k.sdot_f64_i32(nnz, &vd[0], &i32[0], &wd[0])
    i64 = idx
    return k.sdot_f64_i64(nnz, &vd[0], &i64[0], &wd[0])


def _py_saxpy(a, val, idx, w, level=None):
    """w[idx] += a * val in place with the saxpy kernel of `level`; for tests.
    float32 val into a float64 w uses the mixed-precision kernel."""
    cdef const ptn_simd *k = _table(level)
    cdef const float[::1] vf
    cdef const double[::1] vd
    cdef float[::1] wf
    cdef double[::1] wd
    cdef const int32_t[::1] i32
    cdef const int64_t[::1] i64
    _check_sparse_args(val, idx, w, mixed=True)
    cdef size_t nnz = <size_t>val.shape[0]
    cdef bint narrow = idx.dtype.name == "int32"
    if nnz == 0:
        return
    if narrow:
        i32 = idx
    else:
        i64 = idx
    if val.dtype.name == "float32" and w.dtype.name == "float64":
        vf, wd = val, w
        if narrow:
            k.saxpy_f32_f64_i32(nnz, <double>a, &vf[0], &i32[0], &wd[0])
        else:
            k.saxpy_f32_f64_i64(nnz, <double>a, &vf[0], &i64[0], &wd[0])
    elif val.dtype.name == "float32":
        vf, wf = val, w
        if narrow:
            k.saxpy_f32_i32(nnz, <float>a, &vf[0], &i32[0], &wf[0])
        else:
            k.saxpy_f32_i64(nnz, <float>a, &vf[0], &i64[0], &wf[0])
    else:
        vd, wd = val, w
        if narrow:
            k.saxpy_f64_i32(nnz, <double>a, &vd[0], &i32[0], &wd[0])
        else:
            k.saxpy_f64_i64(nnz, <double>a, &vd[0], &i64[0], &wd[0])


def _py_descents(a, strict, level=None):
    """(count, least, greatest) of the descents kernel of `level` over the
    1-D int32 or int64 array a (least and greatest None when a is empty);
    for tests."""
    cdef const ptn_simd *k = _table(level)
    cdef const int32_t[::1] a32
    cdef const int64_t[::1] a64
    cdef int32_t lo32 = 0, hi32 = 0
    cdef int64_t lo64 = 0, hi64 = 0
    cdef size_t count
    if a.ndim != 1 or a.dtype.name not in ("int32", "int64"):
        raise TypeError("a must be a 1-D int32 or int64 array")
    if a.shape[0] == 0:
        return 0, None, None
    if a.dtype.name == "int32":
        a32 = a
        count = k.descents_i32(<size_t>a32.shape[0], &a32[0], 1 if strict else 0, &lo32, &hi32)
        return count, lo32, hi32
    a64 = a
    count = k.descents_i64(<size_t>a64.shape[0], &a64[0], 1 if strict else 0, &lo64, &hi64)
    return count, lo64, hi64


def _py_draws(uint64_t seed, size_t top, size_t count, level=None):
    """(draws, state): ptn_rng_below(top), (top - 1), ... `count` times from
    SplitMix64(seed) by the draws kernel of `level`, as uint32, and the
    generator's state after them; for tests."""
    cdef const ptn_simd *k = _table(level)
    cdef ptn_rng rng
    if top >= (<size_t>1) << 32 or count > top:
        raise ValueError("draws need top < 2**32 and count <= top")
    out = np.zeros(count, dtype=np.uint32)
    cdef uint32_t[::1] o = out
    ptn_rng_seed(&rng, seed)
    if count:
        k.draws(&rng, top, count, &o[0])
    return out, int(rng.state)


def _py_shuffle(size_t n, uint64_t seed, Py_ssize_t epochs, level=None):
    """(orders, state): `epochs` successive shuffles of 0..n-1 by the shuffle
    kernel of `level`, one row per epoch, and the generator's final state;
    for tests."""
    cdef const ptn_simd *k = _table(level)
    cdef ptn_rng rng
    cdef Py_ssize_t e
    orders = np.empty((epochs, n), dtype=np.intp)
    order_arr = np.arange(n, dtype=np.intp)
    cdef ptrdiff_t[::1] order = order_arr
    ptn_rng_seed(&rng, seed)
    for e in range(epochs):
        if n:
            k.shuffle(&rng, &order[0], n)
        orders[e] = order_arr
    return orders, int(rng.state)


def _check_sparse_args(val, idx, w, mixed=False):
    if val.ndim != 1 or idx.ndim != 1 or w.ndim != 1 or val.shape != idx.shape:
        raise ValueError("val and idx must be 1-D of the same length, w 1-D")
    if val.dtype.name not in ("float32", "float64"):
        raise TypeError(f"val's dtype must be float32 or float64, got {val.dtype}")
    if idx.dtype.name not in ("int32", "int64"):
        raise TypeError(f"idx's dtype must be int32 or int64, got {idx.dtype}")
    if w.dtype != val.dtype and not (mixed and val.dtype.name == "float32"
                                     and w.dtype.name == "float64"):
        raise TypeError(f"w's dtype {w.dtype} does not go with val's {val.dtype}")
    if idx.shape[0] and (idx.min() < 0 or idx.max() >= w.shape[0]):
        raise ValueError("idx must index w")
    if mixed and len(np.unique(idx)) != idx.shape[0]:
        raise ValueError("idx must not repeat a column")
