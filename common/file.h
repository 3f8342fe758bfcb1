/* file.h - opening input files the same way in every reader.
 *
 * rf_file_open refuses a directory up front (fopen accepts one and the first
 * read then fails with a bare "read error"), and rf_file_bom tells readers
 * how many bytes of a UTF-8 byte-order mark (EF BB BF, written by some
 * Windows editors) open a text, so that every reader skips it alike.
 * rf_outfile writes a results file atomically.
 */
#ifndef RF_FILE_H
#define RF_FILE_H

#include <stddef.h>
#include <stdio.h>

#include "error.h"

/* Open path for reading in binary mode.  Returns 0 with *fp set, or RF_EIO
 * with err naming the file ("cannot open: <reason>", "is a directory, not a
 * file"); *fp is NULL then. */
int rf_file_open(const char *path, FILE **fp, rf_err *err);

/* An output file that appears whole or not at all: written to a temporary
 * file next to path (created like fopen would, mode 0666 less the umask),
 * renamed over path when complete. */
typedef struct rf_outfile {
    FILE *fp;          /* write here */
    char *tmp;         /* the temporary file's name */
    const char *path;  /* the final name */
} rf_outfile;

/* Create the temporary file.  0, or RF_EIO / RF_ENOMEM with err naming path
 * (nothing is left behind then). */
int rf_outfile_open(rf_outfile *o, const char *path, rf_err *err);

/* Flush, sync and close; with keep, rename over path, else (or when any of
 * that fails) remove the temporary file.  0 or RF_EIO.  Frees o's memory
 * in every case. */
int rf_outfile_close(rf_outfile *o, int keep, rf_err *err);

/* 3 when the n bytes at s start with a UTF-8 byte-order mark, else 0. */
size_t rf_file_bom(const char *s, size_t n);

#endif /* RF_FILE_H */
