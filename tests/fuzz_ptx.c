/* fuzz_ptx.c - libFuzzer entry for the PTX reader and the register
 * allocator: any input must give a module or an error, never a crash. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../inputs/kir.h"
#include "fuzz_msg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    rf_module *m = NULL;
    rf_err err = {0};
    int rc = rf_ptx_parse("fuzz.ptx", text, &m, &err);
    fuzz_check_msg(rc, &err);
    if (rc == 0) {
        for (int i = 0; i < m->nfuncs; i++) {
            rf_func *p = NULL;
            rf_err_clear(&err);
            int arc = rf_regalloc(&m->funcs[i], &p, &err);
            fuzz_check_msg(arc, &err);
            if (arc == 0)
                rf_func_destroy(p);
        }
        rf_module_destroy(m);
    }
    free(text);
    return 0;
}
