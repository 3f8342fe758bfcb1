/* record.h - calibration records: the fitted model parameters of one GPU and
 * kernel, their covariance and the fit's residual scatter, kept in a CSV file
 * (columns gpu,kernel,key,value) that may hold many GPU/kernel pairs.
 * Saving rewrites the file atomically (temporary file + rename), replacing
 * only the rows of the pair being saved.  (Details: calibrate/record.c.)
 */
#ifndef RF_RECORD_H
#define RF_RECORD_H

#include <stdbool.h>

#include "../analytic/ipc.h"
#include "../common/error.h"
#include "fit.h"

#define RF_CALIB_NAME_MAX 128

typedef struct rf_calib {
    char gpu[RF_CALIB_NAME_MAX];       /* GPU name as given to --gpu */
    char kernel[RF_CALIB_NAME_MAX];    /* kernel name (spec base name) */
    rf_ipc_params params;              /* every model parameter, fitted ones set */
    int nfit;                          /* fitted parameters */
    int fit_idx[RF_FIT_MAXP];          /* their indices in rf_ipc_mparams */
    double cov[RF_FIT_MAXP][RF_FIT_MAXP]; /* their covariance */
    double rms_rel;                    /* relative rms of the fit residuals */
    int dof;                           /* observations - fitted parameters */
    int samples;                       /* sampler runs */
    double sample_cycles;              /* cycles simulated by the samples (warm-up included) */
    double full_cycles;                /* cycles of one full run (model estimate) */
    double level;                      /* whole-kernel IPC of the CTA population model over
                                        * that of the wave formula, default design (1 = none) */
    bool has_meas;                     /* measured operand counts below are valid */
    double meas_reads;                 /* bank reads per instruction in the samples */
    double meas_writes;                /* bank writes per instruction */
    double meas_live;                  /* warps not exited over resident warps in the baseline
                                        * samples (0: not measured; HI-RF's register-cache
                                        * population, analytic/kchar.c live_frac) */
} rf_calib;

/* Reset to the uncalibrated defaults for (gpu, kernel). */
void rf_calib_init(rf_calib *c, const char *gpu, const char *kernel);

/* Write c into the record file at path (created if absent). */
int rf_record_save(const char *path, const rf_calib *c, rf_err *err);

/* Read the calibration of (gpu, kernel); RF_EUNKNOWN when the file has none,
 * RF_EIO when the file cannot be read, RF_EPARSE / RF_ENUMBER on bad rows. */
int rf_record_load(const char *path, const char *gpu, const char *kernel,
                   rf_calib *c, rf_err *err);

#endif /* RF_RECORD_H */
