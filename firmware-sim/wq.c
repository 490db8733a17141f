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

/* A queue holds itself and its page lists; a QP also the data path's
 * state of it (Mlx5Qp.dp_bytes).  Each kind counts against its own limit
 * (log_max_sq, log_max_rq, log_max_qp: hca.c). */
static uint64_t queue_bytes(const void *p)
{
    const Mlx5Sq *sq = p;
    const Mlx5Rq *rq = p;
    const Mlx5Qp *qp = p;

    switch (((const Mlx5QueueHead *)p)->kind) {
    case MLX5_QUEUE_SQ:
        return sizeof(*sq) + mlx5_ring_bytes(&sq->sq.ring);
    case MLX5_QUEUE_RQ:
        return sizeof(*rq) + mlx5_ring_bytes(&rq->rq.ring);
    default:
        return sizeof(*qp) + mlx5_ring_bytes(&qp->sq.ring) + mlx5_ring_bytes(&qp->rq.ring) +
               qp->dp_bytes;
    }
}

static unsigned queue_kind(const void *p)
{
    return ((const Mlx5QueueHead *)p)->kind;
}
const Mlx5TableCost mlx5_queue_cost = { 0, queue_bytes, queue_kind };
_Static_assert(MLX5_QUEUE_SQ < MLX5_TABLE_KINDS && MLX5_QUEUE_RQ < MLX5_TABLE_KINDS &&
               MLX5_QUEUE_QP < MLX5_TABLE_KINDS, "a limit for each queue kind");

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

/* SQs and RQs: sqc and rqc, and the commands of the two kinds, place what
 * they share alike (mlx5_ifc.h), so the SQ layouts read both. */
MLX5_SAME_FIELD(sqc, state, rqc, state) MLX5_SAME_FIELD(sqc, user_index, rqc, user_index)
MLX5_SAME_FIELD(sqc, cqn, rqc, cqn) MLX5_SAME_FIELD(sqc, wq, rqc, wq)
MLX5_SAME_FIELD(create_sq_in, ctx, create_rq_in, ctx)
MLX5_SAME_FIELD(create_sq_out, sqn, create_rq_out, rqn)
MLX5_SAME_FIELD(modify_sq_in, sq_state, modify_rq_in, rq_state)
MLX5_SAME_FIELD(modify_sq_in, ctx, modify_rq_in, ctx)
MLX5_SAME_FIELD(destroy_sq_in, sqn, destroy_rq_in, rqn)
MLX5_SAME_FIELD(query_sq_in, sqn, query_rq_in, rqn)
MLX5_SAME_FIELD(query_sq_out, sq_context, query_rq_out, rq_context)

/* sqc.tis_lst_sz: an SQ sends through one TIS or none. */
static uint64_t sqc_tis_lst_sz(const void *q)
{
    return ((const Mlx5Sq *)q)->tisn ? 1 : 0;
}

/* What a queue of type T keeps of its context, its send or receive part
 * being `q`: what sqc and rqc share, and the wq context (the ring's
 * geometry and counter are the device's, reported only). */
#define WQ_CTX_(T, f, m, bias, dir) \
    MLX5_CTX_FIELD(PRM_OFF(sqc, f), PRM_W(sqc, f), T, m, bias, MLX5_CTX_##dir)
#define WQ_WQ_(T, f, m, bias, dir) \
    MLX5_CTX_FIELD(PRM_OFF(sqc, wq) + PRM_OFF(wq, f), PRM_W(wq, f), T, m, bias, MLX5_CTX_##dir)
#define WQ_FIELDS_(T, q) \
    WQ_CTX_(T, cqn, q.cqn, 0, INOUT), WQ_CTX_(T, user_index, q.user_index, 0, INOUT), \
    WQ_WQ_(T, pd, q.pd, 0, INOUT), WQ_WQ_(T, dbr_addr, q.dbr_addr, 0, INOUT), \
    WQ_WQ_(T, hw_counter, q.hw_counter, 0, OUT), WQ_WQ_(T, log_wq_sz, q.ring.log_size, 0, OUT), \
    WQ_WQ_(T, log_wq_stride, q.ring.log_stride, 0, OUT), \
    WQ_WQ_(T, log_wq_pg_sz, q.ring.log_page_size, 12, OUT)
static const Mlx5CtxField sqc_fields[] = {
    WQ_FIELDS_(Mlx5Sq, sq), WQ_CTX_(Mlx5Sq, state, sq.state, 0, INOUT),
    WQ_WQ_(Mlx5Sq, uar_page, sq.uar_page, 0, INOUT),
    MLX5_CTX_FIELD(PRM_OFF(sqc, tis_num_0), PRM_W(sqc, tis_num_0), Mlx5Sq, tisn, 0,
                   MLX5_CTX_INOUT),
    MLX5_CTX_FIELD(PRM_OFF(sqc, min_wqe_inline_mode), PRM_W(sqc, min_wqe_inline_mode), Mlx5Sq,
                   min_wqe_inline_mode, 0, MLX5_CTX_IN),
    MLX5_CTX_STATE(PRM_OFF(sqc, tis_lst_sz), PRM_W(sqc, tis_lst_sz), sqc_tis_lst_sz),
    MLX5_CTX_FIELD(PRM_OFF(sqc, packet_pacing_rate_limit_index),
                   PRM_W(sqc, packet_pacing_rate_limit_index), Mlx5Sq, sq.rate_index, 0,
                   MLX5_CTX_INOUT),
};
static const Mlx5CtxField rqc_fields[] = {
    WQ_FIELDS_(Mlx5Rq, rq), WQ_CTX_(Mlx5Rq, state, state, 0, INOUT),
    MLX5_CTX_FIELD(PRM_OFF(rqc, counter_set_id), PRM_W(rqc, counter_set_id), Mlx5Rq,
                   counter_set_id, 0, MLX5_CTX_IN),
    MLX5_CTX_FIELD(PRM_OFF(rqc, vsd), PRM_W(rqc, vsd), Mlx5Rq, vsd, 0, MLX5_CTX_IN),
};

/* The ring of the wq context `wqc` (inside the command) within the caps,
 * its page list inside the command, the PD. */
static unsigned wq_parse(Mlx5Fw *fw, Mlx5Cmd *c, const uint8_t *wqc, Mlx5Ring *ring,
                         unsigned min_stride, unsigned max_stride)
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
    if (!mlx5_ring_init(ring, pas, c->inlen - (uint64_t)(pas - c->in), log_sz, stride,
                        pg + 12, mlx5_page_offset_bytes(PRM_GET(wq, page_offset, wqc), pg + 12))) {
        return CMD_FAIL(c, BAD_PARAM, PAS_TOO_SHORT);
    }
    return MLX5_CMD_STAT_OK;
}

/* The references an SQ's context adds: at most one TIS, which exists;
 * a packet pacing rate, if it names one (qos.c). */
static unsigned sq_check_refs(Mlx5Fw *fw, Mlx5Cmd *c, const uint8_t *sqc)
{
    if (PRM_GET(sqc, tis_lst_sz, sqc) > 1 ||
        (PRM_GET(sqc, tis_lst_sz, sqc) == 1 &&
         !mlx5_table_get(&fw->tis, PRM_GET(sqc, tis_num_0, sqc)))) {
        return CMD_FAIL(c, BAD_PARAM, BAD_TIS);
    }
    return mlx5_sq_check_rate(fw, c, 0, PRM_GET(sqc, packet_pacing_rate_limit_index, sqc));
}

/* An RQ's: the Q counter its out-of-buffer drops count in, if any. */
static unsigned rq_check_counter(Mlx5Fw *fw, Mlx5Cmd *c, const uint8_t *rqc)
{
    uint32_t ctr = PRM_GET(rqc, counter_set_id, rqc);

    if (ctr && !mlx5_table_get(&fw->q_counter, ctr)) {
        return CMD_FAIL(c, BAD_PARAM, BAD_ID);
    }
    return MLX5_CMD_STAT_OK;
}

/* What CREATE_SQ and CREATE_RQ differ in. */
typedef struct WqKind {
    const char *name;                   /* in traces */
    uint8_t min_stride, max_stride;     /* log bytes per WQE */
    unsigned (*check)(Mlx5Fw *fw, Mlx5Cmd *c, const uint8_t *ctx);
    const Mlx5CtxField *f;
    size_t n;
} WqKind;
/* SQ: 64-byte WQEBBs; RQ: 16 bytes per scatter entry, up to max_wqe_sz_rq. */
static const WqKind sq_kind = { "SQ", 6, 6, sq_check_refs, MLX5_CTX_FIELDS(sqc_fields) };
static const WqKind rq_kind = { "RQ", 4, 9, rq_check_counter, MLX5_CTX_FIELDS(rqc_fields) };

/* The new queue's CQ and what its kind names exist, and it starts in RST. */
static unsigned wq_check_refs(Mlx5Fw *fw, Mlx5Cmd *c, const uint8_t *ctx, const WqKind *k)
{
    unsigned st;

    if (!mlx5_table_get(&fw->cq, PRM_GET(sqc, cqn, ctx))) {
        return CMD_FAIL(c, BAD_PARAM, BAD_CQ);
    }
    st = k->check(fw, c, ctx);
    if (st != MLX5_CMD_STAT_OK) {
        return st;
    }
    if (PRM_GET(sqc, state, ctx) != MLX5_RQC_STATE_RST) {
        return CMD_FAIL(c, BAD_PARAM, BAD_STATE_TRANS);
    }
    return MLX5_CMD_STAT_OK;
}

/* CREATE_SQ / CREATE_RQ: the new queue `q` of kind `k`, its ring `ring`,
 * from the command's context; either way `q` is the table's or freed. */
static unsigned wq_create(Mlx5Fw *fw, Mlx5Cmd *c, const WqKind *k, void *q, Mlx5Ring *ring)
{
    const uint8_t *ctx = PRM_PTR(create_sq_in, ctx, c->in);
    Mlx5QueueHead *h = q;
    unsigned st = wq_check_refs(fw, c, ctx, k);

    if (st == MLX5_CMD_STAT_OK) {
        mlx5_ctx_load(q, ctx, k->f, k->n);
        st = wq_parse(fw, c, PRM_PTR(sqc, wq, ctx), ring, k->min_stride, k->max_stride);
    }
    st = mlx5_cmd_add_built(c, st, &fw->wq, q, &h->num);
    if (st == MLX5_CMD_STAT_OK) {
        PRM_SET(create_sq_out, sqn, c->out, h->num);
        mlx5emu_trace_wq_create(k->name, h->num, PRM_GET(sqc, cqn, ctx), ring->log_size,
                                ring->log_stride);
    }
    return st;
}

unsigned cmd_create_sq(Mlx5Fw *fw, Mlx5Cmd *c)
{
    Mlx5Sq *q = g_new0(Mlx5Sq, 1);
    unsigned st;

    q->kind = MLX5_QUEUE_SQ;
    st = wq_create(fw, c, &sq_kind, q, &q->sq.ring);
    if (st == MLX5_CMD_STAT_OK) {
        q->sq.num = q->num;
    }
    return st;
}

unsigned cmd_create_rq(Mlx5Fw *fw, Mlx5Cmd *c)
{
    Mlx5Rq *q = g_new0(Mlx5Rq, 1);

    q->kind = MLX5_QUEUE_RQ;
    return wq_create(fw, c, &rq_kind, q, &q->rq.ring);
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

/* modify_sq_in.modify_bitmask: what besides the state the command sets
 * (Linux MLX5_MODIFY_SQ_BITMASK_PACKET_PACING_RATE_LIMIT_INDEX). */
enum { MLX5_MODIFY_SQ_RATE_LIMIT_INDEX = 1u << 0 };

/* MODIFY_SQ / MODIFY_RQ: `*state` is expected to be the command's
 * sq_state (rq_state); RST starts the device's counter over. */
static unsigned wq_modify_state(Mlx5Cmd *c, const char *kind, uint8_t *state,
                                uint32_t *hw_counter)
{
    unsigned cur = PRM_GET(modify_sq_in, sq_state, c->in);
    unsigned next = PRM_GET(sqc, state, PRM_PTR(modify_sq_in, ctx, c->in));

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

unsigned cmd_modify_sq(Mlx5Fw *fw, Mlx5Cmd *c)
{
    uint32_t sqn = PRM_GET(modify_sq_in, sqn, c->in);
    int rate = -1;                      /* the new rate index, if the command sets one */
    unsigned st;
    Mlx5Sq *q = mlx5_cmd_find(c, mlx5_sq_get(fw, sqn), sqn, MLX5_SYND_BAD_ID, &st);

    if (!q) {
        return st;
    }
    /* modify_bitmask bit 0: the packet pacing rate (mlx5e
     * mlx5e_set_sq_maxrate, mlx5_ib modify_raw_packet_qp_sq), checked
     * before anything changes */
    if (PRM_GET(modify_sq_in, modify_bitmask, c->in) & MLX5_MODIFY_SQ_RATE_LIMIT_INDEX) {
        rate = PRM_GET(sqc, packet_pacing_rate_limit_index, PRM_PTR(modify_sq_in, ctx, c->in));
        st = mlx5_sq_check_rate(fw, c, sqn, rate);
        if (st != MLX5_CMD_STAT_OK) {
            return st;
        }
    }
    st = wq_modify_state(c, "SQ", &q->sq.state, &q->sq.hw_counter);
    if (st != MLX5_CMD_STAT_OK) {
        return st;
    }
    if (q->sq.state == MLX5_RQC_STATE_RST) {
        q->sq.lso_sent = 0;             /* nothing is half sent */
    }
    if (rate >= 0 && q->sq.rate_index != rate) {
        mlx5emu_trace_sq_rate(sqn, q->sq.rate_index, (unsigned)rate);
        q->sq.rate_index = (uint16_t)rate;
    }
    return st;
}

unsigned cmd_modify_rq(Mlx5Fw *fw, Mlx5Cmd *c)
{
    uint32_t rqn = PRM_GET(modify_rq_in, rqn, c->in);
    unsigned st;
    Mlx5Rq *q = mlx5_cmd_find(c, mlx5_rq_get(fw, rqn), rqn, MLX5_SYND_BAD_RQ, &st);

    /* modify_bitmask bit 1: VSD (Linux mlx5e_modify_rq_vsd) */
    if (q && (PRM_GET(modify_rq_in, modify_bitmask, c->in) & 0x2)) {
        q->vsd = PRM_GET(rqc, vsd, PRM_PTR(modify_rq_in, ctx, c->in));
    }
    return q ? wq_modify_state(c, "RQ", &q->state, &q->rq.hw_counter) : st;
}

/* DESTROY_SQ / DESTROY_RQ and QUERY_SQ / QUERY_RQ: the number must be a
 * queue of that kind (`get`); the syndrome says which was missing. */
#define WQ_KIND_CMDS_(name, get, synd, fields) \
    unsigned cmd_destroy_##name(Mlx5Fw *fw, Mlx5Cmd *c) \
    { \
        uint32_t num = PRM_GET(destroy_sq_in, sqn, c->in); \
        return mlx5_cmd_remove_found(c, &fw->wq, get(fw, num), num, synd); \
    } \
    unsigned cmd_query_##name(Mlx5Fw *fw, Mlx5Cmd *c) \
    { \
        uint32_t num = PRM_GET(query_sq_in, sqn, c->in); \
        return mlx5_cmd_query(c, get(fw, num), num, synd, \
                              PRM_PTR(query_sq_out, sq_context, c->out), MLX5_CTX_FIELDS(fields)); \
    }
WQ_KIND_CMDS_(sq, mlx5_sq_get, MLX5_SYND_BAD_ID, sqc_fields)
WQ_KIND_CMDS_(rq, mlx5_rq_get, MLX5_SYND_BAD_RQ, rqc_fields)
