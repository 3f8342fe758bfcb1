/* record.h - calibration records: the fitted model parameters of one GPU and
 * kernel, their covariance and the fit's residual scatter, kept in a CSV file
 * (columns gpu,kernel,key,value) that may hold many GPU/kernel pairs.
 * A record is keyed by the GPU and the kernel's file, entry, launch and SM
 * count, and
 * carries the digest of the kernel's code and spec, so that it is applied
 * only to the kernel it was made from.
 * Saving rewrites the file atomically (temporary file + rename), replacing
 * only the rows of the pair being saved.  (Details: calibrate/record.c.)
 */
#ifndef RF_RECORD_H
#define RF_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../analytic/ipc.h"
#include "../common/error.h"
#include "../inputs/kernel.h"
#include "fit.h"

#define RF_CALIB_NAME_MAX 512

typedef struct rf_calib {
    char gpu[RF_CALIB_NAME_MAX];       /* GPU name as given to --gpu */
    char kernel[RF_CALIB_NAME_MAX];    /* record key of the kernel (rf_calib_key) */
    uint64_t digest;                   /* rf_kernel.digest it was calibrated on; 0 = not
                                        * tied to content (no check on load) */
    rf_ipc_params params;              /* every model parameter, fitted ones set */
    int nfit;                          /* fitted parameters */
    int fit_idx[RF_FIT_MAXP];          /* their indices in rf_ipc_mparams */
    double cov[RF_FIT_MAXP][RF_FIT_MAXP]; /* their covariance */
    double rms_rel;                    /* relative rms of the fit residuals */
    double shrink;                     /* weight w on the calibrated correction: estimates
                                        * are IPC_unc (IPC_cal / IPC_unc)^w, 0..1
                                        * (calibrate/extrapolate.c); 1 = none, as in
                                        * records without the row */
    int dof;                           /* observations - fitted parameters */
    int samples;                       /* sampler runs */
    double sample_cycles;              /* cycles simulated by the samples (warm-up included) */
    double full_cycles;                /* cycles of one full run (model estimate) */
    double level;                      /* whole-kernel IPC of the CTA population model over
                                        * that of the wave formula, default design (1 = none) */
    double level_var;                  /* relative variance of the level beyond the fit's
                                        * terms: what the register-cache windows say of it
                                        * (calibrate/pffit.c); 0 = none, as in records
                                        * without the row */
    bool level_apart;                  /* the level has its own weight: estimates are
                                        * IPC_unc level^wl (IPC_cal / (level IPC_unc))^w
                                        * (register-cache records, calibrate/pffit.c);
                                        * false: w weighs the level with the rest, as in
                                        * records without the row */
    double level_shrink;               /* wl, 0..1, when level_apart */
    bool has_win;                      /* win_bias and win_se below are set (ordinary
                                        * windows' records; older and register-cache
                                        * records lack them) */
    double win_bias;                   /* the ordinary windows' mean relative residual about
                                        * the fitted model, (fit - sampled) / sampled */
    double win_se;                     /* standard error of that mean (calibrate/calibrate.c
                                        * rf_calib_window_noise) */
    double hirf_ratio_w;               /* w_r, 0..1: the weight on the HI-RF windows' ratio
                                        * disagreement below (calibrate/extrapolate.c 3.);
                                        * 0 = no correction, as in records without the row */
    bool hirf_ratio_has[RF_NRCINDEX];  /* hirf_ratio_d[i] is set (a window of index i ran) */
    double hirf_ratio_d[RF_NRCINDEX];  /* d, by the HI-RF windows' index (0: concat, 1: TEA, 2: full,
                                        * analytic/design.h rf_rc_index): their log ratio to
                                        * the baseline window less the estimate's log ratio
                                        * at their design (calibrate/calibrate.c) */
    bool has_meas;                     /* measured operand counts below are valid */
    double meas_reads;                 /* bank reads per instruction in the samples */
    double meas_writes;                /* bank writes per instruction */
    double meas_live;                  /* warps not exited over resident warps in the baseline
                                        * samples (0: not measured; HI-RF's register-cache
                                        * population, analytic/kchar.c live_frac) */
} rf_calib;

/* Reset to the uncalibrated defaults for (gpu, kernel). */
void rf_calib_init(rf_calib *c, const char *gpu, const char *kernel);

/* The key a record of kernel k is filed under: what decides the calibration
 * besides the GPU and the content, i.e. the file, the entry, the launch and
 * the SMs the grid is spread over (the run sampled: SM 0's share, inputs/
 * kernel.h rf_kernel_spread), and the run's draws where they are not seed
 * 1's (rf_profile.seed):
 *     "FILE:ENTRY grid=X,Y,Z block=X,Y,Z smem=B regs=N sms=S[ seed=D]"
 * (FILE: the spec's or the code file's base name)
 * (smem: dynamic bytes; regs: the count used for occupancy).  Two entries,
 * two launches of one file, two SM counts or two seeds get two records:
 * a record's level is its run's (bfs's whole grid on fermi-gtx480: the
 * uncalibrated estimate +11.0% on seed 1's run, -0.3% on seed 2's, -14.1%
 * on seed 3's). */
void rf_calib_key(const rf_kernel *k, char *buf, size_t n);

/* rf_calib_init for kernel k: its key and its content digest. */
void rf_calib_init_kernel(rf_calib *c, const char *gpu, const rf_kernel *k);

/* Write c into the record file at path (created if absent). */
int rf_record_save(const char *path, const rf_calib *c, rf_err *err);

/* Write n records into the file in one rewrite: the file's rows of other
 * pairs, then c[0..n) in order (of two records of one pair, the later),
 * the same file as saving them one by one. */
int rf_record_save_n(const char *path, const rf_calib *c, size_t n, rf_err *err);

/* Read the calibration of (gpu, kernel); RF_EUNKNOWN when the file has none,
 * RF_EIO when the file cannot be read, RF_EPARSE / RF_ENUMBER on bad rows. */
int rf_record_load(const char *path, const char *gpu, const char *kernel,
                   rf_calib *c, rf_err *err);

/* The record of kernel k on gpu (key rf_calib_key).  RF_EUNKNOWN when the
 * file has none (the caller runs uncalibrated and says so); RF_EUSAGE when
 * the record's digest is not k's: the same name and launch calibrated on
 * other code or another spec, which must not be applied. */
int rf_record_load_kernel(const char *path, const char *gpu, const rf_kernel *k,
                          rf_calib *c, rf_err *err);

#endif /* RF_RECORD_H */
