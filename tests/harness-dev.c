/* The unit-test harness around a whole Mlx5Device: see harness-dev.h. */
#include "harness-dev.h"

static void h_free_device(Harness *h)
{
    mlx5_dev_free(h->dev);
}

void h_attach_device(Harness *h, const Mlx5Platform *plat, void *opaque,
                     const Mlx5FwConfig *cfg)
{
    h->dev = mlx5_dev_new(plat, opaque, cfg);
    h->fw = &h->dev->fw;
    h->free_device = h_free_device;
    h_cmdq_setup(h);
}

Harness *h_new_device(void)
{
    Harness *h = h_alloc_harness();
    Mlx5FwConfig cfg;

    h_board_config(&cfg);
    h_attach_device(h, h_platform_table(), h, &cfg);
    return h;
}

void h_cq_arm(Harness *h, HRing *cq)
{
    uint32_t dw0 = (uint32_t)(cq->arm_sn & 3) << 28 | (cq->ci & 0xffffff);

    cq->arm_sn++;
    mlx5_dev_mmio_write(h->dev, h_uar_addr(h->uar, 0x20), (uint64_t)dw0 << 32 | cq->num, 8);
}

uint64_t h_sq_bf_value(Harness *h, const HRing *sq)
{
    const uint8_t *w = (uint8_t *)h_gpa(h, sq->gpa) +
                       (sq->last & ((1u << sq->log_size) - 1)) * MLX5_WQEBB_BYTES;

    return (uint64_t)prm_be32(w + WQE_CTRL_OPMOD_IDX_OPCODE) << 32 |
           prm_be32(w + WQE_CTRL_QPN_DS);
}

void h_sq_ring(Harness *h, HRing *sq)
{
    h_put32(h, sq->dbr + 4, sq->ci & 0xffff);
    mlx5_dev_mmio_write(h->dev, h_uar_addr(h->uar, MLX5_UAR_BF_BASE), h_sq_bf_value(h, sq), 8);
}
