/* fuzz_ptx.c - libFuzzer entry for the PTX reader and the register
 * allocator: any input must give a module or an error, never a crash. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../inputs/kir.h"

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
    if (rf_ptx_parse("fuzz.ptx", text, &m, &err) == 0) {
        for (int i = 0; i < m->nfuncs; i++) {
            rf_func *p = NULL;
            if (rf_regalloc(&m->funcs[i], &p, &err) == 0)
                rf_func_destroy(p);
        }
        rf_module_destroy(m);
    }
    free(text);
    return 0;
}
