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

/* An SRQ holds itself and its page list; RMPs count against log_max_rmp,
 * the others against log_max_srq (hca.c). */
static uint64_t srq_bytes(const void *s)
{
    return sizeof(Mlx5Srq) + mlx5_ring_bytes(&((const Mlx5Srq *)s)->ring);
}

static unsigned srq_limit_kind(const void *s)
{
    return ((const Mlx5Srq *)s)->kind == MLX5_SRQ_RMP ? MLX5_SRQ_LIMIT_RMP : MLX5_SRQ_LIMIT_SRQ;
}
const Mlx5TableCost mlx5_srq_cost = { 0, srq_bytes, srq_limit_kind };
_Static_assert(MLX5_SRQ_LIMIT_RMP < MLX5_TABLE_KINDS, "a limit for each SRQ kind");

static Mlx5Srq *srq_get(Mlx5Fw *fw, uint32_t num, Mlx5SrqKind kind)
{
    Mlx5Srq *s = mlx5_table_get(&fw->srq, num);
    return s && s->kind == kind ? s : NULL;
}

/* srqc and xrc_srqc place their common fields alike, and the SRQ and XRC
 * SRQ commands their context and page list (mlx5_ifc.h): the srqc rows
 * serve both kinds.  Every kind's commands put the number where the SRQ
 * commands do. */
#define SRQC_AS_XRC_(f, xf) MLX5_SAME_FIELD(srqc, f, xrc_srqc, xf)
SRQC_AS_XRC_(log_srq_size, log_xrc_srq_size) SRQC_AS_XRC_(log_rq_stride, log_rq_stride)
SRQC_AS_XRC_(log_page_size, log_page_size) SRQC_AS_XRC_(page_offset, page_offset)
SRQC_AS_XRC_(pd, pd) SRQC_AS_XRC_(cqn, cqn) SRQC_AS_XRC_(xrcd, xrcd) SRQC_AS_XRC_(lwm, lwm)
SRQC_AS_XRC_(wqe_cnt, wqe_cnt)
_Static_assert(PRM_OFF(srqc, dbr_addr) == PRM_OFF(xrc_srqc, db_record_addr_h) &&
               PRM_OFF(srqc, dbr_addr) + 62 == PRM_OFF(xrc_srqc, db_record_addr_l) +
               PRM_W(xrc_srqc, db_record_addr_l), "xrc_srqc.db_record_addr is bits 63:2");
MLX5_SAME_FIELD(create_srq_in, srq_context_entry, create_xrc_srq_in, xrc_srq_context_entry)
MLX5_SAME_FIELD(create_srq_in, pas, create_xrc_srq_in, pas)
#define SRQ_NUM_AS_(L, f, xl, xf, rl, rf) \
    MLX5_SAME_FIELD(L, f, xl, xf) MLX5_SAME_FIELD(L, f, rl, rf)
SRQ_NUM_AS_(create_srq_out, srqn, create_xrc_srq_out, xrc_srqn, create_rmp_out, rmpn)
SRQ_NUM_AS_(destroy_srq_in, srqn, destroy_xrc_srq_in, xrc_srqn, destroy_rmp_in, rmpn)
SRQ_NUM_AS_(query_srq_in, srqn, query_xrc_srq_in, xrc_srqn, query_rmp_in, rmpn)

/* What an SRQ keeps of its context, and QUERY reports: the ring
 * geometry (page_offset in the context's units until the ring is built),
 * the references, the watermark, the doorbell record. */
#define SRQC_(f, m, bias, dir) \
    MLX5_CTX_FIELD(PRM_OFF(srqc, f), PRM_W(srqc, f), Mlx5Srq, m, bias, MLX5_CTX_##dir)
#define RMPC_WQ_(f, m, bias, dir) \
    MLX5_CTX_FIELD(PRM_OFF(rmpc, wq) + PRM_OFF(wq, f), PRM_W(wq, f), Mlx5Srq, m, bias, \
                   MLX5_CTX_##dir)
static const Mlx5CtxField srqc_fields[] = {
    /* XRC SRQs only (srq_kinds skips it for basic SRQs): srqc has none. */
    MLX5_CTX_FIELD(PRM_OFF(xrc_srqc, user_index), PRM_W(xrc_srqc, user_index), Mlx5Srq,
                   user_index, 0, MLX5_CTX_INOUT),
    SRQC_(log_srq_size, ring.log_size, 0, INOUT), SRQC_(log_rq_stride, ring.log_stride, 4, INOUT),
    SRQC_(log_page_size, ring.log_page_size, 12, INOUT),
    SRQC_(page_offset, ring.page_offset, 0, IN),
    SRQC_(pd, pd, 0, INOUT), SRQC_(cqn, cqn, 0, INOUT), SRQC_(xrcd, xrcd, 0, INOUT),
    SRQC_(lwm, lwm, 0, INOUT), SRQC_(wqe_cnt, hw_counter, 0, OUT),
    SRQC_(dbr_addr, dbr_addr, 0, INOUT),
};
static const Mlx5CtxField rmpc_fields[] = {
    MLX5_CTX_FIELD(PRM_OFF(rmpc, state), PRM_W(rmpc, state), Mlx5Srq, state, 0, MLX5_CTX_INOUT),
    RMPC_WQ_(log_wq_sz, ring.log_size, 0, INOUT),
    RMPC_WQ_(log_wq_stride, ring.log_stride, 0, INOUT),
    RMPC_WQ_(log_wq_pg_sz, ring.log_page_size, 12, INOUT),
    RMPC_WQ_(page_offset, ring.page_offset, 0, IN), RMPC_WQ_(pd, pd, 0, INOUT),
    RMPC_WQ_(lwm, lwm, 0, INOUT), RMPC_WQ_(hw_counter, hw_counter, 0, OUT),
    RMPC_WQ_(dbr_addr, dbr_addr, 0, INOUT),
};

/* What tells the kinds apart: their name in traces, their context's
 * fields and what of the doorbell address that context holds. */
static const struct SrqKindInfo {
    const char *name;
    const Mlx5CtxField *f;
    size_t n;
    uint64_t dbr_mask;          /* xrc_srqc has no bits 1:0 (db_record_addr_l) */
} srq_kinds[] = {
    [MLX5_SRQ_BASIC] = { "SRQ", srqc_fields + 1, G_N_ELEMENTS(srqc_fields) - 1, ~0ull },
    [MLX5_SRQ_XRC] = { "XRC_SRQ", MLX5_CTX_FIELDS(srqc_fields), ~3ull },
    [MLX5_SRQ_RMP] = { "RMP", MLX5_CTX_FIELDS(rmpc_fields), ~0ull },
};

/* The ring the context asked for (s->ring as loaded) within the caps, a
 * page list at `pas` that covers it, an allocated PD. */
static unsigned srq_build(Mlx5Fw *fw, Mlx5Cmd *c, Mlx5Srq *s, const uint8_t *pas)
{
    Mlx5Ring want = s->ring;
    uint32_t max_wqe = MLX5_CAP_GET(fw, MLX5_CAP_GENERAL, cmd_hca_cap, max_wqe_sz_rq);

    if (want.log_size > MLX5_CAP_GET(fw, MLX5_CAP_GENERAL, cmd_hca_cap, log_max_srq_sz)) {
        return CMD_FAIL(c, BAD_PARAM, BAD_SIZE);
    }
    if (want.log_stride < 4 || (1u << want.log_stride) > max_wqe) {
        return CMD_FAIL(c, BAD_PARAM, BAD_STRIDE);
    }
    if (want.log_page_size < 12 || want.log_page_size > 30) {
        return CMD_FAIL(c, BAD_PARAM, BAD_PAGE_SIZE);
    }
    if (!mlx5_table_get(&fw->pd, s->pd)) {
        return CMD_FAIL(c, BAD_PARAM, BAD_PD);
    }
    if (!mlx5_ring_init(&s->ring, pas, c->inlen - (uint64_t)(pas - c->in), want.log_size,
                        want.log_stride, want.log_page_size,
                        mlx5_page_offset_bytes(want.page_offset, want.log_page_size))) {
        return CMD_FAIL(c, BAD_PARAM, PAS_TOO_SHORT);
    }
    return MLX5_CMD_STAT_OK;
}

/* CREATE_SRQ, CREATE_XRC_SRQ, CREATE_RMP, once the kind's own checks
 * passed: a new SRQ from context `ctx`, its ring in the page list at `pas`. */
static unsigned srq_create(Mlx5Fw *fw, Mlx5Cmd *c, Mlx5SrqKind kind, const uint8_t *ctx,
                           const uint8_t *pas)
{
    const struct SrqKindInfo *k = &srq_kinds[kind];
    Mlx5Srq *s = g_new0(Mlx5Srq, 1);
    unsigned st;

    s->kind = kind;
    s->state = MLX5_RQC_STATE_RDY;              /* an RMP's comes in rmpc */
    mlx5_ctx_load(s, ctx, k->f, k->n);
    s->dbr_addr &= k->dbr_mask;
    st = mlx5_cmd_add_built(c, srq_build(fw, c, s, pas), &fw->srq, s, &s->num);
    if (st == MLX5_CMD_STAT_OK) {
        PRM_SET(create_srq_out, srqn, c->out, s->num);
        mlx5emu_trace_srq_create(k->name, s->num, s->cqn, s->ring.log_size, s->ring.log_stride);
    }
    return st;
}

/* An optional CQ (basic SRQs name one only for XRC) must exist. */
static bool cq_ok(Mlx5Fw *fw, uint32_t cqn)
{
    return cqn == 0 || mlx5_table_get(&fw->cq, cqn);
}

unsigned cmd_create_srq(Mlx5Fw *fw, Mlx5Cmd *c)
{
    const uint8_t *srqc = PRM_PTR(create_srq_in, srq_context_entry, c->in);

    if (!cq_ok(fw, PRM_GET(srqc, cqn, srqc))) {
        return CMD_FAIL(c, BAD_PARAM, BAD_CQ);
    }
    return srq_create(fw, c, MLX5_SRQ_BASIC, srqc, PRM_PTR(create_srq_in, pas, c->in));
}

unsigned cmd_create_xrc_srq(Mlx5Fw *fw, Mlx5Cmd *c)
{
    const uint8_t *x = PRM_PTR(create_xrc_srq_in, xrc_srq_context_entry, c->in);

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
    return srq_create(fw, c, MLX5_SRQ_XRC, x, PRM_PTR(create_xrc_srq_in, pas, c->in));
}

unsigned cmd_create_rmp(Mlx5Fw *fw, Mlx5Cmd *c)
{
    const uint8_t *rmpc = PRM_PTR(create_rmp_in, ctx, c->in);

    if (PRM_GET(rmpc, state, rmpc) > MLX5_RQC_STATE_RDY) {
        return CMD_FAIL(c, BAD_PARAM, BAD_STATE_TRANS);
    }
    return srq_create(fw, c, MLX5_SRQ_RMP, rmpc, PRM_PTR(wq, pas, PRM_PTR(rmpc, wq, rmpc)));
}

/* DESTROY_SRQ, DESTROY_XRC_SRQ, DESTROY_RMP: number `num` of that kind. */
static unsigned srq_destroy_cmd(Mlx5Fw *fw, Mlx5Cmd *c, uint32_t num, Mlx5SrqKind kind)
{
    return mlx5_cmd_remove_found(c, &fw->srq, srq_get(fw, num, kind), num, MLX5_SYND_BAD_SRQ);
}

/* QUERY_SRQ, QUERY_XRC_SRQ, QUERY_RMP: the kind's context at `ctx`. */
static unsigned srq_query(Mlx5Fw *fw, Mlx5Cmd *c, Mlx5SrqKind kind, uint8_t *ctx)
{
    uint32_t num = PRM_GET(query_srq_in, srqn, c->in);
    const struct SrqKindInfo *k = &srq_kinds[kind];

    return mlx5_cmd_query(c, srq_get(fw, num, kind), num, MLX5_SYND_BAD_SRQ, ctx, k->f, k->n);
}

/* The destroy and query commands of each kind: they differ in the kind
 * and where the query's output puts the context. */
#define SRQ_KIND_CMDS_(name, kind, query_out, ctx) \
    unsigned cmd_destroy_##name(Mlx5Fw *fw, Mlx5Cmd *c) \
    { \
        return srq_destroy_cmd(fw, c, PRM_GET(destroy_srq_in, srqn, c->in), kind); \
    } \
    unsigned cmd_query_##name(Mlx5Fw *fw, Mlx5Cmd *c) \
    { \
        return srq_query(fw, c, kind, PRM_PTR(query_out, ctx, c->out)); \
    }
SRQ_KIND_CMDS_(srq, MLX5_SRQ_BASIC, query_srq_out, srq_context_entry)
SRQ_KIND_CMDS_(xrc_srq, MLX5_SRQ_XRC, query_xrc_srq_out, xrc_srq_context_entry)
SRQ_KIND_CMDS_(rmp, MLX5_SRQ_RMP, query_rmp_out, rmp_context)

/* ARM_RQ and ARM_XRC_SRQ (op_mod 1, SRQ): set the limit watermark of `s`
 * (number `num`); the SRQ limit event fires when fewer WQEs than lwm remain
 * (hw-rdma/rq.c; mlx5_ib srq_cmd.c arm_srq_cmd, arm_xrc_srq_cmd). */
static unsigned srq_arm(Mlx5Cmd *c, Mlx5Srq *s, uint32_t num, uint16_t lwm)
{
    unsigned st;

    if (c->op_mod != 1) {
        return CMD_FAIL(c, BAD_PARAM, BAD_OP_MOD);
    }
    if (mlx5_cmd_find(c, s, num, MLX5_SYND_BAD_SRQ, &st)) {
        s->lwm = lwm;
    }
    return st;
}

/* ARM_RQ: the ISSI 0 way to ibv_modify_srq, any kind. */
unsigned cmd_arm_rq(Mlx5Fw *fw, Mlx5Cmd *c)
{
    uint32_t num = PRM_GET(arm_rq_in, srq_number, c->in);

    return srq_arm(c, mlx5_table_get(&fw->srq, num), num, PRM_GET(arm_rq_in, lwm, c->in));
}

/* ARM_XRC_SRQ: the ISSI 1 way to ibv_modify_srq an XRC SRQ. */
unsigned cmd_arm_xrc_srq(Mlx5Fw *fw, Mlx5Cmd *c)
{
    uint32_t num = PRM_GET(arm_xrc_srq_in, xrc_srqn, c->in);

    return srq_arm(c, srq_get(fw, num, MLX5_SRQ_XRC), num, PRM_GET(arm_xrc_srq_in, lwm, c->in));
}

/* MODIFY_RMP: the state (RST <-> RDY) and, with bitmask bit 0, lwm
 * (mlx5_ib srq_cmd.c arm_rmp_cmd). */
unsigned cmd_modify_rmp(Mlx5Fw *fw, Mlx5Cmd *c)
{
    uint32_t num = PRM_GET(modify_rmp_in, rmpn, c->in);
    const uint8_t *rmpc = PRM_PTR(modify_rmp_in, ctx, c->in);
    unsigned st, to = PRM_GET(rmpc, state, rmpc);
    Mlx5Srq *s = mlx5_cmd_find(c, srq_get(fw, num, MLX5_SRQ_RMP), num, MLX5_SYND_BAD_SRQ, &st);

    if (!s) {
        return st;
    }
    if (PRM_GET(modify_rmp_in, rmp_state, c->in) != s->state || to > MLX5_RQC_STATE_RDY) {
        return CMD_FAIL(c, BAD_RES_STATE, BAD_STATE_TRANS);
    }
    s->state = to;
    if (PRM_GET(modify_rmp_in, bitmask, c->in) & 1) {
        s->lwm = PRM_GET(wq, lwm, PRM_PTR(rmpc, wq, rmpc));
    }
    return MLX5_CMD_STAT_OK;
}
