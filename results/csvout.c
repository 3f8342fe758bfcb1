/* csvout.c - CSV writer.  Quoting is libcsv's (csv_write); numbers use a
 * short fixed-digit form that is much cheaper than printf on the batch path
 * (a million rows per second leaves no room for %g).
 */
#include "csvout.h"

#include <csv.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define FLUSH_AT (1u << 16)

void rf_csvw_init(rf_csvw *w, FILE *fp)
{
    memset(w, 0, sizeof *w);
    w->fp = fp;
}

void rf_csvw_free(rf_csvw *w)
{
    free(w->buf);
    w->buf = NULL;
    w->len = w->cap = 0;
}

static int reserve(rf_csvw *w, size_t more)
{
    if (w->len + more <= w->cap)
        return 0;
    size_t cap = w->cap ? w->cap : 4096;
    while (cap < w->len + more)
        cap *= 2;
    char *nb = realloc(w->buf, cap);
    if (!nb) {
        w->failed = 1;
        return -1;
    }
    w->buf = nb;
    w->cap = cap;
    return 0;
}

int rf_csvw_flush(rf_csvw *w)
{
    if (!w->fp || w->len == 0)
        return w->failed ? -1 : 0;
    if (fwrite(w->buf, 1, w->len, w->fp) != w->len)
        w->failed = 1;
    w->len = 0;
    return w->failed ? -1 : 0;
}

static void sep(rf_csvw *w)
{
    if (w->col++ > 0 && reserve(w, 1) == 0)
        w->buf[w->len++] = ',';
}

/* Bytes that make libcsv quote a field. */
static const unsigned char needs_quote[256] = {[','] = 1, ['"'] = 1, ['\n'] = 1, ['\r'] = 1};

void rf_csvw_fieldn(rf_csvw *w, const char *s, size_t n)
{
    sep(w);
    /* An empty field is the separator alone: the buffer may not exist yet
     * (a row whose first field is empty), and a null pointer plus 0 is
     * undefined behaviour. */
    if (n == 0)
        return;
    /* Copy while looking for bytes that need quoting (one pass, no branch
     * per byte); a field that needs quotes is rewritten by libcsv. */
    if (reserve(w, n) != 0)
        return;
    char *dst = w->buf + w->len;
    unsigned bad = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        dst[i] = (char)c;
        bad |= needs_quote[c];
    }
    if (!bad) {
        w->len += n;
        return;
    }
    size_t need = csv_write(NULL, 0, s, n);
    if (reserve(w, need) == 0)
        w->len += csv_write(w->buf + w->len, need, s, n);
}

size_t rf_csvw_raw(rf_csvw *w, const char *s, size_t n, int fields)
{
    sep(w);
    w->col += fields - 1;
    if (reserve(w, n) != 0)
        return (size_t)-1;
    size_t at = w->len;
    if (n > 0) {   /* the buffer may not exist yet when n is 0 */
        memcpy(w->buf + at, s, n);
        w->len += n;
    }
    return at;
}

void rf_csvw_field(rf_csvw *w, const char *s)
{
    rf_csvw_fieldn(w, s ? s : "", s ? strlen(s) : 0);
}

void rf_csvw_empty(rf_csvw *w)
{
    sep(w);
}

static const unsigned long long pow10_int[] = {
    1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL,
    100000000ULL, 1000000000ULL, 10000000000ULL, 100000000000ULL, 1000000000000ULL,
    10000000000000ULL, 100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
    100000000000000000ULL, 1000000000000000000ULL, 10000000000000000000ULL};

/* Decimal digits of v (1 for 0). */
static int ndigits(unsigned long long v)
{
    int n = 1;
    while (n < 20 && v >= pow10_int[n])
        n++;
    return n;
}

static const char digit_pairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/* The nd digits of v (v < 10^nd) into out[0..nd), two at a time from the end. */
static void put_digits(char *out, unsigned long long v, int nd)
{
    int i = nd;
    while (i >= 2) {
        unsigned r = (unsigned)(v % 100);
        v /= 100;
        i -= 2;
        out[i] = digit_pairs[2 * r];
        out[i + 1] = digit_pairs[2 * r + 1];
    }
    if (i)
        out[0] = (char)('0' + v);
}

static int fmt_ulong(char *out, unsigned long long v)
{
    int n = ndigits(v);
    put_digits(out, v, n);
    return n;
}

static const double pow10_tab[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
                                   1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18};

/* Nearest integer of a non-negative value below 2^63, ties to even as
 * printf rounds an exact tie. */
static double round_half(double x)
{
    return nearbyint(x);
}

int rf_fmt_num(char *out, double v, int digits)
{
    if (!isfinite(v))
        return 0;
    if (digits < 1)
        digits = 1;
    if (digits > 15)
        digits = 15;
    double a = fabs(v);
    if (a == 0.0) {
        out[0] = '0';
        return 1;
    }
    if (a < 1e-4 || a >= 1e15)
        return snprintf(out, 32, "%.*g", digits, v);
    int e = 0;     /* floor(log10(a)) for 1e-4 <= a < 1e15, by table */
    if (a >= 1.0) {
        while (e < 15 && a >= pow10_tab[e + 1])
            e++;
    } else {
        e = -1;
        while (e > -4 && a * pow10_tab[-e] < 1.0)
            e--;
    }
    /* m = a scaled to `digits` significant digits, as an integer. */
    int shift = digits - 1 - e;     /* decimals to keep (may be negative) */
    double m;
    if (shift >= 0) {
        if (shift > 18)
            return snprintf(out, 32, "%.*g", digits, v);
        m = round_half(a * pow10_tab[shift]);
    } else {
        m = round_half(a / pow10_tab[-shift]);
    }
    if (m >= pow10_tab[digits]) {   /* rounding carried into a new digit */
        m = round_half(m / 10.0);
        shift--;
        e++;
    }
    unsigned long long im = (unsigned long long)m;
    int n = 0;
    if (v < 0)
        out[n++] = '-';
    if (e >= digits) {
        /* %g's exponent form: d[.ddd]e+XX, trailing zeros stripped. */
        int nd = digits;
        while (nd > 1 && im % 10 == 0) {
            im /= 10;
            nd--;
        }
        put_digits(out + n + (nd > 1), im, nd);
        if (nd > 1) {
            out[n] = out[n + 1];
            out[n + 1] = '.';
            n++;
        }
        n += nd;
        out[n++] = 'e';
        out[n++] = '+';
        if (e < 10)
            out[n++] = '0';
        return n + fmt_ulong(out + n, (unsigned long long)e);
    }
    if (shift <= 0) {
        n += fmt_ulong(out + n, im);
        for (int i = 0; i < -shift; i++)
            out[n++] = '0';
        return n;
    }
    /* Strip trailing zeros of the fraction. */
    while (shift > 0 && im % 10 == 0) {
        im /= 10;
        shift--;
    }
    int nd = ndigits(im);
    if (shift == 0) {
        put_digits(out + n, im, nd);
        return n + nd;
    }
    if (nd <= shift) {
        out[n++] = '0';
        out[n++] = '.';
        for (int i = 0; i < shift - nd; i++)
            out[n++] = '0';
        put_digits(out + n, im, nd);
        return n + nd;
    }
    /* Integer digits, the point, then `shift` fraction digits. */
    int ip = nd - shift;
    put_digits(out + n + ip + 1, im % pow10_int[shift], shift);
    out[n + ip] = '.';
    put_digits(out + n, im / pow10_int[shift], ip);
    return n + nd + 1;
}

void rf_csvw_num(rf_csvw *w, double v)
{
    sep(w);
    if (reserve(w, 40) == 0)
        w->len += (size_t)rf_fmt_num(w->buf + w->len, v, 6);
}

void rf_csvw_round(rf_csvw *w, double v)
{
    sep(w);
    if (!isfinite(v))
        return;
    if (reserve(w, 40) != 0)
        return;
    double r = nearbyint(v);
    if (fabs(r) < 9e18) {
        int n = 0;
        if (r < 0) {
            w->buf[w->len + n++] = '-';
            r = -r;
        }
        n += fmt_ulong(w->buf + w->len + n, (unsigned long long)r);
        w->len += (size_t)n;
    } else {
        /* Up to 309 digits: room for all of them. */
        int n = snprintf(NULL, 0, "%.0f", r);
        if (n > 0 && reserve(w, (size_t)n + 1) == 0)
            w->len += (size_t)snprintf(w->buf + w->len, (size_t)n + 1, "%.0f", r);
    }
}

void rf_csvw_int(rf_csvw *w, long v)
{
    sep(w);
    if (reserve(w, 24) != 0)
        return;
    int n = 0;
    unsigned long long u = v < 0 ? (unsigned long long)(-(v + 1)) + 1 : (unsigned long long)v;
    if (v < 0)
        w->buf[w->len + n++] = '-';
    n += fmt_ulong(w->buf + w->len + n, u);
    w->len += (size_t)n;
}

void rf_csvw_end(rf_csvw *w)
{
    if (reserve(w, 1) == 0)
        w->buf[w->len++] = '\n';
    w->col = 0;
    if (w->fp && w->len >= FLUSH_AT)
        rf_csvw_flush(w);
}
