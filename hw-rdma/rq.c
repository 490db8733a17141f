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
 *         next, the driver's producer counter is at the doorbell record +0
 *         (queue.c).
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
#include "transport.h"

enum { MLX5_RQ_TYPE_SRQ = 1 };  /* qpc.rq_type */

/* The SRQ a QP takes its receive WQEs from, or NULL: its own RQ.  An XRC
 * target's is the one the current request's XRCETH named (checked by the
 * responder, rc-responder.c check_xrc_srq); its srqn_rmpn_xrqn is a
 * placeholder of mlx5_ib's. */
static Mlx5Srq *qp_srq(Mlx5DataPath *dp, const Mlx5QpTransport *t)
{
    const Mlx5Qp *qp = t->qp;

    if (qp->st == MLX5_QP_ST_XRC) {
        return mlx5_table_get(&dp->fw->srq, t->resp.xrc_srqn);
    }
    if (PRM_GET(qpc, rq_type, qp->qpc) != MLX5_RQ_TYPE_SRQ) {
        return NULL;
    }
    return mlx5_table_get(&dp->fw->srq, PRM_GET(qpc, srqn_rmpn_xrqn, qp->qpc));
}

/* The SRQ's WQE at the head of its list: where its data segments start and
 * the WQE its next segment names (taken within the ring as the index
 * wraps, traced: a link beyond the ring is undefined). */
static bool srq_head(Mlx5DataPath *dp, Mlx5Srq *s, uint64_t *addr, uint16_t *next)
{
    uint8_t seg[MLX5_SRQ_NEXT_SEG_BYTES];
    uint32_t link, mask = (1u << s->ring.log_size) - 1;

    if (!mlx5_ring_entry_addr(&s->ring, s->head, addr) ||
        mlx5_dma_read(dp->fw, *addr, seg, sizeof(seg))) {
        return false;
    }
    link = prm_be16(seg + WQE_SRQ_NEXT_WQE_INDEX);
    if (link > mask) {
        mlx5emu_trace_ub_srq_link(s->num, s->head, link);
        mlx5_guest_error(dp->fw, "SRQ 0x%x WQE %u links to %u, beyond its %u WQEs", s->num,
                         s->head, link, mask + 1);
    }
    *addr += MLX5_SRQ_NEXT_SEG_BYTES;
    *next = (uint16_t)(link & mask);
    return true;
}

static bool srq_peek(Mlx5DataPath *dp, Mlx5Srq *s, const Mlx5QpTransport *t, Mlx5RecvWqe *r)
{
    bool xrc = s->kind == MLX5_SRQ_XRC;
    uint32_t posted;
    uint64_t addr;
    uint16_t next;

    if (s->state != MLX5_RQC_STATE_RDY || !s->ring.npas ||
        !mlx5_dbr_posted(dp, s->dbr_addr, s->hw_counter, &s->ring, s->num, &posted) ||
        !posted || !srq_head(dp, s, &addr, &next)) {
        return false;
    }
    *r = (Mlx5RecvWqe) {
        .addr = addr,
        .index = s->head,
        .next = next,
        .nseg = (uint8_t)MIN(((1u << s->ring.log_stride) - MLX5_SRQ_NEXT_SEG_BYTES) / 16, 255u),
        .pd = s->pd,
        .srqn = s->num,
        .cqn = xrc ? s->cqn : t->qp->rq.cqn,
        .user_index = xrc ? s->user_index : t->qp->rq.user_index,
    };
    return true;
}

bool mlx5_rq_peek(Mlx5DataPath *dp, Mlx5QpTransport *t, Mlx5RecvWqe *r)
{
    const Mlx5RecvQueue *rq = &t->qp->rq;
    Mlx5Srq *s = qp_srq(dp, t);
    uint32_t posted;
    uint64_t addr;

    if (s) {
        return srq_peek(dp, s, t, r);
    }
    if (!rq->ring.npas ||
        !mlx5_dbr_posted(dp, rq->dbr_addr, rq->hw_counter, &rq->ring, t->qp->num, &posted) ||
        !posted || !mlx5_ring_entry_addr(&rq->ring, rq->hw_counter, &addr)) {
        return false;
    }
    *r = (Mlx5RecvWqe) {
        .addr = addr,
        .index = (uint16_t)rq->hw_counter,
        .nseg = (uint8_t)MIN((1u << rq->ring.log_stride) / 16, 255u),
        .pd = rq->pd,
        .cqn = rq->cqn,
        .user_index = rq->user_index,
    };
    return true;
}

/* Taking a WQE may leave fewer than the limit: the event, once. */
static void srq_check_limit(Mlx5DataPath *dp, Mlx5Srq *s)
{
    uint32_t left;

    if (!s->lwm || !mlx5_dbr_posted(dp, s->dbr_addr, s->hw_counter, &s->ring, s->num, &left)) {
        return;
    }
    if (left < s->lwm) {
        s->lwm = 0;
        mlx5_eq_post_qp_srq(dp->fw, MLX5_EVENT_SRQ_RQ_LIMIT, s->num,
                            s->kind == MLX5_SRQ_RMP ? MLX5_EVENT_QUEUE_RQ : MLX5_EVENT_QUEUE_QP);
    }
}

void mlx5_rq_advance(Mlx5DataPath *dp, Mlx5QpTransport *t, const Mlx5RecvWqe *r)
{
    Mlx5Srq *s;

    if (!r->srqn) {
        t->qp->rq.hw_counter = (uint16_t)(t->qp->rq.hw_counter + 1);
        return;
    }
    s = mlx5_table_get(&dp->fw->srq, r->srqn);
    if (s) {
        mlx5emu_trace_srq_take(s->num, r->index, r->next, t->qp->num);
        s->head = r->next;
        s->hw_counter = (uint16_t)(s->hw_counter + 1);
        srq_check_limit(dp, s);
    }
}

bool mlx5_rq_take(Mlx5DataPath *dp, Mlx5QpTransport *t, Mlx5RecvWqe *r)
{
    if (!mlx5_rq_peek(dp, t, r)) {
        r->addr = 0;
        return false;
    }
    mlx5_rq_advance(dp, t, r);
    return true;
}

Mlx5SglStatus mlx5_rq_scatter(Mlx5DataPath *dp, const Mlx5RecvWqe *r, uint32_t off,
                              const uint8_t *data, size_t len)
{
    return mlx5_recv_scatter(dp->fw, r->pd, r->addr, r->nseg, off, data, len);
}

uint32_t mlx5_rq_wqe_capacity(Mlx5DataPath *dp, const Mlx5RecvWqe *r)
{
    return mlx5_recv_capacity(dp->fw, r->addr, r->nseg);
}

void mlx5_rq_cqe(Mlx5DataPath *dp, Mlx5QpTransport *t, const Mlx5RecvWqe *r,
                 const Mlx5RespCqe *c)
{
    Mlx5Cq *cq = mlx5_table_get(&dp->fw->cq, r->cqn);
    uint8_t cqe[MLX5_CQE_BYTES] = { 0 };

    if (!cq) {
        return;
    }
    prm_put_be32(cqe + CQE_BYTE_CNT, c->byte_cnt);
    prm_put_be32(cqe + CQE_IMMEDIATE, c->imm);
    prm_put_be32(cqe + CQE_SOP_DROP_QPN, t->qp->num);
    prm_put_be32(cqe + CQE_FLAGS_RQPN, c->flags_rqpn);
    prm_put_be32(cqe + CQE_SRQN, r->user_index);
    prm_put_be16(cqe + CQE_WQE_COUNTER, r->index);
    if (c->vlan) {
        cqe[CQE_L4_L3_HDR_TYPE] |= CQE_CVLAN_PRESENT;
        prm_put_be16(cqe + CQE_VLAN_INFO, c->vlan_tci);
    }
    cqe[CQE_OP_OWN] = c->op << 4;
    cqe[CQE_ERR_SYNDROME] = c->syndrome;
    mlx5_count_cqe_error(dp, t->qp, c->op == MLX5_CQE_RESP_ERR ? c->syndrome : 0, false);
    mlx5_cq_post(dp, cq, cqe, c->se);
}

/* Receive WQEs posted while a QP is in ERR complete as flushed too (IBA
 * 10.3.1; mlx5_ib_drain_rq posts one and waits for its CQE, e.g. when
 * NVMe over RDMA stops a queue).  Posting a receive rings no doorbell, the
 * driver only writes the doorbell record, so the device looks at the
 * records of its QPs in ERR this often, for as long as there are any. */
#define MLX5_RQ_ERR_POLL_NS (1000 * 1000ull)

static const Mlx5RespCqe rq_flush_cqe = {
    .op = MLX5_CQE_RESP_ERR, .syndrome = MLX5_CQE_SYNDROME_WR_FLUSH_ERR,
};

/* At most one ring's worth a look, and a slice's (sched.c): a producer
 * counter that keeps running ahead cannot keep the device here. */
unsigned mlx5_rq_flush_posted(Mlx5DataPath *dp, Mlx5QpTransport *t)
{
    Mlx5RecvWqe r;
    unsigned n = 0;

    while (n < (1u << t->qp->rq.ring.log_size) && mlx5_slice_left(dp) &&
           mlx5_rq_take(dp, t, &r)) {
        mlx5_rq_cqe(dp, t, &r, &rq_flush_cqe);
        n++;
    }
    return n;
}

/* dp->rq_err_watched: each QP knows its place (watched_at, 1-based), so
 * one leaves in O(1), the last taking its place. */
static void rq_watched_remove(GPtrArray *watched, Mlx5QpTransport *t)
{
    guint i = t->watched_at - 1;
    Mlx5QpTransport *last = g_ptr_array_index(watched, watched->len - 1);

    watched->pdata[i] = last;
    last->watched_at = i + 1;
    t->watched_at = 0;
    g_ptr_array_set_size(watched, watched->len - 1);
}

/* Each look costs a doorbell-record read: a slice's worth of QPs a call,
 * round robin, so thousands of QPs in ERR cost the same per call as one;
 * a QP found no longer in ERR leaves the list then. */
uint64_t mlx5_rq_err_poll(Mlx5DataPath *dp)
{
    GPtrArray *watched = dp->rq_err_watched;
    guint looked = 0;

    while (looked < watched->len && mlx5_slice_left(dp)) {
        Mlx5QpTransport *t = g_ptr_array_index(watched, dp->rq_err_next++ % watched->len);
        unsigned n;

        mlx5_slice_take(dp, 1);
        if (t->qp->state != MLX5_QP_STATE_ERR) {
            rq_watched_remove(watched, t);
            continue;
        }
        n = mlx5_rq_flush_posted(dp, t);
        if (n) {
            mlx5emu_trace_qp_flush(t->qp->num, n);
        }
        looked++;
    }
    if (!watched->len) {
        return UINT64_MAX;
    }
    return looked < watched->len || !mlx5_slice_left(dp) ? mlx5_dp_now(dp)
                                                         : mlx5_dp_now(dp) + MLX5_RQ_ERR_POLL_NS;
}

void mlx5_rq_unwatch(Mlx5DataPath *dp, Mlx5QpTransport *t)
{
    if (t->watched_at) {
        rq_watched_remove(dp->rq_err_watched, t);
    }
}

/* ERR flushes the receive WQE a message was filling and the QP's own
 * posted ones, not an SRQ's: those stay for the other QPs (IBA 10.2.9.5).
 * A QP on an SRQ then reports its last WQE (IBA 11.6.3.2, C10-31;
 * ib_drain_qp waits for the event, ib/core verbs.c __ib_drain_srq). */
unsigned mlx5_rq_flush(Mlx5DataPath *dp, Mlx5QpTransport *t)
{
    Mlx5RecvWqe *taken = &t->resp.recv;
    unsigned n = 0;

    if (taken->addr) {
        mlx5_rq_cqe(dp, t, taken, &rq_flush_cqe);
        taken->addr = 0;
        n++;
    }
    if (qp_srq(dp, t)) {
        mlx5_eq_post_qp_srq(dp->fw, MLX5_EVENT_SRQ_LAST_WQE, t->qp->num, MLX5_EVENT_QUEUE_QP);
        return n;
    }
    n += mlx5_rq_flush_posted(dp, t);
    if (t->qp->rq.ring.npas && !t->watched_at) {
        g_ptr_array_add(dp->rq_err_watched, t);
        t->watched_at = dp->rq_err_watched->len;
        mlx5_timer_request(dp, mlx5_dp_now(dp) + MLX5_RQ_ERR_POLL_NS);
    }
    return n;
}
