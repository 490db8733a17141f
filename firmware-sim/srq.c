/*
 * Shared receive queues (PRM "Shared Receive Queue", "XRC SRQ", "RMP").
 *
 * Three commands families create the same thing, a ring of receive WQEs
 * that several QPs draw from: CREATE_SRQ (the ISSI 0 interface),
 * CREATE_XRC_SRQ (XRC targets) and CREATE_RMP (the ISSI 1 form of a basic
 * SRQ).  They share one number space because a QP names any of them in
 * qpc.srqn_rmpn_xrqn.  mlx5_ib creates one XRC SRQ and one RMP at probe
 * (6.1) or before its first QP (6.12+, main.c mlx5_ib_dev_res_srq_init)
 * and puts the RMP's number into every kernel QP without an SRQ of its own.
 *
 * The WQE format is the one of a QP's receive queue: a next-segment header
 * and data segments, stride 16 << log_rq_stride bytes.
 */
#include <string.h>

#include "cmd.h"

void mlx5_srq_destroy(gpointer p)
{
    Mlx5Srq *srq = p;
    mlx5_ring_fini(&srq->ring);
    g_free(srq);
}

static Mlx5Srq *srq_get(Mlx5Fw *fw, uint32_t num, Mlx5SrqKind kind)
{
    Mlx5Srq *s = mlx5_table_get(&fw->srq, num);
    return s && s->kind == kind ? s : NULL;
}

static const char *srq_kind_name(Mlx5SrqKind k)
{
    return k == MLX5_SRQ_XRC ? "XRC_SRQ" : k == MLX5_SRQ_RMP ? "RMP" : "SRQ";
}

/* The geometry every kind has: ring size and stride within the caps, a
 * page list that covers the ring, an allocated PD. */
typedef struct SrqGeometry {
    uint32_t log_size, log_stride, log_page, page_offset, pd;
    const uint8_t *pas;
} SrqGeometry;

static unsigned srq_build(Mlx5Fw *fw, Mlx5Cmd *c, Mlx5Srq *s, const SrqGeometry *g)
{
    uint32_t max_wqe = MLX5_CAP_GET(fw, MLX5_CAP_GENERAL, cmd_hca_cap, max_wqe_sz_rq);

    if (g->log_size > MLX5_CAP_GET(fw, MLX5_CAP_GENERAL, cmd_hca_cap, log_max_srq_sz)) {
        return CMD_FAIL(c, BAD_PARAM, BAD_SIZE);
    }
    if (g->log_stride < 4 || (1u << g->log_stride) > max_wqe) {
        return CMD_FAIL(c, BAD_PARAM, BAD_STRIDE);
    }
    if (g->log_page < 12 || g->log_page > 30) {
        return CMD_FAIL(c, BAD_PARAM, BAD_PAGE_SIZE);
    }
    if (!mlx5_table_get(&fw->pd, g->pd)) {
        return CMD_FAIL(c, BAD_PARAM, BAD_PD);
    }
    s->pd = g->pd;
    if (!mlx5_ring_init(&s->ring, g->pas, c->inlen - (uint64_t)(g->pas - c->in), g->log_size,
                        g->log_stride, g->log_page, g->page_offset)) {
        return CMD_FAIL(c, BAD_PARAM, PAS_TOO_SHORT);
    }
    return MLX5_CMD_STAT_OK;
}

static unsigned srq_insert(Mlx5Fw *fw, Mlx5Cmd *c, Mlx5Srq *s, const SrqGeometry *g)
{
    unsigned st = srq_build(fw, c, s, g);

    if (st != MLX5_CMD_STAT_OK) {
        mlx5_srq_destroy(s);
        return st;
    }
    if (!mlx5_table_alloc(&fw->srq, s, &s->num)) {
        mlx5_srq_destroy(s);
        return CMD_FAIL(c, NO_RES, NO_RESOURCE);
    }
    c->obj = s->num;
    mlx5emu_trace_srq_create(srq_kind_name(s->kind), s->num, s->cqn, s->ring.log_size,
                             s->ring.log_stride);
    return MLX5_CMD_STAT_OK;
}

static unsigned srq_destroy_cmd(Mlx5Fw *fw, Mlx5Cmd *c, uint32_t num, Mlx5SrqKind kind)
{
    c->obj = num;
    if (!srq_get(fw, num, kind)) {
        return CMD_FAIL(c, BAD_RES, BAD_SRQ);
    }
    mlx5_table_remove(&fw->srq, num);
    return MLX5_CMD_STAT_OK;
}

/* An optional CQ (basic SRQs name one only for XRC) must exist. */
static bool cq_ok(Mlx5Fw *fw, uint32_t cqn)
{
    return cqn == 0 || mlx5_table_get(&fw->cq, cqn);
}

/* --- CREATE_SRQ / DESTROY_SRQ / QUERY_SRQ / ARM_RQ (ISSI 0) ------------- */

unsigned cmd_create_srq(Mlx5Fw *fw, Mlx5Cmd *c)
{
    const uint8_t *srqc = PRM_PTR(create_srq_in, srq_context_entry, c->in);
    SrqGeometry g = {
        .log_size = PRM_GET(srqc, log_srq_size, srqc),
        .log_stride = PRM_GET(srqc, log_rq_stride, srqc) + 4,
        .log_page = PRM_GET(srqc, log_page_size, srqc) + 12,
        .page_offset = mlx5_page_offset_bytes(PRM_GET(srqc, page_offset, srqc),
                                              PRM_GET(srqc, log_page_size, srqc) + 12),
        .pd = PRM_GET(srqc, pd, srqc),
        .pas = PRM_PTR(create_srq_in, pas, c->in),
    };
    Mlx5Srq *s;
    unsigned st;

    if (!cq_ok(fw, PRM_GET(srqc, cqn, srqc))) {
        return CMD_FAIL(c, BAD_PARAM, BAD_CQ);
    }
    s = g_new0(Mlx5Srq, 1);
    s->kind = MLX5_SRQ_BASIC;
    s->state = MLX5_RQC_STATE_RDY;
    s->cqn = PRM_GET(srqc, cqn, srqc);
    s->xrcd = PRM_GET(srqc, xrcd, srqc);
    s->lwm = PRM_GET(srqc, lwm, srqc);
    s->dbr_addr = PRM_GET(srqc, dbr_addr, srqc);
    st = srq_insert(fw, c, s, &g);
    if (st == MLX5_CMD_STAT_OK) {
        PRM_SET(create_srq_out, srqn, c->out, c->obj);
    }
    return st;
}

unsigned cmd_destroy_srq(Mlx5Fw *fw, Mlx5Cmd *c)
{
    return srq_destroy_cmd(fw, c, PRM_GET(destroy_srq_in, srqn, c->in), MLX5_SRQ_BASIC);
}

unsigned cmd_query_srq(Mlx5Fw *fw, Mlx5Cmd *c)
{
    Mlx5Srq *s = srq_get(fw, PRM_GET(query_srq_in, srqn, c->in), MLX5_SRQ_BASIC);
    uint8_t *srqc = PRM_PTR(query_srq_out, srq_context_entry, c->out);

    c->obj = PRM_GET(query_srq_in, srqn, c->in);
    if (!s) {
        return CMD_FAIL(c, BAD_RES, BAD_SRQ);
    }
    PRM_SET(srqc, log_srq_size, srqc, s->ring.log_size);
    PRM_SET(srqc, log_rq_stride, srqc, s->ring.log_stride - 4);
    PRM_SET(srqc, log_page_size, srqc, s->ring.log_page_size - 12);
    PRM_SET(srqc, pd, srqc, s->pd);
    PRM_SET(srqc, cqn, srqc, s->cqn);
    PRM_SET(srqc, xrcd, srqc, s->xrcd);
    PRM_SET(srqc, lwm, srqc, s->lwm);
    PRM_SET(srqc, wqe_cnt, srqc, s->hw_counter & 0xffff);
    PRM_SET(srqc, dbr_addr, srqc, s->dbr_addr);
    return MLX5_CMD_STAT_OK;
}

/* ARM_RQ and ARM_XRC_SRQ (op_mod 1, SRQ): set the limit watermark of `s`
 * (number `num`); the SRQ limit event fires when fewer WQEs than lwm remain
 * (hw-rdma/rq.c; mlx5_ib srq_cmd.c arm_srq_cmd, arm_xrc_srq_cmd). */
static unsigned srq_arm(Mlx5Cmd *c, Mlx5Srq *s, uint32_t num, uint16_t lwm)
{
    c->obj = num;
    if (c->op_mod != 1) {
        return CMD_FAIL(c, BAD_PARAM, BAD_OP_MOD);
    }
    if (!s) {
        return CMD_FAIL(c, BAD_RES, BAD_SRQ);
    }
    s->lwm = lwm;
    return MLX5_CMD_STAT_OK;
}

unsigned cmd_arm_rq(Mlx5Fw *fw, Mlx5Cmd *c)
{
    uint32_t num = PRM_GET(arm_rq_in, srq_number, c->in);

    return srq_arm(c, mlx5_table_get(&fw->srq, num), num, PRM_GET(arm_rq_in, lwm, c->in));
}

/* --- CREATE_XRC_SRQ / DESTROY_XRC_SRQ / QUERY_XRC_SRQ ------------------- */

unsigned cmd_create_xrc_srq(Mlx5Fw *fw, Mlx5Cmd *c)
{
    const uint8_t *x = PRM_PTR(create_xrc_srq_in, xrc_srq_context_entry, c->in);
    SrqGeometry g = {
        .log_size = PRM_GET(xrc_srqc, log_xrc_srq_size, x),
        .log_stride = PRM_GET(xrc_srqc, log_rq_stride, x) + 4,
        .log_page = PRM_GET(xrc_srqc, log_page_size, x) + 12,
        .page_offset = mlx5_page_offset_bytes(PRM_GET(xrc_srqc, page_offset, x),
                                              PRM_GET(xrc_srqc, log_page_size, x) + 12),
        .pd = PRM_GET(xrc_srqc, pd, x),
        .pas = PRM_PTR(create_xrc_srq_in, pas, c->in),
    };
    Mlx5Srq *s;
    unsigned st;

    if (PRM_GET(create_xrc_srq_in, xrc_srq_umem_valid, c->in) ||
        PRM_GET(xrc_srqc, dbr_umem_valid, x)) {
        return CMD_FAIL(c, BAD_PARAM, NO_UMEM);
    }
    if (!mlx5_table_get(&fw->xrcd, PRM_GET(xrc_srqc, xrcd, x))) {
        return CMD_FAIL(c, BAD_PARAM, BAD_XRCD);
    }
    if (!mlx5_table_get(&fw->cq, PRM_GET(xrc_srqc, cqn, x))) {
        return CMD_FAIL(c, BAD_PARAM, BAD_CQ);
    }
    s = g_new0(Mlx5Srq, 1);
    s->kind = MLX5_SRQ_XRC;
    s->state = MLX5_RQC_STATE_RDY;
    s->cqn = PRM_GET(xrc_srqc, cqn, x);
    s->xrcd = PRM_GET(xrc_srqc, xrcd, x);
    s->user_index = PRM_GET(xrc_srqc, user_index, x);
    s->lwm = PRM_GET(xrc_srqc, lwm, x);
    s->dbr_addr = (uint64_t)PRM_GET(xrc_srqc, db_record_addr_h, x) << 32 |
                  PRM_GET(xrc_srqc, db_record_addr_l, x) << 2;
    st = srq_insert(fw, c, s, &g);
    if (st == MLX5_CMD_STAT_OK) {
        PRM_SET(create_xrc_srq_out, xrc_srqn, c->out, c->obj);
    }
    return st;
}

unsigned cmd_destroy_xrc_srq(Mlx5Fw *fw, Mlx5Cmd *c)
{
    return srq_destroy_cmd(fw, c, PRM_GET(destroy_xrc_srq_in, xrc_srqn, c->in), MLX5_SRQ_XRC);
}

unsigned cmd_query_xrc_srq(Mlx5Fw *fw, Mlx5Cmd *c)
{
    Mlx5Srq *s = srq_get(fw, PRM_GET(query_xrc_srq_in, xrc_srqn, c->in), MLX5_SRQ_XRC);
    uint8_t *x = PRM_PTR(query_xrc_srq_out, xrc_srq_context_entry, c->out);

    c->obj = PRM_GET(query_xrc_srq_in, xrc_srqn, c->in);
    if (!s) {
        return CMD_FAIL(c, BAD_RES, BAD_SRQ);
    }
    PRM_SET(xrc_srqc, log_xrc_srq_size, x, s->ring.log_size);
    PRM_SET(xrc_srqc, log_rq_stride, x, s->ring.log_stride - 4);
    PRM_SET(xrc_srqc, log_page_size, x, s->ring.log_page_size - 12);
    PRM_SET(xrc_srqc, pd, x, s->pd);
    PRM_SET(xrc_srqc, cqn, x, s->cqn);
    PRM_SET(xrc_srqc, xrcd, x, s->xrcd);
    PRM_SET(xrc_srqc, user_index, x, s->user_index);
    PRM_SET(xrc_srqc, lwm, x, s->lwm);
    PRM_SET(xrc_srqc, wqe_cnt, x, s->hw_counter & 0xffff);
    PRM_SET(xrc_srqc, db_record_addr_h, x, s->dbr_addr >> 32);
    PRM_SET(xrc_srqc, db_record_addr_l, x, (s->dbr_addr & 0xffffffff) >> 2);
    return MLX5_CMD_STAT_OK;
}

/* ARM_XRC_SRQ: the ISSI 1 way to ibv_modify_srq an XRC SRQ. */
unsigned cmd_arm_xrc_srq(Mlx5Fw *fw, Mlx5Cmd *c)
{
    uint32_t num = PRM_GET(arm_xrc_srq_in, xrc_srqn, c->in);

    return srq_arm(c, srq_get(fw, num, MLX5_SRQ_XRC), num, PRM_GET(arm_xrc_srq_in, lwm, c->in));
}

/* --- CREATE_RMP / MODIFY_RMP / DESTROY_RMP / QUERY_RMP ------------------ */

unsigned cmd_create_rmp(Mlx5Fw *fw, Mlx5Cmd *c)
{
    const uint8_t *rmpc = PRM_PTR(create_rmp_in, ctx, c->in);
    const uint8_t *wqc = PRM_PTR(rmpc, wq, rmpc);
    SrqGeometry g = {
        .log_size = PRM_GET(wq, log_wq_sz, wqc),
        .log_stride = PRM_GET(wq, log_wq_stride, wqc),
        .log_page = PRM_GET(wq, log_wq_pg_sz, wqc) + 12,
        .page_offset = mlx5_page_offset_bytes(PRM_GET(wq, page_offset, wqc),
                                              PRM_GET(wq, log_wq_pg_sz, wqc) + 12),
        .pd = PRM_GET(wq, pd, wqc),
        .pas = PRM_PTR(wq, pas, wqc),
    };
    Mlx5Srq *s;
    unsigned st;

    if (PRM_GET(rmpc, state, rmpc) > MLX5_RQC_STATE_RDY) {
        return CMD_FAIL(c, BAD_PARAM, BAD_STATE_TRANS);
    }
    s = g_new0(Mlx5Srq, 1);
    s->kind = MLX5_SRQ_RMP;
    s->state = PRM_GET(rmpc, state, rmpc);
    s->lwm = PRM_GET(wq, lwm, wqc);
    s->dbr_addr = PRM_GET(wq, dbr_addr, wqc);
    st = srq_insert(fw, c, s, &g);
    if (st == MLX5_CMD_STAT_OK) {
        PRM_SET(create_rmp_out, rmpn, c->out, c->obj);
    }
    return st;
}

/* MODIFY_RMP: the state (RST <-> RDY) and, with bitmask bit 0, lwm
 * (mlx5_ib srq_cmd.c arm_rmp_cmd). */
unsigned cmd_modify_rmp(Mlx5Fw *fw, Mlx5Cmd *c)
{
    Mlx5Srq *s = srq_get(fw, PRM_GET(modify_rmp_in, rmpn, c->in), MLX5_SRQ_RMP);
    const uint8_t *rmpc = PRM_PTR(modify_rmp_in, ctx, c->in);
    const uint8_t *wqc = PRM_PTR(rmpc, wq, rmpc);
    unsigned to = PRM_GET(rmpc, state, rmpc);

    c->obj = PRM_GET(modify_rmp_in, rmpn, c->in);
    if (!s) {
        return CMD_FAIL(c, BAD_RES, BAD_SRQ);
    }
    if (PRM_GET(modify_rmp_in, rmp_state, c->in) != s->state || to > MLX5_RQC_STATE_RDY) {
        return CMD_FAIL(c, BAD_RES_STATE, BAD_STATE_TRANS);
    }
    s->state = to;
    if (PRM_GET(modify_rmp_in, bitmask, c->in) & 1) {
        s->lwm = PRM_GET(wq, lwm, wqc);
    }
    return MLX5_CMD_STAT_OK;
}

unsigned cmd_destroy_rmp(Mlx5Fw *fw, Mlx5Cmd *c)
{
    return srq_destroy_cmd(fw, c, PRM_GET(destroy_rmp_in, rmpn, c->in), MLX5_SRQ_RMP);
}

unsigned cmd_query_rmp(Mlx5Fw *fw, Mlx5Cmd *c)
{
    Mlx5Srq *s = srq_get(fw, PRM_GET(query_rmp_in, rmpn, c->in), MLX5_SRQ_RMP);
    uint8_t *rmpc = PRM_PTR(query_rmp_out, rmp_context, c->out);
    uint8_t *wqc = PRM_PTR(rmpc, wq, rmpc);

    c->obj = PRM_GET(query_rmp_in, rmpn, c->in);
    if (!s) {
        return CMD_FAIL(c, BAD_RES, BAD_SRQ);
    }
    PRM_SET(rmpc, state, rmpc, s->state);
    PRM_SET(wq, pd, wqc, s->pd);
    PRM_SET(wq, dbr_addr, wqc, s->dbr_addr);
    PRM_SET(wq, lwm, wqc, s->lwm);
    PRM_SET(wq, hw_counter, wqc, s->hw_counter);
    PRM_SET(wq, log_wq_stride, wqc, s->ring.log_stride);
    PRM_SET(wq, log_wq_pg_sz, wqc, s->ring.log_page_size - 12);
    PRM_SET(wq, log_wq_sz, wqc, s->ring.log_size);
    return MLX5_CMD_STAT_OK;
}
