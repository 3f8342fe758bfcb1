/* file.h - reading and writing files the same way in every reader and writer.
 *
 * rf_file_open refuses a directory up front (fopen accepts one and the first
 * read then fails with a bare "read error"), and rf_file_bom tells readers
 * how many bytes of a UTF-8 byte-order mark (EF BB BF, written by some
 * Windows editors) open a text, so that every reader skips it alike.
 *
 * Input limits.  No reader grows without bound, whatever it is given (a
 * character device such as /dev/zero, a FIFO that never ends):
 *   RF_TEXT_MAX  bytes of a file read whole: PTX, SASS and nvdisasm -cfg code,
 *                kernel specs, GPU files, calibration records (64 MiB; the
 *                largest bundled PTX is under 100 KiB);
 *   RF_LINE_MAX  bytes of one line of a GPU file, and of one record of a CSV
 *                file (batch input, calibration record), line breaks inside
 *                quotes included (64 KiB; a design point is a few hundred).
 * Past either the reader stops with RF_ELIMIT naming the file (and line).
 * A batch input may have any number of records: it is streamed.
 *
 * rf_outfile writes a results file that appears whole or not at all, and
 * never replaces what is not a regular file (see rf_outfile_open).
 */
#ifndef RF_FILE_H
#define RF_FILE_H

#include <stddef.h>
#include <stdio.h>

#include "error.h"

#define RF_TEXT_MAX ((size_t)64 << 20)   /* bytes of a file read whole */
#define RF_LINE_MAX ((size_t)64 << 10)   /* bytes of a line or CSV record */

/* Open path for reading in binary mode.  Returns 0 with *fp set, or RF_EIO
 * with err naming the file ("cannot open: <reason>", "is a directory, not a
 * file"); *fp is NULL then. */
int rf_file_open(const char *path, FILE **fp, rf_err *err);

/* An output file.  What path names decides how it is written:
 *   - a regular file, or no file yet: a temporary file DIR/.rfkitXXXXXX in
 *     the same folder (a short name, so that a legal long path stays legal)
 *     takes the output and is renamed over path when complete, with the
 *     mode fopen gives a new file (0666 less the umask);
 *   - a character device (/dev/null, a terminal), a FIFO or a socket: the
 *     output goes straight into it (there is nothing to replace atomically);
 *   - a symbolic link is followed: its final target is written by the rules
 *     above, and the link stays a link;
 *   - a directory or a block device is refused.
 * While a temporary file exists, SIGINT, SIGTERM and SIGHUP remove it before
 * the process dies of the signal (a process that ignores them keeps doing
 * so), or exits with 128 + the signal's number after rf_file_exit_on_signal. */
typedef struct rf_outfile {
    FILE *fp;          /* write here */
    char *tmp;         /* the temporary file's name; NULL when writing straight */
    char *target;      /* the file written: path, or where its links lead */
    const char *path;  /* the name given, for messages */
    int slot;          /* the temporary's signal clean-up entry, -1 for none */
} rf_outfile;

/* Create the temporary file (or open the device or FIFO).  0, or RF_EIO /
 * RF_ENOMEM with err naming path (nothing is left behind then). */
int rf_outfile_open(rf_outfile *o, const char *path, rf_err *err);

/* Flush, sync and close; with keep, rename over the target, else (or when
 * any of that fails) remove the temporary file.  0, or RF_EIO with the
 * system's reason ("cannot write: No space left on device").  A write that
 * failed earlier (ferror) fails here too.  Frees o's memory in every case. */
int rf_outfile_close(rf_outfile *o, int keep, rf_err *err);

/* For a program's main, before any work: from now on SIGINT, SIGTERM and
 * SIGHUP (those whose action is still the default: a run under nohup keeps
 * ignoring SIGHUP) remove the temporary output files that exist and end the
 * process with _exit(128 + the signal's number): status 130 for SIGINT,
 * 143 for SIGTERM, 129 for SIGHUP, with no output file left half written
 * and nothing more printed.  Without this call a process dies of the
 * signal itself after the clean-up (the default for library users). */
void rf_file_exit_on_signal(void);

/* 3 when the n bytes at s start with a UTF-8 byte-order mark, else 0. */
size_t rf_file_bom(const char *s, size_t n);

/* Reading a CSV stream with libcsv, bounded: rf_csv_feed hands the bytes to
 * csv_parse a line at a time and counts the bytes of the record being read
 * (lines of blanks between records are skipped by libcsv and not counted).
 * The callbacks and data are those csv_parse would take. */
struct csv_parser;
typedef struct rf_csvfeed {
    struct csv_parser *parser;
    void (*field)(void *text, size_t len, void *data);
    void (*row)(int term, void *data);
    void *data;
    size_t pending;    /* bytes of the record read so far */
    int row_ended;     /* a record ended in the last piece */
    int at_start;      /* the parser is between records */
} rf_csvfeed;

void rf_csv_feed_init(rf_csvfeed *f, struct csv_parser *p,
                      void (*field)(void *, size_t, void *), void (*row)(int, void *),
                      void *data);

/* Parse n bytes.  RF_OK; RF_EPARSE when csv_parse failed (csv_error tells
 * why); RF_ELIMIT when a record exceeds RF_LINE_MAX bytes (the parser then
 * holds at most that much). */
int rf_csv_feed(rf_csvfeed *f, const char *s, size_t n);

#endif /* RF_FILE_H */
