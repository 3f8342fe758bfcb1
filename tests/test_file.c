/* test_file.c - input and output files (common/file.c): a directory and a
 * missing file are clear errors naming the path, a UTF-8 byte-order mark is
 * recognised only as the exact three bytes at the start, an output file
 * appears whole with the usual mode or not at all. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* Entries of dir other than . and .. */
static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

/* A kept output appears under its name with the mode fopen gives (0666
 * less the umask, not mkstemp's 0600), a dropped one leaves nothing, and a
 * folder under the name is refused before anything is created.  Devices,
 * FIFOs, links and signals: tests/test_output.c. */
static void outfile_whole_or_nothing(void **state)
{
    (void)state;
    char dir[64], path[96];
    snprintf(dir, sizeof dir, "/tmp/rfkit-out-%ld", (long)getpid());
    snprintf(path, sizeof path, "%s/r.csv", dir);
    assert_int_equal(mkdir(dir, 0700), 0);
    mode_t mask = umask(022);
    rf_outfile o;
    rf_err err;
    rf_err_clear(&err);
    assert_int_equal(rf_outfile_open(&o, path, &err), RF_OK);
    fputs("a,b\n1,2\n", o.fp);
    assert_int_equal(entries(dir), 1);              /* only the temporary */
    assert_int_equal(rf_outfile_close(&o, 1, &err), RF_OK);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0644);
    assert_int_equal(st.st_size, 8);
    assert_int_equal(entries(dir), 1);
    unlink(path);

    assert_int_equal(rf_outfile_open(&o, path, &err), RF_OK);
    fputs("partial", o.fp);
    assert_int_equal(rf_outfile_close(&o, 0, &err), RF_OK);
    assert_int_equal(entries(dir), 0);

    assert_int_equal(mkdir(path, 0700), 0);         /* the name is a folder */
    assert_int_equal(rf_outfile_open(&o, path, &err), RF_EIO);
    assert_non_null(strstr(err.msg, "r.csv: is a directory, not a file"));
    assert_null(o.tmp);
    assert_int_equal(entries(dir), 1);              /* the folder alone */
    rmdir(path);
    umask(mask);

    char missing[128];
    snprintf(missing, sizeof missing, "%s/no/r.csv", dir);
    assert_int_equal(rf_outfile_open(&o, missing, &err), RF_EIO);
    assert_non_null(strstr(err.msg, "no/r.csv: cannot create: No such file or directory"));
    assert_null(o.tmp);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(directory_is_refused),
        cmocka_unit_test(missing_file_names_path_and_reason),
        cmocka_unit_test(regular_file_opens),
        cmocka_unit_test(bom_is_three_exact_bytes),
        cmocka_unit_test(outfile_whole_or_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
