/* fuzz_spec.c - libFuzzer entry for the kernel spec reader.  The input is
 * written next to a copy of a small PTX kernel so "code = k.ptx" resolves;
 * ptxas is never run. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../inputs/kernel.h"
#include "fuzz_msg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char kernel_ptx[] =
    ".version 7.0\n.target sm_75\n.address_size 64\n"
    ".visible .entry k(.param .u64 k_param_0)\n{\n"
    "\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<3>;\n"
    "\tld.param.u64 %rd1, [k_param_0];\n\tmov.u32 %r1, %tid.x;\n"
    "\tmul.wide.u32 %rd2, %r1, 4;\n\tst.global.u32 [%rd2], %r1;\n\tret;\n}\n";

static int write_file(const char *path, const void *data, size_t size)
{
    FILE *fp = fopen(path, "wb");
    if (!fp)
        return -1;
    size_t n = fwrite(data, 1, size, fp);
    fclose(fp);
    return n == size ? 0 : -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char dir[64], spec[96], ptx[96];
    snprintf(dir, sizeof dir, "/tmp/rfkit-fuzz-spec-%ld", (long)getpid());
    snprintf(spec, sizeof spec, "%s/f.spec", dir);
    snprintf(ptx, sizeof ptx, "%s/k.ptx", dir);
    if (access(ptx, R_OK) != 0) {
        mkdir(dir, 0700);
        if (write_file(ptx, kernel_ptx, sizeof kernel_ptx - 1) != 0)
            return 0;
    }
    if (write_file(spec, data, size) != 0)
        return 0;
    rf_kernel_opts o;
    memset(&o, 0, sizeof o);
    o.no_ptxas = true;
    rf_kernel *k = NULL;
    rf_err err = {0};
    int rc = rf_kernel_load(spec, &o, &k, &err);
    fuzz_check_msg(rc, &err);
    if (rc == 0)
        rf_kernel_destroy(k);
    return 0;
}
