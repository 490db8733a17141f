/*
 * The unit-test harness around a whole Mlx5Device (firmware and data
 * path): hw-rdma's tests.  See harness.h.
 */
#ifndef MLX5EMU_TEST_HARNESS_DEV_H
#define MLX5EMU_TEST_HARNESS_DEV_H

#include "datapath.h"
#include "harness.h"

/* The device on the fake platform; h->dev and h->fw are set. */
Harness *h_new_device(void);
/* The same on another platform (the fuzzers' fuzz/platform.c), whose
 * callbacks get `opaque`, for a harness from h_alloc_harness(): the
 * harness's RAM, bump allocator and command helpers serve the set-up. */
void h_attach_device(Harness *h, const Mlx5Platform *plat, void *opaque,
                     const Mlx5FwConfig *cfg);
/* The device's data path, for tests that look at its state. */
static inline Mlx5DataPath *h_dp(Harness *h)
{
    return &h->dev->dp;
}

/* Doorbells through BAR0, as the driver rings them: the SQ's doorbell
 * record, then its BlueFlame register; a CQ arm (UAR + 0x20). */
void h_sq_ring(Harness *h, HRing *sq);
void h_cq_arm(Harness *h, HRing *cq);
/* What a BlueFlame doorbell for the SQ's last WQE carries: the first 8
 * bytes of its control segment. */
uint64_t h_sq_bf_value(Harness *h, const HRing *sq);

#endif
