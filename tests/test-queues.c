/*
 * Ethernet transport objects: SQ and RQ (contexts, the RST/RDY/ERR state
 * machine, page lists), TIS, TIR and RQ tables, with good and bad input.
 */
#include <string.h>

#include "harness.h"

typedef struct QueueEnv {
    Harness *h;
    HRing cq;
} QueueEnv;

static QueueEnv *env_new(void)
{
    QueueEnv *e = g_new0(QueueEnv, 1);

    e->h = h_new();
    h_bringup(e->h);
    e->cq = h_create_cq(e->h, e->h->comp_eq.num, 6);
    return e;
}

static void env_free(QueueEnv *e)
{
    h_free(e->h);
    g_free(e);
}
G_DEFINE_AUTOPTR_CLEANUP_FUNC(QueueEnv, env_free)

static uint8_t *sq_ctx(HCmd *c)
{
    return IN_PTR(c, create_sq_in, ctx);
}

static uint8_t *rq_ctx(HCmd *c)
{
    return IN_PTR(c, create_rq_in, ctx);
}

static uint8_t *wq_ctx(uint8_t *qc)
{
    return PRM_PTR(sqc, wq, qc);
}

/* --- SQ --------------------------------------------------------------- */

static void test_sq_create_query(void)
{
    g_autoptr(QueueEnv) e = env_new();
    g_autoptr(HCmd) q = hcmd_new(OP_QUERY_SQ, 0);
    HRing sq = h_create_sq(e->h, e->cq.num, 7);
    uint8_t *ctx, *wqc;

    g_assert_cmpuint(sq.num, >=, 0x100);
    IN_SET(q, query_sq_in, sqn, sq.num);
    h_ok(e->h, q);
    ctx = OUT_PTR(q, query_sq_out, sq_context);
    wqc = wq_ctx(ctx);
    g_assert_cmpuint(PRM_GET(sqc, state, ctx), ==, ST_RST);
    g_assert_cmpuint(PRM_GET(sqc, cqn, ctx), ==, e->cq.num);
    g_assert_cmphex(PRM_GET(sqc, user_index, ctx), ==, 0x1234);
    g_assert_cmpuint(PRM_GET(sqc, tis_lst_sz, ctx), ==, 0);
    g_assert_cmpuint(PRM_GET(wq, log_wq_sz, wqc), ==, 7);
    g_assert_cmpuint(PRM_GET(wq, log_wq_stride, wqc), ==, 6);
    g_assert_cmpuint(PRM_GET(wq, log_wq_pg_sz, wqc), ==, 0);
    g_assert_cmpuint(PRM_GET(wq, pd, wqc), ==, e->h->pd);
    g_assert_cmphex(PRM_GET(wq, dbr_addr, wqc), ==, sq.dbr);
    g_assert_cmpuint(PRM_GET(wq, hw_counter, wqc), ==, 0);
}

static void test_sq_create_with_tis(void)
{
    g_autoptr(QueueEnv) e = env_new();
    g_autoptr(HCmd) c = NULL;
    g_autoptr(HCmd) q = hcmd_new(OP_QUERY_SQ, 0);
    uint32_t tis = h_create_tis(e->h);
    HRing sq;
    uint8_t *ctx;

    c = h_create_sq_cmd(e->h, &sq, e->cq.num, 4);
    PRM_SET(sqc, tis_lst_sz, sq_ctx(c), 1);
    PRM_SET(sqc, tis_num_0, sq_ctx(c), tis);
    h_ok(e->h, c);
    IN_SET(q, query_sq_in, sqn, OUT_GET(c, create_sq_out, sqn));
    h_ok(e->h, q);
    ctx = OUT_PTR(q, query_sq_out, sq_context);
    g_assert_cmpuint(PRM_GET(sqc, tis_lst_sz, ctx), ==, 1);
    g_assert_cmpuint(PRM_GET(sqc, tis_num_0, ctx), ==, tis);
}

typedef unsigned (*ModifyFn)(Harness *h, uint32_t num, unsigned from, unsigned to);

/* RST -> RDY -> RDY -> ERR -> RST, and every refused transition. */
static void state_machine(Harness *h, uint32_t num, ModifyFn modify)
{
    static const struct { unsigned from, to; bool ok; } steps[] = {
        { ST_RST, ST_ERR, false }, { ST_RDY, ST_RDY, false },    /* not in RDY yet */
        { ST_RST, 2, false },
        { ST_RST, ST_RDY, true }, { ST_RDY, ST_RDY, true },
        { ST_RST, ST_RDY, false },                                /* wrong current */
        { ST_RDY, ST_ERR, true }, { ST_ERR, ST_RDY, false },
        { ST_ERR, ST_ERR, true }, { ST_ERR, ST_RST, true },
        { ST_RST, ST_RST, true },
    };

    for (size_t i = 0; i < G_N_ELEMENTS(steps); i++) {
        unsigned objs = mlx5_fw_object_count(h->fw);
        unsigned st = modify(h, num, steps[i].from, steps[i].to);
        g_test_message("%u -> %u", steps[i].from, steps[i].to);
        g_assert_cmphex(st, ==, steps[i].ok ? MLX5_CMD_STAT_OK
                                            : MLX5_CMD_STAT_BAD_RES_STATE);
        if (!steps[i].ok) {
            g_assert_cmphex(h->fw->hca_state, ==, MLX5_HCA_INITIALIZED);
            g_assert_cmpuint(mlx5_fw_object_count(h->fw), ==, objs);
        }
    }
}

static void test_sq_state_machine(void)
{
    g_autoptr(QueueEnv) e = env_new();
    HRing sq = h_create_sq(e->h, e->cq.num, 4);

    state_machine(e->h, sq.num, h_modify_sq);
    g_assert_cmpuint(h_query_sq_state(e->h, sq.num), ==, ST_RST);
}

static void test_sq_refused_transition_syndrome(void)
{
    g_autoptr(QueueEnv) e = env_new();
    g_autoptr(HCmd) c = hcmd_new(OP_MODIFY_SQ, 0);
    HRing sq = h_create_sq(e->h, e->cq.num, 4);

    IN_SET(c, modify_sq_in, sq_state, ST_RDY);
    IN_SET(c, modify_sq_in, sqn, sq.num);
    PRM_SET(sqc, state, IN_PTR(c, modify_sq_in, ctx), ST_ERR);
    h_fail(e->h, c, MLX5_CMD_STAT_BAD_RES_STATE, MLX5_SYND_BAD_STATE_TRANS);
    g_assert_cmpuint(h_query_sq_state(e->h, sq.num), ==, ST_RST);
}

/* Each case damages a good CREATE_SQ or CREATE_RQ one way (sqc and rqc
 * put state, cqn and the wq context at the same offsets). */
typedef void (*Damage)(QueueEnv *e, HCmd *c);

static void sq_created_ready(QueueEnv *e, HCmd *c) { PRM_SET(sqc, state, sq_ctx(c), ST_RDY); }
static void sq_bad_cq(QueueEnv *e, HCmd *c) { PRM_SET(sqc, cqn, sq_ctx(c), e->cq.num + 7); }
static void sq_missing_tis(QueueEnv *e, HCmd *c)
{
    PRM_SET(sqc, tis_lst_sz, sq_ctx(c), 1);
    PRM_SET(sqc, tis_num_0, sq_ctx(c), 999);
}
static void sq_two_tis(QueueEnv *e, HCmd *c)
{
    PRM_SET(sqc, tis_lst_sz, sq_ctx(c), 2);
    PRM_SET(sqc, tis_num_0, sq_ctx(c), h_create_tis(e->h));
}
static void q_stride_7(QueueEnv *e, HCmd *c) { PRM_SET(wq, log_wq_stride, wq_ctx(sq_ctx(c)), 7); }
static void q_stride_3(QueueEnv *e, HCmd *c) { PRM_SET(wq, log_wq_stride, wq_ctx(sq_ctx(c)), 3); }
static void q_stride_10(QueueEnv *e, HCmd *c) { PRM_SET(wq, log_wq_stride, wq_ctx(sq_ctx(c)), 10); }
static void q_size_17(QueueEnv *e, HCmd *c) { PRM_SET(wq, log_wq_sz, wq_ctx(sq_ctx(c)), 17); }
static void q_page_19(QueueEnv *e, HCmd *c) { PRM_SET(wq, log_wq_pg_sz, wq_ctx(sq_ctx(c)), 19); }
static void q_bad_pd(QueueEnv *e, HCmd *c) { PRM_SET(wq, pd, wq_ctx(sq_ctx(c)), e->h->pd + 100); }
static void q_pas_short(QueueEnv *e, HCmd *c) { c->inlen -= 8; }
static void q_no_pas(QueueEnv *e, HCmd *c) { c->inlen = PRM_BYTES(create_sq_in); }
static void q_page_offset(QueueEnv *e, HCmd *c) { PRM_SET(wq, page_offset, wq_ctx(sq_ctx(c)), 1); }

typedef struct BadCase {
    const char *name;
    Damage damage;
    unsigned status;
    uint32_t syndrome;
} BadCase;

static const BadCase sq_bad[] = {
    { "created-ready", sq_created_ready, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_STATE_TRANS },
    { "bad-cq", sq_bad_cq, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_CQ },
    { "missing-tis", sq_missing_tis, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_TIS },
    { "two-tis", sq_two_tis, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_TIS },
    { "stride-not-64", q_stride_7, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_STRIDE },
    { "size-above-cap", q_size_17, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_SIZE },
    { "page-size", q_page_19, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_PAGE_SIZE },
    { "bad-pd", q_bad_pd, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_PD },
    { "pas-short", q_pas_short, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_PAS_TOO_SHORT },
    { "no-pas", q_no_pas, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_PAS_TOO_SHORT },
    { "page-offset-beyond-pas", q_page_offset, MLX5_CMD_STAT_BAD_PARAM,
      MLX5_SYND_PAS_TOO_SHORT },
};

static const BadCase rq_bad[] = {
    { "created-ready", sq_created_ready, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_STATE_TRANS },
    { "bad-cq", sq_bad_cq, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_CQ },
    { "stride-below-16", q_stride_3, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_STRIDE },
    { "stride-above-512", q_stride_10, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_STRIDE },
    { "size-above-cap", q_size_17, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_SIZE },
    { "page-size", q_page_19, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_PAGE_SIZE },
    { "bad-pd", q_bad_pd, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_PD },
    { "pas-short", q_pas_short, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_PAS_TOO_SHORT },
    { "no-pas", q_no_pas, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_PAS_TOO_SHORT },
};

static void test_sq_bad(gconstpointer p)
{
    const BadCase *b = p;
    g_autoptr(QueueEnv) e = env_new();
    HRing sq;
    g_autoptr(HCmd) c = h_create_sq_cmd(e->h, &sq, e->cq.num, 7);   /* 2 pages */

    b->damage(e, c);
    h_fail(e->h, c, b->status, b->syndrome);
}

static void test_rq_bad(gconstpointer p)
{
    const BadCase *b = p;
    g_autoptr(QueueEnv) e = env_new();
    HRing rq;
    g_autoptr(HCmd) c = h_create_rq_cmd(e->h, &rq, e->cq.num, 7);

    b->damage(e, c);
    h_fail(e->h, c, b->status, b->syndrome);
}

static void test_sq_stale_and_double_destroy(void)
{
    g_autoptr(QueueEnv) e = env_new();
    g_autoptr(HCmd) again = NULL;
    g_autoptr(HCmd) q = hcmd_new(OP_QUERY_SQ, 0);
    g_autoptr(HCmd) m = hcmd_new(OP_MODIFY_SQ, 0);
    HRing sq = h_create_sq(e->h, e->cq.num, 4);

    h_destroy(e->h, OP_DESTROY_SQ, sq.num);
    again = h_destroy_cmd(OP_DESTROY_SQ, sq.num);
    h_fail(e->h, again, MLX5_CMD_STAT_BAD_RES, MLX5_SYND_BAD_ID);
    IN_SET(q, query_sq_in, sqn, sq.num);
    h_fail(e->h, q, MLX5_CMD_STAT_BAD_RES, MLX5_SYND_BAD_ID);
    IN_SET(m, modify_sq_in, sqn, sq.num);
    h_fail(e->h, m, MLX5_CMD_STAT_BAD_RES, MLX5_SYND_BAD_ID);
}

/* SQ and RQ share a number space, but one is not the other. */
static void test_sq_and_rq_numbers_are_typed(void)
{
    g_autoptr(QueueEnv) e = env_new();
    HRing sq = h_create_sq(e->h, e->cq.num, 4);
    HRing rq = h_create_rq(e->h, e->cq.num, 4);
    g_autoptr(HCmd) d_rq = h_destroy_cmd(OP_DESTROY_RQ, sq.num);
    g_autoptr(HCmd) d_sq = h_destroy_cmd(OP_DESTROY_SQ, rq.num);
    g_autoptr(HCmd) q_rq = hcmd_new(OP_QUERY_RQ, 0);
    g_autoptr(HCmd) q_sq = hcmd_new(OP_QUERY_SQ, 0);

    g_assert_cmpuint(sq.num, !=, rq.num);
    h_fail(e->h, d_rq, MLX5_CMD_STAT_BAD_RES, MLX5_SYND_BAD_RQ);
    h_fail(e->h, d_sq, MLX5_CMD_STAT_BAD_RES, MLX5_SYND_BAD_ID);
    IN_SET(q_rq, query_rq_in, rqn, sq.num);
    h_fail(e->h, q_rq, MLX5_CMD_STAT_BAD_RES, MLX5_SYND_BAD_RQ);
    IN_SET(q_sq, query_sq_in, sqn, rq.num);
    h_fail(e->h, q_sq, MLX5_CMD_STAT_BAD_RES, MLX5_SYND_BAD_ID);
    g_assert_cmphex(h_modify_rq(e->h, sq.num, ST_RST, ST_RDY), ==, MLX5_CMD_STAT_BAD_RES);
}

/* --- RQ --------------------------------------------------------------- */

static void test_rq_create_query(void)
{
    g_autoptr(QueueEnv) e = env_new();
    g_autoptr(HCmd) q = hcmd_new(OP_QUERY_RQ, 0);
    HRing rq = h_create_rq(e->h, e->cq.num, 5);
    uint8_t *ctx;

    g_assert_cmphex(h_modify_rq(e->h, rq.num, ST_RST, ST_RDY), ==, MLX5_CMD_STAT_OK);
    IN_SET(q, query_rq_in, rqn, rq.num);
    h_ok(e->h, q);
    ctx = OUT_PTR(q, query_rq_out, rq_context);
    g_assert_cmpuint(PRM_GET(rqc, state, ctx), ==, ST_RDY);
    g_assert_cmpuint(PRM_GET(rqc, cqn, ctx), ==, e->cq.num);
    g_assert_cmpuint(PRM_GET(wq, log_wq_sz, wq_ctx(ctx)), ==, 5);
    g_assert_cmphex(PRM_GET(wq, dbr_addr, wq_ctx(ctx)), ==, rq.dbr);
}

static void test_rq_state_machine(void)
{
    g_autoptr(QueueEnv) e = env_new();
    HRing rq = h_create_rq(e->h, e->cq.num, 4);

    state_machine(e->h, rq.num, h_modify_rq);
}

static void test_rq_stride_range(void)
{
    g_autoptr(QueueEnv) e = env_new();

    for (unsigned stride = 4; stride <= 9; stride++) {
        HRing rq;
        g_autoptr(HCmd) c = h_create_rq_cmd(e->h, &rq, e->cq.num, 7);
        PRM_SET(wq, log_wq_stride, wq_ctx(rq_ctx(c)), stride);
        PRM_SET(wq, log_wq_sz, wq_ctx(rq_ctx(c)), 13 - stride);     /* same 8 KiB */
        h_ok(e->h, c);
    }
}

/* mlx5e's drop RQ: no PD. */
static void test_rq_without_pd(void)
{
    g_autoptr(QueueEnv) e = env_new();
    HRing rq;
    g_autoptr(HCmd) c = h_create_rq_cmd(e->h, &rq, e->cq.num, 0);

    PRM_SET(wq, pd, wq_ctx(rq_ctx(c)), 0);
    h_ok(e->h, c);
}

static void test_rq_counter_set(void)
{
    g_autoptr(QueueEnv) e = env_new();
    HRing rq;
    g_autoptr(HCmd) good = h_create_rq_cmd(e->h, &rq, e->cq.num, 2);
    g_autoptr(HCmd) bad = h_create_rq_cmd(e->h, &rq, e->cq.num, 2);

    PRM_SET(rqc, counter_set_id, rq_ctx(good), h_alloc_simple(e->h, OP_ALLOC_Q_COUNTER));
    h_ok(e->h, good);
    PRM_SET(rqc, counter_set_id, rq_ctx(bad), 0xee);
    h_fail(e->h, bad, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_ID);
}

static void test_rq_stale_and_double_destroy(void)
{
    g_autoptr(QueueEnv) e = env_new();
    g_autoptr(HCmd) again = NULL;
    g_autoptr(HCmd) q = hcmd_new(OP_QUERY_RQ, 0);
    HRing rq = h_create_rq(e->h, e->cq.num, 4);

    h_destroy(e->h, OP_DESTROY_RQ, rq.num);
    again = h_destroy_cmd(OP_DESTROY_RQ, rq.num);
    h_fail(e->h, again, MLX5_CMD_STAT_BAD_RES, MLX5_SYND_BAD_RQ);
    IN_SET(q, query_rq_in, rqn, rq.num);
    h_fail(e->h, q, MLX5_CMD_STAT_BAD_RES, MLX5_SYND_BAD_RQ);
    g_assert_cmphex(h_modify_rq(e->h, rq.num, ST_RST, ST_RDY), ==, MLX5_CMD_STAT_BAD_RES);
}

/* --- TIS -------------------------------------------------------------- */

static void test_tis_bad_td(void)
{
    g_autoptr(QueueEnv) e = env_new();
    g_autoptr(HCmd) never = hcmd_new(OP_CREATE_TIS, 0);
    g_autoptr(HCmd) stale = hcmd_new(OP_CREATE_TIS, 0);
    uint32_t td = h_alloc_simple(e->h, OP_ALLOC_TRANSPORT_DOMAIN);

    PRM_SET(tisc, transport_domain, IN_PTR(never, create_tis_in, ctx), 0);
    h_fail(e->h, never, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_TD);
    h_destroy(e->h, OP_DEALLOC_TRANSPORT_DOMAIN, td);
    PRM_SET(tisc, transport_domain, IN_PTR(stale, create_tis_in, ctx), td);
    h_fail(e->h, stale, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_TD);
}

static void test_tis_modify_prio(void)
{
    g_autoptr(QueueEnv) e = env_new();
    uint32_t tisn = h_create_tis(e->h);
    Mlx5Tis *t = mlx5_table_get(&e->h->fw->tis, tisn);

    for (int masked = 0; masked < 2; masked++) {
        g_autoptr(HCmd) c = hcmd_new(OP_MODIFY_TIS, 0);
        IN_SET(c, modify_tis_in, tisn, tisn);
        PRM_SET(modify_tis_bitmask, prio, IN_PTR(c, modify_tis_in, bitmask), masked);
        PRM_SET(tisc, prio, IN_PTR(c, modify_tis_in, ctx), 5);
        h_ok(e->h, c);
        g_assert_cmpuint(t->prio, ==, masked ? 5 : 0);
    }
}

static void test_tis_stale_and_double_destroy(void)
{
    g_autoptr(QueueEnv) e = env_new();
    uint32_t tisn = h_create_tis(e->h);
    g_autoptr(HCmd) again = h_destroy_cmd(OP_DESTROY_TIS, tisn);
    g_autoptr(HCmd) m = hcmd_new(OP_MODIFY_TIS, 0);

    h_destroy(e->h, OP_DESTROY_TIS, tisn);
    h_fail(e->h, again, MLX5_CMD_STAT_BAD_RES, MLX5_SYND_BAD_TIS);
    IN_SET(m, modify_tis_in, tisn, tisn);
    h_fail(e->h, m, MLX5_CMD_STAT_BAD_RES, MLX5_SYND_BAD_TIS);
}

/* --- TIR -------------------------------------------------------------- */

static HCmd *tir_cmd(QueueEnv *e, unsigned disp, uint32_t target)
{
    HCmd *c = hcmd_new(OP_CREATE_TIR, 0);
    uint8_t *ctx = IN_PTR(c, create_tir_in, ctx);

    PRM_SET(tirc, disp_type, ctx, disp);
    PRM_SET(tirc, transport_domain, ctx, e->h->td);
    if (disp == 0) {
        PRM_SET(tirc, inline_rqn, ctx, target);
    } else {
        PRM_SET(tirc, indirect_table, ctx, target);
    }
    return c;
}

static void test_tir_direct_and_indirect(void)
{
    g_autoptr(QueueEnv) e = env_new();
    HRing rq = h_create_rq(e->h, e->cq.num, 4);
    uint32_t rqt = h_create_rqt(e->h, &rq.num, 1, 8);
    g_autoptr(HCmd) direct = tir_cmd(e, 0, rq.num);
    g_autoptr(HCmd) indirect = tir_cmd(e, 1, rqt);
    uint8_t *ctx = IN_PTR(indirect, create_tir_in, ctx);
    Mlx5Tir *t;

    h_ok(e->h, direct);
    PRM_SET(tirc, rx_hash_fn, ctx, 2);
    memset(PRM_PTR(tirc, rx_hash_toeplitz_key, ctx), 0x6d, 40);
    h_ok(e->h, indirect);
    t = mlx5_table_get(&e->h->fw->tir, OUT_GET(indirect, create_tir_out, tirn));
    g_assert_cmpuint(t->indirect_table, ==, rqt);
    g_assert_cmpuint(t->rx_hash_fn, ==, 2);
    g_assert_cmphex(t->toeplitz_key[39], ==, 0x6d);
}

static void test_tir_bad_input(void)
{
    g_autoptr(QueueEnv) e = env_new();
    HRing sq = h_create_sq(e->h, e->cq.num, 4);
    g_autoptr(HCmd) disp = tir_cmd(e, 2, 0);
    g_autoptr(HCmd) td = tir_cmd(e, 0, 0);
    g_autoptr(HCmd) not_rq = tir_cmd(e, 0, sq.num);
    g_autoptr(HCmd) no_rqt = tir_cmd(e, 1, 77);
    HRing rq = h_create_rq(e->h, e->cq.num, 4);

    h_fail(e->h, disp, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_DEST);
    PRM_SET(tirc, inline_rqn, IN_PTR(td, create_tir_in, ctx), rq.num);
    PRM_SET(tirc, transport_domain, IN_PTR(td, create_tir_in, ctx), e->h->td + 1);
    h_fail(e->h, td, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_TD);
    h_fail(e->h, not_rq, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_RQ);
    h_fail(e->h, no_rqt, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_RQT);
}

static void test_tir_modify(void)
{
    g_autoptr(QueueEnv) e = env_new();
    HRing rq = h_create_rq(e->h, e->cq.num, 4);
    uint32_t tirn = h_create_tir_direct(e->h, rq.num);
    Mlx5Tir *t = mlx5_table_get(&e->h->fw->tir, tirn);
    g_autoptr(HCmd) c = hcmd_new(OP_MODIFY_TIR, 0);
    uint8_t *ctx = IN_PTR(c, modify_tir_in, ctx);
    uint8_t *mask = IN_PTR(c, modify_tir_in, bitmask);

    IN_SET(c, modify_tir_in, tirn, tirn);
    PRM_SET(tirc, rx_hash_fn, ctx, 1);
    PRM_SET(tirc, self_lb_block, ctx, 3);
    PRM_SET(modify_tir_bitmask, self_lb_en, mask, 1);
    h_ok(e->h, c);
    g_assert_cmpuint(t->self_lb_block, ==, 3);
    g_assert_cmpuint(t->rx_hash_fn, ==, 0);            /* hash not selected */
    PRM_SET(modify_tir_bitmask, hash, mask, 1);
    h_ok(e->h, c);
    g_assert_cmpuint(t->rx_hash_fn, ==, 1);
}

static void test_tir_stale_and_double_destroy(void)
{
    g_autoptr(QueueEnv) e = env_new();
    HRing rq = h_create_rq(e->h, e->cq.num, 4);
    uint32_t tirn = h_create_tir_direct(e->h, rq.num);
    g_autoptr(HCmd) again = h_destroy_cmd(OP_DESTROY_TIR, tirn);
    g_autoptr(HCmd) m = hcmd_new(OP_MODIFY_TIR, 0);

    h_destroy(e->h, OP_DESTROY_TIR, tirn);
    h_fail(e->h, again, MLX5_CMD_STAT_BAD_RES, MLX5_SYND_BAD_ID);
    IN_SET(m, modify_tir_in, tirn, tirn);
    h_fail(e->h, m, MLX5_CMD_STAT_BAD_RES, MLX5_SYND_BAD_ID);
}

/* --- RQT -------------------------------------------------------------- */

#define RQT_LIST (PRM_BYTE_OFF(create_rqt_in, rqt_context) + PRM_BYTE_OFF(rqtc, rq_num))

/* An RQT command (create or modify; the context sits at the same place)
 * with `listed` entries from rqns[0..n) in the input, actual size n. */
static HCmd *rqt_cmd(uint16_t op, const uint32_t *rqns, uint32_t actual, uint32_t listed,
                     uint32_t max)
{
    HCmd *c = hcmd_new(op, 0);
    uint8_t *ctx;

    hcmd_grow_in(c, RQT_LIST + 4 * listed);
    ctx = c->in + PRM_BYTE_OFF(create_rqt_in, rqt_context);
    PRM_SET(rqtc, rqt_max_size, ctx, max);
    PRM_SET(rqtc, rqt_actual_size, ctx, actual);
    for (uint32_t i = 0; i < listed; i++) {
        prm_put_be32(c->in + RQT_LIST + 4 * i, rqns[i % actual]);
    }
    return c;
}

static void make_rqs(QueueEnv *e, uint32_t *rqns, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        rqns[i] = h_create_rq(e->h, e->cq.num, 2).num;
    }
}

static void test_rqt_create(void)
{
    g_autoptr(QueueEnv) e = env_new();
    uint32_t rqns[3];
    Mlx5Rqt *r;

    make_rqs(e, rqns, 3);
    r = mlx5_table_get(&e->h->fw->rqt, h_create_rqt(e->h, rqns, 3, 4));
    g_assert_cmpuint(r->actual_size, ==, 3);
    g_assert_cmpuint(r->max_size, ==, 4);
    g_assert_cmpmem(r->rqn, 12, rqns, 12);
}

static void test_rqt_bad_sizes(void)
{
    static const struct { uint32_t actual, listed, max; unsigned st; uint32_t synd; } bad[] = {
        { 1, 1, 0, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_RQT_SIZE },
        { 1, 1, 4096, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_RQT_SIZE },
        { 0, 0, 4, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_RQT_SIZE },
        { 5, 5, 4, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_RQT_SIZE },
        { 4, 2, 4, MLX5_CMD_STAT_BAD_INP_LEN, MLX5_SYND_IN_TOO_SHORT },
        { 0xffff, 2, 0xffff, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_RQT_SIZE },
    };
    g_autoptr(QueueEnv) e = env_new();
    uint32_t rqns[8];

    make_rqs(e, rqns, 2);
    for (unsigned i = 2; i < G_N_ELEMENTS(rqns); i++) {
        rqns[i] = rqns[i % 2];
    }
    for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
        g_autoptr(HCmd) c = rqt_cmd(OP_CREATE_RQT, rqns, G_N_ELEMENTS(rqns),
                                    bad[i].listed, bad[i].max);
        PRM_SET(rqtc, rqt_actual_size, IN_PTR(c, create_rqt_in, rqt_context), bad[i].actual);
        h_fail(e->h, c, bad[i].st, bad[i].synd);
    }
}

/* 2048 entries (1 << log_max_rqt_size) is the largest table. */
static void test_rqt_largest(void)
{
    g_autoptr(QueueEnv) e = env_new();
    uint32_t rq = h_create_rq(e->h, e->cq.num, 2).num;
    g_autoptr(HCmd) c = rqt_cmd(OP_CREATE_RQT, &rq, 1, 2048, 2048);

    PRM_SET(rqtc, rqt_actual_size, IN_PTR(c, create_rqt_in, rqt_context), 2048);
    h_ok(e->h, c);
}

static void test_rqt_entry_not_an_rq(void)
{
    g_autoptr(QueueEnv) e = env_new();
    uint32_t list[2] = { h_create_rq(e->h, e->cq.num, 2).num,
                         h_create_sq(e->h, e->cq.num, 2).num };
    g_autoptr(HCmd) c = rqt_cmd(OP_CREATE_RQT, list, 2, 2, 2);

    h_fail(e->h, c, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_RQ);
}

static HCmd *rqt_modify_cmd(uint32_t rqtn, const uint32_t *rqns, uint32_t n, bool select)
{
    HCmd *c = rqt_cmd(OP_MODIFY_RQT, rqns, n, n, 0);

    IN_SET(c, modify_rqt_in, rqtn, rqtn);
    PRM_SET(rqt_bitmask, rqn_list, IN_PTR(c, modify_rqt_in, bitmask), select);
    return c;
}

static void test_rqt_modify_list(void)
{
    g_autoptr(QueueEnv) e = env_new();
    uint32_t rqns[4], rqtn;
    Mlx5Rqt *r;

    make_rqs(e, rqns, 4);
    rqtn = h_create_rqt(e->h, rqns, 1, 4);
    r = mlx5_table_get(&e->h->fw->rqt, rqtn);
    h_ok_free(e->h, rqt_modify_cmd(rqtn, rqns + 1, 3, false));  /* nothing selected */
    g_assert_cmpuint(r->actual_size, ==, 1);
    h_ok_free(e->h, rqt_modify_cmd(rqtn, rqns + 1, 3, true));
    g_assert_cmpuint(r->actual_size, ==, 3);
    g_assert_cmpuint(r->rqn[2], ==, rqns[3]);
}

static void test_rqt_modify_bad(void)
{
    g_autoptr(QueueEnv) e = env_new();
    uint32_t rqns[4], rqtn;
    g_autoptr(HCmd) too_many = NULL;
    g_autoptr(HCmd) stale = NULL;
    Mlx5Rqt *r;

    make_rqs(e, rqns, 4);
    rqtn = h_create_rqt(e->h, rqns, 2, 2);
    r = mlx5_table_get(&e->h->fw->rqt, rqtn);
    too_many = rqt_modify_cmd(rqtn, rqns, 3, true);            /* beyond max_size */
    h_fail(e->h, too_many, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_RQT_SIZE);
    g_assert_cmpuint(r->actual_size, ==, 2);
    g_assert_cmpuint(r->rqn[1], ==, rqns[1]);
    h_destroy(e->h, OP_DESTROY_RQT, rqtn);
    stale = rqt_modify_cmd(rqtn, rqns, 1, true);
    h_fail(e->h, stale, MLX5_CMD_STAT_BAD_RES, MLX5_SYND_BAD_RQT);
}

static void test_rqt_double_destroy(void)
{
    g_autoptr(QueueEnv) e = env_new();
    uint32_t rq = h_create_rq(e->h, e->cq.num, 2).num;
    uint32_t rqtn = h_create_rqt(e->h, &rq, 1, 1);
    g_autoptr(HCmd) again = h_destroy_cmd(OP_DESTROY_RQT, rqtn);

    h_destroy(e->h, OP_DESTROY_RQT, rqtn);
    h_fail(e->h, again, MLX5_CMD_STAT_BAD_RES, MLX5_SYND_BAD_RQT);
}

static void add_bad(const char *kind, const BadCase *cases, size_t n, GTestDataFunc fn)
{
    for (size_t i = 0; i < n; i++) {
        g_autofree char *path = g_strdup_printf("/queues/%s/bad/%s", kind, cases[i].name);
        g_test_add_data_func(path, &cases[i], fn);
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/queues/sq/create-query", test_sq_create_query);
    g_test_add_func("/queues/sq/create-with-tis", test_sq_create_with_tis);
    g_test_add_func("/queues/sq/state-machine", test_sq_state_machine);
    g_test_add_func("/queues/sq/refused-transition-syndrome", test_sq_refused_transition_syndrome);
    add_bad("sq", sq_bad, G_N_ELEMENTS(sq_bad), test_sq_bad);
    g_test_add_func("/queues/sq/stale-and-double-destroy", test_sq_stale_and_double_destroy);
    g_test_add_func("/queues/sq/sq-and-rq-numbers-are-typed", test_sq_and_rq_numbers_are_typed);
    g_test_add_func("/queues/rq/create-query", test_rq_create_query);
    g_test_add_func("/queues/rq/state-machine", test_rq_state_machine);
    g_test_add_func("/queues/rq/stride-range", test_rq_stride_range);
    g_test_add_func("/queues/rq/without-pd", test_rq_without_pd);
    g_test_add_func("/queues/rq/counter-set", test_rq_counter_set);
    add_bad("rq", rq_bad, G_N_ELEMENTS(rq_bad), test_rq_bad);
    g_test_add_func("/queues/rq/stale-and-double-destroy", test_rq_stale_and_double_destroy);
    g_test_add_func("/queues/tis/bad-td", test_tis_bad_td);
    g_test_add_func("/queues/tis/modify-prio", test_tis_modify_prio);
    g_test_add_func("/queues/tis/stale-and-double-destroy", test_tis_stale_and_double_destroy);
    g_test_add_func("/queues/tir/direct-and-indirect", test_tir_direct_and_indirect);
    g_test_add_func("/queues/tir/bad-input", test_tir_bad_input);
    g_test_add_func("/queues/tir/modify", test_tir_modify);
    g_test_add_func("/queues/tir/stale-and-double-destroy", test_tir_stale_and_double_destroy);
    g_test_add_func("/queues/rqt/create", test_rqt_create);
    g_test_add_func("/queues/rqt/bad-sizes", test_rqt_bad_sizes);
    g_test_add_func("/queues/rqt/largest", test_rqt_largest);
    g_test_add_func("/queues/rqt/entry-not-an-rq", test_rqt_entry_not_an_rq);
    g_test_add_func("/queues/rqt/modify-list", test_rqt_modify_list);
    g_test_add_func("/queues/rqt/modify-bad", test_rqt_modify_bad);
    g_test_add_func("/queues/rqt/double-destroy", test_rqt_double_destroy);
    return g_test_run();
}
