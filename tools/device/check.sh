#!/bin/bash
# check.sh -- the checks only a GPU machine gives, as one short script
# (run from the repository root; results under $OUT, default ./device-out):
#   sass/K.sass        cuobjdump -sass of every bundled kernel, built for sm_90
#   sass/K.dot         nvdisasm -cfg of the same cubins
#   occupancy.csv      the driver's CTAs/SM for every bundled kernel and the
#                      regs_K kernels of regs.cu, over block sizes and dynamic
#                      shared memory (tools/device/occprobe.cu)
#   ncu/*.csv          Nsight Compute raw and source pages of hotspot and
#                      stream at their spec launches (tools/device/launch.cu)
#   versions.txt       driver, toolkit and device
# Tools missing on the machine are reported and skipped.
set -u
OUT=${OUT:-device-out}
ARCH=${ARCH:-sm_90}
tmp=$(mktemp -d)
mkdir -p "$OUT/sass" "$OUT/ncu"
have() { command -v "$1" >/dev/null 2>&1; }
{
    nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader
    nvcc --version | tail -2
    for t in cuobjdump nvdisasm ncu; do have $t && echo "$t: $(command -v $t)" || echo "$t: missing"; done
} > "$OUT/versions.txt" 2>&1

probe_args=()
for spec in inputs/kernels/*.spec inputs/validation/*.spec; do
    k=$(basename "$spec" .spec)
    entry=$(sed -n 's/^entry *= *\([A-Za-z_0-9]*\).*/\1/p' "$spec")
    nvcc -arch=$ARCH -O3 -cubin -o "$tmp/$k.cubin" "${spec%.spec}.cu" || continue
    probe_args+=("$tmp/$k.cubin" "$entry")
    have cuobjdump && cuobjdump -sass "$tmp/$k.cubin" > "$OUT/sass/$k.sass"
    have nvdisasm && nvdisasm -cfg "$tmp/$k.cubin" > "$OUT/sass/$k.dot"
done
nvcc -arch=$ARCH -O3 -cubin -o "$tmp/regs.cubin" tools/device/regs.cu
for K in 8 20 36 52 70 100 130 160 200 240; do probe_args+=("$tmp/regs.cubin" "regs_$K"); done
nvcc -O2 -o "$tmp/occprobe" tools/device/occprobe.cu -lcuda &&
    "$tmp/occprobe" "${probe_args[@]}" > "$OUT/occupancy.csv"

if have ncu && nvcc -arch=$ARCH -O3 -o "$tmp/launch" tools/device/launch.cu; then
    ncu --set full -o "$tmp/prof" "$tmp/launch" > "$OUT/ncu/ncu.log" 2>&1
    for page in raw details; do
        ncu --import "$tmp/prof.ncu-rep" --csv --page $page > "$OUT/ncu/$page.csv" 2>>"$OUT/ncu/ncu.log"
    done
    for k in hotspot stream; do
        ncu --import "$tmp/prof.ncu-rep" --csv --page source --print-source sass -k $k \
            > "$OUT/ncu/${k}_source.csv" 2>>"$OUT/ncu/ncu.log"
    done
fi
ls -la "$OUT" "$OUT/sass" "$OUT/ncu" | head -60
rm -rf "$tmp"
