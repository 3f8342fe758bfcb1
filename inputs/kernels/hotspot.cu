// hotspot.cu -- 2D transient thermal simulation (explicit 5-point stencil).
//
// Register-limited workload, shaped like the "hotspot" chip-temperature
// benchmark used in register-file papers.  Each 16x16 block loads a tile of
// temperature and power into shared memory and then advances the tile by
// `steps` time steps without going back to global memory ("pyramid"
// blocking): after step s only the cells at distance > s from the tile edge
// are still exact, so a block writes back its inner (16 - 2*steps)^2 cells
// and neighbouring blocks overlap by `steps` cells on each side.
//
// Grid: gridDim.x = ceil(cols / (16 - 2*steps)), likewise for rows.
// steps must be in 1..7.

#define HS_B 16

extern "C" __global__ void __launch_bounds__(256)
hotspot(const float *__restrict__ power, const float *__restrict__ tempIn,
        float *__restrict__ tempOut, int cols, int rows, int steps,
        float cap, float rx, float ry, float rz, float dt, float ambient)
{
    __shared__ float tCur[HS_B][HS_B];
    __shared__ float tNew[HS_B][HS_B];
    __shared__ float pw[HS_B][HS_B];

    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int inner = HS_B - 2 * steps;          // cells written per block edge

    // Global coordinates of this thread's cell (may lie outside the chip).
    const int gx = blockIdx.x * inner - steps + tx;
    const int gy = blockIdx.y * inner - steps + ty;
    const bool onChip = gx >= 0 && gx < cols && gy >= 0 && gy < rows;

    if (onChip) {
        const int g = gy * cols + gx;
        tCur[ty][tx] = tempIn[g];
        pw[ty][tx]   = power[g];
    }

    // Range of tile coordinates that lie on the chip; neighbours outside the
    // chip are clamped to the boundary cell (adiabatic edges).
    const int xLo = gx - tx < 0 ? tx - gx : 0;
    const int yLo = gy - ty < 0 ? ty - gy : 0;
    const int xHi = (gx - tx + HS_B - 1 >= cols) ? HS_B - 1 - (gx - tx + HS_B - cols) : HS_B - 1;
    const int yHi = (gy - ty + HS_B - 1 >= rows) ? HS_B - 1 - (gy - ty + HS_B - rows) : HS_B - 1;

    const int xw = tx - 1 < xLo ? xLo : tx - 1;
    const int xe = tx + 1 > xHi ? xHi : tx + 1;
    const int yn = ty - 1 < yLo ? yLo : ty - 1;
    const int ys = ty + 1 > yHi ? yHi : ty + 1;

    const float kdt = dt / cap;
    const float gx1 = 1.0f / rx;
    const float gy1 = 1.0f / ry;
    const float gz1 = 1.0f / rz;

    __syncthreads();

    bool updated = false;
#pragma unroll 1
    for (int s = 0; s < steps; ++s) {
        updated = false;
        // Cells still exact after this step: away from the tile edge by > s
        // and on the chip.
        if (tx > s && tx < HS_B - 1 - s && ty > s && ty < HS_B - 1 - s &&
            tx >= xLo && tx <= xHi && ty >= yLo && ty <= yHi) {
            const float t = tCur[ty][tx];
            const float lateral = (tCur[ty][xe] + tCur[ty][xw] - 2.0f * t) * gx1 +
                                  (tCur[ys][tx] + tCur[yn][tx] - 2.0f * t) * gy1;
            const float vertical = (ambient - t) * gz1;
            tNew[ty][tx] = t + kdt * (pw[ty][tx] + lateral + vertical);
            updated = true;
        }
        __syncthreads();
        if (s == steps - 1)
            break;
        if (updated)
            tCur[ty][tx] = tNew[ty][tx];
        __syncthreads();
    }

    if (updated)
        tempOut[gy * cols + gx] = tNew[ty][tx];
}
