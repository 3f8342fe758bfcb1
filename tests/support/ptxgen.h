/* ptxgen.h - PTX modules of many entries for tests and benchmarks, made
 * in memory so no large file is kept in the tree. */
#ifndef RF_TEST_PTXGEN_H
#define RF_TEST_PTXGEN_H

#include <stddef.h>

/* A PTX module (.target sm_75) of n entries k0 .. k{n-1}: entry i loads
 * one float per thread, applies a chain of 1 + i % 16 dependent FMAs and
 * stores it back, guarded by a bounds check.  Heap text, or NULL when out
 * of memory. */
char *rf_test_ptx_entries(int n);

/* Write text to path; 0 or -1. */
int rf_test_write_file(const char *path, const char *text);

#endif /* RF_TEST_PTXGEN_H */
