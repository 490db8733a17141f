/*
 * Work queues (PRM "Work Queues"): the number space SQs, RQs and QPs share,
 * and the Ethernet send and receive queues (CREATE/MODIFY/QUERY/DESTROY_SQ
 * and _RQ) that mlx5e runs its traffic on.
 *
 * SQ and RQ states follow the PRM state machine RST -> RDY -> ERR -> RST;
 * a MODIFY names the state it expects the queue to be in (sq_state /
 * rq_state) and is refused if the queue is elsewhere.
 */
#include <string.h>

#include "cmd.h"

void mlx5_queue_destroy(gpointer p)
{
    Mlx5QueueHead *h = p;
    Mlx5Sq *sq = p;
    Mlx5Rq *rq = p;
    Mlx5Qp *qp = p;

    switch (h->kind) {
    case MLX5_QUEUE_SQ:
        mlx5_ring_fini(&sq->sq.ring);
        break;
    case MLX5_QUEUE_RQ:
        mlx5_ring_fini(&rq->rq.ring);
        break;
    case MLX5_QUEUE_QP:
        mlx5_ring_fini(&qp->sq.ring);
        mlx5_ring_fini(&qp->rq.ring);
        break;
    }
    g_free(p);
}

static void *queue_get(const Mlx5Fw *fw, uint32_t num, Mlx5QueueKind kind)
{
    Mlx5QueueHead *h = mlx5_table_get(&fw->wq, num);

    return h && h->kind == kind ? h : NULL;
}

Mlx5Sq *mlx5_sq_get(const Mlx5Fw *fw, uint32_t num)
{
    return queue_get(fw, num, MLX5_QUEUE_SQ);
}

Mlx5Rq *mlx5_rq_get(const Mlx5Fw *fw, uint32_t num)
{
    return queue_get(fw, num, MLX5_QUEUE_RQ);
}

Mlx5Qp *mlx5_qp_get(const Mlx5Fw *fw, uint32_t num)
{
    return queue_get(fw, num, MLX5_QUEUE_QP);
}

/* The wq context both kinds carry (`wqc` points into the command): the
 * ring within the caps, its page list inside the command, the PD. */
static unsigned wq_parse(Mlx5Fw *fw, Mlx5Cmd *c, const uint8_t *wqc, Mlx5Ring *ring,
                         uint32_t *pd, uint64_t *dbr_addr, unsigned min_stride,
                         unsigned max_stride)
{
    uint32_t log_sz = PRM_GET(wq, log_wq_sz, wqc);
    uint32_t stride = PRM_GET(wq, log_wq_stride, wqc);
    uint32_t pg = PRM_GET(wq, log_wq_pg_sz, wqc);
    const uint8_t *pas = PRM_PTR(wq, pas, wqc);

    if (log_sz > MLX5_CAP_GET(fw, MLX5_CAP_GENERAL, cmd_hca_cap, log_max_wq_sz)) {
        return CMD_FAIL(c, BAD_PARAM, BAD_SIZE);
    }
    if (stride < min_stride || stride > max_stride) {
        return CMD_FAIL(c, BAD_PARAM, BAD_STRIDE);
    }
    if (pg > 18) {
        return CMD_FAIL(c, BAD_PARAM, BAD_PAGE_SIZE);
    }
    /* The driver's drop RQ (en_main.c mlx5e_alloc_drop_rq) has no buffers
     * and no PD; a queue with a PD must name an allocated one. */
    if (PRM_GET(wq, pd, wqc) && !mlx5_table_get(&fw->pd, PRM_GET(wq, pd, wqc))) {
        return CMD_FAIL(c, BAD_PARAM, BAD_PD);
    }
    *pd = PRM_GET(wq, pd, wqc);
    *dbr_addr = PRM_GET(wq, dbr_addr, wqc);
    if (!mlx5_ring_init(ring, pas, c->inlen - (uint64_t)(pas - c->in), log_sz, stride,
                        pg + 12, mlx5_page_offset_bytes(PRM_GET(wq, page_offset, wqc), pg + 12))) {
        return CMD_FAIL(c, BAD_PARAM, PAS_TOO_SHORT);
    }
    return MLX5_CMD_STAT_OK;
}

/* A new SQ or RQ whose ring `wq_parse` filled (st: its answer) gets its
 * number; either way `q` is the table's or freed. */
static unsigned wq_add(Mlx5Fw *fw, Mlx5Cmd *c, unsigned st, void *q, uint32_t cqn,
                       const Mlx5Ring *ring)
{
    Mlx5QueueHead *h = q;

    if (st != MLX5_CMD_STAT_OK) {
        mlx5_queue_destroy(q);
        return st;
    }
    st = mlx5_cmd_add(c, &fw->wq, q, &h->num);
    if (st == MLX5_CMD_STAT_OK) {
        mlx5emu_trace_wq_create(h->kind == MLX5_QUEUE_SQ ? "SQ" : "RQ", h->num, cqn,
                                ring->log_size, ring->log_stride);
    }
    return st;
}

/* PRM queue state machine for SQ and RQ (RST=0, RDY=1, ERR=3). */
static bool wq_transition_ok(unsigned from, unsigned to)
{
    switch (from) {
    case MLX5_RQC_STATE_RST:
        return to == MLX5_RQC_STATE_RDY || to == MLX5_RQC_STATE_RST;
    case MLX5_RQC_STATE_RDY:
        return to <= MLX5_RQC_STATE_RDY || to == MLX5_RQC_STATE_ERR;
    case MLX5_RQC_STATE_ERR:
        return to == MLX5_RQC_STATE_RST || to == MLX5_RQC_STATE_ERR;
    }
    return false;
}

/* MODIFY_SQ / MODIFY_RQ: `*state` is expected to be `cur`; RST starts the
 * device's counter over. */
static unsigned wq_modify_state(Mlx5Cmd *c, const char *kind, uint8_t *state,
                                uint32_t *hw_counter, unsigned cur, unsigned next)
{
    if (*state != cur || !wq_transition_ok(cur, next)) {
        return CMD_FAIL(c, BAD_RES_STATE, BAD_STATE_TRANS);
    }
    mlx5emu_trace_wq_state(kind, c->obj, cur, next);
    *state = next;
    if (next == MLX5_RQC_STATE_RST) {
        *hw_counter = 0;
    }
    return MLX5_CMD_STAT_OK;
}

static void wq_fill(uint8_t *wqc, uint32_t pd, uint64_t dbr_addr, const Mlx5Ring *ring,
                    uint32_t hw_counter)
{
    PRM_SET(wq, pd, wqc, pd);
    PRM_SET(wq, dbr_addr, wqc, dbr_addr);
    PRM_SET(wq, hw_counter, wqc, hw_counter);
    PRM_SET(wq, log_wq_stride, wqc, ring->log_stride);
    PRM_SET(wq, log_wq_pg_sz, wqc, ring->log_page_size - 12);
    PRM_SET(wq, log_wq_sz, wqc, ring->log_size);
}

/* --- SQ ------------------------------------------------------------- */

static unsigned sq_check_refs(Mlx5Fw *fw, Mlx5Cmd *c, const uint8_t *sqc)
{
    if (!mlx5_table_get(&fw->cq, PRM_GET(sqc, cqn, sqc))) {
        return CMD_FAIL(c, BAD_PARAM, BAD_CQ);
    }
    if (PRM_GET(sqc, tis_lst_sz, sqc) > 1 ||
        (PRM_GET(sqc, tis_lst_sz, sqc) == 1 &&
         !mlx5_table_get(&fw->tis, PRM_GET(sqc, tis_num_0, sqc)))) {
        return CMD_FAIL(c, BAD_PARAM, BAD_TIS);
    }
    if (PRM_GET(sqc, state, sqc) != MLX5_RQC_STATE_RST) {
        return CMD_FAIL(c, BAD_PARAM, BAD_STATE_TRANS);
    }
    return MLX5_CMD_STAT_OK;
}

unsigned cmd_create_sq(Mlx5Fw *fw, Mlx5Cmd *c)
{
    const uint8_t *sqc = PRM_PTR(create_sq_in, ctx, c->in);
    unsigned st = sq_check_refs(fw, c, sqc);
    Mlx5Sq *q;

    if (st != MLX5_CMD_STAT_OK) {
        return st;
    }
    q = g_new0(Mlx5Sq, 1);
    q->kind = MLX5_QUEUE_SQ;
    q->sq.cqn = PRM_GET(sqc, cqn, sqc);
    q->sq.state = MLX5_RQC_STATE_RST;
    q->tisn = PRM_GET(sqc, tis_num_0, sqc);
    q->sq.user_index = PRM_GET(sqc, user_index, sqc);
    q->min_wqe_inline_mode = PRM_GET(sqc, min_wqe_inline_mode, sqc);
    st = wq_parse(fw, c, PRM_PTR(sqc, wq, sqc), &q->sq.ring, &q->sq.pd, &q->sq.dbr_addr,
                  6, 6);                                /* 64-byte WQEBBs */
    st = wq_add(fw, c, st, q, q->sq.cqn, &q->sq.ring);
    if (st == MLX5_CMD_STAT_OK) {
        q->sq.num = q->num;
        PRM_SET(create_sq_out, sqn, c->out, q->num);
    }
    return st;
}

unsigned cmd_modify_sq(Mlx5Fw *fw, Mlx5Cmd *c)
{
    Mlx5Sq *q = mlx5_sq_get(fw, PRM_GET(modify_sq_in, sqn, c->in));
    const uint8_t *sqc = PRM_PTR(modify_sq_in, ctx, c->in);

    c->obj = PRM_GET(modify_sq_in, sqn, c->in);
    if (!q) {
        return CMD_FAIL(c, BAD_RES, BAD_ID);
    }
    return wq_modify_state(c, "SQ", &q->sq.state, &q->sq.hw_counter,
                           PRM_GET(modify_sq_in, sq_state, c->in), PRM_GET(sqc, state, sqc));
}

/* DESTROY_SQ / DESTROY_RQ: number `num` must be a queue of that kind. */
static unsigned wq_destroy(Mlx5Fw *fw, Mlx5Cmd *c, uint32_t num, Mlx5QueueKind kind,
                           uint32_t synd)
{
    c->obj = num;
    if (!queue_get(fw, num, kind)) {
        return mlx5_cmd_fail(c, MLX5_CMD_STAT_BAD_RES, synd);
    }
    return mlx5_cmd_remove(c, &fw->wq, num, synd);
}

unsigned cmd_destroy_sq(Mlx5Fw *fw, Mlx5Cmd *c)
{
    return wq_destroy(fw, c, PRM_GET(destroy_sq_in, sqn, c->in), MLX5_QUEUE_SQ,
                      MLX5_SYND_BAD_ID);
}

unsigned cmd_query_sq(Mlx5Fw *fw, Mlx5Cmd *c)
{
    Mlx5Sq *q = mlx5_sq_get(fw, PRM_GET(query_sq_in, sqn, c->in));
    uint8_t *sqc = PRM_PTR(query_sq_out, sq_context, c->out);

    c->obj = PRM_GET(query_sq_in, sqn, c->in);
    if (!q) {
        return CMD_FAIL(c, BAD_RES, BAD_ID);
    }
    PRM_SET(sqc, state, sqc, q->sq.state);
    PRM_SET(sqc, cqn, sqc, q->sq.cqn);
    PRM_SET(sqc, user_index, sqc, q->sq.user_index);
    PRM_SET(sqc, tis_lst_sz, sqc, q->tisn ? 1 : 0);
    PRM_SET(sqc, tis_num_0, sqc, q->tisn);
    wq_fill(PRM_PTR(sqc, wq, sqc), q->sq.pd, q->sq.dbr_addr, &q->sq.ring, q->sq.hw_counter);
    return MLX5_CMD_STAT_OK;
}

/* --- RQ ------------------------------------------------------------- */

static unsigned rq_check_refs(Mlx5Fw *fw, Mlx5Cmd *c, const uint8_t *rqc)
{
    uint32_t ctr = PRM_GET(rqc, counter_set_id, rqc);

    if (!mlx5_table_get(&fw->cq, PRM_GET(rqc, cqn, rqc))) {
        return CMD_FAIL(c, BAD_PARAM, BAD_CQ);
    }
    if (ctr && !mlx5_table_get(&fw->q_counter, ctr)) {
        return CMD_FAIL(c, BAD_PARAM, BAD_ID);
    }
    if (PRM_GET(rqc, state, rqc) != MLX5_RQC_STATE_RST) {
        return CMD_FAIL(c, BAD_PARAM, BAD_STATE_TRANS);
    }
    return MLX5_CMD_STAT_OK;
}

unsigned cmd_create_rq(Mlx5Fw *fw, Mlx5Cmd *c)
{
    const uint8_t *rqc = PRM_PTR(create_rq_in, ctx, c->in);
    unsigned st = rq_check_refs(fw, c, rqc);
    Mlx5Rq *q;

    if (st != MLX5_CMD_STAT_OK) {
        return st;
    }
    q = g_new0(Mlx5Rq, 1);
    q->kind = MLX5_QUEUE_RQ;
    q->state = MLX5_RQC_STATE_RST;
    q->rq.cqn = PRM_GET(rqc, cqn, rqc);
    q->counter_set_id = PRM_GET(rqc, counter_set_id, rqc);
    q->vsd = PRM_GET(rqc, vsd, rqc);
    q->rq.user_index = PRM_GET(rqc, user_index, rqc);
    /* Receive WQEs: 16 bytes per scatter entry, up to max_wqe_sz_rq. */
    st = wq_parse(fw, c, PRM_PTR(rqc, wq, rqc), &q->rq.ring, &q->rq.pd, &q->rq.dbr_addr, 4, 9);
    st = wq_add(fw, c, st, q, q->rq.cqn, &q->rq.ring);
    if (st == MLX5_CMD_STAT_OK) {
        PRM_SET(create_rq_out, rqn, c->out, q->num);
    }
    return st;
}

unsigned cmd_modify_rq(Mlx5Fw *fw, Mlx5Cmd *c)
{
    Mlx5Rq *q = mlx5_rq_get(fw, PRM_GET(modify_rq_in, rqn, c->in));
    const uint8_t *rqc = PRM_PTR(modify_rq_in, ctx, c->in);

    c->obj = PRM_GET(modify_rq_in, rqn, c->in);
    if (!q) {
        return CMD_FAIL(c, BAD_RES, BAD_RQ);
    }
    /* modify_bitmask bit 1: VSD (Linux mlx5e_modify_rq_vsd) */
    if (PRM_GET(modify_rq_in, modify_bitmask, c->in) & 0x2) {
        q->vsd = PRM_GET(rqc, vsd, rqc);
    }
    return wq_modify_state(c, "RQ", &q->state, &q->rq.hw_counter,
                           PRM_GET(modify_rq_in, rq_state, c->in), PRM_GET(rqc, state, rqc));
}

unsigned cmd_destroy_rq(Mlx5Fw *fw, Mlx5Cmd *c)
{
    return wq_destroy(fw, c, PRM_GET(destroy_rq_in, rqn, c->in), MLX5_QUEUE_RQ,
                      MLX5_SYND_BAD_RQ);
}

unsigned cmd_query_rq(Mlx5Fw *fw, Mlx5Cmd *c)
{
    Mlx5Rq *q = mlx5_rq_get(fw, PRM_GET(query_rq_in, rqn, c->in));
    uint8_t *rqc = PRM_PTR(query_rq_out, rq_context, c->out);

    c->obj = PRM_GET(query_rq_in, rqn, c->in);
    if (!q) {
        return CMD_FAIL(c, BAD_RES, BAD_RQ);
    }
    PRM_SET(rqc, state, rqc, q->state);
    PRM_SET(rqc, cqn, rqc, q->rq.cqn);
    PRM_SET(rqc, user_index, rqc, q->rq.user_index);
    wq_fill(PRM_PTR(rqc, wq, rqc), q->rq.pd, q->rq.dbr_addr, &q->rq.ring, q->rq.hw_counter);
    return MLX5_CMD_STAT_OK;
}
