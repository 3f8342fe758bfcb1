/* mpi.h - running batch and calibrate over several processes with MPI.
 *
 * MPI is optional: where mpicc is found at build time the Makefile builds
 * rfkit-mpi, with RF_HAVE_MPI defined here and libmpi linked, beside rfkit,
 * which is built without them and hands an MPI launch to rfkit-mpi
 * (rf_mpi_reexec).  A process joins an MPI job only when an
 * MPI launcher started it (mpirun / mpiexec of Open MPI or MPICH, srun with
 * PMI or PMIx: the launcher's environment variables tell); otherwise, and
 * in a build without MPI, it is rank 0 of 1 and runs as it always did.
 *
 * Ranks are assumed to run the same rfkit binary on the same kind of
 * machine (records travel between them as bytes) and to see the same files
 * at the same paths (each rank loads the kernels, GPUs and calibration
 * files its rows name).
 */
#ifndef RF_MPI_H
#define RF_MPI_H

#include <stddef.h>
#include <stdio.h>

#include "../common/error.h"
#include "../results/batch.h"

typedef struct rf_mpi {
    int rank, size;      /* this process and the job's processes (0 of 1 alone) */
    int local_size;      /* processes of the job on this machine */
    int active;          /* MPI was initialised (and is finalised by rf_mpi_end) */
} rf_mpi;

/* In a build without MPI started by an MPI launcher: run rfkit-mpi from
 * this binary's directory in this process's place, with the same
 * arguments (argv, NULL-terminated), where it is there; else return. */
void rf_mpi_reexec(char **argv);

/* Join the job when launched by an MPI launcher.  0, or RF_EINTERNAL when
 * MPI could not be initialised. */
int rf_mpi_begin(rf_mpi *m, rf_err *err);
void rf_mpi_end(rf_mpi *m);

/* The exit status all ranks leave with: rank 0's (the one that reports). */
int rf_mpi_status(const rf_mpi *m, int status);

/* rfkit batch over the job's ranks (size > 1).  Rank 0 reads the input
 * (in_path, or standard input for "-"; named in_name in messages), splits
 * its rows into chunks of whole rows (results/shard.h) dealt round-robin to
 * the ranks and sends each rank its chunks; every rank estimates each of
 * its chunks with rf_batch_run (opts; loading only the kernels of its
 * rows); rank 0 gathers the outputs in chunk order and writes them through
 * one rf_outfile (out_path; NULL: standard output), so that the output
 * appears whole or not at all and is byte for byte that of a one-process
 * run.  Rank 0 draws the progress of its own rows on `progress` (NULL:
 * quiet).  On rank 0, *st counts every row;
 * 0 or an rf_err code, err filled on rank 0 (other ranks return the same
 * code and leave the reporting to rank 0). */
int rf_mpi_batch(const rf_mpi *m, const char *in_path, const char *in_name,
                 const char *out_path, const rf_batch_opts *opts, FILE *progress,
                 rf_batch_stats *st, rf_err *err);

/* Did every rank get ok (1) so far?  Every rank calls it: a rank that
 * stopped alone would leave the others waiting for it. */
int rf_mpi_agree(const rf_mpi *m, int ok);

/* n items of item_size bytes, item i computed by rank i % size: rank 0
 * receives every item from the rank that computed it (others keep theirs).
 * Every rank calls it; ok = 0 on a rank that has no items to give (out of
 * memory), and then nothing is sent.  0, RF_ENOMEM when a rank was not ok,
 * or RF_EINTERNAL when MPI failed. */
int rf_mpi_gather_items(const rf_mpi *m, void *items, size_t item_size, int n, int ok,
                        rf_err *err);

#endif /* RF_MPI_H */
