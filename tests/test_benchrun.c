/* test_benchrun.c - the accuracy benches' shared helpers
 * (tests/support/benchrun.c): the spec listing of a folder, the full-run
 * cache file and the median. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support/benchrun.h"

static void median_odd_even_empty(void **state)
{
    (void)state;
    double odd[3] = {3, 1, 2};            /* sorted 1 2 3: middle 2 */
    double even[4] = {4, 1, 3, 2};        /* sorted 1 2 3 4: (2 + 3) / 2 */
    assert_true(benchrun_median(odd, 3) == 2.0);
    assert_true(benchrun_median(even, 4) == 2.5);
    assert_true(benchrun_median(NULL, 0) == 0.0);
}

static void specs_are_listed_sorted_without_extension(void **state)
{
    (void)state;
    char dir[] = "/tmp/rf_benchrun_XXXXXX";
    assert_non_null(mkdtemp(dir));
    const char *files[4] = {"zeta.spec", "alpha.spec", "notes.txt", ".spec"};
    char path[256];
    for (int i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        fclose(f);
    }
    char *names[8];
    /* Only NAME.spec with a non-empty NAME counts: alpha and zeta. */
    assert_int_equal(benchrun_specs(dir, names, 8), 2);
    assert_string_equal(names[0], "alpha");
    assert_string_equal(names[1], "zeta");
    free(names[0]);
    free(names[1]);
    for (int i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        unlink(path);
    }
    rmdir(dir);
    assert_int_equal(benchrun_specs("/tmp/rf_benchrun_no_such_dir", names, 8), -1);
}

static void cache_round_trip_keeps_keys_with_bars_and_other_lines(void **state)
{
    (void)state;
    char path[] = "/tmp/rf_benchrun_cache_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    benchrun_point out[3];
    memset(out, 0, sizeof out);
    strcpy(out[0].key, "tuning|sgemm|b4");
    out[0].ipc = 1.25, out[0].cycles = 4000, out[0].cpu_s = 0.5;
    strcpy(out[1].key, "tuning|sgemm|b8");
    out[1].rc = -3;                       /* failed: not written */
    strcpy(out[2].key, "validation|scan|c8");
    out[2].ipc = 0.75, out[2].cycles = 123456789012ULL, out[2].cpu_s = 2.25;
    assert_int_equal(benchrun_cache_save(path, out, 3), 0);

    benchrun_point in[4];
    memset(in, 0, sizeof in);
    strcpy(in[0].key, "validation|scan|c8");
    strcpy(in[1].key, "tuning|sgemm|b4");
    strcpy(in[2].key, "tuning|sgemm|b8");
    strcpy(in[3].key, "tuning|sgemm");      /* a prefix of a key is no match */
    assert_int_equal(benchrun_cache_load(path, in, 4), 2);
    assert_true(in[0].ipc == 0.75);
    assert_true(in[0].cycles == 123456789012ULL);
    assert_true(in[0].cpu_s == 2.25);
    assert_true(in[1].ipc == 1.25);
    assert_true(in[1].cycles == 4000);
    assert_true(in[1].cpu_s == 0.5);
    assert_true(in[2].ipc == 0.0);
    assert_true(in[3].ipc == 0.0);

    /* Saving a subset keeps the other keys' lines and replaces its own. */
    benchrun_point one;
    memset(&one, 0, sizeof one);
    strcpy(one.key, "tuning|sgemm|b4");
    one.ipc = 2.5, one.cycles = 8000, one.cpu_s = 1.0;
    assert_int_equal(benchrun_cache_save(path, &one, 1), 0);
    memset(in, 0, sizeof in);
    strcpy(in[0].key, "validation|scan|c8");
    strcpy(in[1].key, "tuning|sgemm|b4");
    assert_int_equal(benchrun_cache_load(path, in, 2), 2);
    assert_true(in[0].ipc == 0.75);
    assert_true(in[0].cycles == 123456789012ULL);
    assert_true(in[1].ipc == 2.5);
    assert_true(in[1].cycles == 8000);
    unlink(path);
    assert_int_equal(benchrun_cache_load(path, in, 4), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(median_odd_even_empty),
        cmocka_unit_test(specs_are_listed_sorted_without_extension),
        cmocka_unit_test(cache_round_trip_keeps_keys_with_bars_and_other_lines),
    };
    return cmocka_run_group_tests_name("benchrun", tests, NULL, NULL);
}
