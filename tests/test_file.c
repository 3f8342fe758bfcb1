/* test_file.c - opening input files (common/file.c): a directory and a
 * missing file are clear errors naming the path, a UTF-8 byte-order mark is
 * recognised only as the exact three bytes at the start. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "../common/file.h"

static void directory_is_refused(void **state)
{
    (void)state;
    FILE *fp = (FILE *)1;
    rf_err err;
    rf_err_clear(&err);
    assert_int_equal(rf_file_open("tests", &fp, &err), RF_EIO);
    assert_null(fp);
    assert_string_equal(err.msg, "tests: is a directory, not a file");
}

static void missing_file_names_path_and_reason(void **state)
{
    (void)state;
    FILE *fp = (FILE *)1;
    rf_err err;
    rf_err_clear(&err);
    assert_int_equal(rf_file_open("tests/no-such-file.ptx", &fp, &err), RF_EIO);
    assert_null(fp);
    assert_string_equal(err.msg, "tests/no-such-file.ptx: cannot open: No such file or directory");
}

static void regular_file_opens(void **state)
{
    (void)state;
    FILE *fp = NULL;
    rf_err err;
    rf_err_clear(&err);
    assert_int_equal(rf_file_open("tests/fixtures/small.spec", &fp, &err), RF_OK);
    assert_non_null(fp);
    char line[64];
    assert_non_null(fgets(line, sizeof line, fp));
    fclose(fp);
}

static void bom_is_three_exact_bytes(void **state)
{
    (void)state;
    assert_int_equal(rf_file_bom("\xEF\xBB\xBFgpu", 6), 3);
    assert_int_equal(rf_file_bom("\xEF\xBB\xBF", 3), 3);
    assert_int_equal(rf_file_bom("\xEF\xBB", 2), 0);        /* too short */
    assert_int_equal(rf_file_bom("\xEF\xBB\xBE", 3), 0);    /* not the mark */
    assert_int_equal(rf_file_bom("gpu\xEF\xBB\xBF", 6), 0); /* not at the start */
    assert_int_equal(rf_file_bom("", 0), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(directory_is_refused),
        cmocka_unit_test(missing_file_names_path_and_reason),
        cmocka_unit_test(regular_file_opens),
        cmocka_unit_test(bom_is_three_exact_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
