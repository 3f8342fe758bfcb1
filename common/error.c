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
        err->placed = 0;
        err->field[0] = '\0';
        err->msg[0] = '\0';
    }
}

/* Length of the printable UTF-8 character at s (2..4 bytes), or 0 when the
 * bytes there are not one (an invalid or cut sequence, a C1 control). */
static int utf8_char(const unsigned char *s)
{
    unsigned char c = s[0];
    unsigned char lo = 0x80, hi = 0xbf;
    int n;
    if (c >= 0xc2 && c <= 0xdf) {
        n = 2;
        if (c == 0xc2)
            lo = 0xa0;            /* C2 80..C2 9F are the C1 controls */
    } else if (c >= 0xe0 && c <= 0xef) {
        n = 3;
        if (c == 0xe0)
            lo = 0xa0;            /* overlong */
        else if (c == 0xed)
            hi = 0x9f;            /* UTF-16 surrogates */
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4;
        if (c == 0xf0)
            lo = 0x90;            /* overlong */
        else if (c == 0xf4)
            hi = 0x8f;            /* above U+10FFFF */
    } else {
        return 0;
    }
    if (s[1] < lo || s[1] > hi)
        return 0;
    for (int i = 2; i < n; i++)
        if (s[i] < 0x80 || s[i] > 0xbf)
            return 0;
    return n;
}

size_t rf_err_escape(char *dst, size_t cap, const char *src)
{
    static const char hex[] = "0123456789abcdef";
    size_t n = 0;
    if (cap == 0)
        return 0;
    const unsigned char *s = (const unsigned char *)src;
    while (*s) {
        int len = *s >= 0x20 && *s < 0x7f ? 1 : *s >= 0x80 ? utf8_char(s) : 0;
        if (len > 0) {
            if (n + (size_t)len >= cap)
                break;
            memcpy(dst + n, s, (size_t)len);
            n += (size_t)len;
            s += len;
        } else {
            if (n + 4 >= cap)
                break;
            dst[n++] = '\\';
            dst[n++] = 'x';
            dst[n++] = hex[*s >> 4];
            dst[n++] = hex[*s & 15];
            s++;
        }
    }
    dst[n] = '\0';
    return n;
}

int rf_err_set(rf_err *err, int code, const char *file, int line, int col,
               const char *field, const char *fmt, ...)
{
    if (!err)
        return code;
    char raw[RF_ERR_MSG_MAX];
    size_t n = 0, cap = sizeof raw;
    raw[0] = '\0';
    if (file && *file) {
        if (line > 0 && col > 0)
            n += (size_t)snprintf(raw, cap, "%s:%d:%d: ", file, line, col);
        else if (line > 0)
            n += (size_t)snprintf(raw, cap, "%s:%d: ", file, line);
        else
            n += (size_t)snprintf(raw, cap, "%s: ", file);
    }
    if (field && *field && n < cap)
        n += (size_t)snprintf(raw + n, cap - n, "%s: ", field);
    if (n < cap) {
        if (fmt) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(raw + n, cap - n, fmt, ap);
            va_end(ap);
        } else {
            snprintf(raw + n, cap - n, "%s", rf_strerror(code));
        }
    }
    /* The arguments may point into err->msg (a message quoted into its
     * own rf_err), so the message is written only now. */
    err->code = code;
    err->placed = file && *file;
    if (field != err->field)
        snprintf(err->field, sizeof err->field, "%s", field ? field : "");
    rf_err_escape(err->msg, sizeof err->msg, raw);
    return code;
}

int rf_err_place(rf_err *err, const char *file, int line, int col)
{
    if (!err)
        return RF_OK;
    if (err->placed || err->code == RF_OK || !file || !*file)
        return err->code;
    char text[RF_ERR_MSG_MAX];
    snprintf(text, sizeof text, "%s", err->msg[0] ? err->msg : rf_strerror(err->code));
    char field[sizeof err->field];
    memcpy(field, err->field, sizeof field);
    /* The field is already in the text; only the place goes in front. */
    rf_err_set(err, err->code, file, line, col, NULL, "%s", text);
    memcpy(err->field, field, sizeof field);
    return err->code;
}

int rf_err_field_is(const rf_err *err, const char *name)
{
    return err && name && !strcmp(err->field, name);
}
