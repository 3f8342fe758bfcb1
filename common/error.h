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
    int placed;                 /* the message names a file (or "command line") */
    char field[32];             /* the field named, "" when none (cut to fit) */
    char msg[RF_ERR_MSG_MAX];   /* "file:line:col: field: text" */
} rf_err;

/* Text of a code ("value out of range") and its name ("RANGE"). */
const char *rf_strerror(int code);
const char *rf_errname(int code);

/* Fill err (may be NULL) and return code.  file may be NULL, line/col 0
 * when unknown, field NULL when no field applies.
 *
 * Messages quote input (names, values, whole lines), and input may hold any
 * byte.  The finished message is escaped here, once for every message: a
 * control byte (below 0x20, 0x7f, the C1 controls U+0080..U+009F) or a byte
 * that is not part of valid UTF-8 becomes \xNN, so a message is always one
 * printable line.  Backslashes are kept, which makes escaping idempotent: a
 * message quoted into another message is not escaped twice.  A message cut
 * at RF_ERR_MSG_MAX is cut between escapes and characters, never inside. */
int rf_err_set(rf_err *err, int code, const char *file, int line, int col,
               const char *field, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 7, 8)))
#endif
    ;

/* Reset to RF_OK with an empty message. */
void rf_err_clear(rf_err *err);

/* Say where, when the message does not yet: a library function that knows
 * no file (a model checking its input, a pass refusing a function) leaves
 * the place to its caller, which knows where the value came from.  When err
 * holds an error whose message names no file, put "file:line:col: " (parts
 * 0 or NULL left out) in front of it; a message that names one is kept.
 * Returns err->code (RF_OK when err is NULL). */
int rf_err_place(rf_err *err, const char *file, int line, int col);

/* Is err's field `name`? */
int rf_err_field_is(const rf_err *err, const char *name);

/* Copy src into dst (cap bytes, NUL-terminated) with the escaping of
 * rf_err_set; returns the length written.  For messages that do not go
 * through an rf_err. */
size_t rf_err_escape(char *dst, size_t cap, const char *src);

#endif /* RF_ERROR_H */
