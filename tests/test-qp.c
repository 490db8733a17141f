/*
 * Queue pairs and shared receive queues (firmware-sim/qp.c, srq.c): the QP
 * state machine and the attributes each transition sets, CREATE_QP's
 * checks (the send queue of a QP on the data path: test-qp-sq.c); SRQ,
 * XRC SRQ and RMP
 * contexts, their checks and MODIFY_RMP; stale numbers and teardown.
 */
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "harness.h"

enum { RST = MLX5_QP_STATE_RST, INIT = MLX5_QP_STATE_INIT, RTR = MLX5_QP_STATE_RTR,
       RTS = MLX5_QP_STATE_RTS, ERR = MLX5_QP_STATE_ERR };
enum { OPTPAR_Q_KEY = 1u << 5 };

static const unsigned states[] = { RST, INIT, RTR, RTS, ERR };

/* Field f reads the same in contexts a and b. */
#define SAME(L, f, a, b) g_assert_cmphex(PRM_GET(L, f, a), ==, PRM_GET(L, f, b))

typedef struct QpEnv {
    Harness *h;
    HRing scq, rcq;             /* the QPs' cqn_snd and cqn_rcv */
    uint32_t xrcd;
} QpEnv;

static QpEnv *env_new(void)
{
    QpEnv *e = g_new0(QpEnv, 1);

    e->h = h_new();
    h_bringup(e->h);
    e->scq = h_create_cq(e->h, e->h->comp_eq.num, 4);
    e->rcq = h_create_cq(e->h, e->h->comp_eq.num, 4);
    e->xrcd = h_alloc_simple(e->h, OP_ALLOC_XRCD);
    return e;
}

static void env_free(QpEnv *e)
{
    h_free(e->h);
    g_free(e);
}
G_DEFINE_AUTOPTR_CLEANUP_FUNC(QpEnv, env_free)

static HCmd *rc_qp_cmd(QpEnv *e, HRing *sq, uint32_t log_sq, uint32_t log_rq)
{
    return h_create_qp_cmd(e->h, sq, MLX5_QP_ST_RC, e->h->pd, e->scq.num, e->rcq.num,
                           e->h->uar, log_sq, log_rq);
}

static HRing rc_qp(QpEnv *e)
{
    return h_create_qp(e->h, MLX5_QP_ST_RC, e->h->pd, e->scq.num, e->rcq.num, e->h->uar, 4, 4);
}

/* Walk a QP from RST to `state` along the normal path (ERR: straight). */
static void qp_walk(QpEnv *e, uint32_t qpn, unsigned state)
{
    static const uint16_t path[] = { OP_RST2INIT_QP, OP_INIT2RTR_QP, OP_RTR2RTS_QP };

    if (state == ERR) {
        g_assert_cmphex(h_modify_qp(e->h, OP_2ERR_QP, qpn), ==, MLX5_CMD_STAT_OK);
    }
    for (unsigned s = RST; s < state && state != ERR; s++) {
        g_assert_cmphex(h_modify_qp(e->h, path[s], qpn), ==, MLX5_CMD_STAT_OK);
    }
    g_assert_cmpuint(h_query_qp_state(e->h, qpn), ==, state);
}

/* QUERY_QP's context, copied out. */
static void query_qpc(QpEnv *e, uint32_t qpn, uint8_t *qpc)
{
    g_autoptr(HCmd) c = h_query_qp(e->h, qpn);

    memcpy(qpc, OUT_PTR(c, query_qp_out, qpc), PRM_BYTES(qpc));
}

static uint8_t *ads(uint8_t *qpc)
{
    return PRM_PTR(qpc, primary_address_path, qpc);
}

/* --- the state machine ------------------------------------------------- */

static void test_qp_create_query(void)
{
    g_autoptr(QpEnv) e = env_new();
    HRing qp = rc_qp(e);
    uint8_t q[PRM_BYTES(qpc)];

    query_qpc(e, qp.num, q);
    g_assert_cmpuint(PRM_GET(qpc, state, q), ==, RST);
    g_assert_cmpuint(PRM_GET(qpc, st, q), ==, MLX5_QP_ST_RC);
    g_assert_cmpuint(PRM_GET(qpc, pd, q), ==, e->h->pd);
    g_assert_cmpuint(PRM_GET(qpc, cqn_snd, q), ==, e->scq.num);
    g_assert_cmpuint(PRM_GET(qpc, cqn_rcv, q), ==, e->rcq.num);
    g_assert_cmpuint(PRM_GET(qpc, uar_page, q), ==, e->h->uar);
    g_assert_cmpuint(PRM_GET(qpc, log_sq_size, q), ==, 4);
    g_assert_cmpuint(PRM_GET(qpc, log_rq_size, q), ==, 4);
    g_assert_cmphex(PRM_GET(qpc, user_index, q), ==, 0x4321);
    g_assert_cmphex(PRM_GET(qpc, dbr_addr, q), ==, qp.dbr);
    g_assert_cmpuint(PRM_GET(qpc, hw_sq_wqebb_counter, q), ==, 0);
}

static void test_qp_state_machine(void)
{
    static const struct { uint16_t op; unsigned to; } steps[] = {
        { OP_RST2INIT_QP, INIT }, { OP_INIT2INIT_QP, INIT }, { OP_INIT2RTR_QP, RTR },
        { OP_RTR2RTS_QP, RTS }, { OP_RTS2RTS_QP, RTS },
    };
    g_autoptr(QpEnv) e = env_new();
    uint32_t qpn = rc_qp(e).num;

    for (size_t i = 0; i < G_N_ELEMENTS(steps); i++) {
        g_assert_cmphex(h_modify_qp(e->h, steps[i].op, qpn), ==, MLX5_CMD_STAT_OK);
        g_assert_cmpuint(h_query_qp_state(e->h, qpn), ==, steps[i].to);
    }
}

/* 2ERR and 2RST start from any state, ERR and RST included. */
static void test_qp_to_err_or_rst_from_every_state(gconstpointer p)
{
    uint16_t op = GPOINTER_TO_UINT(p);
    g_autoptr(QpEnv) e = env_new();

    for (size_t i = 0; i < G_N_ELEMENTS(states); i++) {
        uint32_t qpn = rc_qp(e).num;
        qp_walk(e, qpn, states[i]);
        g_assert_cmphex(h_modify_qp(e->h, op, qpn), ==, MLX5_CMD_STAT_OK);
        g_assert_cmpuint(h_query_qp_state(e->h, qpn), ==, op == OP_2ERR_QP ? ERR : RST);
    }
}

/* Every modify command from every state but its own is refused. */
static void test_qp_refused_transitions(void)
{
    static const struct { uint16_t op; unsigned from; } mods[] = {
        { OP_RST2INIT_QP, RST }, { OP_INIT2INIT_QP, INIT }, { OP_INIT2RTR_QP, INIT },
        { OP_RTR2RTS_QP, RTR }, { OP_RTS2RTS_QP, RTS }, { OP_SQERR2RTS_QP, MLX5_QP_STATE_SQER },
    };
    g_autoptr(QpEnv) e = env_new();

    for (size_t i = 0; i < G_N_ELEMENTS(states); i++) {
        uint32_t qpn = rc_qp(e).num;
        qp_walk(e, qpn, states[i]);
        for (size_t m = 0; m < G_N_ELEMENTS(mods); m++) {
            g_autoptr(HCmd) c = NULL;
            if (mods[m].from == states[i]) {
                continue;
            }
            c = h_modify_qp_cmd(mods[m].op, qpn, 0);
            g_test_message("%s in state %u", mlx5_cmd_name(mods[m].op), states[i]);
            h_fail(e->h, c, MLX5_CMD_STAT_BAD_RES_STATE, MLX5_SYND_BAD_QP_STATE);
            g_assert_cmpuint(h_query_qp_state(e->h, qpn), ==, states[i]);
        }
    }
}

/* Each transition sets its own attributes and leaves the others alone. */
static void test_qp_attributes_by_transition(void)
{
    g_autoptr(QpEnv) e = env_new();
    uint32_t qpn = rc_qp(e).num;
    uint8_t q[PRM_BYTES(qpc)], *c;
    HCmd *m = h_modify_qp_cmd(OP_RST2INIT_QP, qpn, 0);

    c = h_modify_qp_qpc(m);
    PRM_SET(qpc, q_key, c, 0x11112222);
    PRM_SET(ads, pkey_index, ads(c), 3);
    PRM_SET(qpc, next_send_psn, c, 0x999);              /* not an RST2INIT attribute */
    h_ok_free(e->h, m);
    query_qpc(e, qpn, q);
    g_assert_cmphex(PRM_GET(qpc, q_key, q), ==, 0x11112222);
    g_assert_cmpuint(PRM_GET(ads, pkey_index, ads(q)), ==, 3);
    m = h_modify_qp_cmd(OP_INIT2RTR_QP, qpn, 0);
    c = h_modify_qp_qpc(m);
    PRM_SET(qpc, remote_qpn, c, 0xabcde);
    PRM_SET(qpc, mtu, c, 3);
    PRM_SET(qpc, next_rcv_psn, c, 0x123456);
    PRM_SET(qpc, q_key, c, 0xdead);                     /* not an INIT2RTR attribute */
    h_ok_free(e->h, m);
    m = h_modify_qp_cmd(OP_RTR2RTS_QP, qpn, 0);
    c = h_modify_qp_qpc(m);
    PRM_SET(qpc, next_send_psn, c, 0x654321);
    PRM_SET(qpc, retry_count, c, 7);
    h_ok_free(e->h, m);
    query_qpc(e, qpn, q);
    g_assert_cmpuint(PRM_GET(qpc, state, q), ==, RTS);
    g_assert_cmphex(PRM_GET(qpc, q_key, q), ==, 0x11112222);
    g_assert_cmphex(PRM_GET(qpc, remote_qpn, q), ==, 0xabcde);
    g_assert_cmpuint(PRM_GET(qpc, mtu, q), ==, 3);
    g_assert_cmphex(PRM_GET(qpc, next_rcv_psn, q), ==, 0x123456);
    g_assert_cmphex(PRM_GET(qpc, next_send_psn, q), ==, 0x654321);
    g_assert_cmpuint(PRM_GET(qpc, retry_count, q), ==, 7);
}

/* RTS2RTS changes what opt_param_mask names, and nothing else. */
static void test_qp_rts2rts_optional_attributes(void)
{
    g_autoptr(QpEnv) e = env_new();
    uint32_t qpn = rc_qp(e).num;
    uint8_t q[PRM_BYTES(qpc)];
    HCmd *m;

    qp_walk(e, qpn, RTS);
    m = h_modify_qp_cmd(OP_RTS2RTS_QP, qpn, OPTPAR_Q_KEY);
    PRM_SET(qpc, q_key, h_modify_qp_qpc(m), 0x77);
    PRM_SET(qpc, retry_count, h_modify_qp_qpc(m), 5);       /* bit 12 not set */
    h_ok_free(e->h, m);
    m = h_modify_qp_cmd(OP_RTS2RTS_QP, qpn, 0);
    PRM_SET(qpc, q_key, h_modify_qp_qpc(m), 0x99);
    h_ok_free(e->h, m);
    query_qpc(e, qpn, q);
    g_assert_cmphex(PRM_GET(qpc, q_key, q), ==, 0x77);
    g_assert_cmpuint(PRM_GET(qpc, retry_count, q), ==, 0);
    g_assert_cmpuint(PRM_GET(qpc, state, q), ==, RTS);
}

/* INIT2RTR carries the primary address path, but its P_Key index is one
 * of INIT2RTR's optional attributes (MLX5_QP_OPTPAR_PKEY_INDEX; mlx5_ib
 * fills it only with IB_QP_PKEY_INDEX): unnamed, it stays. */
static void test_qp_init2rtr_keeps_unnamed_pkey_index(void)
{
    g_autoptr(QpEnv) e = env_new();
    uint32_t qpn = rc_qp(e).num;
    uint8_t q[PRM_BYTES(qpc)];
    HCmd *m = h_modify_qp_cmd(OP_RST2INIT_QP, qpn, 0);

    PRM_SET(ads, pkey_index, ads(h_modify_qp_qpc(m)), 3);
    h_ok_free(e->h, m);
    m = h_modify_qp_cmd(OP_INIT2RTR_QP, qpn, 0);
    PRM_SET(ads, rlid, ads(h_modify_qp_qpc(m)), 0x22);
    h_ok_free(e->h, m);
    query_qpc(e, qpn, q);
    g_assert_cmpuint(PRM_GET(ads, rlid, ads(q)), ==, 0x22);
    if (PRM_GET(ads, pkey_index, ads(q)) != 3) {
        g_test_incomplete("firmware bug: INIT2RTR without OPTPAR_PKEY_INDEX overwrote "
                          "the P_Key index (qp.c qpc_apply copies the whole path)");
    }
}

static void test_qp_rst2init_counter_set(void)
{
    g_autoptr(QpEnv) e = env_new();
    g_autoptr(HCmd) bad = NULL;
    g_autoptr(HCmd) good = NULL;
    uint32_t qpn = rc_qp(e).num;

    bad = h_modify_qp_cmd(OP_RST2INIT_QP, qpn, 0);
    PRM_SET(qpc, counter_set_id, h_modify_qp_qpc(bad), 0xee);
    h_fail(e->h, bad, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_INDEX);
    g_assert_cmpuint(h_query_qp_state(e->h, qpn), ==, RST);
    good = h_modify_qp_cmd(OP_RST2INIT_QP, qpn, 0);
    PRM_SET(qpc, counter_set_id, h_modify_qp_qpc(good),
            h_alloc_simple(e->h, OP_ALLOC_Q_COUNTER));
    h_ok(e->h, good);
}

/* --- CREATE_QP input ---------------------------------------------------- */

/* Each case changes a good CREATE_QP (RC, log_sq 7 and log_rq 6: 3 pages)
 * one way; status OK means the variant must be accepted. */
typedef void (*QpDamage)(QpEnv *e, HCmd *c, uint8_t *qpc);

static void st_dci(QpEnv *e, HCmd *c, uint8_t *qpc) { PRM_SET(qpc, st, qpc, 0x5); }
static void st_uc(QpEnv *e, HCmd *c, uint8_t *qpc) { PRM_SET(qpc, st, qpc, MLX5_QP_ST_UC); }
static void no_pd(QpEnv *e, HCmd *c, uint8_t *qpc) { PRM_SET(qpc, pd, qpc, 0); }
static void pd_gone(QpEnv *e, HCmd *c, uint8_t *qpc) { PRM_SET(qpc, pd, qpc, e->h->pd + 100); }
static void no_scq(QpEnv *e, HCmd *c, uint8_t *qpc) { PRM_SET(qpc, cqn_snd, qpc, e->rcq.num + 50); }
static void no_rcq(QpEnv *e, HCmd *c, uint8_t *qpc) { PRM_SET(qpc, cqn_rcv, qpc, e->rcq.num + 50); }
static void no_uar(QpEnv *e, HCmd *c, uint8_t *qpc) { PRM_SET(qpc, uar_page, qpc, e->h->uar + 9); }
static void no_srq(QpEnv *e, HCmd *c, uint8_t *qpc)
{
    PRM_SET(qpc, rq_type, qpc, 1);
    PRM_SET(qpc, srqn_rmpn_xrqn, qpc, 0x999);
}
static void no_xrcd(QpEnv *e, HCmd *c, uint8_t *qpc)
{
    PRM_SET(qpc, st, qpc, MLX5_QP_ST_XRC);
    PRM_SET(qpc, xrcd, qpc, e->xrcd + 9);
}
/* log_max_qp_sz is 15, the largest log size qpc can hold: lower it first. */
static void qp_sz_cap_6(QpEnv *e) { h_ok_free(e->h, h_set_general_cap(e->h, "log_max_qp_sz", 6)); }
static void sq_7(QpEnv *e, HCmd *c, uint8_t *qpc) { qp_sz_cap_6(e); }
static void rq_7(QpEnv *e, HCmd *c, uint8_t *qpc)
{
    qp_sz_cap_6(e);
    PRM_SET(qpc, log_sq_size, qpc, 4);
    PRM_SET(qpc, log_rq_size, qpc, 7);
}
static void rq_stride_1k(QpEnv *e, HCmd *c, uint8_t *qpc) { PRM_SET(qpc, log_rq_stride, qpc, 6); }
static void page_2g(QpEnv *e, HCmd *c, uint8_t *qpc) { PRM_SET(qpc, log_page_size, qpc, 19); }
static void pas_short(QpEnv *e, HCmd *c, uint8_t *qpc) { c->inlen -= 8; }
static void no_pas(QpEnv *e, HCmd *c, uint8_t *qpc) { c->inlen = PRM_BYTES(create_qp_in); }
static void wq_umem(QpEnv *e, HCmd *c, uint8_t *qpc) { IN_SET(c, create_qp_in, wq_umem_valid, 1); }
static void dbr_umem(QpEnv *e, HCmd *c, uint8_t *qpc) { PRM_SET(qpc, dbr_umem_valid, qpc, 1); }
static void input_qpn(QpEnv *e, HCmd *c, uint8_t *qpc) { IN_SET(c, create_qp_in, input_qpn, 0x77); }
static void st_ud(QpEnv *e, HCmd *c, uint8_t *qpc) { PRM_SET(qpc, st, qpc, MLX5_QP_ST_UD); }
static void on_rmp(QpEnv *e, HCmd *c, uint8_t *qpc)
{
    PRM_SET(qpc, rq_type, qpc, 1);
    PRM_SET(qpc, srqn_rmpn_xrqn, qpc, h_create_rmp(e->h, 4));
}
static void xrc(QpEnv *e, HCmd *c, uint8_t *qpc)
{
    PRM_SET(qpc, st, qpc, MLX5_QP_ST_XRC);
    PRM_SET(qpc, xrcd, qpc, e->xrcd);
    PRM_SET(qpc, rq_type, qpc, 1);
    PRM_SET(qpc, srqn_rmpn_xrqn, qpc, h_create_xrc_srq(e->h, e->xrcd, e->rcq.num, 4));
}
static void zero_rq_no_sq(QpEnv *e, HCmd *c, uint8_t *qpc)
{
    PRM_SET(qpc, rq_type, qpc, 3);
    PRM_SET(qpc, no_sq, qpc, 1);
    c->inlen = PRM_BYTES(create_qp_in);             /* no buffer at all */
}
static void reg_umr(QpEnv *e, HCmd *c, uint8_t *qpc)
{
    PRM_SET(qpc, st, qpc, MLX5_QP_ST_REG_UMR);
    PRM_SET(qpc, pd, qpc, 0);
}

typedef struct QpCase {
    const char *name;
    QpDamage damage;
    unsigned status;
    uint32_t syndrome;
} QpCase;

#define BAD(s) MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_##s
static const QpCase qp_cases[] = {
    { "bad/st-dci", st_dci, BAD(QP_TYPE) },
    { "bad/no-pd", no_pd, BAD(BAD_PD) },
    { "bad/pd-not-allocated", pd_gone, BAD(BAD_PD) },
    { "bad/cqn-snd-missing", no_scq, BAD(BAD_CQ) },
    { "bad/cqn-rcv-missing", no_rcq, BAD(BAD_CQ) },
    { "bad/uar-not-allocated", no_uar, BAD(BAD_UAR) },
    { "bad/srqn-missing", no_srq, BAD(BAD_SRQ) },
    { "bad/xrcd-missing", no_xrcd, BAD(BAD_XRCD) },
    { "bad/log-sq-above-cap", sq_7, BAD(BAD_SIZE) },
    { "bad/log-rq-above-cap", rq_7, BAD(BAD_SIZE) },
    { "bad/rq-stride-above-cap", rq_stride_1k, BAD(BAD_SIZE) },
    { "bad/page-size", page_2g, BAD(BAD_PAGE_SIZE) },
    { "bad/pas-short", pas_short, BAD(PAS_TOO_SHORT) },
    { "bad/no-pas", no_pas, BAD(PAS_TOO_SHORT) },
    { "bad/wq-umem-valid", wq_umem, BAD(NO_UMEM) },
    { "bad/dbr-umem-valid", dbr_umem, BAD(NO_UMEM) },
    { "bad/input-qpn", input_qpn, BAD(NO_UMEM) },
    { "good/ud", st_ud, MLX5_CMD_STAT_OK, 0 },
    { "good/uc", st_uc, MLX5_CMD_STAT_OK, 0 },
    { "good/rc-on-rmp", on_rmp, MLX5_CMD_STAT_OK, 0 },
    { "good/xrc-on-xrc-srq", xrc, MLX5_CMD_STAT_OK, 0 },
    { "good/zero-rq-no-sq", zero_rq_no_sq, MLX5_CMD_STAT_OK, 0 },
    { "good/reg-umr-without-pd", reg_umr, MLX5_CMD_STAT_OK, 0 },
};

static void test_qp_create_case(gconstpointer p)
{
    const QpCase *k = p;
    g_autoptr(QpEnv) e = env_new();
    HRing sq;
    g_autoptr(HCmd) c = rc_qp_cmd(e, &sq, 7, 6);
    uint8_t *qpc = IN_PTR(c, create_qp_in, qpc), q[PRM_BYTES(qpc)];

    k->damage(e, c, qpc);
    if (k->status != MLX5_CMD_STAT_OK) {
        h_fail(e->h, c, k->status, k->syndrome);
        return;
    }
    h_ok(e->h, c);
    query_qpc(e, OUT_GET(c, create_qp_out, qpn), q);
    g_assert_cmpuint(PRM_GET(qpc, state, q), ==, RST);
    SAME(qpc, st, qpc, q);
    SAME(qpc, srqn_rmpn_xrqn, qpc, q);
}

/* --- stale numbers -------------------------------------------------------- */

static void test_qp_stale_qpn_and_double_destroy(void)
{
    static const uint16_t mods[] = {
        OP_RST2INIT_QP, OP_INIT2INIT_QP, OP_INIT2RTR_QP, OP_RTR2RTS_QP, OP_RTS2RTS_QP,
        OP_SQERR2RTS_QP, OP_2ERR_QP, OP_2RST_QP,
    };
    g_autoptr(QpEnv) e = env_new();
    g_autoptr(HCmd) again = NULL;
    g_autoptr(HCmd) q = NULL;
    uint32_t qpn = rc_qp(e).num;

    h_destroy(e->h, OP_DESTROY_QP, qpn);
    again = h_destroy_cmd(OP_DESTROY_QP, qpn);
    h_fail(e->h, again, MLX5_CMD_STAT_BAD_RES, MLX5_SYND_BAD_QP);
    q = h_query_cmd(OP_QUERY_QP, qpn);
    h_fail(e->h, q, MLX5_CMD_STAT_BAD_RES, MLX5_SYND_BAD_QP);
    for (size_t i = 0; i < G_N_ELEMENTS(mods); i++) {
        g_autoptr(HCmd) c = h_modify_qp_cmd(mods[i], qpn, 0);
        h_fail(e->h, c, MLX5_CMD_STAT_BAD_RES, MLX5_SYND_BAD_QP);
    }
}

/* QPs share the number space of SQs and RQs; one is not the other. */
static void test_qp_numbers_are_typed(void)
{
    g_autoptr(QpEnv) e = env_new();
    HRing sq = h_create_sq(e->h, e->scq.num, 4);
    uint32_t qpn = rc_qp(e).num;
    g_autoptr(HCmd) q_qp = h_query_cmd(OP_QUERY_QP, sq.num);
    g_autoptr(HCmd) m_qp = h_modify_qp_cmd(OP_RST2INIT_QP, sq.num, 0);
    g_autoptr(HCmd) d_qp = h_destroy_cmd(OP_DESTROY_QP, sq.num);
    g_autoptr(HCmd) d_sq = h_destroy_cmd(OP_DESTROY_SQ, qpn);

    h_fail(e->h, q_qp, MLX5_CMD_STAT_BAD_RES, MLX5_SYND_BAD_QP);
    h_fail(e->h, m_qp, MLX5_CMD_STAT_BAD_RES, MLX5_SYND_BAD_QP);
    h_fail(e->h, d_qp, MLX5_CMD_STAT_BAD_RES, MLX5_SYND_BAD_QP);
    h_fail(e->h, d_sq, MLX5_CMD_STAT_BAD_RES, MLX5_SYND_BAD_ID);
    g_assert_cmphex(h_modify_sq(e->h, qpn, ST_RST, ST_RDY), ==, MLX5_CMD_STAT_BAD_RES);
    g_assert_cmpuint(h_query_qp_state(e->h, qpn), ==, RST);
}

/* 2ERR_QP and 2RST_QP are 16 bytes (qp_2err_in; Linux sends just that):
 * the firmware may read nothing past them.  Each command ends a page that
 * an inaccessible page follows, so a read past inlen faults. */
static void test_qp_2err_2rst_read_only_their_16_bytes(void)
{
    static const uint16_t ops[] = { OP_2ERR_QP, OP_2RST_QP };
    g_autoptr(QpEnv) e = env_new();
    uint32_t qpn = rc_qp(e).num;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    uint8_t *map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                        -1, 0), *in = map + page - PRM_BYTES(qp_2err_in), out[16];

    g_assert_true(map != MAP_FAILED);
    g_assert_cmpint(mprotect(map + page, page, PROT_NONE), ==, 0);
    for (size_t i = 0; i < G_N_ELEMENTS(ops); i++) {
        memset(in, 0, PRM_BYTES(qp_2err_in));
        PRM_SET(qp_2err_in, opcode, in, ops[i]);
        PRM_SET(qp_2err_in, qpn, in, qpn);
        g_assert_cmphex(mlx5_fw_exec(e->h->fw, in, PRM_BYTES(qp_2err_in), out, sizeof(out)),
                        ==, MLX5_CMD_STAT_OK);
    }
    munmap(map, 2 * page);
}

/* --- SRQ, XRC SRQ, RMP ------------------------------------------------------ */

/* SRQ and XRC SRQ contexts put the common fields at the same places. */
_Static_assert(PRM_OFF(srqc, pd) == PRM_OFF(xrc_srqc, pd) &&
               PRM_OFF(srqc, cqn) == PRM_OFF(xrc_srqc, cqn) &&
               PRM_OFF(srqc, log_srq_size) == PRM_OFF(xrc_srqc, log_xrc_srq_size) &&
               PRM_OFF(srqc, log_rq_stride) == PRM_OFF(xrc_srqc, log_rq_stride) &&
               PRM_OFF(srqc, log_page_size) == PRM_OFF(xrc_srqc, log_page_size) &&
               PRM_OFF(srqc, lwm) == PRM_OFF(xrc_srqc, lwm) &&
               PRM_OFF(create_srq_in, srq_context_entry) ==
               PRM_OFF(create_xrc_srq_in, xrc_srq_context_entry) &&
               PRM_OFF(query_srq_out, srq_context_entry) ==
               PRM_OFF(query_xrc_srq_out, xrc_srq_context_entry), "srqc and xrc_srqc");

/* QUERY_SRQ and QUERY_XRC_SRQ give back what CREATE set. */
static void test_srq_create_query(gconstpointer p)
{
    uint16_t op = GPOINTER_TO_UINT(p);
    g_autoptr(QpEnv) e = env_new();
    g_autoptr(HCmd) c = op == OP_CREATE_SRQ ? h_create_srq_cmd(e->h, e->rcq.num, 5)
                                            : h_create_xrc_srq_cmd(e->h, e->xrcd, e->rcq.num, 5);
    g_autoptr(HCmd) q = NULL;
    const uint8_t *in = IN_PTR(c, create_srq_in, srq_context_entry), *out;

    h_ok(e->h, c);
    q = h_ok(e->h, h_query_cmd(op == OP_CREATE_SRQ ? OP_QUERY_SRQ : OP_QUERY_XRC_SRQ,
                               OUT_GET(c, create_srq_out, srqn)));
    out = OUT_PTR(q, query_srq_out, srq_context_entry);
    g_assert_cmpuint(PRM_GET(srqc, log_srq_size, out), ==, 5);
    g_assert_cmpuint(PRM_GET(srqc, pd, out), ==, e->h->pd);
    g_assert_cmpuint(PRM_GET(srqc, cqn, out), ==, e->rcq.num);
    SAME(srqc, log_rq_stride, in, out);
    SAME(srqc, log_page_size, in, out);
    SAME(srqc, lwm, in, out);
    g_assert_cmpuint(PRM_GET(srqc, wqe_cnt, out), ==, 0);
    if (op == OP_CREATE_SRQ) {
        SAME(srqc, dbr_addr, in, out);
        return;
    }
    g_assert_cmpuint(PRM_GET(xrc_srqc, xrcd, out), ==, e->xrcd);
    SAME(xrc_srqc, user_index, in, out);
    SAME(xrc_srqc, db_record_addr_h, in, out);
    SAME(xrc_srqc, db_record_addr_l, in, out);
}

static void test_rmp_create_query(void)
{
    g_autoptr(QpEnv) e = env_new();
    g_autoptr(HCmd) c = h_create_rmp_cmd(e->h, 6);
    g_autoptr(HCmd) q = NULL;
    const uint8_t *in = PRM_PTR(rmpc, wq, IN_PTR(c, create_rmp_in, ctx)), *ctx, *out;

    h_ok(e->h, c);
    q = h_ok(e->h, h_query_cmd(OP_QUERY_RMP, OUT_GET(c, create_rmp_out, rmpn)));
    ctx = OUT_PTR(q, query_rmp_out, rmp_context);
    out = PRM_PTR(rmpc, wq, ctx);
    g_assert_cmpuint(PRM_GET(rmpc, state, ctx), ==, ST_RDY);
    g_assert_cmpuint(PRM_GET(wq, log_wq_sz, out), ==, 6);
    g_assert_cmpuint(PRM_GET(wq, pd, out), ==, e->h->pd);
    SAME(wq, log_wq_stride, in, out);
    SAME(wq, log_wq_pg_sz, in, out);
    SAME(wq, lwm, in, out);
    SAME(wq, dbr_addr, in, out);
    g_assert_cmpuint(PRM_GET(wq, hw_counter, out), ==, 0);
}

static unsigned rmp_query(QpEnv *e, uint32_t rmpn, unsigned *lwm)
{
    g_autoptr(HCmd) q = h_ok(e->h, h_query_cmd(OP_QUERY_RMP, rmpn));
    const uint8_t *ctx = OUT_PTR(q, query_rmp_out, rmp_context);

    *lwm = PRM_GET(wq, lwm, PRM_PTR(rmpc, wq, ctx));
    return PRM_GET(rmpc, state, ctx);
}

static void test_rmp_modify(void)
{
    g_autoptr(QpEnv) e = env_new();
    uint32_t rmpn = h_create_rmp(e->h, 4);
    g_autoptr(HCmd) wrong = h_modify_rmp_cmd(rmpn, ST_RST, ST_RDY);
    g_autoptr(HCmd) bad_to = h_modify_rmp_cmd(rmpn, ST_RDY, ST_ERR);
    g_autoptr(HCmd) up = h_modify_rmp_cmd(rmpn, ST_RST, ST_RDY);
    g_autoptr(HCmd) down = h_modify_rmp_cmd(rmpn, ST_RDY, ST_RST);
    uint8_t *wqc = PRM_PTR(rmpc, wq, IN_PTR(up, modify_rmp_in, ctx));
    unsigned lwm;

    h_fail(e->h, wrong, MLX5_CMD_STAT_BAD_RES_STATE, MLX5_SYND_BAD_STATE_TRANS);
    h_fail(e->h, bad_to, MLX5_CMD_STAT_BAD_RES_STATE, MLX5_SYND_BAD_STATE_TRANS);
    g_assert_cmpuint(rmp_query(e, rmpn, &lwm), ==, ST_RDY);
    PRM_SET(wq, lwm, PRM_PTR(rmpc, wq, IN_PTR(down, modify_rmp_in, ctx)), 20);  /* no bitmask */
    h_ok(e->h, down);
    g_assert_cmpuint(rmp_query(e, rmpn, &lwm), ==, ST_RST);
    g_assert_cmpuint(lwm, ==, 7);
    IN_SET(up, modify_rmp_in, bitmask, 1);
    PRM_SET(wq, lwm, wqc, 11);
    h_ok(e->h, up);
    g_assert_cmpuint(rmp_query(e, rmpn, &lwm), ==, ST_RDY);
    g_assert_cmpuint(lwm, ==, 11);
}

static void test_srq_arm_rq(void)
{
    g_autoptr(QpEnv) e = env_new();
    uint32_t srqn = h_create_srq(e->h, 0, 4);
    g_autoptr(HCmd) arm = hcmd_new(OP_ARM_RQ, 1);
    g_autoptr(HCmd) rq_mode = hcmd_new(OP_ARM_RQ, 0);
    g_autoptr(HCmd) q = NULL;

    IN_SET(arm, arm_rq_in, srq_number, srqn);
    IN_SET(arm, arm_rq_in, lwm, 9);
    h_ok(e->h, arm);
    q = h_ok(e->h, h_query_cmd(OP_QUERY_SRQ, srqn));
    g_assert_cmpuint(PRM_GET(srqc, lwm, OUT_PTR(q, query_srq_out, srq_context_entry)), ==, 9);
    IN_SET(rq_mode, arm_rq_in, srq_number, srqn);
    h_fail(e->h, rq_mode, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_OP_MOD);
}

/* ARM_XRC_SRQ sets an XRC SRQ's limit; a wrong op_mod, a basic SRQ's
 * number or none at all is refused. */
static void test_xrc_srq_arm(void)
{
    g_autoptr(QpEnv) e = env_new();
    uint32_t xsrq = h_create_xrc_srq(e->h, e->xrcd, e->rcq.num, 4);
    uint32_t srq = h_create_srq(e->h, 0, 4);
    g_autoptr(HCmd) q = NULL;
    static const struct { uint16_t op_mod; bool basic, none; unsigned st, synd; } bad[] = {
        { 0, false, false, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_OP_MOD },
        { 1, true, false, MLX5_CMD_STAT_BAD_RES, MLX5_SYND_BAD_SRQ },
        { 1, false, true, MLX5_CMD_STAT_BAD_RES, MLX5_SYND_BAD_SRQ },
    };

    for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
        g_autoptr(HCmd) c = hcmd_new(OP_ARM_XRC_SRQ, bad[i].op_mod);
        IN_SET(c, arm_xrc_srq_in, xrc_srqn, bad[i].basic ? srq : bad[i].none ? 0xabcd : xsrq);
        IN_SET(c, arm_xrc_srq_in, lwm, 3);
        h_fail(e->h, c, bad[i].st, bad[i].synd);
    }
    {
        g_autoptr(HCmd) c = hcmd_new(OP_ARM_XRC_SRQ, 1);
        IN_SET(c, arm_xrc_srq_in, xrc_srqn, xsrq);
        IN_SET(c, arm_xrc_srq_in, lwm, 3);
        h_ok(e->h, c);
    }
    q = h_ok(e->h, h_query_cmd(OP_QUERY_XRC_SRQ, xsrq));
    g_assert_cmpuint(PRM_GET(xrc_srqc, lwm, OUT_PTR(q, query_xrc_srq_out, xrc_srq_context_entry)),
                     ==, 3);
}

/* Each case changes a good CREATE_SRQ, CREATE_XRC_SRQ or CREATE_RMP. */
typedef void (*SrqDamage)(QpEnv *e, HCmd *c, uint8_t *ctx);

static void s_pd(QpEnv *e, HCmd *c, uint8_t *x) { PRM_SET(srqc, pd, x, e->h->pd + 100); }
static void s_cq(QpEnv *e, HCmd *c, uint8_t *x) { PRM_SET(srqc, cqn, x, e->rcq.num + 50); }
static void s_cq0(QpEnv *e, HCmd *c, uint8_t *x) { PRM_SET(srqc, cqn, x, 0); }
static void s_size(QpEnv *e, HCmd *c, uint8_t *x)    /* log 7 above a cap of 6 */
{
    h_ok_free(e->h, h_set_general_cap(e->h, "log_max_srq_sz", 6));
}
static void s_stride(QpEnv *e, HCmd *c, uint8_t *x) { PRM_SET(srqc, log_rq_stride, x, 6); }
static void s_page(QpEnv *e, HCmd *c, uint8_t *x) { PRM_SET(srqc, log_page_size, x, 19); }
static void s_pas(QpEnv *e, HCmd *c, uint8_t *x) { c->inlen -= 8; }
static void x_xrcd(QpEnv *e, HCmd *c, uint8_t *x) { PRM_SET(xrc_srqc, xrcd, x, e->xrcd + 9); }
static void x_xrcd0(QpEnv *e, HCmd *c, uint8_t *x) { PRM_SET(xrc_srqc, xrcd, x, 0); }
static void x_umem(QpEnv *e, HCmd *c, uint8_t *x)
{
    IN_SET(c, create_xrc_srq_in, xrc_srq_umem_valid, 1);
}
static void x_dbr_umem(QpEnv *e, HCmd *c, uint8_t *x) { PRM_SET(xrc_srqc, dbr_umem_valid, x, 1); }
static void r_pd(QpEnv *e, HCmd *c, uint8_t *x) { PRM_SET(wq, pd, PRM_PTR(rmpc, wq, x), 0); }
static void r_size(QpEnv *e, HCmd *c, uint8_t *x)
{
    PRM_SET(wq, log_wq_sz, PRM_PTR(rmpc, wq, x), 16);
}
static void r_stride3(QpEnv *e, HCmd *c, uint8_t *x)
{
    PRM_SET(wq, log_wq_stride, PRM_PTR(rmpc, wq, x), 3);
}
static void r_stride10(QpEnv *e, HCmd *c, uint8_t *x)
{
    PRM_SET(wq, log_wq_stride, PRM_PTR(rmpc, wq, x), 10);
}
static void r_state(QpEnv *e, HCmd *c, uint8_t *x) { PRM_SET(rmpc, state, x, ST_ERR); }

typedef struct SrqCase {
    const char *name;
    uint16_t opcode;
    SrqDamage damage;
    uint32_t syndrome;          /* status BAD_PARAM */
} SrqCase;

static const SrqCase srq_bad[] = {
    { "srq/bad-pd", OP_CREATE_SRQ, s_pd, MLX5_SYND_BAD_PD },
    { "srq/bad-cq", OP_CREATE_SRQ, s_cq, MLX5_SYND_BAD_CQ },
    { "srq/size-above-cap", OP_CREATE_SRQ, s_size, MLX5_SYND_BAD_SIZE },
    { "srq/stride-above-cap", OP_CREATE_SRQ, s_stride, MLX5_SYND_BAD_STRIDE },
    { "srq/page-size", OP_CREATE_SRQ, s_page, MLX5_SYND_BAD_PAGE_SIZE },
    { "srq/pas-short", OP_CREATE_SRQ, s_pas, MLX5_SYND_PAS_TOO_SHORT },
    { "xrc-srq/bad-pd", OP_CREATE_XRC_SRQ, s_pd, MLX5_SYND_BAD_PD },
    { "xrc-srq/bad-cq", OP_CREATE_XRC_SRQ, s_cq, MLX5_SYND_BAD_CQ },
    { "xrc-srq/no-cq", OP_CREATE_XRC_SRQ, s_cq0, MLX5_SYND_BAD_CQ },
    { "xrc-srq/bad-xrcd", OP_CREATE_XRC_SRQ, x_xrcd, MLX5_SYND_BAD_XRCD },
    { "xrc-srq/no-xrcd", OP_CREATE_XRC_SRQ, x_xrcd0, MLX5_SYND_BAD_XRCD },
    { "xrc-srq/size-above-cap", OP_CREATE_XRC_SRQ, s_size, MLX5_SYND_BAD_SIZE },
    { "xrc-srq/stride-above-cap", OP_CREATE_XRC_SRQ, s_stride, MLX5_SYND_BAD_STRIDE },
    { "xrc-srq/pas-short", OP_CREATE_XRC_SRQ, s_pas, MLX5_SYND_PAS_TOO_SHORT },
    { "xrc-srq/umem-valid", OP_CREATE_XRC_SRQ, x_umem, MLX5_SYND_NO_UMEM },
    { "xrc-srq/dbr-umem-valid", OP_CREATE_XRC_SRQ, x_dbr_umem, MLX5_SYND_NO_UMEM },
    { "rmp/no-pd", OP_CREATE_RMP, r_pd, MLX5_SYND_BAD_PD },
    { "rmp/size-above-cap", OP_CREATE_RMP, r_size, MLX5_SYND_BAD_SIZE },
    { "rmp/stride-below-16", OP_CREATE_RMP, r_stride3, MLX5_SYND_BAD_STRIDE },
    { "rmp/stride-above-cap", OP_CREATE_RMP, r_stride10, MLX5_SYND_BAD_STRIDE },
    { "rmp/created-in-error", OP_CREATE_RMP, r_state, MLX5_SYND_BAD_STATE_TRANS },
    { "rmp/pas-short", OP_CREATE_RMP, s_pas, MLX5_SYND_PAS_TOO_SHORT },
};

static void test_srq_bad(gconstpointer p)
{
    const SrqCase *k = p;
    g_autoptr(QpEnv) e = env_new();
    g_autoptr(HCmd) c = NULL;
    uint8_t *ctx;

    switch (k->opcode) {
    case OP_CREATE_SRQ:
        c = h_create_srq_cmd(e->h, e->rcq.num, 7);
        ctx = IN_PTR(c, create_srq_in, srq_context_entry);
        break;
    case OP_CREATE_XRC_SRQ:
        c = h_create_xrc_srq_cmd(e->h, e->xrcd, e->rcq.num, 7);
        ctx = IN_PTR(c, create_xrc_srq_in, xrc_srq_context_entry);
        break;
    default:
        c = h_create_rmp_cmd(e->h, 7);
        ctx = IN_PTR(c, create_rmp_in, ctx);
        break;
    }
    k->damage(e, c, ctx);
    h_fail(e->h, c, MLX5_CMD_STAT_BAD_PARAM, k->syndrome);
}

/* Destroyed numbers are stale for every command; SRQ kinds are typed. */
static void test_srq_stale_and_double_destroy(void)
{
    g_autoptr(QpEnv) e = env_new();
    uint32_t srq = h_create_srq(e->h, 0, 4), rmp = h_create_rmp(e->h, 4);
    uint32_t xsrq = h_create_xrc_srq(e->h, e->xrcd, e->rcq.num, 4);
    const struct { uint16_t destroy, query; uint32_t num, other; } k[] = {
        { OP_DESTROY_SRQ, OP_QUERY_SRQ, srq, rmp },
        { OP_DESTROY_XRC_SRQ, OP_QUERY_XRC_SRQ, xsrq, srq },
        { OP_DESTROY_RMP, OP_QUERY_RMP, rmp, xsrq },
    };
    g_autoptr(HCmd) arm = hcmd_new(OP_ARM_RQ, 1);
    g_autoptr(HCmd) modify = h_modify_rmp_cmd(rmp, ST_RDY, ST_RST);

    for (size_t i = 0; i < G_N_ELEMENTS(k); i++) {
        g_autoptr(HCmd) typed = h_query_cmd(k[i].query, k[i].other);
        h_fail(e->h, typed, MLX5_CMD_STAT_BAD_RES, MLX5_SYND_BAD_SRQ);
    }
    for (size_t i = 0; i < G_N_ELEMENTS(k); i++) {
        g_autoptr(HCmd) again = h_destroy_cmd(k[i].destroy, k[i].num);
        g_autoptr(HCmd) q = h_query_cmd(k[i].query, k[i].num);
        h_destroy(e->h, k[i].destroy, k[i].num);
        h_fail(e->h, again, MLX5_CMD_STAT_BAD_RES, MLX5_SYND_BAD_SRQ);
        h_fail(e->h, q, MLX5_CMD_STAT_BAD_RES, MLX5_SYND_BAD_SRQ);
    }
    IN_SET(arm, arm_rq_in, srq_number, srq);
    h_fail(e->h, arm, MLX5_CMD_STAT_BAD_RES, MLX5_SYND_BAD_SRQ);
    h_fail(e->h, modify, MLX5_CMD_STAT_BAD_RES, MLX5_SYND_BAD_SRQ);
}

/* --- teardown ---------------------------------------------------------------- */

/* TEARDOWN_HCA (or DISABLE_HCA) frees QPs and SRQs of every kind; their
 * numbers are stale once the function is up again. */
static void test_qp_teardown_frees_every_object(gconstpointer p)
{
    uint16_t op = GPOINTER_TO_UINT(p);
    g_autoptr(QpEnv) e = env_new();
    HRing qp = rc_qp(e);
    g_autoptr(HCmd) q = h_query_cmd(OP_QUERY_QP, qp.num);
    unsigned before = mlx5_fw_object_count(e->h->fw);

    qp_walk(e, qp.num, RTS);
    h_create_srq(e->h, 0, 4);
    h_create_xrc_srq(e->h, e->xrcd, e->rcq.num, 4);
    h_create_rmp(e->h, 4);
    g_assert_cmpuint(mlx5_fw_object_count(e->h->fw), ==, before + 3);
    h_ok_free(e->h, hcmd_new(op, 0));
    g_assert_cmpuint(mlx5_fw_object_count(e->h->fw), ==, 0);
    if (op == OP_DISABLE_HCA) {
        h_init(e->h);
    } else {
        h_ok_free(e->h, hcmd_new(OP_INIT_HCA, 0));
    }
    h_fail(e->h, q, MLX5_CMD_STAT_BAD_RES, MLX5_SYND_BAD_QP);
}

static void add_ops(const char *path, GTestDataFunc fn, uint16_t a, uint16_t b,
                    const char *na, const char *nb)
{
    g_autofree char *pa = g_strdup_printf("%s/%s", path, na);
    g_autofree char *pb = g_strdup_printf("%s/%s", path, nb);

    g_test_add_data_func(pa, GUINT_TO_POINTER(a), fn);
    g_test_add_data_func(pb, GUINT_TO_POINTER(b), fn);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/qp/create-query", test_qp_create_query);
    g_test_add_func("/qp/state-machine", test_qp_state_machine);
    add_ops("/qp/from-every-state", test_qp_to_err_or_rst_from_every_state,
            OP_2ERR_QP, OP_2RST_QP, "2err", "2rst");
    g_test_add_func("/qp/refused-transitions", test_qp_refused_transitions);
    g_test_add_func("/qp/attributes-by-transition", test_qp_attributes_by_transition);
    g_test_add_func("/qp/rts2rts-optional-attributes", test_qp_rts2rts_optional_attributes);
    g_test_add_func("/qp/init2rtr-keeps-unnamed-pkey-index",
                    test_qp_init2rtr_keeps_unnamed_pkey_index);
    g_test_add_func("/qp/rst2init-counter-set", test_qp_rst2init_counter_set);
    for (size_t i = 0; i < G_N_ELEMENTS(qp_cases); i++) {
        g_autofree char *path = g_strdup_printf("/qp/create/%s", qp_cases[i].name);
        g_test_add_data_func(path, &qp_cases[i], test_qp_create_case);
    }
    g_test_add_func("/qp/stale-qpn-and-double-destroy", test_qp_stale_qpn_and_double_destroy);
    g_test_add_func("/qp/numbers-are-typed", test_qp_numbers_are_typed);
    g_test_add_func("/qp/2err-2rst-read-only-their-16-bytes",
                    test_qp_2err_2rst_read_only_their_16_bytes);
    add_ops("/qp/teardown-frees-every-object", test_qp_teardown_frees_every_object,
            OP_TEARDOWN_HCA, OP_DISABLE_HCA, "teardown", "disable");
    add_ops("/srq/create-query", test_srq_create_query,
            OP_CREATE_SRQ, OP_CREATE_XRC_SRQ, "srq", "xrc-srq");
    g_test_add_func("/srq/create-query/rmp", test_rmp_create_query);
    g_test_add_func("/srq/rmp-modify", test_rmp_modify);
    g_test_add_func("/srq/arm-rq", test_srq_arm_rq);
    g_test_add_func("/srq/arm-xrc-srq", test_xrc_srq_arm);
    for (size_t i = 0; i < G_N_ELEMENTS(srq_bad); i++) {
        g_autofree char *path = g_strdup_printf("/srq/bad/%s", srq_bad[i].name);
        g_test_add_data_func(path, &srq_bad[i], test_srq_bad);
    }
    g_test_add_func("/srq/stale-and-double-destroy", test_srq_stale_and_double_destroy);
    return g_test_run();
}
