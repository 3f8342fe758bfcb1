/* fuzz_msg.h - the fuzz targets' check on error messages: whatever bytes
 * the input holds, a message is one printable line (rf_err_set escapes
 * control bytes as \xNN), and a failed call says something. */
#ifndef RF_FUZZ_MSG_H
#define RF_FUZZ_MSG_H

#include <stdlib.h>

#include "../common/error.h"

static inline void fuzz_check_msg(int rc, const rf_err *err)
{
    if (rc == 0)
        return;
    if (!err->msg[0])
        abort();
    for (const unsigned char *p = (const unsigned char *)err->msg; *p; p++)
        if (*p < 0x20 || *p == 0x7f)
            abort();
}

#endif
