/* error.h - rfkit's one error enum and error messages.
 *
 * Every library function returns 0 (RF_OK) or a negative rf_errcode and, when
 * given an rf_err, fills it with a one-line message of the form
 *     "file:line:col: field: message"        (parts that are unknown are left out)
 * Only main() decides to print and exit.  The codes, their names and their
 * default texts come from one list (RF_ERRNO_MAP), so they cannot drift apart.
 */
#ifndef RF_ERROR_H
#define RF_ERROR_H

#include <stddef.h>

/* X(name, text).  Codes are assigned in order as -1, -2, ... */
#define RF_ERRNO_MAP(X)                                                    \
    X(USAGE,      "bad command-line usage")                                \
    X(UNKNOWN,    "unknown name")                                          \
    X(NUMBER,     "not a valid number")                                    \
    X(RANGE,      "value out of range")                                    \
    X(LIMIT,      "exceeds a hardware limit")                              \
    X(PARSE,      "syntax error")                                          \
    X(IO,         "input/output error")                                    \
    X(NOMEM,      "out of memory")                                         \
    X(UNSUPPORTED,"not supported for this design or input")                \
    X(WATCHDOG,   "simulation made no progress")                           \
    X(FIT,        "fit failed")                                            \
    X(INTERNAL,   "internal error")

/* Positions in the list, then the codes themselves: RF_EUSAGE == -1, ... */
enum {
#define RF_ERR_IDX_(name, text) RF_ERRIDX_##name,
    RF_ERRNO_MAP(RF_ERR_IDX_)
#undef RF_ERR_IDX_
    RF_ERR_COUNT
};
enum {
    RF_OK = 0,
#define RF_ERR_CODE_(name, text) RF_E##name = -(RF_ERRIDX_##name + 1),
    RF_ERRNO_MAP(RF_ERR_CODE_)
#undef RF_ERR_CODE_
};

/* Message buffer carried through parsing and modelling calls. */
#define RF_ERR_MSG_MAX 512
typedef struct rf_err {
    int code;                   /* RF_OK or a negative RF_E* code */
    char msg[RF_ERR_MSG_MAX];   /* "file:line:col: field: text" */
} rf_err;

/* Text of a code ("value out of range") and its name ("RANGE"). */
const char *rf_strerror(int code);
const char *rf_errname(int code);

/* Fill err (may be NULL) and return code.  file may be NULL, line/col 0
 * when unknown, field NULL when no field applies. */
int rf_err_set(rf_err *err, int code, const char *file, int line, int col,
               const char *field, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 7, 8)))
#endif
    ;

/* Reset to RF_OK with an empty message. */
void rf_err_clear(rf_err *err);

#endif /* RF_ERROR_H */
