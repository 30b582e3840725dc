/*
 * pocket_floor.c - the straightforward exact pocket in C: floor.c's dot
 * products (included below) and Gallant's (1990) pocket with ratchet, dense
 * float64 rows, eta 1 with an intercept, no sample weights.  The plain rule
 * over `epochs` passes in order; each time the current weights' run of
 * right rows first outlasts the pocket's, one count of the training rows
 * they get right (y*a > 0) in its own read of X, which stops as soon as
 * the pocket can no longer be beaten, and the pocket replaced when the
 * count beats its own.  Weights already counted are not counted again in
 * the same run.  No counters, no loss, no finiteness checks: less work
 * than the package's pocket fit.  Compiled by benchmarks/bench_pocket.py
 * with the native instruction set; never part of the package.
 */
#include "floor.c"

/* Returns the number of counts; *rows_scored gets the rows they read. */
size_t floor_pocket_f64(const double *X, size_t n, size_t d, const int8_t *y, size_t epochs,
                        double *w, double *b, double *pw, double *pb, size_t *rows_scored)
{
    size_t e, r, q, rescores = 0, scored = 0, run = 0, pocket_run = 0, checked = 0;
    size_t pocket_ok = 0, ok, wrong;
    double bias = *b;
    for (r = 0; r < n; r++) {
        pocket_ok += (double)y[r] * (dot_f64(d, X + r * d, w) + bias) > 0.0;
    }
    for (q = 0; q < d; q++) {
        pw[q] = w[q];
    }
    *pb = bias;
    for (e = 0; e < epochs; e++) {
        for (r = 0; r < n; r++) {
            const double *x = X + r * d;
            const double a = dot_f64(d, x, w) + bias;
            if ((double)y[r] * a <= 0.0) {
                const double step = (double)y[r];
                for (q = 0; q < d; q++) {
                    w[q] += step * x[q];
                }
                bias += step;
                run = 0;
                checked = 0;
                continue;
            }
            run++;
            if (checked || run <= pocket_run) {
                continue;
            }
            rescores++;
            ok = wrong = 0;
            for (q = 0; q < n; q++) {
                if ((double)y[q] * (dot_f64(d, X + q * d, w) + bias) > 0.0) {
                    ok++;
                } else if (n - ++wrong <= pocket_ok) {
                    q++;
                    break;
                }
            }
            scored += q;
            if (ok > pocket_ok) {
                for (q = 0; q < d; q++) {
                    pw[q] = w[q];
                }
                *pb = bias;
                pocket_ok = ok;
                pocket_run = run;
            }
            checked = 1;
        }
    }
    *b = bias;
    *rows_scored = scored;
    return rescores;
}
