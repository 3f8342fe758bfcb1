/* fuzz_ncu.c - libFuzzer entry for the Nsight Compute CSV reader (raw and
 * source pages) and, on a parsed source page, the SASS listing it writes
 * read back with the branch probabilities from its counts. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../inputs/kir.h"
#include "../inputs/ncu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rf_ncu *n = NULL;
    rf_err err = {0};
    if (rf_ncu_parse("fuzz.csv", (const char *)data, size, &n, &err))
        return 0;
    for (int i = 0; i < n->nlaunches; i++)
        (void)rf_ncu_name_matches(n->launches[i].kernel, "k");
    for (int s = 0; s < n->nsources && s < 2; s++) {
        char *text = NULL;
        size_t len = 0;
        FILE *ms = open_memstream(&text, &len);
        int first;
        if (!ms)
            break;
        int rc = rf_ncu_write_sass(&n->sources[s], "k", 75, "fuzz.csv", ms, &first);
        fclose(ms);
        rf_module *m = NULL;
        if (!rc && text && rf_sass_parse("fuzz.sass", text, &m, &err) == 0) {
            const rf_func *f = rf_module_func(m, NULL);
            rf_ncu_branch *br = NULL;
            int nbr = 0;
            if (f && rf_ncu_branch_probs(f, text, &n->sources[s], &br, &nbr, &err) == 0)
                free(br);
            rf_module_destroy(m);
        }
        free(text);
    }
    rf_ncu_destroy(n);
    return 0;
}
