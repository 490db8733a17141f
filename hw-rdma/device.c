/*
 * BAR0 routing and the device as a whole (see rdma.h).
 */
#include "rdma.h"

enum {
    UAR_CQ_DOORBELL = 0x20,
    UAR_EQ_DOORBELL_ARM = 0x40,
    UAR_EQ_DOORBELL = 0x48,
    UAR_BF_BASE = 0x800,
    UAR_PAGE = 4096,
};

void mlx5_dev_init(Mlx5Device *d, const Mlx5Platform *plat, void *opaque,
                   const Mlx5FwConfig *cfg)
{
    mlx5_fw_init(&d->fw, plat, opaque, cfg);
    mlx5_rc_init(&d->fw);
    d->latch_valid = false;
}

void mlx5_dev_fini(Mlx5Device *d)
{
    mlx5_fw_fini(&d->fw);
}

unsigned mlx5_dev_reset(Mlx5Device *d, const char *why)
{
    d->latch_valid = false;
    return mlx5_fw_reset(&d->fw, why);
}

uint64_t mlx5_dev_mmio_read(Mlx5Device *d, uint64_t addr, unsigned size)
{
    uint64_t v = 0;

    if (addr < MLX5_ISEG_SIZE && size <= 4) {
        v = mlx5_iseg_read(&d->fw, (uint32_t)addr, size);
    } else if (addr < MLX5_ISEG_SIZE) {
        v = (uint64_t)mlx5_iseg_read(&d->fw, (uint32_t)addr, 4) << 32 |
            mlx5_iseg_read(&d->fw, (uint32_t)addr + 4, 4);
    } else {
        mlx5emu_trace_ub_mmio_read(addr, size);   /* UARs are write-only */
    }
    return v;
}

/* A 64-bit doorbell at a UAR page. */
static void uar_doorbell64(Mlx5Device *d, uint64_t addr, uint64_t val)
{
    uint32_t page = (uint32_t)(addr / UAR_PAGE);
    uint32_t off = (uint32_t)(addr % UAR_PAGE);
    uint32_t dw0 = (uint32_t)(val >> 32), dw1 = (uint32_t)val;

    if (!mlx5_table_get(&d->fw.uar, page)) {
        mlx5emu_trace_ub_uar_unallocated(page, off);
        mlx5_guest_error(&d->fw, "doorbell on UAR page %u that is not allocated", page);
        return;
    }
    if (off == UAR_CQ_DOORBELL) {
        mlx5_cq_arm_doorbell(&d->fw, dw1 & 0xffffff, dw0);
    } else if (off >= UAR_BF_BASE && (off - UAR_BF_BASE) % 256 == 0) {
        /* First 8 bytes of a BlueFlame half: ctrl segment dw0/dw1. */
        mlx5_sq_doorbell(&d->fw, dw1 >> 8, (uint16_t)(dw0 >> 8));
    } else if (off >= UAR_BF_BASE) {
        /* Further 8-byte chunks of a BlueFlame WQE copy: the WQE is read
         * from the ring, which holds the same bytes. */
    } else {
        mlx5emu_trace_ub_uar_write(page, off, val);
    }
}

static void uar_write(Mlx5Device *d, uint64_t addr, uint64_t val, unsigned size)
{
    uint32_t off = (uint32_t)(addr % UAR_PAGE);

    if (size == 4 && (off == UAR_EQ_DOORBELL_ARM || off == UAR_EQ_DOORBELL)) {
        if (!mlx5_table_get(&d->fw.uar, (uint32_t)(addr / UAR_PAGE))) {
            mlx5emu_trace_ub_uar_unallocated((uint32_t)(addr / UAR_PAGE), off);
            return;
        }
        mlx5_eq_doorbell(&d->fw, (uint32_t)val, off == UAR_EQ_DOORBELL_ARM);
        return;
    }
    if (size == 8) {
        uar_doorbell64(d, addr, val);
        return;
    }
    /* 64-bit doorbells split into two 32-bit writes: high half first. */
    if (size == 4 && (addr & 7) == 0) {
        d->latch_addr = addr;
        d->latch_hi = (uint32_t)val;
        d->latch_valid = true;
        return;
    }
    if (size == 4 && d->latch_valid && addr == d->latch_addr + 4) {
        d->latch_valid = false;
        uar_doorbell64(d, d->latch_addr, (uint64_t)d->latch_hi << 32 | (uint32_t)val);
        return;
    }
    mlx5emu_trace_ub_uar_write((uint32_t)(addr / UAR_PAGE), off, val);
}

void mlx5_dev_mmio_write(Mlx5Device *d, uint64_t addr, uint64_t val, unsigned size)
{
    if (addr < MLX5_ISEG_SIZE) {
        mlx5_iseg_write(&d->fw, (uint32_t)addr, (uint32_t)val, size);
    } else if (addr >= (uint64_t)MLX5_FIRST_UAR_INDEX * UAR_PAGE &&
               addr < MLX5_BAR0_SIZE) {
        uar_write(d, addr, val, size);
    } else {
        mlx5emu_trace_ub_mmio_write(addr, size, val);
    }
}

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
    return d->fw.cmd_pending != 0;
}

void mlx5_dev_run_commands(Mlx5Device *d)
{
    mlx5_cmdif_run(&d->fw);
}

/* One platform timer serves CQ moderation and the RC ack and RNR timers:
 * it is set to the earliest deadline any of them asks for. */
void mlx5_timer_request(Mlx5Fw *fw, uint64_t deadline)
{
    if (deadline < fw->timer_deadline) {
        fw->timer_deadline = deadline;
        fw->plat->timer_set(fw->opaque, deadline);
    }
}

void mlx5_dev_timer(Mlx5Device *d)
{
    Mlx5Fw *fw = &d->fw;
    uint64_t next;

    fw->timer_deadline = UINT64_MAX;    /* it has fired */
    next = mlx5_rc_loopback_run(fw);
    next = MIN(next, mlx5_cq_moderation_expire(fw));
    next = MIN(next, mlx5_rc_timer_expire(fw));
    next = MIN(next, mlx5_rq_err_poll(fw));
    mlx5_timer_request(fw, next);
}

void mlx5_dev_set_link(Mlx5Device *d, bool up)
{
    mlx5_port_set_carrier(&d->fw, up);
}

bool mlx5_dev_receive(Mlx5Device *d, const uint8_t *frame, size_t len)
{
    return mlx5_rx_frame(&d->fw, frame, len, true);
}

bool mlx5_dev_rx_retry(Mlx5Device *d)
{
    bool r = d->fw.rx_waiting;

    d->fw.rx_waiting = false;
    return r;
}
