/*
 * The device as a whole (mlx5-dev.h): the firmware model and the data path
 * side by side, BAR0 routing and UAR doorbells, the one platform timer, and
 * the Mlx5DataPathOps through which the firmware tells the data path of
 * the objects it runs (datapath.h).
 */
#include "datapath.h"

/* --- what the firmware tells the data path ----------------------------- */

static uint64_t dp_qp_bytes(void *dp, const Mlx5Qp *qp)
{
    return mlx5_transport_qp_bytes(dp, qp);
}

static void *dp_qp_created(void *dp, Mlx5Qp *qp)
{
    return mlx5_transport_qp_created(dp, qp);
}

static void dp_qp_state_changed(void *dp, Mlx5Qp *qp, unsigned from, unsigned to)
{
    mlx5_transport_qp_state(dp, qp, from, to);
}

static void dp_qp_destroyed(void *dp, Mlx5Qp *qp)
{
    mlx5_transport_qp_destroyed(dp, qp);
}

static void dp_cq_destroyed(void *dp, Mlx5Cq *cq)
{
    mlx5_cq_forget(dp, cq);
}

/* Every object is about to be retired: nothing held for them may be used
 * again.  Each QP's transport state goes later with its QP
 * (dp_qp_destroyed, as the firmware reclaims it). */
static void dp_reset(void *opaque)
{
    Mlx5DataPath *dp = opaque;

    mlx5_deadlines_clear(&dp->cq_moderated);
    g_hash_table_remove_all(dp->cq_held_at);
    mlx5_pacing_reset(dp);
    mlx5_transport_reset(dp);
    mlx5_deferred_clear(dp);
    dp->rx_waiting = false;
}

static void dp_reclaim_later(void *dp)
{
    mlx5_defer(dp, MLX5_DEFER_RECLAIM, 0);
}

void mlx5_reclaim_resume(Mlx5DataPath *dp, uint32_t num)
{
    unsigned n = mlx5_fw_reclaim(dp->fw, dp->slice_left);

    (void)num;
    mlx5_slice_take(dp, n);
    if (mlx5_fw_retired_count(dp->fw)) {
        mlx5_defer(dp, MLX5_DEFER_RECLAIM, 0);
    }
}

static const Mlx5DataPathOps mlx5_dp_ops = {
    .qp_bytes = dp_qp_bytes,
    .qp_created = dp_qp_created,
    .qp_state_changed = dp_qp_state_changed,
    .qp_destroyed = dp_qp_destroyed,
    .cq_destroyed = dp_cq_destroyed,
    .reset = dp_reset,
    .reclaim_later = dp_reclaim_later,
    .page_fault_resume = mlx5_odp_resume,
};

/* --- life cycle ---------------------------------------------------------- */

Mlx5Device *mlx5_dev_new(const Mlx5Platform *plat, void *opaque, const Mlx5FwConfig *cfg)
{
    Mlx5Device *d = g_new0(Mlx5Device, 1);
    Mlx5DataPath *dp = &d->dp;

    mlx5_fw_init(&d->fw, plat, opaque, cfg);
    dp->fw = &d->fw;
    dp->timer_deadline = UINT64_MAX;
    mlx5_cq_moderation_init(dp);
    mlx5_rc_timers_init(dp);
    mlx5_pacing_init(dp);
    dp->rq_err_watched = g_ptr_array_new();
    dp->roce_loopback = g_queue_new();
    mlx5_deferred_init(dp);
    mlx5_fw_set_datapath(&d->fw, &mlx5_dp_ops, dp);
    return d;
}

void mlx5_dev_free(Mlx5Device *d)
{
    if (!d) {
        return;
    }
    mlx5_fw_fini(&d->fw);           /* the data path lets go of every object first */
    mlx5_deadlines_fini(&d->dp.cq_moderated);
    g_hash_table_destroy(d->dp.cq_held_at);
    mlx5_deadlines_fini(&d->dp.rc_timed);
    mlx5_pacing_fini(&d->dp);
    g_ptr_array_free(d->dp.rq_err_watched, true);
    g_queue_free(d->dp.roce_loopback);
    mlx5_deferred_fini(&d->dp);
    g_free(d);
}

/* --- re-entrancy --------------------------------------------------------- */

/*
 * Every entry point runs alone.  A platform whose DMA can reach the
 * device's own BAR (QEMU: peer-to-peer to itself, unless DMA is limited to
 * RAM as hw/mlx5.c does), or whose wire loops a frame back while the device
 * sends it (a filter, a hub), would otherwise run one entry point inside
 * another: a doorbell rung by the scatter of an RDMA READ response would
 * append to the very WQE list the completer is walking (the class of
 * QEMU's pvrdma CVE-2023-1544 and of the DMA re-entrancy bugs QEMU's
 * MemReentrancyGuard answers).  A nested call is refused the way that
 * loses nothing a guest may rely on: an MMIO write is dropped (a guest
 * cannot DMA to its NIC's registers on hardware either), a frame waits to
 * be offered again (mlx5_dev_rx_retry), the timer is asked for again, and
 * a reset waits for the running entry point to end.
 */
static bool dev_enter(Mlx5Device *d, const char *entry)
{
    if (d->busy) {
        mlx5emu_trace_ub_reentrant(entry);
        return false;
    }
    d->busy = true;
    mlx5_slice_open(&d->dp);
    return true;
}

static void dev_leave(Mlx5Device *d)
{
    const char *why = d->reset_deferred;

    d->busy = false;
    mlx5_slice_close(&d->dp);
    if (why) {
        d->reset_deferred = NULL;
        mlx5_dev_reset(d, why);
    }
}

unsigned mlx5_dev_reset(Mlx5Device *d, const char *why)
{
    if (d->busy) {
        d->reset_deferred = why;
        return 0;
    }
    d->latch_valid = false;
    return mlx5_fw_reset(&d->fw, why);
}

/* --- BAR0 ---------------------------------------------------------------- */

/* Device memory through BAR0 (platform.h): an access of `size` bytes
 * whose value is big-endian, as every BAR0 register (the platform's byte
 * order for the whole BAR).  Bytes not allocated read as zero and ignore
 * writes, as the PRM leaves them. */
static bool memic_mmio(Mlx5Device *d, uint64_t addr, uint64_t *val, unsigned size, bool write)
{
    uint8_t b[8];

    if (addr < MLX5_MEMIC_BAR_OFFSET || addr >= MLX5_BAR0_SIZE || size > 8) {
        return false;
    }
    for (unsigned i = 0; i < size; i++) {
        b[i] = (uint8_t)(*val >> (8 * (size - 1 - i)));
    }
    if (!mlx5_memic_rw(&d->fw, addr - MLX5_MEMIC_BAR_OFFSET, b, size, write)) {
        mlx5emu_trace_ub_memic_unallocated(addr, size, write);
        memset(b, 0, sizeof(b));
    }
    if (!write) {
        *val = 0;
        for (unsigned i = 0; i < size; i++) {
            *val = *val << 8 | b[i];
        }
    }
    return true;
}

uint64_t mlx5_dev_mmio_read(Mlx5Device *d, uint64_t addr, unsigned size)
{
    uint64_t v = 0;

    if (!dev_enter(d, "BAR0 read")) {
        return 0;
    }
    if (memic_mmio(d, addr, &v, size, false)) {
        /* device memory */
    } else if (addr < MLX5_ISEG_SIZE && size <= 4) {
        v = mlx5_iseg_read(&d->fw, (uint32_t)addr, size);
    } else if (addr < MLX5_ISEG_SIZE) {
        v = (uint64_t)mlx5_iseg_read(&d->fw, (uint32_t)addr, 4) << 32 |
            mlx5_iseg_read(&d->fw, (uint32_t)addr + 4, 4);
    } else {
        mlx5emu_trace_ub_mmio_read(addr, size);   /* UARs are write-only */
    }
    dev_leave(d);
    return v;
}

/* A doorbell on a UAR page the driver was given (ALLOC_UAR). */
static bool uar_allocated(Mlx5Device *d, uint64_t addr)
{
    uint32_t page = (uint32_t)(addr / MLX5_UAR_PAGE_BYTES);

    if (!mlx5_table_get(&d->fw.uar, page)) {
        mlx5emu_trace_ub_uar_unallocated(page, (uint32_t)(addr % MLX5_UAR_PAGE_BYTES));
        mlx5_guest_error(&d->fw, "doorbell on UAR page %u that is not allocated", page);
        return false;
    }
    return true;
}

/* Further 8-byte chunks of a BlueFlame WQE copy (libmlx5 qp.c
 * post_send_db -> mlx5_bf_copy, for a single small WQE): the device reads
 * the WQE from the ring, which holds the same bytes, so the copy only
 * shows in the trace, once per 64-byte basic block written. */
static void blueflame_chunk(const Mlx5Device *d, uint32_t page, uint32_t bf_off)
{
    uint32_t in_half = bf_off % MLX5_UAR_BF_HALF;

    if (in_half % MLX5_WQEBB_BYTES == MLX5_WQEBB_BYTES - 8) {
        mlx5emu_trace_sq_blueflame(page == d->bf_page ? d->bf_sqn : 0xffffff, page,
                                   MLX5_UAR_BF_BASE + bf_off - in_half, in_half + 8);
    }
}

/* A 64-bit doorbell at a UAR page (Linux uar.c, cq.h, en/txrx.h):
 *   +0x20      CQ arm, dw0 = sn << 28 | cmd << 24 | ci, dw1 = cqn
 *   +0x800...  BlueFlame registers, two halves each; the first 8 bytes
 *              written to a half are the WQE's ctrl dw0/dw1: an SQ doorbell. */
static void uar_doorbell64(Mlx5Device *d, uint64_t addr, uint64_t val)
{
    uint32_t off = (uint32_t)(addr % MLX5_UAR_PAGE_BYTES);
    uint32_t page = (uint32_t)(addr / MLX5_UAR_PAGE_BYTES);
    uint32_t dw0 = (uint32_t)(val >> 32), dw1 = (uint32_t)val;

    if (!uar_allocated(d, addr)) {
        return;
    }
    if (off == MLX5_UAR_CQ_DOORBELL) {
        mlx5_cq_arm_doorbell(&d->dp, page, dw1 & 0xffffff, dw0);
    } else if (off >= MLX5_UAR_BF_BASE && (off - MLX5_UAR_BF_BASE) % MLX5_UAR_BF_HALF == 0) {
        d->bf_page = page;
        d->bf_sqn = dw1 >> 8;
        mlx5_sq_doorbell(&d->dp, page, dw1 >> 8, (uint16_t)(dw0 >> 8));
    } else if (off < MLX5_UAR_BF_BASE) {
        mlx5emu_trace_ub_uar_write((uint32_t)(addr / MLX5_UAR_PAGE_BYTES), off, val);
    } else {
        blueflame_chunk(d, page, off - MLX5_UAR_BF_BASE);
    }
}

/* 32-bit writes: EQ doorbells (+0x40 with, +0x48 without re-arm:
 * eqn << 24 | ci), or a 64-bit doorbell in two halves, high half first,
 * latched. */
static void uar_write32(Mlx5Device *d, uint64_t addr, uint32_t val)
{
    uint32_t off = (uint32_t)(addr % MLX5_UAR_PAGE_BYTES);

    if (off == MLX5_UAR_EQ_DOORBELL_ARM || off == MLX5_UAR_EQ_DOORBELL) {
        if (uar_allocated(d, addr)) {
            mlx5_eq_doorbell(&d->fw, (uint32_t)(addr / MLX5_UAR_PAGE_BYTES), val,
                             off == MLX5_UAR_EQ_DOORBELL_ARM);
        }
    } else if ((addr & 7) == 0) {
        d->latch_addr = addr;
        d->latch_hi = val;
        d->latch_valid = true;
    } else if (d->latch_valid && addr == d->latch_addr + 4) {
        d->latch_valid = false;
        uar_doorbell64(d, d->latch_addr, (uint64_t)d->latch_hi << 32 | val);
    } else {
        mlx5emu_trace_ub_uar_write((uint32_t)(addr / MLX5_UAR_PAGE_BYTES), off, val);
    }
}

void mlx5_dev_mmio_write(Mlx5Device *d, uint64_t addr, uint64_t val, unsigned size)
{
    bool uar = addr >= (uint64_t)MLX5_FIRST_UAR_INDEX * MLX5_UAR_PAGE_BYTES &&
               addr < MLX5_MEMIC_BAR_OFFSET;

    if (!dev_enter(d, "BAR0 write")) {
        mlx5_guest_error(&d->fw, "BAR0 write at 0x%" PRIx64 " from inside the device "
                         "(DMA aimed at its own registers): dropped", addr);
        return;
    }
    if (memic_mmio(d, addr, &val, size, true)) {
        /* device memory */
    } else if (addr < MLX5_ISEG_SIZE) {
        mlx5_iseg_write(&d->fw, (uint32_t)addr, (uint32_t)val, size);
    } else if (uar && size == 8) {
        uar_doorbell64(d, addr, val);
    } else if (uar && size == 4) {
        uar_write32(d, addr, (uint32_t)val);
    } else {
        mlx5emu_trace_ub_mmio_write(addr, size, val);
    }
    dev_leave(d);
}

/* --- the rest of mlx5-dev.h ---------------------------------------------- */

void mlx5_count_frames(Mlx5Traffic *t, const uint8_t *f, uint64_t frames, uint64_t octets)
{
    bool bcast = (f[0] & f[1] & f[2] & f[3] & f[4] & f[5]) == 0xff;
    unsigned kind = bcast ? MLX5_CAST_BROADCAST
                  : f[0] & 1 ? MLX5_CAST_MULTICAST : MLX5_CAST_UNICAST;

    t->frames[kind] += frames;
    t->octets[kind] += octets;
}

bool mlx5_dev_commands_pending(const Mlx5Device *d)
{
    return mlx5_cmdif_pending(&d->fw);
}

void mlx5_dev_run_commands(Mlx5Device *d)
{
    if (dev_enter(d, "commands")) {
        mlx5_cmdif_run(&d->fw);       /* refused: they stay pending */
        dev_leave(d);
    }
}

/* One platform timer serves the RoCE loopback queue, CQ moderation, the RC
 * ack and RNR timers, packet pacing and the ERR receive flush: it is set
 * to the earliest deadline any of them asks for. */
void mlx5_timer_request(Mlx5DataPath *dp, uint64_t deadline)
{
    if (deadline < dp->timer_deadline) {
        dp->timer_deadline = deadline;
        dp->fw->plat->timer_set(dp->fw->opaque, deadline);
    }
}

void mlx5_dev_timer(Mlx5Device *d)
{
    Mlx5DataPath *dp = &d->dp;
    uint64_t next;

    dp->timer_deadline = UINT64_MAX;    /* it has fired */
    if (!dev_enter(d, "timer")) {
        mlx5_timer_request(dp, mlx5_dp_now(dp));    /* again, once the device is free */
        return;
    }
    /* One slice for all, the expiries first: what is due when a call
     * starts is finite (an expiry that starts its timer again starts it in
     * the future), so they drain within a few calls however many there
     * are, while sliced work (a long send, looped-back frames, the ERR
     * poll) may go on for ever and, first, would starve them. */
    next = mlx5_cq_moderation_expire(dp);
    next = MIN(next, mlx5_rc_timer_expire(dp));
    next = MIN(next, mlx5_pacing_expire(dp));
    next = MIN(next, mlx5_deferred_run(dp));
    next = MIN(next, mlx5_roce_loopback_run(dp));
    next = MIN(next, mlx5_rq_err_poll(dp));
    mlx5_timer_request(dp, next);
    dev_leave(d);
}

void mlx5_dev_set_link(Mlx5Device *d, bool up)
{
    mlx5_port_set_carrier(&d->fw, up);
}

bool mlx5_dev_receive(Mlx5Device *d, const uint8_t *frame, size_t len)
{
    bool taken;

    if (!dev_enter(d, "receive")) {
        d->dp.rx_waiting = true;        /* offered again after mlx5_dev_rx_retry() */
        return false;
    }
    taken = mlx5_rx_frame(&d->dp, frame, len, true);
    dev_leave(d);
    return taken;
}

bool mlx5_dev_rx_retry(Mlx5Device *d)
{
    bool r = d->dp.rx_waiting;

    d->dp.rx_waiting = false;
    return r;
}
