/* fuzz_gpu.c - libFuzzer entry for the GPU file readers (INI key = value
 * and gpgpusim.config): every input loads or fails with a message, never
 * crashes.  The reader takes a path, so each input goes to a file of this
 * process first. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "../inputs/gpu.h"
#include "fuzz_msg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/rfkit-fuzz-gpu-%ld.ini", (long)getpid());
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    rf_gpu g;
    rf_err err = {0};
    int rc = rf_gpu_load(path, &g, NULL, &err);
    if (rc == 0 && (g.sms < 1 || g.regs_per_sm < 1))
        abort();   /* a loaded GPU must have passed rf_gpu_check */
    fuzz_check_msg(rc, &err);
    unlink(path);
    return 0;
}
