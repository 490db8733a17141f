/*
 * Receive WQEs of a QP (PRM "Receive Queue", "Shared Receive Queue";
 * IBA 10.8, 10.2.9): taking the next posted one from the QP's own receive
 * queue or from its SRQ, scattering a message into it, its responder CQE,
 * and the flush of what is posted when the QP enters ERR.  The RC
 * responder (rc-responder.c) and the UD receiver (ud.c) share them.
 *
 * Concepts
 * --------
 * RQ      A QP's own receive queue is a ring: the WQE at hw_counter is the
 *         next, the driver's producer counter is at the doorbell record +0.
 *         A WQE is a scatter list of 16-byte data segments filling its
 *         stride; an lkey of MLX5_INVALID_LKEY (0x100) or a byte count of 0
 *         ends it.
 * SRQ     A QP whose context says rq_type SRQ (and is not XRC) takes its
 *         WQEs from the SRQ (or RMP) srqn_rmpn_xrqn names.  SRQ WQEs are a
 *         linked list, not a ring: each starts with a 16-byte next segment
 *         whose next_wqe_index names the WQE after it, the list starts at
 *         index 0, and the doorbell record counts the WQEs posted (16 bits).
 *         libmlx5 and mlx5_ib reuse freed slots out of ring order (srq.c
 *         mlx5_free_srq_wqe, mlx5_ib_free_srq_wqe), so the device follows
 *         the links.  The CQE's wqe_counter is the WQE's index, which the
 *         drivers free; its srqn_uidx is the QP's user index (CQE version
 *         1, libmlx5 cq.c get_resp_ctx_v1), or for an XRC SRQ the SRQ's.
 * limit   When taking a WQE leaves fewer posted than the SRQ's limit (lwm,
 *         ARM_RQ / MODIFY_RMP / ARM_XRC_SRQ), the device raises the SRQ
 *         limit event once and disarms (lwm 0; ibv_modify_srq(3)).
 */
#include "rdma.h"
#include "cqe.h"

enum {
    MLX5_INVALID_LKEY = 0x100,
    SRQ_NEXT_SEG_BYTES = 16, SRQ_NEXT_WQE_INDEX = 2,
    MLX5_RQ_TYPE_SRQ = 1,       /* qpc.rq_type */
};

/* The SRQ a QP takes its receive WQEs from, or NULL: its own RQ.  An XRC
 * target's is the one the current request's XRCETH named (checked by the
 * responder, rc-responder.c xrc_srq_ok); its srqn_rmpn_xrqn is a
 * placeholder of mlx5_ib's. */
static Mlx5Srq *qp_srq(Mlx5Fw *fw, const Mlx5Wq *w)
{
    if (w->qp && w->qp_st == MLX5_QP_ST_XRC) {
        return mlx5_table_get(&fw->srq, w->qp->rc.xrc_srqn);
    }
    if (!w->qp || PRM_GET(qpc, rq_type, w->qp->qpc) != MLX5_RQ_TYPE_SRQ) {
        return NULL;
    }
    return mlx5_table_get(&fw->srq, PRM_GET(qpc, srqn_rmpn_xrqn, w->qp->qpc));
}

bool mlx5_srq_peek(Mlx5Fw *fw, Mlx5Srq *s, const Mlx5Wq *w, Mlx5RecvWqe *r)
{
    uint8_t dbr[4], next[SRQ_NEXT_SEG_BYTES];
    uint32_t link, mask = (1u << s->ring.log_size) - 1;
    uint64_t addr;

    if (s->state != MLX5_RQC_STATE_RDY || !s->ring.npas ||
        mlx5_dma_read(fw, s->dbr_addr, dbr, 4) ||
        (uint16_t)(prm_be32(dbr) - s->hw_counter) == 0 ||
        !mlx5_ring_entry_addr(&s->ring, s->head, &addr) ||
        mlx5_dma_read(fw, addr, next, sizeof(next))) {
        return false;
    }
    link = prm_be16(next + SRQ_NEXT_WQE_INDEX);
    if (link > mask) {
        /* the list leaves the ring: follow it within (as the index wraps) */
        mlx5emu_trace_ub_srq_link(s->num, s->head, link);
        mlx5_guest_error(fw, "SRQ 0x%x WQE %u links to %u, beyond its %u WQEs", s->num,
                         s->head, link, mask + 1);
    }
    *r = (Mlx5RecvWqe) {
        .addr = addr + SRQ_NEXT_SEG_BYTES,
        .index = s->head,
        .next = (uint16_t)(link & mask),
        .nseg = (uint8_t)MIN(((1u << s->ring.log_stride) - SRQ_NEXT_SEG_BYTES) / 16, 255u),
        .pd = s->pd,
        .srqn = s->num,
        .cqn = s->kind == MLX5_SRQ_XRC ? s->cqn : w->cqn,
        .user_index = s->kind == MLX5_SRQ_XRC ? s->user_index : w->user_index,
    };
    return true;
}

bool mlx5_rq_peek(Mlx5Fw *fw, Mlx5Wq *w, Mlx5RecvWqe *r)
{
    Mlx5Srq *s = qp_srq(fw, w);
    uint8_t dbr[4];
    uint64_t addr;

    if (s) {
        return mlx5_srq_peek(fw, s, w, r);
    }
    if (!w->ring.npas || mlx5_dma_read(fw, w->dbr_addr, dbr, 4) ||
        (uint16_t)(prm_be32(dbr) - w->hw_counter) == 0 ||
        !mlx5_ring_entry_addr(&w->ring, w->hw_counter, &addr)) {
        return false;
    }
    *r = (Mlx5RecvWqe) {
        .addr = addr,
        .index = (uint16_t)w->hw_counter,
        .nseg = (uint8_t)MIN((1u << w->ring.log_stride) / 16, 255u),
        .pd = w->pd,
        .cqn = w->cqn,
        .user_index = w->user_index,
    };
    return true;
}

/* Taking a WQE may leave fewer than the limit: the event, once. */
static void srq_check_limit(Mlx5Fw *fw, Mlx5Srq *s)
{
    uint8_t dbr[4];
    uint16_t left;

    if (!s->lwm || mlx5_dma_read(fw, s->dbr_addr, dbr, 4)) {
        return;
    }
    left = (uint16_t)(prm_be32(dbr) - s->hw_counter);
    if (left < s->lwm) {
        s->lwm = 0;
        mlx5_eq_post_qp_srq(fw, MLX5_EVENT_SRQ_RQ_LIMIT, s->num,
                            s->kind == MLX5_SRQ_RMP ? MLX5_EVENT_QUEUE_RQ : MLX5_EVENT_QUEUE_QP);
    }
}

void mlx5_rq_advance(Mlx5Fw *fw, Mlx5Wq *w, const Mlx5RecvWqe *r)
{
    Mlx5Srq *s;

    if (!r->srqn) {
        w->hw_counter = (uint16_t)(w->hw_counter + 1);
        return;
    }
    s = mlx5_table_get(&fw->srq, r->srqn);
    if (s) {
        mlx5emu_trace_srq_take(s->num, r->index, r->next, w->num);
        s->head = r->next;
        s->hw_counter = (uint16_t)(s->hw_counter + 1);
        srq_check_limit(fw, s);
    }
}

bool mlx5_rq_take(Mlx5Fw *fw, Mlx5Wq *w, Mlx5RecvWqe *r)
{
    if (!mlx5_rq_peek(fw, w, r)) {
        r->addr = 0;
        return false;
    }
    mlx5_rq_advance(fw, w, r);
    return true;
}

Mlx5ScatterStatus mlx5_rq_scatter(Mlx5Fw *fw, const Mlx5RecvWqe *r, uint32_t off,
                                  const uint8_t *data, size_t len)
{
    for (unsigned i = 0; i < r->nseg && len; i++) {
        uint8_t ds[16];
        uint32_t bc, n;

        if (mlx5_dma_read(fw, r->addr + 16 * i, ds, 16)) {
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
        if (mlx5_mkey_dma(fw, prm_be32(ds + 4), r->pd, prm_be64(ds + 8) + off,
                          (void *)data, n, MLX5_MKEY_LOCAL_WRITE) != MLX5_MKEY_OK) {
            return MLX5_SCATTER_PROT;
        }
        data += n;
        len -= n;
        off = 0;
    }
    return len == 0 ? MLX5_SCATTER_OK : MLX5_SCATTER_LENGTH;
}

uint32_t mlx5_rq_wqe_capacity(Mlx5Fw *fw, const Mlx5RecvWqe *r)
{
    uint64_t total = 0;

    for (unsigned i = 0; i < r->nseg; i++) {
        uint8_t ds[16];

        if (mlx5_dma_read(fw, r->addr + 16 * i, ds, 16) ||
            prm_be32(ds + 4) == MLX5_INVALID_LKEY || prm_be32(ds) == 0) {
            break;
        }
        total += prm_be32(ds);
    }
    return (uint32_t)MIN(total, UINT32_MAX);
}

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

void mlx5_rq_cqe(Mlx5Fw *fw, Mlx5Wq *w, const Mlx5RecvWqe *r, const Mlx5RespCqe *c)
{
    Mlx5Cq *cq = mlx5_table_get(&fw->cq, r->cqn);
    uint8_t cqe[64] = { 0 };

    if (!cq) {
        return;
    }
    prm_put_be32(cqe + CQE_BYTE_CNT, c->byte_cnt);
    prm_put_be32(cqe + CQE_IMMEDIATE, c->imm);
    prm_put_be32(cqe + CQE_SOP_DROP_QPN, w->num);
    prm_put_be32(cqe + CQE_FLAGS_RQPN, c->flags_rqpn);
    prm_put_be32(cqe + CQE_SRQN, r->user_index);
    prm_put_be16(cqe + CQE_WQE_COUNTER, r->index);
    if (c->vlan) {
        cqe[CQE_L4_L3_HDR_TYPE] |= 1;               /* cvlan present */
        prm_put_be16(cqe + CQE_VLAN_INFO, c->vlan_tci);
    }
    cqe[CQE_OP_OWN] = c->op << 4;
    cqe[CQE_ERR_SYNDROME] = c->syndrome;
    mlx5_count_cqe_error(fw, w, c->op == MLX5_CQE_RESP_ERR ? c->syndrome : 0, false);
    mlx5_cq_post(fw, cq, cqe, c->se);
}

/* Receive WQEs posted while a QP is in ERR complete as flushed too (IBA
 * 10.3.1; mlx5_ib_drain_rq posts one and waits for its CQE, e.g. when
 * NVMe over RDMA stops a queue).  Posting a receive rings no doorbell, the
 * driver only writes the doorbell record, so the device looks at the
 * records of its QPs in ERR this often, for as long as there are any. */
#define MLX5_RQ_ERR_POLL_NS (1000 * 1000ull)

static void rq_flush_posted(Mlx5Fw *fw, Mlx5Wq *w, const Mlx5RespCqe *c, unsigned *n)
{
    Mlx5RecvWqe r;

    while (*n < (1u << w->ring.log_size) && mlx5_rq_take(fw, w, &r)) {
        mlx5_rq_cqe(fw, w, &r, c);
        ++*n;
    }
}

uint64_t mlx5_rq_err_poll(Mlx5Fw *fw)
{
    Mlx5RespCqe c = { .op = MLX5_CQE_RESP_ERR, .syndrome = MLX5_CQE_SYNDROME_WR_FLUSH_ERR };

    for (guint i = 0; i < fw->rq_err_watched->len;) {
        Mlx5Wq *w = mlx5_qp_get(fw, g_array_index(fw->rq_err_watched, uint32_t, i));
        unsigned n = 0;

        if (!w || w->state != MLX5_QP_STATE_ERR) {
            g_array_remove_index_fast(fw->rq_err_watched, i);
            continue;
        }
        rq_flush_posted(fw, w, &c, &n);
        if (n) {
            mlx5emu_trace_rc_flush(w->num, n);
        }
        i++;
    }
    return fw->rq_err_watched->len ? fw->plat->clock_ns(fw->opaque) + MLX5_RQ_ERR_POLL_NS
                                   : UINT64_MAX;
}

/* ERR flushes the receive WQE a message was filling and the QP's own
 * posted ones, not an SRQ's: those stay for the other QPs (IBA 10.2.9.5).
 * A QP on an SRQ then reports its last WQE (IBA 11.6.3.2, C10-31;
 * ib_drain_qp waits for the event, ib/core verbs.c __ib_drain_srq). */
unsigned mlx5_rq_flush(Mlx5Fw *fw, Mlx5Wq *w, Mlx5RecvWqe *taken)
{
    Mlx5RespCqe c = { .op = MLX5_CQE_RESP_ERR, .syndrome = MLX5_CQE_SYNDROME_WR_FLUSH_ERR };
    unsigned n = 0;

    if (taken && taken->addr) {
        mlx5_rq_cqe(fw, w, taken, &c);
        taken->addr = 0;
        n++;
    }
    if (qp_srq(fw, w)) {
        mlx5_eq_post_qp_srq(fw, MLX5_EVENT_SRQ_LAST_WQE, w->num, MLX5_EVENT_QUEUE_QP);
        return n;
    }
    rq_flush_posted(fw, w, &c, &n);
    if (w->ring.npas) {
        mlx5_num_list_add(fw->rq_err_watched, w->num);
        mlx5_timer_request(fw, fw->plat->clock_ns(fw->opaque) + MLX5_RQ_ERR_POLL_NS);
    }
    return n;
}
