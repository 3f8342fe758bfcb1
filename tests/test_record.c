/* test_record.c - the calibration record file (calibrate/record.c): other
 * GPU/kernel pairs kept on save, a byte-order mark before the header, a
 * directory named as the record, the saved file's mode (the umask's, not a
 * temporary file's 0600), nothing left behind when saving fails, the
 * shrink weight's row, the HI-RF ratio correction's rows, and the record key: name, entry, launch and content digest. */
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
#include "../common/digest.h"

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

/* shrink (the weight on the calibrated correction): saved and read back
 * exactly; a record without the row (written before it) reads as 1, no
 * shrinkage, the estimates it was made for; a value outside [0, 1] is an
 * error naming file, line and key. */
static void shrink_round_trip(void **state)
{
    (void)state;
    char path[] = "/tmp/rfkit-test-shrXXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    rf_err err = {0};
    rf_calib c, got;
    rf_calib_init(&c, "fermi-gtx480", "kmeans");
    assert_float_equal(c.shrink, 1.0, 0.0);
    c.shrink = 0.8333333333333334;
    assert_int_equal(rf_record_save(path, &c, &err), RF_OK);
    assert_int_equal(rf_record_load(path, "fermi-gtx480", "kmeans", &got, &err), RF_OK);
    assert_true(got.shrink == c.shrink);

    write_file(path, "gpu,kernel,key,value\nv100,sgemm,rms_rel,0.04\n");
    assert_int_equal(rf_record_load(path, "v100", "sgemm", &got, &err), RF_OK);
    assert_float_equal(got.shrink, 1.0, 0.0);

    write_file(path, "gpu,kernel,key,value\nv100,sgemm,level,1\nv100,sgemm,shrink,1.5\n");
    assert_int_equal(rf_record_load(path, "v100", "sgemm", &got, &err), RF_ERANGE);
    assert_non_null(strstr(err.msg, ":3"));
    assert_non_null(strstr(err.msg, "shrink"));
    write_file(path, "gpu,kernel,key,value\nv100,sgemm,shrink,nan\n");
    assert_int_not_equal(rf_record_load(path, "v100", "sgemm", &got, &err), RF_OK);
    assert_non_null(strstr(err.msg, "shrink"));
    unlink(path);
}

/* win_bias and win_se (the windows' mean residual about the fit and its
 * standard error): saved and read back exactly when set; a record without
 * them (older, register-cache) reads has_win false and writes neither row;
 * a bias outside (-1, 1) or a negative standard error is an error naming
 * file, line and key. */
static void window_rows_round_trip(void **state)
{
    (void)state;
    char path[] = "/tmp/rfkit-test-winXXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    rf_err err = {0};
    rf_calib c, got;
    rf_calib_init(&c, "fermi-gtx480", "kmeans");
    assert_int_equal(rf_record_save(path, &c, &err), RF_OK);
    assert_int_equal(rf_record_load(path, "fermi-gtx480", "kmeans", &got, &err), RF_OK);
    assert_false(got.has_win);
    c.has_win = true;
    c.win_bias = -0.031234567890123456;
    c.win_se = 0.0091287092917527679;
    assert_int_equal(rf_record_save(path, &c, &err), RF_OK);
    assert_int_equal(rf_record_load(path, "fermi-gtx480", "kmeans", &got, &err), RF_OK);
    assert_true(got.has_win);
    assert_true(got.win_bias == c.win_bias);
    assert_true(got.win_se == c.win_se);

    write_file(path, "gpu,kernel,key,value\nv100,sgemm,level,1\nv100,sgemm,win_bias,1.5\n");
    assert_int_equal(rf_record_load(path, "v100", "sgemm", &got, &err), RF_ERANGE);
    assert_non_null(strstr(err.msg, ":3"));
    assert_non_null(strstr(err.msg, "win_bias"));
    write_file(path, "gpu,kernel,key,value\nv100,sgemm,win_se,-0.01\n");
    assert_int_equal(rf_record_load(path, "v100", "sgemm", &got, &err), RF_ERANGE);
    assert_non_null(strstr(err.msg, ":2"));
    assert_non_null(strstr(err.msg, "win_se"));
    unlink(path);
}

/* The HI-RF ratio correction's rows (hirf_ratio_w, hirf_ratio_d:concat,
 * hirf_ratio_d:tea, hirf_ratio_d:full): saved and read back exactly, each d only for a window
 * that ran; a record without them (older, other GPUs) reads weight 0 (no
 * correction) and writes none; a weight outside [0, 1] or a d outside
 * (-1, 1) is an error naming file, line and key. */
static void hirf_ratio_rows_round_trip(void **state)
{
    (void)state;
    char path[] = "/tmp/rfkit-test-hrrXXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    rf_err err = {0};
    rf_calib c, got;
    rf_calib_init(&c, "volta-hirf", "trsv");
    assert_int_equal(rf_record_save(path, &c, &err), RF_OK);
    assert_int_equal(rf_record_load(path, "volta-hirf", "trsv", &got, &err), RF_OK);
    assert_true(got.hirf_ratio_w == 0);
    assert_false(got.hirf_ratio_has[0]);
    assert_false(got.hirf_ratio_has[1]);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char buf[8192];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    assert_null(strstr(buf, "hirf_ratio"));

    c.hirf_ratio_w = 0.54568527918781728;
    c.hirf_ratio_d[0] = -0.15817284729183746;
    c.hirf_ratio_has[0] = true;
    assert_int_equal(rf_record_save(path, &c, &err), RF_OK);
    assert_int_equal(rf_record_load(path, "volta-hirf", "trsv", &got, &err), RF_OK);
    assert_true(got.hirf_ratio_w == c.hirf_ratio_w);
    assert_true(got.hirf_ratio_has[0]);
    assert_true(got.hirf_ratio_d[0] == c.hirf_ratio_d[0]);
    assert_false(got.hirf_ratio_has[1]);
    c.hirf_ratio_d[1] = -0.21012345678901234;
    c.hirf_ratio_has[1] = true;
    assert_int_equal(rf_record_save(path, &c, &err), RF_OK);
    assert_int_equal(rf_record_load(path, "volta-hirf", "trsv", &got, &err), RF_OK);
    assert_true(got.hirf_ratio_has[1]);
    assert_true(got.hirf_ratio_d[1] == c.hirf_ratio_d[1]);
    assert_true(got.hirf_ratio_d[0] == c.hirf_ratio_d[0]);
    assert_false(got.hirf_ratio_has[2]);
    c.hirf_ratio_d[2] = 0.31415926535897931;
    c.hirf_ratio_has[2] = true;
    assert_int_equal(rf_record_save(path, &c, &err), RF_OK);
    assert_int_equal(rf_record_load(path, "volta-hirf", "trsv", &got, &err), RF_OK);
    assert_true(got.hirf_ratio_has[2]);
    assert_true(got.hirf_ratio_d[2] == c.hirf_ratio_d[2]);
    assert_true(got.hirf_ratio_d[1] == c.hirf_ratio_d[1]);

    write_file(path, "gpu,kernel,key,value\nv100,sgemm,level,1\nv100,sgemm,hirf_ratio_w,1.5\n");
    assert_int_equal(rf_record_load(path, "v100", "sgemm", &got, &err), RF_ERANGE);
    assert_non_null(strstr(err.msg, ":3"));
    assert_non_null(strstr(err.msg, "hirf_ratio_w"));
    write_file(path, "gpu,kernel,key,value\nv100,sgemm,hirf_ratio_d:tea,-1\n");
    assert_int_equal(rf_record_load(path, "v100", "sgemm", &got, &err), RF_ERANGE);
    assert_non_null(strstr(err.msg, ":2"));
    assert_non_null(strstr(err.msg, "hirf_ratio_d:tea"));
    write_file(path, "gpu,kernel,key,value\nv100,sgemm,hirf_ratio_d:concat,nan\n");
    assert_int_not_equal(rf_record_load(path, "v100", "sgemm", &got, &err), RF_OK);
    assert_non_null(strstr(err.msg, "hirf_ratio_d:concat"));
    write_file(path, "gpu,kernel,key,value\nv100,sgemm,hirf_ratio_d:full,1.5\n");
    assert_int_equal(rf_record_load(path, "v100", "sgemm", &got, &err), RF_ERANGE);
    assert_non_null(strstr(err.msg, "hirf_ratio_d:full"));
    unlink(path);
}

/* FNV-1a 64: offset basis 0xcbf29ce484222325, prime 0x100000001b3.
 * "a" (0x61): (0xcbf29ce484222325 ^ 0x61) * 0x100000001b3 mod 2^64
 * = 0xcbf29ce484222344 * 0x100000001b3 = 0xaf63dc4c8601ec8c. */
static void digest_is_fnv1a(void **state)
{
    (void)state;
    assert_true(rf_digest(RF_DIGEST_INIT, "", 0) == UINT64_C(0xcbf29ce484222325));
    assert_true(rf_digest(RF_DIGEST_INIT, "a", 1) == UINT64_C(0xaf63dc4c8601ec8c));
    /* The string form digests the terminator too: "a" then "b" differs
     * from "ab" then "". */
    uint64_t ab = rf_digest_str(rf_digest_str(RF_DIGEST_INIT, "a"), "b");
    uint64_t ab2 = rf_digest_str(rf_digest_str(RF_DIGEST_INIT, "ab"), "");
    assert_true(ab != ab2);
}

static rf_kernel *load(const char *path, const char *grid)
{
    rf_kernel_opts o;
    memset(&o, 0, sizeof o);
    o.no_ptxas = true;
    o.grid = grid;
    rf_kernel *k = NULL;
    rf_err err = {0};
    assert_int_equal(rf_kernel_load(path, &o, &k, &err), RF_OK);
    return k;
}

static void copy_file(const char *from, const char *to, const char *append)
{
    FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
    assert_non_null(in);
    assert_non_null(out);
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        assert_int_equal(fwrite(buf, 1, n, out), n);
    if (append)
        fputs(append, out);
    fclose(in);
    assert_int_equal(fclose(out), 0);
}

/* reduce.spec: [launch] grid = 512, block = 256, smem = 0, regs = 12, entry
 * reduce.  Two launches share one file; a record of one is not applied to
 * the other; a copy of the spec whose profile differs by one value has the
 * same key and another digest, and its record is refused. */
static void keyed_by_entry_launch_and_content(void **state)
{
    (void)state;
    char dir[] = "/tmp/rfkit-test-keyXXXXXX";
    assert_non_null(mkdtemp(dir));
    char rec[128], spec[128], ptx[128];
    snprintf(rec, sizeof rec, "%s/r.csv", dir);
    snprintf(spec, sizeof spec, "%s/reduce.spec", dir);
    snprintf(ptx, sizeof ptx, "%s/reduce.ptx", dir);
    copy_file("inputs/kernels/reduce.ptx", ptx, NULL);
    copy_file("inputs/kernels/reduce.spec", spec, NULL);

    rf_kernel *a = load(spec, NULL), *b = load(spec, "64");
    char key[RF_CALIB_NAME_MAX];
    rf_calib_key(a, key, sizeof key);
    assert_string_equal(key, "reduce.spec:reduce grid=512,1,1 block=256,1,1 smem=0 regs=12 sms=1");
    rf_calib_key(b, key, sizeof key);
    assert_string_equal(key, "reduce.spec:reduce grid=64,1,1 block=256,1,1 smem=0 regs=12 sms=1");
    assert_true(a->digest == b->digest);   /* same files, other launch */

    rf_err err = {0};
    rf_calib c, got;
    rf_calib_init_kernel(&c, "fermi-gtx480", a);
    c.level = 1.5;
    assert_int_equal(rf_record_save(rec, &c, &err), RF_OK);
    assert_int_equal(rf_record_load_kernel(rec, "fermi-gtx480", b, &got, &err), RF_EUNKNOWN);
    rf_calib_init_kernel(&c, "fermi-gtx480", b);
    c.level = 0.75;
    assert_int_equal(rf_record_save(rec, &c, &err), RF_OK);
    assert_int_equal(rf_record_load_kernel(rec, "fermi-gtx480", a, &got, &err), RF_OK);
    assert_float_equal(got.level, 1.5, 0.0);
    assert_int_equal(rf_record_load_kernel(rec, "fermi-gtx480", b, &got, &err), RF_OK);
    assert_float_equal(got.level, 0.75, 0.0);
    assert_int_equal(rf_record_load_kernel(rec, "v100", a, &got, &err), RF_EUNKNOWN);

    /* The same launch spread over 15 SMs (the run sampled is SM 0's share):
     * another key, so the one-SM record is not applied to it, and its own
     * record does not replace the one-SM one. */
    rf_kernel_spread(a, 15);
    rf_calib_key(a, key, sizeof key);
    assert_string_equal(key, "reduce.spec:reduce grid=512,1,1 block=256,1,1 smem=0 regs=12 sms=15");
    assert_int_equal(rf_record_load_kernel(rec, "fermi-gtx480", a, &got, &err), RF_EUNKNOWN);
    rf_calib_init_kernel(&c, "fermi-gtx480", a);
    c.level = 1.25;
    assert_int_equal(rf_record_save(rec, &c, &err), RF_OK);
    assert_int_equal(rf_record_load_kernel(rec, "fermi-gtx480", a, &got, &err), RF_OK);
    assert_float_equal(got.level, 1.25, 0.0);
    rf_kernel_spread(a, 1);
    assert_int_equal(rf_record_load_kernel(rec, "fermi-gtx480", a, &got, &err), RF_OK);
    assert_float_equal(got.level, 1.5, 0.0);

    /* The same key over other content. */
    copy_file("inputs/kernels/reduce.spec", spec, "; an edit\n");
    rf_kernel *a2 = load(spec, NULL);
    assert_true(a2->digest != a->digest);
    assert_int_equal(rf_record_load_kernel(rec, "fermi-gtx480", a2, &got, &err), RF_EUSAGE);
    assert_non_null(strstr(err.msg, "other code or another spec"));

    rf_kernel_destroy(a);
    rf_kernel_destroy(a2);
    rf_kernel_destroy(b);
    unlink(rec);
    unlink(spec);
    unlink(ptx);
    rmdir(dir);
}

/* A digest row that is not 16 hex digits is malformed, with its line. */
static void bad_digest_row(void **state)
{
    (void)state;
    char path[] = "/tmp/rfkit-test-recXXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    write_file(path, "gpu,kernel,key,value\nv100,k,level,1\nv100,k,digest,12zz\n");
    rf_err err = {0};
    rf_calib c;
    assert_int_equal(rf_record_load(path, "v100", "k", &c, &err), RF_EPARSE);
    assert_non_null(strstr(err.msg, ":3"));
    assert_non_null(strstr(err.msg, "16 hex digits"));
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(keeps_other_pairs_and_reads_a_bom),
        cmocka_unit_test(live_share_round_trip),
        cmocka_unit_test(shrink_round_trip),
        cmocka_unit_test(window_rows_round_trip),
        cmocka_unit_test(hirf_ratio_rows_round_trip),
        cmocka_unit_test(a_directory_is_not_a_record),
        cmocka_unit_test(digest_is_fnv1a),
        cmocka_unit_test(keyed_by_entry_launch_and_content),
        cmocka_unit_test(bad_digest_row),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
