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
 * record, then its BlueFlame register (h_sq_doorbell; h_sq_ring then lets
 * the platform's main loop run, h_run_due); a CQ arm (UAR + 0x20). */
void h_sq_doorbell(Harness *h, HRing *sq);
void h_sq_ring(Harness *h, HRing *sq);
/* Run the device's timer while it is due now (what the slices of work
 * left, sched.c), as the platform's main loop would: how many times.
 * h_sq_ring() does this after its doorbell. */
unsigned h_run_due(Harness *h);
void h_cq_arm(Harness *h, HRing *cq);
/* What a BlueFlame doorbell for the SQ's last WQE carries: the first 8
 * bytes of its control segment. */
uint64_t h_sq_bf_value(Harness *h, const HRing *sq);

/* Hostile platforms: the device's BAR0 appears to its own DMA at guest
 * address `gpa` (8-byte big-endian accesses, as QEMU's MMIO dispatch
 * makes them); every frame it sends comes straight back into
 * mlx5_dev_receive, from inside its tx_frame. */
void h_bar_window(Harness *h, uint64_t gpa);
void h_tx_loopback(Harness *h);

#endif
