/* test_kir.c - shared helpers of the kernel readers (inputs/kir.c): the
 * stable index sort the dot reader and the register allocator use. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>

#include "../inputs/kir_internal.h"

static bool key_before(int a, int b, const void *ctx)
{
    const int *key = ctx;
    return key[a] < key[b];
}

/* Keys 3 1 2 1 3 0 1 for indices 0..6: ascending keys, equal keys in
 * index order (stable): 5 (0), 1 3 6 (1), 2 (2), 0 4 (3). */
static void stable_by_key(void **state)
{
    (void)state;
    const int key[7] = {3, 1, 2, 1, 3, 0, 1};
    int idx[7] = {0, 1, 2, 3, 4, 5, 6};
    kir_sort_idx(idx, 7, key_before, key);
    const int want[7] = {5, 1, 3, 6, 2, 0, 4};
    for (int i = 0; i < 7; i++)
        assert_int_equal(idx[i], want[i]);
}

/* Stability holds for the order the indices come in, not their values:
 * 6 before 1 before 3 (all key 1) stays so. */
static void stable_keeps_input_order(void **state)
{
    (void)state;
    const int key[7] = {3, 1, 2, 1, 3, 0, 1};
    int idx[7] = {6, 4, 1, 5, 3, 0, 2};
    kir_sort_idx(idx, 7, key_before, key);
    const int want[7] = {5, 6, 1, 3, 2, 4, 0};
    for (int i = 0; i < 7; i++)
        assert_int_equal(idx[i], want[i]);
    kir_sort_idx(idx, 0, key_before, key);   /* nothing to do */
    kir_sort_idx(idx, 1, key_before, key);
    assert_int_equal(idx[0], 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(stable_by_key),
        cmocka_unit_test(stable_keeps_input_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
