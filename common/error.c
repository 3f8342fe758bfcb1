/* error.c - texts and names of rfkit's error codes, message formatting. */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const err_text[RF_ERR_COUNT] = {
#define RF_ERR_TEXT_(name, text) text,
    RF_ERRNO_MAP(RF_ERR_TEXT_)
#undef RF_ERR_TEXT_
};

static const char *const err_name[RF_ERR_COUNT] = {
#define RF_ERR_NAME_(name, text) #name,
    RF_ERRNO_MAP(RF_ERR_NAME_)
#undef RF_ERR_NAME_
};

const char *rf_strerror(int code)
{
    if (code == RF_OK)
        return "success";
    if (code < 0 && -code <= RF_ERR_COUNT)
        return err_text[-code - 1];
    return "unknown error";
}

const char *rf_errname(int code)
{
    if (code == RF_OK)
        return "OK";
    if (code < 0 && -code <= RF_ERR_COUNT)
        return err_name[-code - 1];
    return "UNKNOWN_ERROR";
}

void rf_err_clear(rf_err *err)
{
    if (err) {
        err->code = RF_OK;
        err->msg[0] = '\0';
    }
}

int rf_err_set(rf_err *err, int code, const char *file, int line, int col,
               const char *field, const char *fmt, ...)
{
    if (!err)
        return code;
    size_t n = 0, cap = sizeof err->msg;
    err->code = code;
    err->msg[0] = '\0';
    if (file && *file) {
        if (line > 0 && col > 0)
            n += (size_t)snprintf(err->msg, cap, "%s:%d:%d: ", file, line, col);
        else if (line > 0)
            n += (size_t)snprintf(err->msg, cap, "%s:%d: ", file, line);
        else
            n += (size_t)snprintf(err->msg, cap, "%s: ", file);
    }
    if (field && *field && n < cap)
        n += (size_t)snprintf(err->msg + n, cap - n, "%s: ", field);
    if (n < cap) {
        if (fmt) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(err->msg + n, cap - n, fmt, ap);
            va_end(ap);
        } else {
            snprintf(err->msg + n, cap - n, "%s", rf_strerror(code));
        }
    }
    return code;
}
