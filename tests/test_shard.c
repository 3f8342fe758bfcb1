/* test_shard.c - a batch input split into shards of whole rows
 * (results/shard.c): record boundaries as libcsv reads them (CRLF, blank
 * lines, quoted line breaks, a byte-order mark, no final line break), the
 * blocks of rows per part, and the property MPI batch rests on: the shards'
 * outputs joined are byte for byte the output of the whole input, line
 * numbers in the error column included. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../results/batch.h"
#include "../results/shard.h"

/* Offsets, by hand (byte-order mark 3 bytes):
 *   [0,3) BOM, [3,17) "gpu,regs,block", 17 '\r' ends the header: 18;
 *   18 '\n', [19,38) row 1, 38 '\r' ends it: 39;
 *   39 '\n', 40-41 "\r\n" a blank line (no record);
 *   42 '"', [43,49) "fermi-", 49 '\n' quoted, [50,56) "gtx480", 56 '"',
 *   [57,65) ",abc,128", 65 '\r' ends row 2: 66;
 *   66 '\n', [67,85) row 3 without a line break: ends at 85. */
static const char text[] = "\xEF\xBB\xBF"
                           "gpu,regs,block\r\n"
                           "fermi-gtx480,32,256\r\n"
                           "\r\n"
                           "\"fermi-\ngtx480\",abc,128\r\n"
                           "fermi-gtx480,16,64";

static void index_follows_libcsv_records(void **state)
{
    (void)state;
    rf_shard_index ix;
    rf_err err;
    rf_err_clear(&err);
    assert_int_equal(sizeof text - 1, 85);
    assert_int_equal(rf_shard_index_build(text, sizeof text - 1, -1, "in.csv", &ix, &err), 0);
    assert_int_equal(ix.header_end, 18);
    assert_int_equal(ix.nrows, 3);
    assert_int_equal(ix.row_end[0], 39);
    assert_int_equal(ix.row_end[1], 66);
    assert_int_equal(ix.row_end[2], 85);
    size_t from, to;
    rf_shard_bytes(&ix, 1, 3, &from, &to);
    assert_int_equal(from, 39);
    assert_int_equal(to, 85);
    rf_shard_bytes(&ix, 2, 2, &from, &to);   /* no rows: an empty range */
    assert_int_equal(from, to);
    rf_shard_index_free(&ix);

    /* Stopping after the header: only header_end. */
    assert_int_equal(rf_shard_index_build(text, sizeof text - 1, 0, "in.csv", &ix, &err), 0);
    assert_int_equal(ix.header_end, 18);
    assert_int_equal(ix.nrows, 0);
    rf_shard_index_free(&ix);

    /* A quoted field over a line without quotes (which the parser, not the
     * quick rule for lines between records, must read), then a line of
     * blanks.  By hand: "h1,h2\n" 6 bytes; row 1 from 6: '"' 'a' '\n'
     * "mid,dle" (9-15) '\n' " z" '"' ",1" '\n' (22), ends at 23; 23-26
     * "  \t\n" no record; "b,2\n" 27-30, ends at 31. */
    const char *q = "h1,h2\n\"a\nmid,dle\n z\",1\n  \t\nb,2\n";
    assert_int_equal(strlen(q), 31);
    assert_int_equal(rf_shard_index_build(q, 31, -1, "in.csv", &ix, &err), 0);
    assert_int_equal(ix.header_end, 6);
    assert_int_equal(ix.nrows, 2);
    assert_int_equal(ix.row_end[0], 23);
    assert_int_equal(ix.row_end[1], 31);
    rf_shard_index_free(&ix);

    /* Nothing but blank lines: no header. */
    assert_int_equal(rf_shard_index_build("\n\r\n  \n", 6, -1, "in.csv", &ix, &err), 0);
    assert_int_equal(ix.header_end, 0);
    assert_int_equal(ix.nrows, 0);
    rf_shard_index_free(&ix);
}

static void blocks_differ_by_one_row_at_most(void **state)
{
    (void)state;
    long lo, hi;
    /* 10 rows over 3 parts: 10 = 3 * 3 + 1, the first part takes the extra. */
    rf_shard_range(10, 0, 3, &lo, &hi);
    assert_int_equal(lo, 0);
    assert_int_equal(hi, 4);
    rf_shard_range(10, 1, 3, &lo, &hi);
    assert_int_equal(lo, 4);
    assert_int_equal(hi, 7);
    rf_shard_range(10, 2, 3, &lo, &hi);
    assert_int_equal(lo, 7);
    assert_int_equal(hi, 10);
    /* 2 rows over 4 parts: parts 2 and 3 get none. */
    rf_shard_range(2, 1, 4, &lo, &hi);
    assert_int_equal(lo, 1);
    assert_int_equal(hi, 2);
    rf_shard_range(2, 3, 4, &lo, &hi);
    assert_int_equal(lo, 2);
    assert_int_equal(hi, 2);
}

static void count_rows_skips_the_header(void **state)
{
    (void)state;
    FILE *fp = fmemopen((void *)text, sizeof text - 1, "r");
    assert_non_null(fp);
    assert_int_equal(rf_shard_count_rows(fp), 3);
    fclose(fp);
}

/* Batch of text[0, n) with line_offset; the output in a malloc'ed string. */
static char *run_batch(const char *t, size_t n, long line_offset, int jobs, size_t *len)
{
    FILE *in = fmemopen((void *)t, n, "r");
    char *out = NULL;
    FILE *o = open_memstream(&out, len);
    assert_non_null(in);
    assert_non_null(o);
    rf_batch_opts opts = {jobs, 2, NULL, NULL};   /* chunks of 2 rows: chunk edges too */
    rf_batch_drive drive = {.line_offset = line_offset};
    rf_batch_stats st;
    rf_err err;
    rf_err_clear(&err);
    assert_int_equal(rf_batch_run_drive(in, "in.csv", o, &opts, &drive, &st, &err), 0);
    fclose(in);
    fclose(o);
    return out;
}

static void joined_shards_equal_the_whole(void **state)
{
    (void)state;
    /* Rows without a kernel (occupancy and area): 7 rows, two with errors. */
    const char *in = "gpu,regs,block,design\n"
                     "fermi-gtx480,32,256,baseline\n"
                     "fermi-gtx480,abc,128,baseline\n"
                     "\n"
                     "fermi-gtx480,16,\"6\n4\",sharing\n"
                     "maxwell-gtx980,64,512,finereg\r\n"
                     "fermi-gtx480,20,1024,vt\n"
                     "v100,40,128,baseline\n"
                     "fermi-gtx480,8,96,regdram";
    size_t n = strlen(in), whole_len;
    char *whole = run_batch(in, n, 0, 1, &whole_len);
    /* The bad rows say where they are in the whole file: physical lines,
     * the blank line 4 counted (the quoted "6\n4" row starts on line 5). */
    assert_non_null(strstr(whole, "in.csv:3:2: regs: 'abc' is not a whole number"));
    assert_non_null(strstr(whole, "in.csv:5:3: block:"));

    rf_shard_index ix;
    rf_err err;
    rf_err_clear(&err);
    assert_int_equal(rf_shard_index_build(in, n, -1, "in.csv", &ix, &err), 0);
    assert_int_equal(ix.nrows, 7);
    for (int parts = 1; parts <= 8; parts++) {
        for (int jobs = 1; jobs <= 2; jobs++) {
            char *joined = NULL;
            size_t jlen = 0;
            FILE *j = open_memstream(&joined, &jlen);
            for (int p = 0; p < parts; p++) {
                long lo, hi;
                size_t from, to;
                rf_shard_range(ix.nrows, p, parts, &lo, &hi);
                rf_shard_bytes(&ix, lo, hi, &from, &to);
                size_t sn = ix.header_end + (to - from);
                char *shard = malloc(sn);
                memcpy(shard, in, ix.header_end);
                memcpy(shard + ix.header_end, in + from, to - from);
                size_t olen;
                long loff = 0;   /* lines between the header and the shard's rows */
                for (size_t b = ix.header_end; b < from; b++)
                    loff += in[b] == '\n';
                char *out = run_batch(shard, sn, loff, jobs, &olen);
                rf_shard_index oix;
                assert_int_equal(rf_shard_index_build(out, olen, 0, "out", &oix, &err), 0);
                size_t skip = p ? oix.header_end : 0;
                fwrite(out + skip, 1, olen - skip, j);
                rf_shard_index_free(&oix);
                free(out);
                free(shard);
            }
            fclose(j);
            assert_int_equal(jlen, whole_len);
            assert_memory_equal(joined, whole, whole_len);
            free(joined);
        }
    }
    rf_shard_index_free(&ix);
    free(whole);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(index_follows_libcsv_records),
        cmocka_unit_test(blocks_differ_by_one_row_at_most),
        cmocka_unit_test(count_rows_skips_the_header),
        cmocka_unit_test(joined_shards_equal_the_whole),
    };
    return cmocka_run_group_tests_name("shard", tests, NULL, NULL);
}
