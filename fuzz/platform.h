/*
 * The fuzzers' platform: one Mlx5Device on fake RAM, with every call into
 * it counted against the per-input limits (budget.h).
 *
 * Concepts
 * --------
 * FuzzDev plays the host as hw/mlx5.c does for QEMU, and keeps the
 * records a fuzzer needs instead of a test's:
 *   - guest RAM is the unit-test harness's (harness.h: 16 MiB at
 *     GUEST_BASE), so the set-up reuses its command and ring helpers;
 *   - MSI-X messages, frames sent and guest-error lines are counted, not
 *     stored (the last FUZZ_TX_KEEP frames are kept for FUZZ_OP_REFEED);
 *   - the clock moves only when the input says so, and the device's timer
 *     fires when the clock passes its deadline (fuzz_dev_advance);
 *   - the entry points are called as QEMU's glue calls them: after a BAR0
 *     write a frame held for want of a receive WQE is offered again when
 *     mlx5_dev_rx_retry() says so, and rung command slots run (QEMU: in
 *     a bottom half, i.e. after the write returned).
 *
 * Modes (FuzzMode), one fuzz target each:
 *   FUZZ_PLAIN     frames sent go nowhere.
 *   FUZZ_LOOPBACK  the wire loops back: every frame sent is received by
 *                  the same device once the call that sent it returned
 *                  (as QEMU's net queue delivers: never re-entrantly), so
 *                  RC requests meet their own responder and its ACKs.
 *   FUZZ_REENTER   guest-physical [0, GUEST_BASE) is the device's own BAR0
 *                  (peer-to-peer DMA to itself): a DMA write there is
 *                  mlx5_dev_mmio_write() on the device, made while the
 *                  device is inside the call that DMAs, a DMA read is
 *                  mlx5_dev_mmio_read().  platform.h says no callback may
 *                  call the device; a device must still survive a guest
 *                  that aims its DMA at the device's own registers.
 */
#ifndef MLX5EMU_FUZZ_PLATFORM_H
#define MLX5EMU_FUZZ_PLATFORM_H

#include "budget.h"
#include "harness-dev.h"

typedef enum { FUZZ_PLAIN, FUZZ_LOOPBACK, FUZZ_REENTER } FuzzMode;

#define FUZZ_TX_KEEP 16
#define FUZZ_MAX_FRAME (256u << 10)     /* a TSO send is at most 64 KiB + headers */
#define FUZZ_WINDOW_SIZE GUEST_BASE     /* FUZZ_REENTER: [0, GUEST_BASE) is BAR0 */
#define FUZZ_MAX_EXPIRIES 4096          /* timer expiries in one fuzz_dev_advance */

typedef struct FuzzDev {
    Harness *h;                 /* RAM, clock, timer deadline; h->dev the device */
    FuzzMode mode;
    FuzzBudget budget;
    unsigned msix_vectors;
    unsigned depth;             /* calls into the device under way */
    GQueue *wire;               /* FUZZ_LOOPBACK: frames sent, not yet received */
    GBytes *sent[FUZZ_TX_KEEP]; /* the last frames sent, sent[nsent % KEEP] next */
    unsigned nsent;
    GBytes *held;               /* a frame the device could not take yet */
    uint64_t ram_dirty[GUEST_SIZE / PAGE / 64];     /* pages to clear after the input */
} FuzzDev;

/* A device on the fuzzers' platform (the harness's board), not yet
 * brought up; limits from the environment. */
FuzzDev *fuzz_dev_new(FuzzMode mode);
void fuzz_dev_free(FuzzDev *f);
/* The set-up is done: the counts start from zero. */
void fuzz_dev_setup_done(FuzzDev *f);

/* The entry points (mlx5-dev.h), one counted call each, then what QEMU's
 * glue does after them (held frame, command slots, the looped wire). */
void fuzz_dev_mmio_write(FuzzDev *f, uint64_t addr, uint64_t val, unsigned size);
uint64_t fuzz_dev_mmio_read(FuzzDev *f, uint64_t addr, unsigned size);
void fuzz_dev_receive(FuzzDev *f, const uint8_t *frame, size_t len);
void fuzz_dev_set_link(FuzzDev *f, bool up);
void fuzz_dev_reset(FuzzDev *f);
/* mlx5_fw_exec() with the checks every command answer must pass: the
 * status in the output's first byte, nothing written past outlen, and a
 * failed command leaves a zeroed body and the objects as they were. */
unsigned fuzz_dev_exec(FuzzDev *f, const uint8_t *in, uint32_t inlen, uint32_t outlen);
/* The clock moves `ns` on; the timer fires while it is due. */
void fuzz_dev_advance(FuzzDev *f, uint64_t ns);
/* The operations wrote guest RAM [gpa, +n) themselves (not through the
 * device): cleared for the next input (platform.c "Guest RAM"). */
void fuzz_ram_written(FuzzDev *f, uint64_t gpa, uint64_t n);
/* Check after every input, not every 256th, that RAM was cleared (the
 * replays of the corpus in the unit tests). */
void fuzz_ram_audit_each(void);
/* Frame `back` of the last ones sent (0: the latest), or NULL. */
GBytes *fuzz_dev_sent(FuzzDev *f, unsigned back);

/* A finding the fuzzer's own checks made: the message, then a trap. */
void fuzz_fail(const char *fmt, ...) G_GNUC_PRINTF(1, 2) G_GNUC_NORETURN;

#endif
