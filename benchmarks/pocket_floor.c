/*
 * pocket_floor.c - the straightforward exact pocket in C over dense float64
 * rows in order: floor_common.h's FLOOR_POCKET (Gallant's 1990 pocket with
 * ratchet, each count in its own read of X) over floor.c's dot products
 * (included below).  Compiled by benchmarks/bench_pocket.py with the
 * native instruction set; never part of the package.
 */
#include "floor.c"

FLOOR_POCKET(pocket_f64, double, dot_f64)

/* Returns the number of counts; *rows_scored gets the rows they read. */
size_t floor_pocket_f64(const double *X, size_t n, size_t d, const int8_t *y, size_t epochs,
                        double *w, double *b, double *pw, double *pb, size_t *rows_scored)
{
    return pocket_f64(X, n, d, y, NULL, epochs, w, b, pw, pb, rows_scored);
}
