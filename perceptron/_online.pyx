# cython: language_level=3
"""Typed training loops of the online perceptron over dense rows.

The whole fit (every epoch, its shuffle, the convergence test) runs in one
call without the GIL; Python only sees the result.  Float32 and float64 data
share one loop through the ``floating`` fused type: the weights are kept in
the data's dtype (so the update ``w += eta*y*x`` streams the same bytes as the
data), while activations are summed in double by the kernels and the bias is
a double.  For float32 this keeps every activation as exact as a float64
model would compute it from the same weights, at no cost in memory traffic.

Reference: Rosenblatt (1958); the loop is Daume III, "A Course in Machine
Learning", ch. 3, Algorithm 5 (PerceptronTrain), with the update test
``y*a <= 0`` so that the first example from ``w = 0`` updates.
"""
import numpy as np

from cython cimport floating
from libc.math cimport isfinite, HUGE_VAL
from libc.stdint cimport uint64_t, int64_t
from libc.stddef cimport ptrdiff_t
from cpython.exc cimport PyErr_CheckSignals

from perceptron._simd cimport ptn_kernels, active_kernels, kdot, kaxpy
from perceptron._prefetch cimport ptn_prefetch_range, rows_ahead

cdef extern from "ptn_rng.h" nogil:
    ctypedef struct ptn_rng:
        uint64_t state
    void ptn_rng_seed(ptn_rng *r, uint64_t seed)
    void ptn_shuffle(ptn_rng *r, ptrdiff_t *order, size_t n)

# Status codes of a fit, turned into exceptions by the Python layer.
cdef enum:
    _STATUS_OK = 0
    _STATUS_NONFINITE_X = 1     # a row of X holds NaN or infinity
    _STATUS_OVERFLOW = 2        # the weights stopped being finite

STATUS_OK = _STATUS_OK
STATUS_NONFINITE_X = _STATUS_NONFINITE_X
STATUS_OVERFLOW = _STATUS_OVERFLOW

cdef enum:
    # bytes of data between two checks for Ctrl-C (about a millisecond of work)
    SIGNAL_CHECK_BYTES = 4194304


cdef struct FitState:
    # parameters
    double eta
    bint fit_intercept
    bint shuffle
    bint stop_when_converged
    Py_ssize_t max_iter
    # results
    double b
    Py_ssize_t n_epochs
    Py_ssize_t n_updates
    bint converged
    int status
    Py_ssize_t bad_row
    Py_ssize_t bad_epoch


cdef inline bint _row_is_finite(const floating *x, Py_ssize_t d) noexcept nogil:
    cdef Py_ssize_t j
    for j in range(d):
        if not isfinite(x[j]):
            return False
    return True


cdef inline bint _weights_are_finite(const floating *w, Py_ssize_t d, double b) noexcept nogil:
    return isfinite(b) and _row_is_finite(w, d)


cdef int _fit_binary_dense(const floating[:, ::1] X, const signed char *y, floating *w,
                           FitState *s, ptrdiff_t *order, ptn_rng *rng,
                           int64_t *mistakes, double *loss) except -1 nogil:
    """Epochs of the perceptron rule over the rows of X, in `order`.

    For each row i: a = w.x_i + b; if y_i*a <= 0: w += eta*y_i*x_i and
    b += eta*y_i.  Stops after the first epoch without a mistake (when
    stop_when_converged) or after max_iter epochs.  The activation doubles as
    the finiteness check of X: a sum that meets a NaN or an infinity is not
    finite, so a non-finite row cannot pass unnoticed, and costs nothing extra.
    """
    cdef const ptn_kernels *K = active_kernels()
    cdef Py_ssize_t n = X.shape[0], d = X.shape[1]
    cdef size_t row_bytes = <size_t>d * sizeof(floating)
    cdef Py_ssize_t ahead = rows_ahead(n, row_bytes)
    cdef Py_ssize_t check_every = max(1, SIGNAL_CHECK_BYTES // max(<Py_ssize_t>row_bytes, 1))
    cdef Py_ssize_t countdown = check_every
    cdef Py_ssize_t epoch, k, i, m
    cdef double a, ya, step, epoch_loss
    cdef const floating *x

    for epoch in range(s.max_iter):
        if s.shuffle:
            ptn_shuffle(rng, order, <size_t>n)
        m = 0
        epoch_loss = 0.0
        for k in range(n):
            i = order[k]
            if k + ahead < n:
                ptn_prefetch_range(&X[order[k + ahead], 0], row_bytes)
            x = &X[i, 0]
            a = kdot(K, d, x, w) + s.b
            ya = y[i] * a
            # one test for "mistake" and "not finite": NaN and +inf fail it
            if not (0.0 < ya < HUGE_VAL):
                if not isfinite(a):
                    s.n_epochs = epoch + 1
                    if not _row_is_finite(x, d):
                        s.status = _STATUS_NONFINITE_X
                        s.bad_row = i
                    else:
                        s.status = _STATUS_OVERFLOW
                        s.bad_epoch = epoch
                    return 0
                step = s.eta * y[i]
                kaxpy(K, d, step, x, w)
                if s.fit_intercept:
                    s.b += step
                epoch_loss -= ya
                m += 1
            countdown -= 1
            if countdown == 0:
                countdown = check_every
                with gil:
                    PyErr_CheckSignals()
        mistakes[epoch] = m
        loss[epoch] = epoch_loss
        s.n_updates += m
        s.n_epochs = epoch + 1
        if not _weights_are_finite(w, d, s.b):
            s.status = _STATUS_OVERFLOW
            s.bad_epoch = epoch
            return 0
        if m == 0 and s.stop_when_converged:
            s.converged = True
            break
    return 0


def fit_binary_dense(const floating[:, ::1] X, const signed char[::1] y, floating[::1] w,
                     double b, *, double eta, bint fit_intercept, bint shuffle,
                     Py_ssize_t max_iter, uint64_t seed, bint stop_when_converged=True):
    """Run the perceptron on dense X (n, d) with labels y in {-1, +1}.

    `w` (d,) is updated in place; returns a dict with the bias, the epochs
    run, mistakes and summed perceptron loss per epoch, the number of
    updates, whether an epoch without mistakes was reached, and a status.
    Epoch e visits the rows in the order of e + 1 successive Fisher-Yates
    shuffles of 0..n-1 drawn from SplitMix64(seed) when `shuffle`, else
    0..n-1.  Inputs are trusted: the caller validates shapes and labels.
    """
    cdef Py_ssize_t n = X.shape[0]
    cdef FitState s
    cdef ptn_rng rng
    cdef ptrdiff_t[::1] order = np.arange(n, dtype=np.intp)
    cdef int64_t[::1] mistakes = np.zeros(max(max_iter, 0), dtype=np.int64)
    cdef double[::1] loss = np.zeros(max(max_iter, 0), dtype=np.float64)
    if X.shape[1] != w.shape[0] or y.shape[0] != n:
        raise ValueError("fit_binary_dense: inconsistent shapes")
    if n == 0 or X.shape[1] == 0 or max_iter < 1:
        raise ValueError("fit_binary_dense: empty input or max_iter < 1")
    s.eta = eta
    s.fit_intercept = fit_intercept
    s.shuffle = shuffle
    s.stop_when_converged = stop_when_converged
    s.max_iter = max_iter
    s.b = b
    s.n_epochs = 0
    s.n_updates = 0
    s.converged = False
    s.status = _STATUS_OK
    s.bad_row = -1
    s.bad_epoch = -1
    ptn_rng_seed(&rng, seed)
    with nogil:
        _fit_binary_dense(X, &y[0], &w[0], &s, &order[0], &rng, &mistakes[0], &loss[0])
    return {
        "intercept": s.b,
        "n_epochs": s.n_epochs,
        "n_updates": s.n_updates,
        "converged": bool(s.converged),
        "mistakes": np.asarray(mistakes[:s.n_epochs]).copy(),
        "loss": np.asarray(loss[:s.n_epochs]).copy(),
        "status": s.status,
        "bad_row": s.bad_row,
        "bad_epoch": s.bad_epoch,
    }


def shuffled_orders(Py_ssize_t n, Py_ssize_t n_epochs, uint64_t seed):
    """The row orders a shuffled fit with this seed visits, one row per epoch.

    Exposed so tests (and anyone reproducing a fit) can replay the exact
    order of the compiled loop in a reference implementation.
    """
    cdef ptn_rng rng
    cdef Py_ssize_t e
    orders = np.empty((n_epochs, n), dtype=np.intp)
    cdef ptrdiff_t[::1] order = np.arange(n, dtype=np.intp)
    ptn_rng_seed(&rng, seed)
    for e in range(n_epochs):
        if n:
            ptn_shuffle(&rng, &order[0], <size_t>n)
        orders[e] = np.asarray(order)
    return orders
