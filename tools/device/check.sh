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
#   ncu-all/*.csv      the details page of one launch of every bundled kernel
#                      (tools/device/launch_all.cu, arguments in kernels.txt)
#                      and each kernel's source page, K_source.csv
#   versions.txt       driver, toolkit and device
# Parts: check.sh [sass] [occupancy] [ncu] [ncu-all] (default: all).
# Tools missing on the machine are reported and skipped.
set -u
OUT=${OUT:-device-out}
ARCH=${ARCH:-sm_90}
tmp=$(mktemp -d)
mkdir -p "$OUT"
have() { command -v "$1" >/dev/null 2>&1; }
parts=" ${*:-sass occupancy ncu ncu-all} "
want() { [[ $parts == *" $1 "* ]]; }
{
    nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader
    nvcc --version | tail -2
    for t in cuobjdump nvdisasm ncu; do have $t && echo "$t: $(command -v $t)" || echo "$t: missing"; done
} > "$OUT/versions.txt" 2>&1

# A spec's launch as "gx gy gz bx by bz smem".
launch_of() {
    local g b m
    g=$(sed -n 's/^grid *= *\([0-9,]*\).*/\1/p' "$1")
    b=$(sed -n 's/^block *= *\([0-9,]*\).*/\1/p' "$1")
    m=$(sed -n 's/^smem *= *\([0-9]*\).*/\1/p' "$1")
    echo "$(echo "$g,1,1" | cut -d, -f1-3 | tr , ' ') $(echo "$b,1,1" | cut -d, -f1-3 | tr , ' ') ${m:-0}"
}
probe_args=()
for spec in inputs/kernels/*.spec inputs/validation/*.spec; do
    k=$(basename "$spec" .spec)
    entry=$(sed -n 's/^entry *= *\([A-Za-z_0-9]*\).*/\1/p' "$spec")
    nvcc -arch=$ARCH -O3 -cubin -o "$tmp/$k.cubin" "${spec%.spec}.cu" || continue
    launch_of "$spec" > "$tmp/$k.launch"
    probe_args+=("$tmp/$k.cubin" "$entry")
    if want sass; then
        mkdir -p "$OUT/sass"
        have cuobjdump && cuobjdump -sass "$tmp/$k.cubin" > "$OUT/sass/$k.sass"
        have nvdisasm && nvdisasm -cfg "$tmp/$k.cubin" > "$OUT/sass/$k.dot"
    fi
done
if want occupancy; then
    nvcc -arch=$ARCH -O3 -cubin -o "$tmp/regs.cubin" tools/device/regs.cu
    for K in 8 20 36 52 70 100 130 160 200 240; do probe_args+=("$tmp/regs.cubin" "regs_$K"); done
    nvcc -O2 -o "$tmp/occprobe" tools/device/occprobe.cu -lcuda &&
        "$tmp/occprobe" "${probe_args[@]}" > "$OUT/occupancy.csv"
fi

if want ncu-all && have ncu && nvcc -O2 -o "$tmp/launch_all" tools/device/launch_all.cu -lcuda; then
    mkdir -p "$OUT/ncu-all"
    timeout 420 ncu --section LaunchStats --section Occupancy --section SourceCounters \
        --section MemoryWorkloadAnalysis -o "$tmp/all" \
        "$tmp/launch_all" tools/device/kernels.txt "$tmp" > "$OUT/ncu-all/ncu.log" 2>&1
    ncu --import "$tmp/all.ncu-rep" --csv --page details > "$OUT/ncu-all/details.csv" \
        2>>"$OUT/ncu-all/ncu.log"
    for k in $(grep -v '^#' tools/device/kernels.txt | cut -d' ' -f1); do
        ncu --import "$tmp/all.ncu-rep" --csv --page source --print-source sass -k "regex:^$k\$" \
            > "$OUT/ncu-all/${k}_source.csv" 2>>"$OUT/ncu-all/ncu.log"
    done
fi

if want ncu && have ncu && nvcc -arch=$ARCH -O3 -o "$tmp/launch" tools/device/launch.cu; then
    mkdir -p "$OUT/ncu"
    ncu --set full -o "$tmp/prof" "$tmp/launch" > "$OUT/ncu/ncu.log" 2>&1
    for page in raw details; do
        ncu --import "$tmp/prof.ncu-rep" --csv --page $page > "$OUT/ncu/$page.csv" 2>>"$OUT/ncu/ncu.log"
    done
    for k in hotspot stream; do
        ncu --import "$tmp/prof.ncu-rep" --csv --page source --print-source sass -k $k \
            > "$OUT/ncu/${k}_source.csv" 2>>"$OUT/ncu/ncu.log"
    done
fi
ls -la "$OUT" | head -20
rm -rf "$tmp"
