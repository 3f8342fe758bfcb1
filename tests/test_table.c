/* test_table.c - text tables (results/table.c): alignment of number and
 * text columns, the rule under the header, CSV quoting, and rows longer
 * than any fixed buffer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../results/table.h"

static char *render(const rf_tbl *t, int csv)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    if (csv)
        rf_tbl_csv(t, f);
    else
        rf_tbl_print(t, f);
    fclose(f);
    return buf;
}

/* Widths: "name" 6 ("hotspot" is 7), "ipc" 5 ("1.234"); the number column
 * is right-aligned, the last column is not padded. */
static void aligned_print(void **state)
{
    (void)state;
    rf_tbl *t = rf_tbl_new(3, (const char *const[]){"name", "ipc", "note"});
    assert_non_null(t);
    assert_int_equal(rf_tbl_addf(t, "%s\t%.3f\t%s", "hotspot", 1.2344, "a"), RF_OK);
    assert_int_equal(rf_tbl_addf(t, "%s\t%.1f\t%s", "bfs", 0.5, "bb"), RF_OK);
    char *out = render(t, 0);
    assert_string_equal(out, "name     ipc    note\n"
                             "-------  -----  ----\n"
                             "hotspot  1.234  a\n"
                             "bfs        0.5  bb\n");
    free(out);
    rf_tbl_free(t);
}

/* CSV: a field with a comma or a quote is quoted, quotes doubled. */
static void csv_quoting(void **state)
{
    (void)state;
    rf_tbl *t = rf_tbl_new(2, (const char *const[]){"k", "v"});
    assert_non_null(t);
    assert_int_equal(rf_tbl_row(t), RF_OK);
    assert_int_equal(rf_tbl_set(t, 0, "%s", "a,b"), RF_OK);
    assert_int_equal(rf_tbl_set(t, 1, "say \"%d\"", 2), RF_OK);
    char *out = render(t, 1);
    assert_string_equal(out, "k,v\n\"a,b\",\"say \"\"2\"\"\"\n");
    free(out);
    rf_tbl_free(t);
}

/* A row of 3000 characters (longer than the 2048-byte buffer rf_tbl_addf
 * once cut it at) keeps every character; missing cells are empty. */
static void long_rows_are_whole(void **state)
{
    (void)state;
    char *big = malloc(3001);
    assert_non_null(big);
    memset(big, 'x', 3000);
    big[3000] = '\0';
    rf_tbl *t = rf_tbl_new(3, (const char *const[]){"a", "b", "c"});
    assert_non_null(t);
    assert_int_equal(rf_tbl_addf(t, "1\t%s", big), RF_OK);
    char *out = render(t, 1);
    char want[3100];
    snprintf(want, sizeof want, "a,b,c\n1,%s,\n", big);
    assert_string_equal(out, want);
    free(out);
    free(big);
    rf_tbl_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(aligned_print),
        cmocka_unit_test(csv_quoting),
        cmocka_unit_test(long_rows_are_whole),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
