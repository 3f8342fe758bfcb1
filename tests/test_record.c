/* test_record.c - the calibration record file (calibrate/record.c): other
 * GPU/kernel pairs kept on save, a byte-order mark before the header, a
 * directory named as the record, the saved file's mode (the umask's, not a
 * temporary file's 0600), and nothing left behind when saving fails. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "../calibrate/record.h"

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

static void keeps_other_pairs_and_reads_a_bom(void **state)
{
    (void)state;
    char path[] = "/tmp/rfkit-test-recXXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    /* A record another kernel wrote, opened by a byte-order mark. */
    write_file(path, "\xEF\xBB\xBFgpu,kernel,key,value\n"
                     "v100,sgemm,level,1.25\n");
    rf_err err = {0};
    rf_calib c;
    assert_int_equal(rf_record_load(path, "v100", "sgemm", &c, &err), RF_OK);
    assert_float_equal(c.level, 1.25, 1e-15);

    rf_calib_init(&c, "fermi-gtx480", "hotspot");
    c.level = 0.75;
    mode_t old = umask(022);
    assert_int_equal(rf_record_save(path, &c, &err), RF_OK);
    umask(old);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0644);

    rf_calib a, b;
    assert_int_equal(rf_record_load(path, "v100", "sgemm", &a, &err), RF_OK);
    assert_int_equal(rf_record_load(path, "fermi-gtx480", "hotspot", &b, &err), RF_OK);
    assert_float_equal(a.level, 1.25, 1e-15);
    assert_float_equal(b.level, 0.75, 1e-15);
    unlink(path);
}

static void a_directory_is_not_a_record(void **state)
{
    (void)state;
    char dir[] = "/tmp/rfkit-test-recdirXXXXXX";
    assert_non_null(mkdtemp(dir));
    rf_err err = {0};
    rf_calib c;
    assert_int_equal(rf_record_load(dir, "v100", "sgemm", &c, &err), RF_EIO);
    assert_non_null(strstr(err.msg, "is a directory"));
    rf_calib_init(&c, "v100", "sgemm");
    assert_int_equal(rf_record_save(dir, &c, &err), RF_EIO);
    assert_non_null(strstr(err.msg, "is a directory"));

    /* Saving into a folder that does not exist fails and leaves nothing. */
    char bad[sizeof dir + 32];
    snprintf(bad, sizeof bad, "%s/no/such/rec.csv", dir);
    assert_int_equal(rf_record_save(bad, &c, &err), RF_EIO);
    assert_int_equal(rmdir(dir), 0);    /* still empty */
}

/* meas_live (the samples' share of warps not exited): saved when measured,
 * read back exactly, absent from older records (0: not measured), and a
 * value outside (0, 1] is an error naming file, line and key. */
static void live_share_round_trip(void **state)
{
    (void)state;
    char path[] = "/tmp/rfkit-test-livXXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    rf_err err = {0};
    rf_calib c, got;
    rf_calib_init(&c, "volta-hirf", "kmeans");
    c.meas_live = 0.8641;
    assert_int_equal(rf_record_save(path, &c, &err), RF_OK);
    assert_int_equal(rf_record_load(path, "volta-hirf", "kmeans", &got, &err), RF_OK);
    assert_float_equal(got.meas_live, 0.8641, 0.0);

    write_file(path, "gpu,kernel,key,value\nv100,sgemm,level,1.25\n");
    assert_int_equal(rf_record_load(path, "v100", "sgemm", &got, &err), RF_OK);
    assert_float_equal(got.meas_live, 0.0, 0.0);

    write_file(path, "gpu,kernel,key,value\nv100,sgemm,meas_live,1.5\n");
    assert_int_equal(rf_record_load(path, "v100", "sgemm", &got, &err), RF_ERANGE);
    assert_non_null(strstr(err.msg, ":2"));
    assert_non_null(strstr(err.msg, "meas_live"));
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(keeps_other_pairs_and_reads_a_bom),
        cmocka_unit_test(live_share_round_trip),
        cmocka_unit_test(a_directory_is_not_a_record),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
