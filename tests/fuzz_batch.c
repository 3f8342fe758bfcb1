/* fuzz_batch.c - libFuzzer entry for the batch CSV reader: any input gives
 * a bad-header error or one output row per input row, never a crash. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "../results/batch.h"
#include "fuzz_msg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    FILE *in = fmemopen((void *)data, size, "rb");
    FILE *out = fopen("/dev/null", "w");
    if (in && out) {
        rf_batch_opts o = {1, 3, NULL, NULL};   /* small chunks: chunk edges too */
        rf_batch_stats st;
        rf_err err = {0};
        int rc = rf_batch_run(in, "fuzz.csv", out, &o, &st, &err);
        if (rc == 0 && st.errors > st.rows)
            abort();
        fuzz_check_msg(rc, &err);
    }
    if (in)
        fclose(in);
    if (out)
        fclose(out);
    return 0;
}
