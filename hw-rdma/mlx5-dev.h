/*
 * mlx5emu's device, as a platform uses it.
 *
 * Concepts
 * --------
 * A platform (the QEMU device hw/mlx5.c; unit tests, fuzzers and
 * benchmarks) makes one Mlx5Device with its platform table (platform.h:
 * guest memory, MSI-X, the wire, a clock and a timer, the log) and the
 * board's configuration, then hands it what a PCI function receives:
 *
 *   mlx5_dev_mmio_read/write   BAR0: the initialization segment below
 *                              0x2010, UAR pages (doorbells) from
 *                              MLX5_FIRST_UAR_INDEX up
 *   mlx5_dev_run_commands      execute the command slots the driver rang
 *                              (off the MMIO path, e.g. a bottom half)
 *   mlx5_dev_receive           a frame from the wire
 *   mlx5_dev_timer             the platform timer expired
 *   mlx5_dev_set_link          the link's carrier changed
 *   mlx5_dev_reset             FLR, power-on or system reset
 *
 * The device is opaque here: what is inside (the firmware model of
 * firmware-sim, the data path of hw-rdma) is theirs.  All calls come from
 * one thread (QEMU's main loop under the BQL).
 */
#ifndef MLX5EMU_MLX5_DEV_H
#define MLX5EMU_MLX5_DEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <glib.h>

#include "platform.h"

typedef struct Mlx5Device Mlx5Device;

Mlx5Device *mlx5_dev_new(const Mlx5Platform *plat, void *opaque, const Mlx5FwConfig *cfg);
void mlx5_dev_free(Mlx5Device *d);
/* Every object, queued command and timer goes; the firmware boots again.
 * Returns how many objects were freed. */
unsigned mlx5_dev_reset(Mlx5Device *d, const char *why);

uint64_t mlx5_dev_mmio_read(Mlx5Device *d, uint64_t addr, unsigned size);
void mlx5_dev_mmio_write(Mlx5Device *d, uint64_t addr, uint64_t val, unsigned size);
/* True when command slots wait for mlx5_dev_run_commands(). */
bool mlx5_dev_commands_pending(const Mlx5Device *d);
void mlx5_dev_run_commands(Mlx5Device *d);
/* The platform timer (Mlx5Platform.timer_set) expired. */
void mlx5_dev_timer(Mlx5Device *d);
/* The platform's link carrier changed. */
void mlx5_dev_set_link(Mlx5Device *d, bool up);
/* A frame arrived from the wire.  false: no receive WQE yet, offer it
 * again once mlx5_dev_rx_retry() says so (a lossless link holds it). */
bool mlx5_dev_receive(Mlx5Device *d, const uint8_t *frame, size_t len);
/* True once if a held frame may now find a WQE (after a doorbell). */
bool mlx5_dev_rx_retry(Mlx5Device *d);

/* The device's objects now (describe.c): QPs with state and PSNs, CQs,
 * EQs, work queues, MKeys, flow tables, the port - as aligned text, or
 * as one JSON object (json).  Changes nothing. */
void mlx5_dev_describe(Mlx5Device *d, GString *out, bool json);

/* A frame the platform's offload engine produced (checksums filled in,
 * TSO segments cut): a TCP checksum that came out as 0xffff becomes 0x0000,
 * the one's-complement zero a NIC computes (RFC 1624; QEMU's net_tx_pkt
 * writes UDP's non-zero form for TCP too, which tshark flags as bad).
 * UDP keeps 0xffff: 0 there means "no checksum". */
void mlx5_tx_finish_segment(uint8_t *frame, size_t len);

#endif
