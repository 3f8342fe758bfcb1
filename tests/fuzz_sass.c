/* fuzz_sass.c - libFuzzer entry for the SASS listing and nvdisasm -cfg
 * readers (the first byte picks the reader). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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
    if (rc == 0)
        rf_module_destroy(m);
    free(text);
    return 0;
}
