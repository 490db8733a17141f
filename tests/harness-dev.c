/* The unit-test harness around a whole Mlx5Device: see harness-dev.h. */
#include <string.h>

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

void h_sq_doorbell(Harness *h, HRing *sq)
{
    h_put32(h, sq->dbr + 4, sq->ci & 0xffff);
    mlx5_dev_mmio_write(h->dev, h_uar_addr(h->uar, MLX5_UAR_BF_BASE), h_sq_bf_value(h, sq), 8);
}

void h_sq_ring(Harness *h, HRing *sq)
{
    h_sq_doorbell(h, sq);
    h_run_due(h);
}

/* What a platform's main loop does next: the timer, as long as the device
 * asks for it now (work its slices left, sched.c), bounded in case it
 * never stops asking. */
unsigned h_run_due(Harness *h)
{
    unsigned n = 0;

    while (h->timer_ns <= h->clock_ns && n < 100000) {
        h->timer_ns = UINT64_MAX;       /* fired: no longer set */
        mlx5_dev_timer(h->dev);
        n++;
    }
    g_assert_cmpuint(n, <, 100000);
    return n;
}

/* DMA into the window: BAR0 accesses of up to 8 bytes each. */
static int bar_dma(Harness *h, uint64_t off, void *buf, size_t n, bool write)
{
    uint8_t *b = buf;

    for (size_t at = 0; at < n;) {
        unsigned size = n - at >= 8 && (off + at) % 8 == 0 ? 8 : 4;
        uint8_t word[8] = { 0 };

        size = (unsigned)MIN(size, n - at);
        if (write) {
            memcpy(word + 8 - size, b + at, size);
            mlx5_dev_mmio_write(h->dev, off + at, prm_be64(word), size);
        } else {
            prm_put_be64(word, mlx5_dev_mmio_read(h->dev, off + at, size));
            memcpy(b + at, word + 8 - size, size);
        }
        at += size;
    }
    return 0;
}

void h_bar_window(Harness *h, uint64_t gpa)
{
    h->bar_window = gpa;
    h->bar_dma = bar_dma;
}

static void tx_loop(Harness *h, const uint8_t *frame, size_t len)
{
    mlx5_dev_receive(h->dev, frame, len);
}

void h_tx_loopback(Harness *h)
{
    h->tx_loop = tx_loop;
}
