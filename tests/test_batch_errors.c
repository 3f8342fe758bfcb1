/* test_batch_errors.c - where batch errors point (results/batch.c) and the
 * CSV writer's empty fields (results/csvout.c): a row's messages name the
 * physical line where it starts, the column its bad value came from, with
 * one wording for a bad number whatever the column, and quoted input
 * escaped; a row whose first field is empty is written without undefined
 * behaviour. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../results/batch.h"
#include "../results/csvout.h"

#define KERNEL "inputs/kernels/hotspot.spec"

/* Run batch over `in`; returns the output (free it). */
static char *batch_text(const char *in, int jobs, size_t chunk, rf_batch_stats *st)
{
    FILE *fi = fmemopen((void *)in, strlen(in), "r");
    assert_non_null(fi);
    char *out = NULL;
    size_t len = 0;
    FILE *fo = open_memstream(&out, &len);
    assert_non_null(fo);
    rf_batch_opts o = {jobs, chunk, NULL, NULL};
    rf_err err;
    rf_err_clear(&err);
    int rc = rf_batch_run(fi, "in.csv", fo, &o, st, &err);
    fclose(fi);
    fclose(fo);
    if (rc)
        fail_msg("batch: %s", err.msg);
    return out;
}

/* The error column (the last field) of output line `line` (0 = header),
 * unquoted: error messages hold no '"'. */
static void error_of(const char *out, int line, char *buf, size_t cap)
{
    const char *p = out;
    for (int i = 0; i < line; i++) {
        p = strchr(p, '\n');
        assert_non_null(p);
        p++;
    }
    /* A quoted input field may hold a newline: find the row's end as the
     * first newline outside quotes. */
    const char *end = p;
    int q = 0;
    for (; *end && (q || *end != '\n'); end++)
        q ^= *end == '"';
    const char *start = end;
    q = 0;
    while (start > p && (q || start[-1] != ',')) {
        start--;
        q ^= *start == '"';
    }
    size_t n = (size_t)(end - start);
    if (n >= 2 && start[0] == '"') {
        start++;
        n -= 2;
    }
    assert_true(n < cap);
    memcpy(buf, start, n);
    buf[n] = '\0';
}

/* Defect: "gpu\n," (a row with an empty first field) computed a null
 * pointer plus 0 in the CSV writer, whose buffer did not exist yet (clang's
 * UBSan reports it; the fuzz seed tests/fuzz-seeds/fuzz_batch/
 * empty-first-field.csv runs it under clang in make fuzz-ci).  The row is
 * written: its empty field, the 26 empty result columns, the error. */
static void empty_first_field(void **state)
{
    (void)state;
    rf_batch_stats st;
    char *out = batch_text("gpu\n,", 1, 0, &st);
    assert_string_equal(out,
                        "gpu,ctas_per_sm,warps_per_sm,occupancy,ipc,ipc_lo,ipc_hi,cycles,"
                        "energy_nj,area_mm2,resident_ctas_mean,active_ctas_mean,cta_switches,"
                        "switch_cycles,switch_dram_bytes,pcrf_full_stalls,lock_acquires,"
                        "lock_wait_cycles,stall_lock,srp_stall_cycles,srp_acquires,"
                        "nonowner_mem_issue_prob,rc_hits,rc_misses,rc_writes,rc_conflicts,"
                        "calibrated,error\n"
                        ",,,,,,,,,,,,,,,,,,,,,,,,,,,\"in.csv:2: 2 fields, the header has 1\"\n");
    /* The header the writer writes is the list `batch --help` and --plot's
     * check give (RF_BATCH_RESULT_COLUMNS). */
    const char *nl = strchr(out, '\n');
    assert_non_null(nl);
    assert_int_equal((size_t)(nl - out), strlen("gpu,") + strlen(RF_BATCH_RESULT_COLUMNS));
    assert_memory_equal(out + 4, RF_BATCH_RESULT_COLUMNS, strlen(RF_BATCH_RESULT_COLUMNS));
    assert_int_equal(st.rows, 1);
    assert_int_equal(st.errors, 1);
    free(out);

    /* The writer alone: an empty first field on a fresh writer, and an
     * empty row of one field in CSV form. */
    rf_csvw w;
    rf_csvw_init(&w, NULL);
    rf_csvw_field(&w, "");
    rf_csvw_field(&w, "x");
    rf_csvw_end(&w);
    assert_int_equal(w.len, 3);
    assert_memory_equal(w.buf, ",x\n", 3);
    rf_csvw_free(&w);
    rf_csvw_init(&w, NULL);
    assert_int_equal(rf_csvw_raw(&w, "", 0, 1), 0);
    rf_csvw_end(&w);
    assert_int_equal(w.len, 1);
    rf_csvw_free(&w);
}

/* Defect: line numbers counted records, so they drifted after a quoted
 * field holding a newline and after blank lines.  Each message names the
 * physical line where its row starts.  The input's lines:
 *   1 header           5 (blank)            8 56"         (row 7-8)
 *   2 v100,32,2048     6 v100,x,256         9 v100,32,4096
 *   3 "v               7 v100,32,"2
 *   4 100",32,256  (row 3-4)
 * The same with CRLF line ends, one row per chunk, and two threads. */
static void physical_line_numbers(void **state)
{
    (void)state;
    static const char *const want[] = {
        "in.csv:2:3: threads: 2048 is outside [1, 1024]",
        "in.csv:3:1: gpu: unknown GPU preset 'v\\x0a100' (presets: fermi-c2050, fermi-gtx480, "
        "maxwell-gtx980, maxwell-ltrf, volta-hirf, v100, a100, h100; or a file)",
        "in.csv:6:2: regs: 'x' is not a whole number",
        "in.csv:7:3: threads: '2\\x0a56' is not X[,Y[,Z]] of whole numbers",
        "in.csv:9:3: threads: 4096 is outside [1, 1024]"};
    static const char lf[] = "gpu,regs,threads\nv100,32,2048\n\"v\n100\",32,256\n\n"
                             "v100,x,256\nv100,32,\"2\n56\"\nv100,32,4096\n";
    static const char crlf[] = "gpu,regs,threads\r\nv100,32,2048\r\n\"v\n100\",32,256\r\n\r\n"
                               "v100,x,256\r\nv100,32,\"2\n56\"\r\nv100,32,4096";
    const char *inputs[] = {lf, crlf};
    for (int in = 0; in < 2; in++) {
        for (int mode = 0; mode < 3; mode++) {
            rf_batch_stats st;
            char *out = batch_text(inputs[in], mode == 2 ? 2 : 1, mode == 0 ? 0 : 1, &st);
            assert_int_equal(st.rows, 5);
            assert_int_equal(st.errors, 5);
            /* Output lines: the quoted newlines of rows 2 and 4 shift them. */
            static const int out_line[5] = {1, 2, 4, 5, 7};
            for (int r = 0; r < 5; r++) {
                char msg[512];
                error_of(out, out_line[r], msg, sizeof msg);
                if (strcmp(msg, want[r]))
                    fail_msg("input %d mode %d row %d: '%s', want '%s'", in, mode, r, msg,
                             want[r]);
            }
            free(out);
        }
    }
}

/* Defect: a row's model errors ("2048 threads per CTA exceed ...") had no
 * file:line:col.  The column is the cell the value came from: the threads
 * cell when the row fills it, else the kernel's cell (the spec gave it);
 * a design parameter's own cell.  And control bytes in a cell are escaped
 * in the message. */
static void model_errors_name_their_cell(void **state)
{
    (void)state;
    rf_batch_stats st;
    char *out = batch_text("gpu,kernel,threads,smem,banks\n"
                           "v100," KERNEL ",2048,,\n"      /* threads cell: col 3 */
                           "v100,,256,99999999,\n"          /* smem cell: col 4 */
                           "v1\001\033[0m,,256,,\n"         /* escaped GPU name */
                           "v100,,256,,5000\n",             /* banks: col 5 */
                           1, 0, &st);
    char msg[512];
    error_of(out, 1, msg, sizeof msg);
    assert_string_equal(msg, "in.csv:2:3: threads: 2048 is outside [1, 1024]");
    error_of(out, 2, msg, sizeof msg);
    assert_string_equal(msg, "in.csv:3: kernel: give a kernel, or regs (1..255; 0 is a kernel's "
                             "own count) and block");
    error_of(out, 3, msg, sizeof msg);
    assert_non_null(strstr(msg, "in.csv:4:1: gpu: unknown GPU preset 'v1\\x01\\x1b[0m'"));
    error_of(out, 4, msg, sizeof msg);
    assert_string_equal(msg, "in.csv:5:5: banks: 5000 is outside [0, 1024]");
    free(out);

    out = batch_text("gpu,regs,threads,smem\n"
                     "v100,32,256,99999999\n", 1, 0, &st);
    error_of(out, 1, msg, sizeof msg);
    assert_string_equal(msg, "in.csv:2:4: smem: 99999999 bytes of shared memory per CTA exceed "
                             "the 98304 that v100 allows");   /* 96 KB, V100's opt-in maximum */
    free(out);
}

/* One wording for a bad number in every column: a table parameter
 * (banks), a launch column (regs, smem); threads, a block X[,Y[,Z]] as in a
 * spec, says so. */
static void one_wording_for_bad_numbers(void **state)
{
    (void)state;
    rf_batch_stats st;
    char *out = batch_text("gpu,regs,threads,smem,banks\n"
                           "v100,x,256,,\n"
                           "v100,32,x,,\n"
                           "v100,32,256,x,\n"
                           "v100,32,256,,x\n"
                           "v100,300,256,,\n"
                           "v100,32,256,,5000\n", 1, 0, &st);
    static const char *const want[] = {
        "in.csv:2:2: regs: 'x' is not a whole number",
        "in.csv:3:3: threads: 'x' is not X[,Y[,Z]] of whole numbers",
        "in.csv:4:4: smem: 'x' is not a whole number",
        "in.csv:5:5: banks: 'x' is not a whole number",
        "in.csv:6:2: regs: 300 is outside [0, 255]",
        "in.csv:7:5: banks: 5000 is outside [0, 1024]"};
    for (int r = 0; r < 6; r++) {
        char msg[512];
        error_of(out, r + 1, msg, sizeof msg);
        assert_string_equal(msg, want[r]);
    }
    free(out);
}

/* regs 0 is the kernel's own count, as in a spec and --regs: the row is
 * estimated as with an empty regs cell. */
static void regs_zero_is_the_kernels_count(void **state)
{
    (void)state;
    rf_batch_stats st;
    char *out = batch_text("gpu,kernel,regs\nv100," KERNEL ",0\nv100," KERNEL ",\n", 1, 0, &st);
    assert_int_equal(st.errors, 0);
    const char *r1 = strchr(out, '\n') + 1;
    const char *r2 = strchr(r1, '\n') + 1;
    /* Identical after the regs cell ("0" against ""). */
    const char *a = strstr(r1, ",0,") + 3, *b = strstr(r2, KERNEL ",,") + strlen(KERNEL) + 2;
    size_t na = strcspn(a, "\n"), nb = strcspn(b, "\n");
    assert_int_equal(na, nb);
    assert_memory_equal(a, b, na);
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(empty_first_field),
        cmocka_unit_test(physical_line_numbers),
        cmocka_unit_test(model_errors_name_their_cell),
        cmocka_unit_test(one_wording_for_bad_numbers),
        cmocka_unit_test(regs_zero_is_the_kernels_count),
    };
    return cmocka_run_group_tests_name("batch_errors", tests, NULL, NULL);
}
