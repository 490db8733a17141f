/*
 * The receive queue of a QP (PRM "Receive Queue"; IBA 10.8): the next
 * posted WQE, scattering a message into it, its responder CQE, and the
 * flush of what is posted when the QP enters ERR.  The RC responder
 * (rc-responder.c) and the UD receiver (ud.c) share them.
 *
 * A receive WQE is a scatter list of 16-byte data segments filling its
 * stride; an lkey of MLX5_INVALID_LKEY (0x100) or a byte count of 0 ends
 * it.  The driver's producer counter is at the doorbell record, +0.
 */
#include "rdma.h"
#include "cqe.h"

enum { MLX5_INVALID_LKEY = 0x100 };

/* Error CQEs of a QP, counted in its set: a flush apart from the others,
 * as mlx5_ib shows them (counters.c: *_cqe_error, *_cqe_flush_error). */
void mlx5_count_cqe_error(Mlx5Fw *fw, const Mlx5Wq *qp, uint8_t syndrome, bool requester)
{
    if (!syndrome) {
        return;
    }
    if (syndrome == MLX5_CQE_SYNDROME_WR_FLUSH_ERR) {
        mlx5_qp_count(fw, qp, requester ? MLX5_QCNT_req_cqe_flush_error
                                        : MLX5_QCNT_resp_cqe_flush_error);
    } else {
        mlx5_qp_count(fw, qp, requester ? MLX5_QCNT_req_cqe_error : MLX5_QCNT_resp_cqe_error);
    }
}

uint64_t mlx5_rq_next_wqe(Mlx5Fw *fw, Mlx5Wq *w)
{
    uint8_t dbr[4];
    uint64_t addr;

    if (!w->ring.npas || mlx5_dma_read(fw, w->dbr_addr, dbr, 4) ||
        (uint16_t)(prm_be32(dbr) - w->hw_counter) == 0 ||
        !mlx5_ring_entry_addr(&w->ring, w->hw_counter, &addr)) {
        return 0;
    }
    return addr;
}

Mlx5ScatterStatus mlx5_rq_scatter(Mlx5Fw *fw, Mlx5Wq *w, uint64_t wqe, uint32_t off,
                                  const uint8_t *data, size_t len)
{
    unsigned nseg = (1u << w->ring.log_stride) / 16;

    for (unsigned i = 0; i < nseg && len; i++) {
        uint8_t ds[16];
        uint32_t bc, n;

        if (mlx5_dma_read(fw, wqe + 16 * i, ds, 16)) {
            return MLX5_SCATTER_PROT;
        }
        bc = prm_be32(ds);
        if (prm_be32(ds + 4) == MLX5_INVALID_LKEY || bc == 0) {
            break;
        }
        if (off >= bc) {
            off -= bc;
            continue;
        }
        n = (uint32_t)MIN((size_t)(bc - off), len);
        if (mlx5_mkey_dma(fw, prm_be32(ds + 4), w->pd, prm_be64(ds + 8) + off,
                          (void *)data, n, MLX5_MKEY_LOCAL_WRITE) != MLX5_MKEY_OK) {
            return MLX5_SCATTER_PROT;
        }
        data += n;
        len -= n;
        off = 0;
    }
    return len == 0 ? MLX5_SCATTER_OK : MLX5_SCATTER_LENGTH;
}

uint32_t mlx5_rq_wqe_capacity(Mlx5Fw *fw, Mlx5Wq *w, uint64_t wqe)
{
    unsigned nseg = (1u << w->ring.log_stride) / 16;
    uint64_t total = 0;

    for (unsigned i = 0; i < nseg; i++) {
        uint8_t ds[16];

        if (mlx5_dma_read(fw, wqe + 16 * i, ds, 16) ||
            prm_be32(ds + 4) == MLX5_INVALID_LKEY || prm_be32(ds) == 0) {
            break;
        }
        total += prm_be32(ds);
    }
    return (uint32_t)MIN(total, UINT32_MAX);
}

void mlx5_rq_cqe(Mlx5Fw *fw, Mlx5Wq *w, const Mlx5RespCqe *c)
{
    Mlx5Cq *cq = mlx5_table_get(&fw->cq, w->cqn);
    uint8_t cqe[64] = { 0 };

    if (!cq) {
        return;
    }
    prm_put_be32(cqe + CQE_BYTE_CNT, c->byte_cnt);
    prm_put_be32(cqe + CQE_IMMEDIATE, c->imm);
    prm_put_be32(cqe + CQE_SOP_DROP_QPN, w->num);
    prm_put_be32(cqe + CQE_FLAGS_RQPN, c->flags_rqpn);
    prm_put_be32(cqe + CQE_SRQN, w->user_index);
    prm_put_be16(cqe + CQE_WQE_COUNTER, (uint16_t)w->hw_counter);
    if (c->vlan) {
        cqe[CQE_L4_L3_HDR_TYPE] |= 1;               /* cvlan present */
        prm_put_be16(cqe + CQE_VLAN_INFO, c->vlan_tci);
    }
    cqe[CQE_OP_OWN] = c->op << 4;
    cqe[CQE_ERR_SYNDROME] = c->syndrome;
    mlx5_count_cqe_error(fw, w, c->op == MLX5_CQE_RESP_ERR ? c->syndrome : 0, false);
    mlx5_cq_post(fw, cq, cqe, c->se);
}

/* ERR flushes the posted receive WQEs (rc.c rc_qp_flush); not an SRQ's. */
unsigned mlx5_rq_flush(Mlx5Fw *fw, Mlx5Wq *w)
{
    Mlx5RespCqe c = { .op = MLX5_CQE_RESP_ERR, .syndrome = MLX5_CQE_SYNDROME_WR_FLUSH_ERR };
    unsigned n = 0;

    while (n < (1u << w->ring.log_size) && mlx5_rq_next_wqe(fw, w)) {
        mlx5_rq_cqe(fw, w, &c);
        w->hw_counter = (uint16_t)(w->hw_counter + 1);
        n++;
    }
    return n;
}
