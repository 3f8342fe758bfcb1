// short_axpy.cu -- y = a x + y over 4096 elements: a launch of 16 CTAs of
// 256 threads, one element per thread, that finishes in a few thousand
// cycles on one SM.
//
// Short kernel: a single wave, no loop, two loads and one store per thread;
// the run is dominated by the first loads' latency and the drain.

extern "C" __global__ void __launch_bounds__(256)
short_axpy(float a, const float *__restrict__ x, float *__restrict__ y, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}
