/*
 * The initialization segment (BAR0 0x0000-0x200f; Linux device.h
 * struct mlx5_init_seg): firmware revision, command interface revision,
 * command queue address and doorbell, the "initializing" flag, the health
 * buffer, the free-running timer and the health counter.  All registers
 * are big-endian.
 */
#include "cmd.h"

enum {
    ISEG_FW_REV = 0x000, ISEG_CMDIF_REV_FW_SUB = 0x004,
    ISEG_CMDQ_ADDR_H = 0x010, ISEG_CMDQ_ADDR_L_SZ = 0x014, ISEG_CMD_DBELL = 0x018,
    ISEG_INITIALIZING = 0x1fc,
    ISEG_HEALTH = 0x200, ISEG_HEALTH_FW_VER = 0x230, ISEG_HEALTH_HW_ID = 0x234,
    ISEG_HEALTH_END = 0x240,
    ISEG_CMD_EXEC_TO = 0xff8, ISEG_CMD_Q_INIT_TO = 0xffc,
    ISEG_INTERNAL_TIMER_H = 0x1000, ISEG_INTERNAL_TIMER_L = 0x1004,
    ISEG_HEALTH_COUNTER = 0x1010,
};

#define MLX5_CMD_IF_REV 5          /* Linux cmd.c CMD_IF_REV */

static uint32_t iseg_read32(Mlx5Fw *fw, uint32_t off)
{
    switch (off) {
    case ISEG_FW_REV:
        return (uint32_t)fw->cfg.fw_minor << 16 | fw->cfg.fw_major;
    case ISEG_CMDIF_REV_FW_SUB:
        return MLX5_CMD_IF_REV << 16 | fw->cfg.fw_sub;
    case ISEG_CMDQ_ADDR_H:
        return fw->cmdq_addr_h;
    case ISEG_CMDQ_ADDR_L_SZ:
        /* Whatever was written, the low byte reads back the queue geometry
         * (log_sz 5, log_stride 6) and bits 10:8 the NIC interface mode. */
        return (fw->cmdq_addr_l & ~0xfffu) | (uint32_t)fw->nic_interface << 8 |
               MLX5_CMDQ_LOG_SZ << 4 | MLX5_CMDQ_LOG_STRIDE;
    case ISEG_INITIALIZING:
        /* Bit 31 while the firmware boots after a reset; no FW reset
         * support (bit 30), not an embedded-CPU function (bit 23). */
        return fw->plat->clock_ns(fw->opaque) < fw->ready_at_ns ? 1u << 31 : 0;
    case ISEG_HEALTH_FW_VER:
        return (uint32_t)fw->cfg.fw_major << 16 | fw->cfg.fw_minor;
    case ISEG_HEALTH_HW_ID:
        return fw->cfg.device_id;
    case ISEG_CMD_EXEC_TO:
    case ISEG_CMD_Q_INIT_TO:
        return 0;                   /* driver defaults; no DTOR register */
    case ISEG_INTERNAL_TIMER_H:
        /* Read high, low, high again (mlx5_core clock.c mlx5_read_time; a
         * process through the page mlx5_ib maps, libmlx5
         * mlx5_query_rt_values): the halves of one running counter. */
        return (uint32_t)(mlx5_device_clock(fw) >> 32);
    case ISEG_INTERNAL_TIMER_L: {
        uint64_t now = mlx5_device_clock(fw);

        mlx5emu_trace_dev_clock(now);
        return (uint32_t)now;
    }
    case ISEG_HEALTH_COUNTER:
        /* The health poller wants it to move between polls (health.c
         * MAX_MISSES) and wait_vital() wants two different readings. */
        return ++fw->health_counter;
    }
    return 0;                       /* health syndromes and reserved: 0 */
}

uint32_t mlx5_iseg_read(Mlx5Fw *fw, uint32_t off, unsigned size)
{
    uint32_t word = iseg_read32(fw, off & ~3u);
    unsigned shift;

    if (size == 4) {
        if (off & 3) {
            mlx5emu_trace_ub_iseg_unaligned(off, size);
            return 0;
        }
        return word;
    }
    if ((size != 1 && size != 2) || (off & 3) + size > 4) {
        mlx5emu_trace_ub_iseg_unaligned(off, size);
        return 0;
    }
    /* Sub-word reads of a big-endian register (health synd, ext_synd). */
    shift = 8 * (4 - (off & 3) - size);
    return (word >> shift) & ((1u << (8 * size)) - 1);
}

void mlx5_iseg_write(Mlx5Fw *fw, uint32_t off, uint32_t val, unsigned size)
{
    if (size != 4 || (off & 3)) {
        mlx5emu_trace_ub_iseg_unaligned(off, size);
        return;
    }
    switch (off) {
    case ISEG_CMDQ_ADDR_H:
        fw->cmdq_addr_h = val;
        break;
    case ISEG_CMDQ_ADDR_L_SZ:
        fw->cmdq_addr_l = val & ~0xfffu;
        /* mlx5_set_nic_state(): the driver may request a NIC interface mode. */
        fw->nic_interface = (val >> 8) & 7;
        break;
    case ISEG_CMD_DBELL:
        mlx5_cmdif_doorbell(fw, val);
        break;
    default:
        mlx5emu_trace_ub_iseg_write(off, val);
        break;
    }
}
