/*
 * Ethernet transport objects (PRM "Transport Interface"): send and receive
 * queues (SQ, RQ), transport interface send/receive objects (TIS, TIR) and
 * RQ tables (RQT).  SQ, RQ and QP numbers share one 24-bit space.
 *
 * Queue states follow the PRM state machine RST -> RDY -> ERR -> RST; a
 * MODIFY names the state it expects the queue to be in (rq_state/sq_state)
 * and is refused if the queue is elsewhere.
 */
#include <string.h>

#include "cmd.h"

void mlx5_wq_destroy(gpointer p)
{
    Mlx5Wq *wq = p;
    mlx5_ring_fini(&wq->ring);
    mlx5_qp_free(wq->qp);
    g_free(wq);
}

void mlx5_rqt_destroy(gpointer p)
{
    Mlx5Rqt *rqt = p;
    g_free(rqt->rqn);
    g_free(rqt);
}

static Mlx5Wq *wq_get(Mlx5Fw *fw, uint32_t num, Mlx5WqKind kind)
{
    Mlx5Wq *wq = mlx5_table_get(&fw->wq, num);
    return wq && wq->kind == kind ? wq : NULL;
}

/* Parse the common work-queue context; `wq` points into the command. */
static unsigned wq_parse(Mlx5Fw *fw, Mlx5Cmd *c, const uint8_t *wqc,
                         Mlx5Wq *q, unsigned min_stride, unsigned max_stride)
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
    q->pd = PRM_GET(wq, pd, wqc);
    q->dbr_addr = PRM_GET(wq, dbr_addr, wqc);
    if (!mlx5_ring_init(&q->ring, pas, c->inlen - (uint64_t)(pas - c->in), log_sz,
                        stride, pg + 12,
                        mlx5_page_offset_bytes(PRM_GET(wq, page_offset, wqc), pg + 12))) {
        return CMD_FAIL(c, BAD_PARAM, PAS_TOO_SHORT);
    }
    return MLX5_CMD_STAT_OK;
}

static unsigned wq_insert(Mlx5Fw *fw, Mlx5Cmd *c, Mlx5Wq *q)
{
    if (!mlx5_table_alloc(&fw->wq, q, &q->num)) {
        mlx5_wq_destroy(q);
        return CMD_FAIL(c, NO_RES, NO_RESOURCE);
    }
    c->obj = q->num;
    mlx5emu_trace_wq_create(q->kind == MLX5_WQ_SQ ? "SQ" : "RQ", q->num, q->cqn,
                            q->ring.log_size, q->ring.log_stride);
    return MLX5_CMD_STAT_OK;
}

/* Finish a CREATE_SQ/CREATE_RQ: ring geometry, then a number (c->obj). */
static unsigned wq_create(Mlx5Fw *fw, Mlx5Cmd *c, Mlx5Wq *q, const uint8_t *wqc,
                          unsigned min_stride, unsigned max_stride)
{
    unsigned st = wq_parse(fw, c, wqc, q, min_stride, max_stride);

    if (st != MLX5_CMD_STAT_OK) {
        mlx5_wq_destroy(q);
        return st;
    }
    return wq_insert(fw, c, q);
}

static unsigned wq_destroy_cmd(Mlx5Fw *fw, Mlx5Cmd *c, uint32_t num,
                               Mlx5WqKind kind, uint32_t synd)
{
    c->obj = num;
    if (!wq_get(fw, num, kind)) {
        return mlx5_cmd_fail(c, MLX5_CMD_STAT_BAD_RES, synd);
    }
    mlx5_table_remove(&fw->wq, num);
    return MLX5_CMD_STAT_OK;
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

static unsigned wq_modify_state(Mlx5Cmd *c, Mlx5Wq *q, unsigned cur, unsigned next)
{
    if (q->state != cur || !wq_transition_ok(cur, next)) {
        return CMD_FAIL(c, BAD_RES_STATE, BAD_STATE_TRANS);
    }
    mlx5emu_trace_wq_state(q->kind == MLX5_WQ_SQ ? "SQ" : "RQ", q->num, cur, next);
    q->state = next;
    if (next == MLX5_RQC_STATE_RST) {
        q->hw_counter = 0;
    }
    return MLX5_CMD_STAT_OK;
}

unsigned cmd_create_sq(Mlx5Fw *fw, Mlx5Cmd *c)
{
    const uint8_t *sqc = PRM_PTR(create_sq_in, ctx, c->in);
    Mlx5Wq *q;
    unsigned st;

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
    q = g_new0(Mlx5Wq, 1);
    q->kind = MLX5_WQ_SQ;
    q->cqn = PRM_GET(sqc, cqn, sqc);
    q->tisn = PRM_GET(sqc, tis_num_0, sqc);
    q->user_index = PRM_GET(sqc, user_index, sqc);
    q->min_wqe_inline_mode = PRM_GET(sqc, min_wqe_inline_mode, sqc);
    st = wq_create(fw, c, q, PRM_PTR(sqc, wq, sqc), 6, 6);  /* 64-byte WQEBBs */
    if (st == MLX5_CMD_STAT_OK) {
        PRM_SET(create_sq_out, sqn, c->out, c->obj);
    }
    return st;
}

unsigned cmd_modify_sq(Mlx5Fw *fw, Mlx5Cmd *c)
{
    Mlx5Wq *q = wq_get(fw, PRM_GET(modify_sq_in, sqn, c->in), MLX5_WQ_SQ);
    const uint8_t *sqc = PRM_PTR(modify_sq_in, ctx, c->in);

    c->obj = PRM_GET(modify_sq_in, sqn, c->in);
    if (!q) {
        return CMD_FAIL(c, BAD_RES, BAD_ID);
    }
    return wq_modify_state(c, q, PRM_GET(modify_sq_in, sq_state, c->in),
                           PRM_GET(sqc, state, sqc));
}

unsigned cmd_destroy_sq(Mlx5Fw *fw, Mlx5Cmd *c)
{
    return wq_destroy_cmd(fw, c, PRM_GET(destroy_sq_in, sqn, c->in), MLX5_WQ_SQ,
                          MLX5_SYND_BAD_ID);
}

static void wq_fill(uint8_t *wqc, const Mlx5Wq *q)
{
    PRM_SET(wq, pd, wqc, q->pd);
    PRM_SET(wq, dbr_addr, wqc, q->dbr_addr);
    PRM_SET(wq, hw_counter, wqc, q->hw_counter);
    PRM_SET(wq, log_wq_stride, wqc, q->ring.log_stride);
    PRM_SET(wq, log_wq_pg_sz, wqc, q->ring.log_page_size - 12);
    PRM_SET(wq, log_wq_sz, wqc, q->ring.log_size);
}

unsigned cmd_query_sq(Mlx5Fw *fw, Mlx5Cmd *c)
{
    Mlx5Wq *q = wq_get(fw, PRM_GET(query_sq_in, sqn, c->in), MLX5_WQ_SQ);
    uint8_t *sqc = PRM_PTR(query_sq_out, sq_context, c->out);

    c->obj = PRM_GET(query_sq_in, sqn, c->in);
    if (!q) {
        return CMD_FAIL(c, BAD_RES, BAD_ID);
    }
    PRM_SET(sqc, state, sqc, q->state);
    PRM_SET(sqc, cqn, sqc, q->cqn);
    PRM_SET(sqc, user_index, sqc, q->user_index);
    PRM_SET(sqc, tis_lst_sz, sqc, q->tisn ? 1 : 0);
    PRM_SET(sqc, tis_num_0, sqc, q->tisn);
    wq_fill(PRM_PTR(sqc, wq, sqc), q);
    return MLX5_CMD_STAT_OK;
}

unsigned cmd_create_rq(Mlx5Fw *fw, Mlx5Cmd *c)
{
    const uint8_t *rqc = PRM_PTR(create_rq_in, ctx, c->in);
    uint32_t ctr = PRM_GET(rqc, counter_set_id, rqc);
    Mlx5Wq *q;
    unsigned st;

    if (!mlx5_table_get(&fw->cq, PRM_GET(rqc, cqn, rqc))) {
        return CMD_FAIL(c, BAD_PARAM, BAD_CQ);
    }
    if (ctr && !mlx5_table_get(&fw->q_counter, ctr)) {
        return CMD_FAIL(c, BAD_PARAM, BAD_ID);
    }
    if (PRM_GET(rqc, state, rqc) != MLX5_RQC_STATE_RST) {
        return CMD_FAIL(c, BAD_PARAM, BAD_STATE_TRANS);
    }
    q = g_new0(Mlx5Wq, 1);
    q->kind = MLX5_WQ_RQ;
    q->cqn = PRM_GET(rqc, cqn, rqc);
    q->counter_set_id = ctr;
    q->vsd = PRM_GET(rqc, vsd, rqc);
    q->user_index = PRM_GET(rqc, user_index, rqc);
    /* Receive WQEs: 16 bytes per scatter entry, up to max_wqe_sz_rq. */
    st = wq_create(fw, c, q, PRM_PTR(rqc, wq, rqc), 4, 9);
    if (st == MLX5_CMD_STAT_OK) {
        PRM_SET(create_rq_out, rqn, c->out, c->obj);
    }
    return st;
}

unsigned cmd_modify_rq(Mlx5Fw *fw, Mlx5Cmd *c)
{
    Mlx5Wq *q = wq_get(fw, PRM_GET(modify_rq_in, rqn, c->in), MLX5_WQ_RQ);
    const uint8_t *rqc = PRM_PTR(modify_rq_in, ctx, c->in);

    c->obj = PRM_GET(modify_rq_in, rqn, c->in);
    if (!q) {
        return CMD_FAIL(c, BAD_RES, BAD_RQ);
    }
    /* modify_bitmask bit 1: VSD (Linux mlx5e_modify_rq_vsd) */
    if (PRM_GET(modify_rq_in, modify_bitmask, c->in) & 0x2) {
        q->vsd = PRM_GET(rqc, vsd, rqc);
    }
    return wq_modify_state(c, q, PRM_GET(modify_rq_in, rq_state, c->in),
                           PRM_GET(rqc, state, rqc));
}

unsigned cmd_destroy_rq(Mlx5Fw *fw, Mlx5Cmd *c)
{
    return wq_destroy_cmd(fw, c, PRM_GET(destroy_rq_in, rqn, c->in), MLX5_WQ_RQ,
                          MLX5_SYND_BAD_RQ);
}

unsigned cmd_query_rq(Mlx5Fw *fw, Mlx5Cmd *c)
{
    Mlx5Wq *q = wq_get(fw, PRM_GET(query_rq_in, rqn, c->in), MLX5_WQ_RQ);
    uint8_t *rqc = PRM_PTR(query_rq_out, rq_context, c->out);

    c->obj = PRM_GET(query_rq_in, rqn, c->in);
    if (!q) {
        return CMD_FAIL(c, BAD_RES, BAD_RQ);
    }
    PRM_SET(rqc, state, rqc, q->state);
    PRM_SET(rqc, cqn, rqc, q->cqn);
    PRM_SET(rqc, user_index, rqc, q->user_index);
    wq_fill(PRM_PTR(rqc, wq, rqc), q);
    return MLX5_CMD_STAT_OK;
}

/* --- TIS ------------------------------------------------------------ */

unsigned cmd_create_tis(Mlx5Fw *fw, Mlx5Cmd *c)
{
    const uint8_t *ctx = PRM_PTR(create_tis_in, ctx, c->in);
    Mlx5Tis *t;

    if (!mlx5_table_get(&fw->td, PRM_GET(tisc, transport_domain, ctx))) {
        return CMD_FAIL(c, BAD_PARAM, BAD_TD);
    }
    t = g_new0(Mlx5Tis, 1);
    t->td = PRM_GET(tisc, transport_domain, ctx);
    t->prio = PRM_GET(tisc, prio, ctx);
    if (!mlx5_table_alloc(&fw->tis, t, &t->tisn)) {
        g_free(t);
        return CMD_FAIL(c, NO_RES, NO_RESOURCE);
    }
    c->obj = t->tisn;
    PRM_SET(create_tis_out, tisn, c->out, t->tisn);
    return MLX5_CMD_STAT_OK;
}

unsigned cmd_modify_tis(Mlx5Fw *fw, Mlx5Cmd *c)
{
    Mlx5Tis *t = mlx5_table_get(&fw->tis, PRM_GET(modify_tis_in, tisn, c->in));
    const uint8_t *ctx = PRM_PTR(modify_tis_in, ctx, c->in);
    const uint8_t *mask = PRM_PTR(modify_tis_in, bitmask, c->in);

    c->obj = PRM_GET(modify_tis_in, tisn, c->in);
    if (!t) {
        return CMD_FAIL(c, BAD_RES, BAD_TIS);
    }
    if (PRM_GET(modify_tis_bitmask, prio, mask)) {
        t->prio = PRM_GET(tisc, prio, ctx);
    }
    return MLX5_CMD_STAT_OK;
}

unsigned cmd_destroy_tis(Mlx5Fw *fw, Mlx5Cmd *c)
{
    c->obj = PRM_GET(destroy_tis_in, tisn, c->in);
    if (!mlx5_table_remove(&fw->tis, c->obj)) {
        return CMD_FAIL(c, BAD_RES, BAD_TIS);
    }
    return MLX5_CMD_STAT_OK;
}

/* --- TIR ------------------------------------------------------------ */

enum { MLX5_TIRC_DISP_TYPE_DIRECT = 0, MLX5_TIRC_DISP_TYPE_INDIRECT = 1 };

static unsigned tir_apply(Mlx5Fw *fw, Mlx5Cmd *c, Mlx5Tir *t, const uint8_t *ctx,
                          bool hash, bool self_lb)
{
    if (hash) {
        t->rx_hash_fn = PRM_GET(tirc, rx_hash_fn, ctx);
        t->rx_hash_symmetric = PRM_GET(tirc, rx_hash_symmetric, ctx);
        memcpy(t->toeplitz_key, PRM_PTR(tirc, rx_hash_toeplitz_key, ctx),
               sizeof(t->toeplitz_key));
        t->hash_sel_outer = prm_be32(PRM_PTR(tirc, rx_hash_field_selector_outer, ctx));
    }
    if (self_lb) {
        t->self_lb_block = PRM_GET(tirc, self_lb_block, ctx);
    }
    (void)fw; (void)c;
    return MLX5_CMD_STAT_OK;
}

unsigned cmd_create_tir(Mlx5Fw *fw, Mlx5Cmd *c)
{
    const uint8_t *ctx = PRM_PTR(create_tir_in, ctx, c->in);
    uint8_t disp = PRM_GET(tirc, disp_type, ctx);
    Mlx5Tir *t;

    if (!mlx5_table_get(&fw->td, PRM_GET(tirc, transport_domain, ctx))) {
        return CMD_FAIL(c, BAD_PARAM, BAD_TD);
    }
    if (disp == MLX5_TIRC_DISP_TYPE_DIRECT) {
        if (!wq_get(fw, PRM_GET(tirc, inline_rqn, ctx), MLX5_WQ_RQ)) {
            return CMD_FAIL(c, BAD_PARAM, BAD_RQ);
        }
    } else if (disp == MLX5_TIRC_DISP_TYPE_INDIRECT) {
        if (!mlx5_table_get(&fw->rqt, PRM_GET(tirc, indirect_table, ctx))) {
            return CMD_FAIL(c, BAD_PARAM, BAD_RQT);
        }
    } else {
        return CMD_FAIL(c, BAD_PARAM, BAD_DEST);
    }
    t = g_new0(Mlx5Tir, 1);
    t->td = PRM_GET(tirc, transport_domain, ctx);
    t->disp_type = disp;
    t->inline_rqn = PRM_GET(tirc, inline_rqn, ctx);
    t->indirect_table = PRM_GET(tirc, indirect_table, ctx);
    tir_apply(fw, c, t, ctx, true, true);
    if (!mlx5_table_alloc(&fw->tir, t, &t->tirn)) {
        g_free(t);
        return CMD_FAIL(c, NO_RES, NO_RESOURCE);
    }
    c->obj = t->tirn;
    PRM_SET(create_tir_out, tirn, c->out, t->tirn);
    return MLX5_CMD_STAT_OK;
}

unsigned cmd_modify_tir(Mlx5Fw *fw, Mlx5Cmd *c)
{
    Mlx5Tir *t = mlx5_table_get(&fw->tir, PRM_GET(modify_tir_in, tirn, c->in));
    const uint8_t *mask = PRM_PTR(modify_tir_in, bitmask, c->in);

    c->obj = PRM_GET(modify_tir_in, tirn, c->in);
    if (!t) {
        return CMD_FAIL(c, BAD_RES, BAD_ID);
    }
    return tir_apply(fw, c, t, PRM_PTR(modify_tir_in, ctx, c->in),
                     PRM_GET(modify_tir_bitmask, hash, mask),
                     PRM_GET(modify_tir_bitmask, self_lb_en, mask));
}

unsigned cmd_destroy_tir(Mlx5Fw *fw, Mlx5Cmd *c)
{
    c->obj = PRM_GET(destroy_tir_in, tirn, c->in);
    if (!mlx5_table_remove(&fw->tir, c->obj)) {
        return CMD_FAIL(c, BAD_RES, BAD_ID);
    }
    return MLX5_CMD_STAT_OK;
}

/* --- RQT ------------------------------------------------------------ */

/* Read the RQ list of an rqtc that starts at `ctx` inside the command. */
static unsigned rqt_read_list(Mlx5Fw *fw, Mlx5Cmd *c, const uint8_t *ctx,
                              uint32_t max, uint32_t **list, uint32_t *n)
{
    uint32_t actual = PRM_GET(rqtc, rqt_actual_size, ctx);
    uint64_t off = (uint64_t)(ctx - c->in) + PRM_BYTE_OFF(rqtc, rq_num);

    if (actual == 0 || actual > max) {
        return CMD_FAIL(c, BAD_PARAM, BAD_RQT_SIZE);
    }
    if (!mlx5_cmd_has(c, off, actual, 4)) {
        return CMD_FAIL(c, BAD_INP_LEN, IN_TOO_SHORT);
    }
    *list = g_new(uint32_t, actual);
    for (uint32_t i = 0; i < actual; i++) {
        (*list)[i] = prm_be32(c->in + off + 4 * i) & 0xffffff;
        if (!wq_get(fw, (*list)[i], MLX5_WQ_RQ)) {
            g_free(*list);
            *list = NULL;
            return CMD_FAIL(c, BAD_PARAM, BAD_RQ);
        }
    }
    *n = actual;
    return MLX5_CMD_STAT_OK;
}

unsigned cmd_create_rqt(Mlx5Fw *fw, Mlx5Cmd *c)
{
    const uint8_t *ctx = PRM_PTR(create_rqt_in, rqt_context, c->in);
    uint32_t max = PRM_GET(rqtc, rqt_max_size, ctx);
    uint32_t cap = 1u << MLX5_CAP_GET(fw, MLX5_CAP_GENERAL, cmd_hca_cap, log_max_rqt_size);
    Mlx5Rqt *r;
    unsigned st;

    if (max == 0 || max > cap) {
        return CMD_FAIL(c, BAD_PARAM, BAD_RQT_SIZE);
    }
    r = g_new0(Mlx5Rqt, 1);
    r->max_size = max;
    st = rqt_read_list(fw, c, ctx, max, &r->rqn, &r->actual_size);
    if (st != MLX5_CMD_STAT_OK) {
        g_free(r);
        return st;
    }
    if (!mlx5_table_alloc(&fw->rqt, r, &r->rqtn)) {
        mlx5_rqt_destroy(r);
        return CMD_FAIL(c, NO_RES, NO_RESOURCE);
    }
    c->obj = r->rqtn;
    PRM_SET(create_rqt_out, rqtn, c->out, r->rqtn);
    return MLX5_CMD_STAT_OK;
}

unsigned cmd_modify_rqt(Mlx5Fw *fw, Mlx5Cmd *c)
{
    Mlx5Rqt *r = mlx5_table_get(&fw->rqt, PRM_GET(modify_rqt_in, rqtn, c->in));
    const uint8_t *mask = PRM_PTR(modify_rqt_in, bitmask, c->in);
    uint32_t *list, n;
    unsigned st;

    c->obj = PRM_GET(modify_rqt_in, rqtn, c->in);
    if (!r) {
        return CMD_FAIL(c, BAD_RES, BAD_RQT);
    }
    if (!PRM_GET(rqt_bitmask, rqn_list, mask)) {
        return MLX5_CMD_STAT_OK;
    }
    st = rqt_read_list(fw, c, PRM_PTR(modify_rqt_in, ctx, c->in), r->max_size, &list, &n);
    if (st == MLX5_CMD_STAT_OK) {
        g_free(r->rqn);
        r->rqn = list;
        r->actual_size = n;
    }
    return st;
}

unsigned cmd_destroy_rqt(Mlx5Fw *fw, Mlx5Cmd *c)
{
    c->obj = PRM_GET(destroy_rqt_in, rqtn, c->in);
    if (!mlx5_table_remove(&fw->rqt, c->obj)) {
        return CMD_FAIL(c, BAD_RES, BAD_RQT);
    }
    return MLX5_CMD_STAT_OK;
}
