/* test_batch.c - batch estimation (results/batch.c) and the estimate and
 * batch commands end to end: bad rows get an error column while the rows
 * around them are computed, output order and content do not depend on the
 * thread count, bad headers and bad command lines exit 2, the output file
 * appears whole. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../analytic/design.h"
#include "../inputs/point.h"
#include "../results/batch.h"
#include "../results/csvout.h"
#include "support/clirun.h"

static char rfkit[512];

#define KERNEL "inputs/kernels/hotspot.spec"

/* Run batch over `in` text; returns the rc and the output in *out. */
static int batch_text(const char *in, int jobs, size_t chunk, char **out, rf_batch_stats *st)
{
    FILE *fi = fmemopen((void *)in, strlen(in), "r");
    assert_non_null(fi);
    size_t len = 0;
    FILE *fo = open_memstream(out, &len);
    assert_non_null(fo);
    rf_batch_opts o = {jobs, chunk, NULL, NULL};
    rf_err err;
    rf_err_clear(&err);
    int rc = rf_batch_run(fi, "in.csv", fo, &o, st, &err);
    fclose(fi);
    fclose(fo);
    if (rc)
        fprintf(stderr, "batch: %s\n", err.msg);
    return rc;
}

/* Field `col` (0-based) of line `line` (0 = header) of CSV text without
 * quoted commas in the fields looked at. */
static void field(const char *text, int line, int col, char *buf, size_t cap)
{
    const char *p = text;
    for (int i = 0; i < line; i++) {
        p = strchr(p, '\n');
        assert_non_null(p);
        p++;
    }
    for (int c = 0; c < col; c++) {
        p += strcspn(p, ",\n");
        assert_true(*p == ',');
        p++;
    }
    size_t n = strcspn(p, ",\n");
    assert_true(n < cap);
    memcpy(buf, p, n);
    buf[n] = '\0';
}

static int count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

static const char good_and_bad[] =
    "gpu,kernel,design,banks,regs,threads\n"
    "fermi-gtx480,,baseline,16,26,256\n"          /* occupancy and area only */
    "fermi-gtx480,,stealing,abc,26,256\n"         /* bad number */
    "fermi-gtx480," KERNEL ",stealing,8,,\n"       /* full estimate */
    "no-such-gpu," KERNEL ",baseline,8,,\n"        /* unknown GPU */
    "fermi-gtx480," KERNEL ",baseline,8,,\n"       /* full estimate */
    "fermi-gtx480,,baseline,16,26\n";             /* short row */

/* Stealing columns follow the command line's rule (rf_design_steal_flags):
 * read_steal = 1 alone is read stealing only, like write_steal = 0 alone;
 * no column given is both. */
static void steal_columns(void **state)
{
    (void)state;
    const char *in = "gpu,kernel,design,banks,read_steal,write_steal\n"
                     "fermi-gtx480," KERNEL ",stealing,8,1,\n"
                     "fermi-gtx480," KERNEL ",stealing,8,,0\n"
                     "fermi-gtx480," KERNEL ",stealing,8,1,0\n"
                     "fermi-gtx480," KERNEL ",stealing,8,,\n"
                     "fermi-gtx480," KERNEL ",stealing,8,1,1\n";
    char *out = NULL;
    rf_batch_stats st;
    assert_int_equal(batch_text(in, 1, 0, &out, &st), RF_OK);
    assert_int_equal(st.errors, 0);
    char r[6][64];
    for (int i = 1; i <= 5; i++)
        field(out, i, 9, r[i], sizeof r[i]);   /* ipc: after the 6 inputs and 3 occupancy columns */
    assert_string_equal(r[1], r[2]);
    assert_string_equal(r[1], r[3]);
    assert_string_equal(r[4], r[5]);
    assert_string_not_equal(r[1], r[4]);
    free(out);
}

static void bad_rows_do_not_stop_good_ones(void **state)
{
    (void)state;
    char *out = NULL;
    rf_batch_stats st;
    assert_int_equal(batch_text(good_and_bad, 1, 0, &out, &st), RF_OK);
    assert_int_equal(st.rows, 6);
    assert_int_equal(st.errors, 3);
    assert_int_equal(count_lines(out), 7);
    char buf[512];
    /* Header: input columns, then the result columns (the design counters,
     * then the register cache's, between area_mm2 and calibrated). */
    field(out, 0, 6, buf, sizeof buf);
    assert_string_equal(buf, "ctas_per_sm");
    field(out, 0, 27, buf, sizeof buf);
    assert_string_equal(buf, "rc_hits");
    field(out, 0, 32, buf, sizeof buf);
    assert_string_equal(buf, "error");
    /* Row 1: 26 regs x 256 threads on a 32768-register SM: 4 CTAs, 32 warps;
     * no kernel, so no IPC; no error. */
    field(out, 1, 6, buf, sizeof buf);
    assert_string_equal(buf, "4");
    field(out, 1, 7, buf, sizeof buf);
    assert_string_equal(buf, "32");
    field(out, 1, 9, buf, sizeof buf);
    assert_string_equal(buf, "");
    field(out, 1, 32, buf, sizeof buf);
    assert_string_equal(buf, "");
    /* Row 2: the error names file, line and column. */
    field(out, 2, 32, buf, sizeof buf);
    assert_string_equal(buf, "in.csv:3:4: banks: 'abc' is not a whole number");
    field(out, 2, 9, buf, sizeof buf);
    assert_string_equal(buf, "");
    /* Rows 3 and 5: IPC, cycles, energy, area, uncalibrated. */
    double ipc_steal, ipc_base;
    field(out, 3, 9, buf, sizeof buf);
    ipc_steal = atof(buf);
    field(out, 5, 9, buf, sizeof buf);
    ipc_base = atof(buf);
    assert_true(ipc_steal > 0.1 && ipc_steal < 2.0);
    assert_true(ipc_base > 0.1 && ipc_base <= ipc_steal);
    field(out, 3, 12, buf, sizeof buf);
    assert_true(atof(buf) > 1000);
    field(out, 3, 14, buf, sizeof buf);
    assert_true(atof(buf) > 0);
    field(out, 3, 31, buf, sizeof buf);
    assert_string_equal(buf, "0");
    /* No register cache: its counts are 0. */
    field(out, 3, 27, buf, sizeof buf);
    assert_string_equal(buf, "0");
    /* Row 4: unknown GPU. */
    field(out, 4, 32, buf, sizeof buf);   /* quoted: the message lists presets */
    assert_true(!strncmp(buf, "\"in.csv:5:1: gpu: unknown GPU preset 'no-such-gpu'", 48));
    assert_null(strstr(buf, "gpu: gpu:"));
    /* Row 6: too few fields; the output row is padded to the header. */
    field(out, 6, 32, buf, sizeof buf);
    assert_non_null(strstr(buf, "5 fields"));
    free(out);
}

static void threads_give_the_same_output(void **state)
{
    (void)state;
    /* 200 rows through 3 workers in chunks of 7 rows. */
    size_t cap = 1 << 16, len = 0;
    char *in = malloc(cap);
    assert_non_null(in);
    len += (size_t)snprintf(in + len, cap - len, "gpu,kernel,design,banks,collectors\n");
    const char *designs[] = {"baseline", "stealing"};
    for (int i = 0; i < 200; i++)
        len += (size_t)snprintf(in + len, cap - len, "fermi-gtx480,%s,%s,%d,%d\n",
                                i % 5 == 4 ? "missing.spec" : KERNEL, designs[i % 2],
                                4 << (i % 4), 4 + i % 13);
    char *one = NULL, *many = NULL;
    rf_batch_stats s1, s2;
    assert_int_equal(batch_text(in, 1, 0, &one, &s1), RF_OK);
    assert_int_equal(batch_text(in, 3, 7, &many, &s2), RF_OK);
    assert_string_equal(one, many);
    assert_int_equal(s1.rows, 200);
    assert_int_equal(s2.errors, 40);
    assert_int_equal(count_lines(one), 201);
    free(in);
    free(one);
    free(many);
}

static void quoting_round_trips(void **state)
{
    (void)state;
    /* A field with a comma and a quote comes back quoted by libcsv. */
    const char *in = "gpu,design,regs,threads\n"
                     "fermi-gtx480,\"odd, \"\"name\"\"\",26,256\n";
    char *out = NULL;
    rf_batch_stats st;
    assert_int_equal(batch_text(in, 1, 0, &out, &st), RF_OK);
    assert_int_equal(st.errors, 1);
    assert_non_null(strstr(out, "fermi-gtx480,\"odd, \"\"name\"\"\",26,256,"));
    free(out);
}

static void bad_headers_are_errors(void **state)
{
    (void)state;
    char *out = NULL;
    rf_batch_stats st;
    assert_int_equal(batch_text("gpu,kernel,colour\nfermi-gtx480,,red\n", 1, 0, &out, &st),
                     RF_EUNKNOWN);
    free(out);
    out = NULL;
    assert_int_equal(batch_text("kernel,banks\nx,4\n", 1, 0, &out, &st), RF_EPARSE);
    free(out);
    out = NULL;
    assert_int_equal(batch_text("gpu,ipc\nfermi-gtx480,1\n", 1, 0, &out, &st), RF_EPARSE);
    free(out);
    out = NULL;
    assert_int_equal(batch_text("", 1, 0, &out, &st), RF_EPARSE);
    free(out);
    out = NULL;
    /* A quote opened on row 3 and never closed took the rest of the file
     * as one field (a row error about its field count at best). */
    rf_batch_opts o = {1, 0, NULL, NULL};
    rf_err err;
    static const char open_quote[] = "gpu,regs,threads\nv100,32,256\n\"v100,32,256\nv100,8,8\n";
    FILE *fi = fmemopen((void *)open_quote, strlen(open_quote), "r");
    size_t len = 0;
    FILE *fo = open_memstream(&out, &len);
    assert_int_equal(rf_batch_run(fi, "in.csv", fo, &o, &st, &err), RF_EPARSE);
    assert_string_equal(err.msg, "in.csv:3: a quoted field is not closed by the end of the input");
    fclose(fi);
    fclose(fo);
    free(out);
    /* Closed quotes, with a comma and a line break inside, are fine. */
    out = NULL;
    assert_int_equal(batch_text("gpu,design,regs,threads\nv100,\"a,\nb\",32,256\n", 1, 0, &out,
                                &st), RF_OK);
    assert_int_equal(st.rows, 1);
    free(out);
}

/* A header written by a Windows tool: UTF-8 byte-order mark and CRLF.
 * The mark is not part of the first column's name, and the rows read as
 * usual: 26 registers x 256 threads on fermi-gtx480's 32768-register SM
 * (allocation unit 128 per warp: 26 x 32 = 832 -> 896, x 8 warps = 7168
 * per CTA) give floor(32768 / 7168) = 4 CTAs, 32 warps. */
static void bom_and_crlf_header(void **state)
{
    (void)state;
    char *out = NULL;
    rf_batch_stats st;
    assert_int_equal(batch_text("\xEF\xBB\xBFgpu,regs,threads\r\nfermi-gtx480,26,256\r\n", 1, 0,
                                &out, &st),
                     RF_OK);
    assert_int_equal(st.rows, 1);
    assert_int_equal(st.errors, 0);
    char buf[256];
    field(out, 0, 0, buf, sizeof buf);
    assert_string_equal(buf, "gpu");
    field(out, 1, 3, buf, sizeof buf);
    assert_string_equal(buf, "4");
    field(out, 1, 4, buf, sizeof buf);
    assert_string_equal(buf, "32");
    free(out);
}

/* The grid column follows the launch rules of a spec (and is named as the
 * header names it): a product of three 2^31 overflowed a long before. */
static void grid_cells(void **state)
{
    (void)state;
    char *out = NULL;
    rf_batch_stats st;
    assert_int_equal(batch_text("gpu,regs,threads,grid\n"
                                "fermi-gtx480,26,256,\"2147483648,2147483648,2147483648\"\n"
                                "fermi-gtx480,26,256,0\n"
                                "fermi-gtx480,26,256,\"32,32\"\n", 1, 0, &out, &st),
                     RF_OK);
    assert_int_equal(st.rows, 3);
    assert_int_equal(st.errors, 2);
    assert_non_null(strstr(out, "in.csv:2:4: grid: 2147483648 is outside [1, 2147483647]"));
    assert_non_null(strstr(out, "in.csv:3:4: grid: 0 is outside [1, 2147483647]"));
    free(out);
}

static void number_format(void **state)
{
    (void)state;
    char b[64];
    const struct { double v; const char *s; } cases[] = {
        {1.0, "1"}, {0.5, "0.5"}, {1.23456789, "1.23457"}, {123456.7, "123457"},
        {999999.6, "1e+06"}, {0.000123456, "0.000123456"}, {-2.5, "-2.5"}, {0.0, "0"},
        {1e-7, "1e-07"}, {42.0, "42"}, {0.1, "0.1"}, {9.9999996, "10"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        b[rf_fmt_num(b, cases[i].v, 6)] = '\0';
        char ref[64];
        snprintf(ref, sizeof ref, "%.6g", cases[i].v);
        assert_string_equal(b, cases[i].s);
        assert_string_equal(b, ref);
    }
}

/* rf_fmt_num over a deterministic spread of values (every decade from
 * 1e-6 to 1e16, mantissas with carries such as 9.999995, both signs, 1, 8
 * and 15 digits): the text reads back within half a unit of the last
 * digit kept (it rounds the scaled value, so at exact ties it may differ
 * from printf's correctly rounded %g in that digit). */
static void number_format_spread(void **state)
{
    (void)state;
    char b[64];
    const double mant[] = {1.0, 1.5, 9.9999949, 9.999995, 9.9999951, 3.3333333333,
                           1.2345678901234, 7.0000005, 2.5e-1, 6.66666666666};
    for (int e = -6; e <= 16; e++)
        for (size_t m = 0; m < sizeof mant / sizeof mant[0]; m++)
            for (int sg = -1; sg <= 1; sg += 2)
                for (int d = 1; d <= 15; d += 7) {
                    double v = sg * mant[m] * pow(10.0, e);
                    int n = rf_fmt_num(b, v, d);
                    assert_true(n > 0 && n < 32);
                    b[n] = '\0';
                    double back = strtod(b, NULL);
                    assert_true(fabs(back - v) <= 0.5000001 * pow(10.0, 1 - d) * fabs(v) * 10.0);
                    assert_true((back < 0) == (v < 0));
                }
}

/* Integers and rounded values: all digits, also past the 40 bytes the
 * short form reserves (1e300 rounds to 301 digits). */
static void integers_and_huge_rounded(void **state)
{
    (void)state;
    rf_csvw w;
    rf_csvw_init(&w, NULL);
    rf_csvw_int(&w, 0);
    rf_csvw_int(&w, -1234567);
    rf_csvw_int(&w, 9223372036854775807L);
    rf_csvw_int(&w, -9223372036854775807L - 1);
    rf_csvw_round(&w, 57766.5);     /* nearbyint: to even */
    rf_csvw_round(&w, -0.4);        /* -0 is written 0 */
    rf_csvw_end(&w);
    const char *want = "0,-1234567,9223372036854775807,-9223372036854775808,57766,0\n";
    assert_int_equal(w.len, strlen(want));
    assert_memory_equal(w.buf, want, w.len);
    w.len = 0;
    rf_csvw_round(&w, 1e300);
    char ref[400];
    int n = snprintf(ref, sizeof ref, "%.0f", 1e300);
    assert_int_equal(n, 301);
    assert_int_equal(w.len, (size_t)n);
    assert_memory_equal(w.buf, ref, w.len);
    assert_true(w.len <= w.cap);
    rf_csvw_free(&w);
}

/* Input columns come back as given: plain rows (copied as parsed), rows
 * with quoted fields, short and long rows (padded or cut to the header). */
static void input_columns_echoed(void **state)
{
    (void)state;
    const char *in = "gpu,design,regs,threads\n"
                     "fermi-gtx480,baseline,26,256\n"
                     "fermi-gtx480,,26,\n"
                     "\"fermi-gtx480\",\"base\nline\",26,256\n"
                     "fermi-gtx480,baseline\n"
                     "fermi-gtx480,baseline,26,256,extra\n";
    char *out = NULL;
    rf_batch_stats st;
    assert_int_equal(batch_text(in, 1, 0, &out, &st), RF_OK);
    assert_int_equal(st.rows, 5);
    assert_non_null(strstr(out, "\nfermi-gtx480,baseline,26,256,"));
    assert_non_null(strstr(out, "\nfermi-gtx480,,26,,"));
    assert_non_null(strstr(out, "\nfermi-gtx480,\"base\nline\",26,256,"));
    assert_non_null(strstr(out, "\nfermi-gtx480,baseline,,,"));
    assert_non_null(strstr(out, "\nfermi-gtx480,baseline,26,256,,"));
    char *two = NULL;
    assert_int_equal(batch_text(in, 2, 2, &two, &st), RF_OK);
    assert_string_equal(out, two);
    free(out);
    free(two);
}

/* ---- end to end ---- */

static int run_status(const char *args, char **out_text)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s %s 2>&1", rfkit, args);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t len = 0, cap = 4096;
    char *o = malloc(cap);
    assert_non_null(o);
    int c;
    while ((c = fgetc(p)) != EOF) {
        if (len + 2 > cap) {
            cap *= 2;
            o = realloc(o, cap);
            assert_non_null(o);
        }
        o[len++] = (char)c;
    }
    o[len] = '\0';
    int st = pclose(p);
    if (out_text)
        *out_text = o;
    else
        free(o);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void estimate_end_to_end(void **state)
{
    (void)state;
    char *o = NULL;
    assert_int_equal(run_status("estimate --gpu fermi-gtx480 --kernel " KERNEL
                                " --design stealing --banks 8 --calib /nonexistent-dir/none.csv --csv", &o), 2);
    free(o);
    assert_int_equal(run_status("estimate --gpu fermi-gtx480 --kernel " KERNEL
                                " --design stealing --banks 8 --csv --calib tests/fixtures/no-such.csv", NULL), 2);
    assert_int_equal(run_status("estimate --gpu fermi-gtx480 --kernel " KERNEL " --banks x", NULL), 2);
    assert_int_equal(run_status("estimate --gpu nope --kernel " KERNEL, NULL), 2);
    assert_int_equal(run_status("estimate --gpu fermi-gtx480 --kernel /nonexistent/k.spec", NULL), 2);
    assert_int_equal(run_status("calibrate --gpu fermi-gtx480 --kernel /nonexistent/k.spec", NULL), 2);
    assert_int_equal(run_status("calibrate --gpu fermi-gtx480 --kernel " KERNEL " --budget-cycles x",
                                NULL), 2);
    assert_int_equal(run_status("estimate --kernel " KERNEL, NULL), 2);
    assert_int_equal(run_status("estimate --gpu fermi-gtx480 --kernel " KERNEL " --design wat", NULL), 2);
    assert_int_equal(run_status("estimate --gpu fermi-gtx480 --kernel " KERNEL " --bogus 1", NULL), 2);

    char path[] = "/tmp/rfkit-est-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    unlink(path);
    char args[1024];
    snprintf(args, sizeof args, "estimate --gpu fermi-gtx480 --kernel " KERNEL
             " --design stealing --banks 8 --csv --calib %s", path);
    /* A calibration file that does not exist yet, named explicitly: bad input. */
    assert_int_equal(run_status(args, NULL), 2);
    assert_int_equal(run_status("estimate --gpu fermi-gtx480 --kernel " KERNEL
                                " --design stealing --banks 8 --csv --calib tests/test_batch.c",
                                NULL), 2);
    o = NULL;
    assert_int_equal(run_status("estimate --gpu fermi-gtx480 --kernel " KERNEL
                                " --design stealing --banks 8 --csv", &o), 0);
    assert_non_null(strstr(o, "ipc,ipc_lo,ipc_hi,cycles"));
    assert_non_null(strstr(o, "energy_nj,area_mm2"));
    assert_non_null(strstr(o, "calibrated"));
    free(o);
}

static void batch_end_to_end(void **state)
{
    (void)state;
    char in[] = "/tmp/rfkit-batch-in-XXXXXX";
    int fd = mkstemp(in);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs(good_and_bad, f);
    fclose(f);
    char outp[600], args[1400];
    snprintf(outp, sizeof outp, "%s.out.csv", in);
    unlink(outp);
    snprintf(args, sizeof args, "batch %s -o %s --jobs 2", in, outp);
    /* Some rows are bad: exit 2, yet every row is in the output file. */
    assert_int_equal(run_status(args, NULL), 2);
    FILE *r = fopen(outp, "r");
    assert_non_null(r);
    int lines = 0, c;
    while ((c = fgetc(r)) != EOF)
        lines += c == '\n';
    fclose(r);
    assert_int_equal(lines, 7);
    unlink(outp);

    /* A bad header: exit 2 and no output file. */
    f = fopen(in, "w");
    fputs("gpu,colour\nfermi-gtx480,red\n", f);
    fclose(f);
    assert_int_equal(run_status(args, NULL), 2);
    assert_int_equal(access(outp, F_OK), -1);
    assert_int_equal(run_status("batch /nonexistent/in.csv", NULL), 2);
    assert_int_equal(run_status("batch", NULL), 2);
    assert_int_equal(run_status("batch x.csv --jobs 0", NULL), 2);
    unlink(in);
}

/* ---- estimate and batch: one set of options ---- */

#define PTX "inputs/kernels/hotspot.ptx"
/* The calibration record of estimate_and_batch_agree: a name of this
 * process's own, so that test runs side by side (plain and sanitized
 * builds, other checkouts) never read each other's record. */
static char calib_file[64];
#define CALIB_FILE calib_file

/* Field `name` of data row `row` (1 = first) of CSV text whose header is
 * the first line starting with "gpu," (notes on stderr may come before);
 * quoted fields are unquoted.  False when there is no such column. */
static bool csv_named(const char *text, int row, const char *name, char *buf, size_t cap)
{
    const char *h = text;
    while (strncmp(h, "gpu,", 4) != 0) {
        h = strchr(h, '\n');
        if (!h)
            return false;
        h++;
    }
    char fields[2][64][256];
    int nf[2] = {0, 0};
    const char *lines[2] = {h, h};
    for (int i = 0; i < row; i++) {
        lines[1] = strchr(lines[1], '\n');
        assert_non_null(lines[1]);
        lines[1]++;
    }
    for (int l = 0; l < 2; l++) {
        const char *p = lines[l];
        for (;;) {
            assert_true(nf[l] < 64);
            char *o = fields[l][nf[l]++];
            size_t n = 0;
            bool q = *p == '"';
            p += q;
            while (*p && (q || (*p != ',' && *p != '\n'))) {
                if (q && *p == '"') {
                    if (p[1] != '"') {
                        p++;
                        q = false;
                        continue;
                    }
                    p++;
                }
                assert_true(n + 1 < 256);
                o[n++] = *p++;
            }
            o[n] = '\0';
            if (*p != ',')
                break;
            p++;
        }
    }
    for (int i = 0; i < nf[0] && i < nf[1]; i++)
        if (!strcmp(fields[0][i], name)) {
            assert_true(strlen(fields[1][i]) < cap);
            strcpy(buf, fields[1][i]);
            return true;
        }
    return false;
}

typedef struct kv {
    const char *name, *value;
} kv;

/* Design points as option/column lists: bare PTX (hotspot.ptx with grid
 * 32,32 and block 16,16, the default profile) and the spec, under several
 * designs, with every launch option and the aliases. */
static const kv agree_points[][9] = {
    {{"kernel", PTX}, {"grid", "32,32"}, {"block", "16,16"}},
    {{"kernel", PTX}, {"grid", "32,32"}, {"block", "16,16"}, {"design", "stealing"},
     {"banks", "8"}},
    {{"kernel", PTX}, {"grid", "32,32"}, {"block", "16,16"}, {"design", "stealing"},
     {"banks", "4"}, {"read_steal", "1"}},
    {{"kernel", PTX}, {"grid", "32,32"}, {"block", "16,16"}, {"design", "sharing"}},
    {{"kernel", PTX}, {"grid", "32,32"}, {"block", "16,16"}, {"design", "finereg"}},
    {{"kernel", PTX}, {"grid", "32,32"}, {"block", "16,16"}, {"design", "ltrf"}, {"sms", "1"}},
    {{"kernel", PTX}, {"grid", "32,32"}, {"block", "16,16"}, {"entry", "hotspot"},
     {"smem", "4096"}, {"regs", "40"}, {"design", "stealing"}, {"collectors", "8"}},
    {{"kernel", PTX}, {"grid", "64"}, {"block", "8,8"}, {"design", "vt"}},
    {{"kernel", PTX}, {"grid", "32,32"}, {"block", "16,16"}, {"design", "stealing"},
     {"calib", CALIB_FILE}},
    {{"kernel", KERNEL}},
    {{"kernel", KERNEL}, {"design", "stealing"}, {"banks", "8"}},
    {{"kernel", KERNEL}, {"grid", "64,64"}, {"block", "8,8"}, {"design", "regmutex"}},
    {{"kernel", KERNEL}, {"regs", "32"}, {"sms", "2"}, {"design", "rfc"}},
    {{"kernel", KERNEL}, {"design", "stealing"}, {"banks", "8"}, {"calib", CALIB_FILE}},
    {{"gpu", "volta-hirf"}, {"kernel", KERNEL}, {"design", "hirf"}, {"index", "tea"}},
    {{"gpu", "volta-hirf"}, {"kernel", PTX}, {"grid", "32,32"}, {"block", "16,16"},
     {"design", "hirf"}},
    /* a kernel parameter for exact trip counts (tests/fixtures/loops.ptx) */
    {{"kernel", "tests/fixtures/loops.ptx"}, {"entry", "loopn"}, {"grid", "1024"},
     {"block", "256"}, {"param", "n=100"}},
    /* aliases: one batch row each (a header may not name block and threads) */
    {{"kernel", PTX}, {"ctas", "1024"}, {"threads", "256"}, {"design", "stealing"}},
    {{"kernel", KERNEL}, {"threads", "128"}},
};
#define AGREE_N (sizeof agree_points / sizeof agree_points[0])
#define AGREE_ALIASES 2   /* the last ones */

static const char *kv_get(const kv *p, const char *name)
{
    for (int i = 0; i < 9 && p[i].name; i++)
        if (!strcmp(p[i].name, name))
            return p[i].value;
    return NULL;
}

/* The result fields estimate --csv and batch both write. */
static const char *const agree_fields[] = {"ctas_per_sm", "warps_per_sm", "occupancy", "ipc",
                                           "ipc_lo", "ipc_hi", "cycles", "energy_nj",
                                           "area_mm2", "calibrated"};

/* Append a CSV cell (quoted: grids hold commas). */
static size_t put_cell(char *buf, size_t len, size_t cap, bool first, const char *v)
{
    int n = snprintf(buf + len, cap - len, "%s\"%s\"", first ? "" : ",", v ? v : "");
    assert_true(n > 0 && len + (size_t)n < cap);
    return len + (size_t)n;
}

static void expect_same(const char *est, const char *bat, int brow, size_t point)
{
    for (size_t j = 0; j < sizeof agree_fields / sizeof agree_fields[0]; j++) {
        char a[256], b[256];
        assert_true(csv_named(est, 1, agree_fields[j], a, sizeof a));
        assert_true(csv_named(bat, brow, agree_fields[j], b, sizeof b));
        if (strcmp(a, b))
            fail_msg("point %zu: %s: estimate %s, batch %s", point, agree_fields[j], a, b);
    }
    char e[600];
    assert_true(csv_named(bat, brow, "error", e, sizeof e));
    assert_string_equal(e, "");
}

/* The same design points through `rfkit estimate --csv` and through batch
 * rows (the library, one thread and two): every result field both write is
 * the same text.  Rows of one batch input share kernels and
 * characterisations by file, entry and launch; those sharing must not mix
 * launches up.  The calibrated points use records made here, one for the
 * spec and one for the bare PTX (calibrated = 1 with an interval in both). */
static void estimate_and_batch_agree(void **state)
{
    (void)state;
    snprintf(calib_file, sizeof calib_file, "/tmp/rfkit-test-agree-%ld.csv", (long)getpid());
    unlink(CALIB_FILE);
    char cmd[512];
    /* A budget given (the default one's windows on this default-run share
     * would weigh under 1/2 and not run: calibrate/calibrate.c, step 0). */
    snprintf(cmd, sizeof cmd,
             "calibrate --gpu fermi-gtx480 --kernel " KERNEL " --budget-cycles 6000 --quiet -o %s",
             CALIB_FILE);
    clirun c = clirun_run(cmd);
    if (c.status != 0)
        fail_msg("calibrate: %s", c.out);
    free(c.out);
    /* The bare PTX at the spec's launch is another kernel to a record (no
     * spec, the default profile: another digest): a record of its own. */
    snprintf(cmd, sizeof cmd,
             "calibrate --gpu fermi-gtx480 --kernel " PTX " --grid 32,32 --block 16,16"
             " --budget-cycles 6000 --quiet -o %s", CALIB_FILE);
    c = clirun_run(cmd);
    if (c.status != 0)
        fail_msg("calibrate: %s", c.out);
    free(c.out);

    /* Estimates, one command each. */
    char *est[AGREE_N];
    for (size_t i = 0; i < AGREE_N; i++) {
        const kv *p = agree_points[i];
        char args[1024];
        const char *g = kv_get(p, "gpu");
        size_t n = (size_t)snprintf(args, sizeof args, "estimate --csv --gpu %s",
                                    g ? g : "fermi-gtx480");
        for (int j = 0; j < 9 && p[j].name; j++)
            if (strcmp(p[j].name, "gpu"))
                n += (size_t)snprintf(args + n, sizeof args - n, " --%s=%s", p[j].name,
                                      p[j].value);
        clirun r = clirun_run(args);
        if (r.status != 0)
            fail_msg("rfkit %s: %s", args, r.out);
        est[i] = r.out;
    }
    char e1[64];
    assert_true(csv_named(est[8], 1, "calibrated", e1, sizeof e1));
    assert_string_equal(e1, "1");
    assert_true(csv_named(est[8], 1, "ipc_lo", e1, sizeof e1));
    assert_true(atof(e1) > 0);

    /* Batch: every point without aliases in one input, under a header
     * naming every option any of them gives. */
    const char *names[32];
    int nn = 0;
    names[nn++] = "gpu";
    for (size_t i = 0; i < AGREE_N - AGREE_ALIASES; i++)
        for (int j = 0; j < 9 && agree_points[i][j].name; j++) {
            int k = 0;
            while (k < nn && strcmp(names[k], agree_points[i][j].name))
                k++;
            if (k == nn)
                names[nn++] = agree_points[i][j].name;
        }
    size_t cap = 1 << 14, len = 0;
    char *in = malloc(cap);
    assert_non_null(in);
    for (int k = 0; k < nn; k++)
        len += (size_t)snprintf(in + len, cap - len, "%s%s", k ? "," : "", names[k]);
    in[len++] = '\n';
    for (size_t i = 0; i < AGREE_N - AGREE_ALIASES; i++) {
        for (int k = 0; k < nn; k++) {
            const char *v = kv_get(agree_points[i], names[k]);
            len = put_cell(in, len, cap, k == 0, !v && k == 0 ? "fermi-gtx480" : v);
        }
        in[len++] = '\n';
    }
    in[len] = '\0';
    for (int jobs = 1; jobs <= 2; jobs++) {
        char *out = NULL;
        rf_batch_stats st;
        assert_int_equal(batch_text(in, jobs, 3, &out, &st), RF_OK);
        assert_int_equal(st.rows, (long)(AGREE_N - AGREE_ALIASES));
        assert_int_equal(st.errors, 0);
        for (size_t i = 0; i < AGREE_N - AGREE_ALIASES; i++)
            expect_same(est[i], out, (int)i + 1, i);
        free(out);
    }
    /* Each point alone, aliases included. */
    for (size_t i = 0; i < AGREE_N; i++) {
        const kv *p = agree_points[i];
        len = 0;
        len += (size_t)snprintf(in + len, cap - len, "%s", kv_get(p, "gpu") ? "" : "gpu,");
        for (int j = 0; j < 9 && p[j].name; j++)
            len += (size_t)snprintf(in + len, cap - len, "%s%s", j ? "," : "", p[j].name);
        in[len++] = '\n';
        if (!kv_get(p, "gpu"))
            len = put_cell(in, len, cap, true, "fermi-gtx480");
        for (int j = 0; j < 9 && p[j].name; j++)
            len = put_cell(in, len, cap, j == 0 && kv_get(p, "gpu"), p[j].value);
        in[len++] = '\n';
        in[len] = '\0';
        char *out = NULL;
        rf_batch_stats st;
        assert_int_equal(batch_text(in, 1, 0, &out, &st), RF_OK);
        expect_same(est[i], out, 1, i);
        free(out);
    }
    for (size_t i = 0; i < AGREE_N; i++)
        free(est[i]);
    free(in);
    unlink(CALIB_FILE);
}

/* The option names of a help text: every "--name" in it, once. */
static int help_options(const char *text, char names[][32], int max)
{
    int n = 0;
    for (const char *p = strstr(text, "--"); p; p = strstr(p + 2, "--")) {
        size_t l = 0;
        while (islower((unsigned char)p[2 + l]) || isdigit((unsigned char)p[2 + l]) ||
               p[2 + l] == '-' || p[2 + l] == '_')
            l++;
        if (l == 0 || l >= 32)
            continue;
        char nm[32];
        for (size_t i = 0; i < l; i++)
            nm[i] = p[2 + i] == '-' ? '_' : p[2 + i];
        nm[l] = '\0';
        int k = 0;
        while (k < n && strcmp(names[k], nm))
            k++;
        if (k == n) {
            assert_true(n < max);
            strcpy(names[n++], nm);
        }
    }
    return n;
}

static bool in_tables(const char *nm)
{
    for (size_t i = 0; i < rf_point_nopts; i++)
        if (!strcmp(rf_point_opts[i].name, nm))
            return true;
    for (size_t i = 0; i < rf_design_nparams; i++)
        if (!strcmp(rf_design_params[i].name, nm))
            return true;
    return false;
}

/* estimate --help lists exactly the point options and the design
 * parameters (and --csv, --help, which are not about the point); each of
 * them is a batch column batch accepts, and batch --help lists the point
 * options as columns. */
static void every_estimate_option_is_a_column(void **state)
{
    (void)state;
    clirun h = clirun_run("estimate --help");
    assert_int_equal(h.status, 0);
    char names[128][32];
    int n = help_options(h.out, names, 128);
    int others = 0;
    for (int i = 0; i < n; i++) {
        if (!strcmp(names[i], "csv") || !strcmp(names[i], "help"))
            others++;
        else if (!in_tables(names[i]))
            fail_msg("estimate --help names --%s, which is no point option", names[i]);
    }
    for (size_t i = 0; i < rf_point_nopts + rf_design_nparams; i++) {
        const char *nm = i < rf_point_nopts ? rf_point_opts[i].name
                                            : rf_design_params[i - rf_point_nopts].name;
        int k = 0;
        while (k < n && strcmp(names[k], nm))
            k++;
        if (k == n)
            fail_msg("estimate --help does not list --%s", nm);
        /* A header of gpu and that column, one row leaving it empty. */
        char in[256];
        if (!strcmp(nm, "gpu"))
            snprintf(in, sizeof in, "gpu,regs,block\nv100,32,256\n");
        else
            snprintf(in, sizeof in, "gpu,regs,%s\nv100,32,\n", nm);
        if (!strcmp(nm, "block") || !strcmp(nm, "threads") || !strcmp(nm, "regs"))
            snprintf(in, sizeof in, "gpu,%s\nv100,\n", nm);
        char *out = NULL;
        rf_batch_stats st;
        if (batch_text(in, 1, 0, &out, &st) != RF_OK)
            fail_msg("batch refuses the column %s", nm);
        free(out);
    }
    assert_int_equal(n - others, (int)(rf_point_nopts + rf_design_nparams));
    free(h.out);
    clirun b = clirun_run("batch --help");
    assert_int_equal(b.status, 0);
    for (size_t i = 0; i < rf_point_nopts; i++) {
        char want[64];
        snprintf(want, sizeof want, "\n  %s %s", rf_point_opts[i].name, rf_point_opts[i].arg);
        if (!strstr(b.out, want))
            fail_msg("batch --help does not list the column %s", rf_point_opts[i].name);
    }
    assert_non_null(strstr(b.out, "threads X[,Y,Z]   another name for block"));
    free(b.out);
}

/* A bad launch in one row gets its message in that row, and its
 * neighbours (the same bare kernel) are computed: a block of 2048 threads
 * (over 1024), a grid of 0, an unknown entry, 64 registers on fermi-gtx480
 * (63 at most), a bare kernel without its block. */
static void bad_launch_rows(void **state)
{
    (void)state;
    const char *in = "gpu,kernel,grid,block,entry,regs\n"
                     "fermi-gtx480," PTX ",\"32,32\",\"16,16\",,\n"
                     "fermi-gtx480," PTX ",\"32,32\",2048,,\n"
                     "fermi-gtx480," PTX ",0,\"16,16\",,\n"
                     "fermi-gtx480," PTX ",\"32,32\",\"16,16\",nope,\n"
                     "fermi-gtx480," PTX ",\"32,32\",\"16,16\",,64\n"
                     "fermi-gtx480," PTX ",\"32,32\",,,\n"
                     "fermi-gtx480," PTX ",\"32,32\",\"16,16\",hotspot,\n";
    for (int jobs = 1; jobs <= 2; jobs++) {
        char *out = NULL;
        rf_batch_stats st;
        assert_int_equal(batch_text(in, jobs, 2, &out, &st), RF_OK);
        assert_int_equal(st.rows, 7);
        assert_int_equal(st.errors, 5);
        char e[600], ipc1[64], ipc7[64];
        assert_true(csv_named(out, 1, "ipc", ipc1, sizeof ipc1));
        assert_true(csv_named(out, 7, "ipc", ipc7, sizeof ipc7));
        assert_true(atof(ipc1) > 0);
        assert_string_equal(ipc1, ipc7);
        assert_true(csv_named(out, 2, "error", e, sizeof e));
        assert_string_equal(e, "in.csv:3:4: block: 2048 is outside [1, 1024]");
        assert_true(csv_named(out, 3, "error", e, sizeof e));
        assert_string_equal(e, "in.csv:4:3: grid: 0 is outside [1, 2147483647]");
        assert_true(csv_named(out, 4, "error", e, sizeof e));
        assert_non_null(strstr(e, "in.csv:5:2: kernel: "));
        assert_non_null(strstr(e, "no function 'nope'"));
        assert_true(csv_named(out, 5, "error", e, sizeof e));
        assert_string_equal(e, "in.csv:6:6: regs: 64 registers per thread exceed the 63 that "
                               "fermi-gtx480 allows");
        assert_true(csv_named(out, 6, "error", e, sizeof e));
        assert_non_null(strstr(e, "in.csv:7:2: kernel: "));
        assert_non_null(strstr(e, "a bare code file needs"));
        free(out);
    }
}

/* A sweep over more launches than a worker keeps kernels for
 * (BATCH_KERNELS, 64): 70 grids of small.spec, then the first three again,
 * which are loaded afresh and give the same results as the first time. */
static void launch_sweep_reloads(void **state)
{
    (void)state;
    size_t cap = 1 << 13, len = 0;
    char *in = malloc(cap);
    assert_non_null(in);
    len += (size_t)snprintf(in + len, cap - len, "gpu,kernel,grid,regs,design\n");
    for (int i = 0; i < 73; i++)
        len += (size_t)snprintf(in + len, cap - len,
                                "fermi-gtx480,tests/fixtures/small.spec,%d,16,stealing\n",
                                i < 70 ? 8 * (i + 1) : 8 * (i - 69));
    char *out = NULL;
    rf_batch_stats st;
    assert_int_equal(batch_text(in, 1, 0, &out, &st), RF_OK);
    assert_int_equal(st.rows, 73);
    assert_int_equal(st.errors, 0);
    for (int i = 0; i < 3; i++)
        for (size_t j = 0; j < sizeof agree_fields / sizeof agree_fields[0]; j++) {
            char a[256], b[256];
            assert_true(csv_named(out, i + 1, agree_fields[j], a, sizeof a));
            assert_true(csv_named(out, i + 71, agree_fields[j], b, sizeof b));
            assert_string_equal(a, b);
        }
    char c1[64], c2[64];
    assert_true(csv_named(out, 1, "cycles", c1, sizeof c1));
    assert_true(csv_named(out, 70, "cycles", c2, sizeof c2));
    assert_true(atof(c2) > atof(c1));   /* 560 CTAs take longer than 8 */
    free(out);
    free(in);
}

int main(int argc, char **argv)
{
    (void)argc;
    const char *env = getenv("RFKIT");
    if (env) {
        snprintf(rfkit, sizeof rfkit, "%s", env);
    } else {
        /* build/tests/test_batch -> build/rfkit */
        snprintf(rfkit, sizeof rfkit, "%s", argv[0]);
        char *slash = strrchr(rfkit, '/');
        if (slash)
            *slash = '\0';
        slash = strrchr(rfkit, '/');
        if (slash)
            *slash = '\0';
        strncat(rfkit, "/rfkit", sizeof rfkit - strlen(rfkit) - 1);
    }
    if (clirun_init(argv[0]))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bad_rows_do_not_stop_good_ones),
        cmocka_unit_test(steal_columns),
        cmocka_unit_test(threads_give_the_same_output),
        cmocka_unit_test(quoting_round_trips),
        cmocka_unit_test(bad_headers_are_errors),
        cmocka_unit_test(bom_and_crlf_header),
        cmocka_unit_test(grid_cells),
        cmocka_unit_test(number_format),
        cmocka_unit_test(number_format_spread),
        cmocka_unit_test(integers_and_huge_rounded),
        cmocka_unit_test(input_columns_echoed),
        cmocka_unit_test(estimate_end_to_end),
        cmocka_unit_test(batch_end_to_end),
        cmocka_unit_test(estimate_and_batch_agree),
        cmocka_unit_test(every_estimate_option_is_a_column),
        cmocka_unit_test(bad_launch_rows),
        cmocka_unit_test(launch_sweep_reloads),
    };
    return cmocka_run_group_tests_name("batch", tests, NULL, NULL);
}
