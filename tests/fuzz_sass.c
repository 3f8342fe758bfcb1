/* fuzz_sass.c - libFuzzer entry for the SASS listing and nvdisasm -cfg
 * readers (the first byte picks the reader), and the copies of each read
 * function's subroutines at their calls (inputs/inline.h). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../inputs/inline.h"
#include "../inputs/kir.h"
#include "fuzz_msg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    char *text = malloc(size);
    if (!text)
        return 0;
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    rf_module *m = NULL;
    rf_err err = {0};
    int rc = (data[0] & 1) ? rf_dot_parse("fuzz.dot", text, &m, &err)
                           : rf_sass_parse("fuzz.sass", text, &m, &err);
    fuzz_check_msg(rc, &err);
    for (int i = 0; rc == 0 && i < m->nfuncs; i++) {
        rf_func *g = NULL;
        rf_err ierr = {0};
        int irc = rf_inline_subroutines(m, &m->funcs[i], &g, &ierr);
        fuzz_check_msg(irc, &ierr);
        if (g)
            rf_func_destroy(g);
    }
    if (rc == 0)
        rf_module_destroy(m);
    free(text);
    return 0;
}
