/*
 * What the host benchmarks share (bench/bench-*.c): the clock they time
 * entry-point calls with.
 */
#ifndef MLX5EMU_BENCH_H
#define MLX5EMU_BENCH_H

#include <stdint.h>
#include <time.h>

/* Monotonic nanoseconds: the host's time, not the device's clock. */
static inline int64_t bench_now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

#endif
