/*
 * What a guest may make the device hold: each object kind's number within
 * what the current capabilities advertise (2^log_max_<kind>), and every
 * object within one device-wide host-memory budget (objects.h Mlx5HostMem)
 * that comes back whole when the objects go - destroyed one by one,
 * at TEARDOWN_HCA, or at a function reset.
 */
#include <string.h>

#include "harness.h"

/* The objects a test's kinds need besides h_bringup's (UAR, PD, TD, two
 * EQs): a CQ, an RQ (for TIRs and RQTs) and an XRC domain. */
typedef struct Env {
    Harness *h;
    uint32_t cqn, rqn, xrcd;
} Env;

/* Bring `h` up with them. */
static Env env_on(Harness *h)
{
    Env e = { .h = h };

    h_bringup(h);
    e.cqn = h_create_cq(h, h->comp_eq.num, 0).num;
    e.rqn = h_create_rq(h, e.cqn, 0).num;
    e.xrcd = h_alloc_simple(h, OP_ALLOC_XRCD);
    return e;
}

/* --- one create command per kind -------------------------------------- */

static HCmd *pd_cmd(Env *e) { (void)e; return hcmd_new(OP_ALLOC_PD, 0); }
static HCmd *td_cmd(Env *e) { (void)e; return hcmd_new(OP_ALLOC_TRANSPORT_DOMAIN, 0); }
static HCmd *xrcd_cmd(Env *e) { (void)e; return hcmd_new(OP_ALLOC_XRCD, 0); }
static HCmd *q_counter_cmd(Env *e) { (void)e; return hcmd_new(OP_ALLOC_Q_COUNTER, 0); }

static HCmd *mkey_cmd(Env *e)
{
    HCmd *c = hcmd_new(OP_CREATE_MKEY, 0);
    uint8_t *mkc = IN_PTR(c, create_mkey_in, memory_key_mkey_entry);

    PRM_SET(mkc, lr, mkc, 1);
    PRM_SET(mkc, pd, mkc, e->h->pd);
    PRM_SET(mkc, start_addr, mkc, GUEST_BASE);
    PRM_SET(mkc, len, mkc, PAGE);
    return c;
}

/* An MTT key over 64 pages (a user MR): 512 bytes of translation entries. */
enum { MTT_PAGES = 64 };
static HCmd *mtt_mkey_cmd(Env *e)
{
    HCmd *c = hcmd_new_len(OP_CREATE_MKEY, 0, PRM_BYTES(create_mkey_in) + MTT_PAGES * 8,
                           PRM_BYTES(create_mkey_out));
    uint8_t *mkc = IN_PTR(c, create_mkey_in, memory_key_mkey_entry);

    PRM_SET(mkc, access_mode_1_0, mkc, MLX5_MKC_ACCESS_MODE_MTT);
    PRM_SET(mkc, lr, mkc, 1);
    PRM_SET(mkc, pd, mkc, e->h->pd);
    PRM_SET(mkc, len, mkc, MTT_PAGES * PAGE);
    PRM_SET(mkc, log_page_size, mkc, 12);
    PRM_SET(mkc, translations_octword_size, mkc, MTT_PAGES / 2);
    for (unsigned i = 0; i < MTT_PAGES; i++) {
        prm_put_be64(IN_PTR(c, create_mkey_in, klm_pas_mtt) + i * 8, GUEST_BASE + i * PAGE);
    }
    return c;
}

static HCmd *eq_cmd(Env *e)
{
    HRing r;

    return h_create_eq_cmd(e->h, &r, 0, 0, 0);
}

static HCmd *cq_cmd(Env *e)
{
    HRing r;

    return h_create_cq_cmd(e->h, &r, e->h->comp_eq.num, 0);
}

static HCmd *sq_cmd(Env *e)
{
    HRing r;

    return h_create_sq_cmd(e->h, &r, e->cqn, 0);
}

static HCmd *rq_cmd(Env *e)
{
    HRing r;

    return h_create_rq_cmd(e->h, &r, e->cqn, 0);
}

static HCmd *qp_cmd(Env *e)
{
    HRing r;

    return h_create_qp_cmd(e->h, &r, MLX5_QP_ST_RC, e->h->pd, e->cqn, e->cqn, e->h->uar, 0, 0);
}

static HCmd *tis_cmd(Env *e)
{
    HCmd *c = hcmd_new(OP_CREATE_TIS, 0);

    PRM_SET(tisc, transport_domain, IN_PTR(c, create_tis_in, ctx), e->h->td);
    return c;
}

static HCmd *tir_cmd(Env *e)
{
    HCmd *c = hcmd_new(OP_CREATE_TIR, 0);
    uint8_t *ctx = IN_PTR(c, create_tir_in, ctx);

    PRM_SET(tirc, inline_rqn, ctx, e->rqn);
    PRM_SET(tirc, transport_domain, ctx, e->h->td);
    return c;
}

static HCmd *rqt_cmd(Env *e)
{
    uint32_t list = PRM_BYTE_OFF(create_rqt_in, rqt_context) + PRM_BYTE_OFF(rqtc, rq_num);
    HCmd *c = hcmd_new(OP_CREATE_RQT, 0);
    uint8_t *ctx;

    hcmd_grow_in(c, list + 4);
    ctx = IN_PTR(c, create_rqt_in, rqt_context);
    PRM_SET(rqtc, rqt_max_size, ctx, 64);
    PRM_SET(rqtc, rqt_actual_size, ctx, 1);
    prm_put_be32(c->in + list, e->rqn);
    return c;
}

static HCmd *srq_cmd(Env *e) { return h_create_srq_cmd(e->h, 0, 0); }
static HCmd *xrc_srq_cmd(Env *e) { return h_create_xrc_srq_cmd(e->h, e->xrcd, e->cqn, 0); }
static HCmd *rmp_cmd(Env *e) { return h_create_rmp_cmd(e->h, 0); }

/* The numbers the commands answer with. */
#define ID_(fn, L, f) static uint32_t fn(const HCmd *c) { return OUT_GET(c, L, f); }
ID_(pd_id, alloc_pd_out, pd)
ID_(td_id, alloc_transport_domain_out, transport_domain)
ID_(xrcd_id, alloc_xrcd_out, xrcd)
ID_(q_counter_id, alloc_q_counter_out, counter_set_id)
ID_(mkey_id, create_mkey_out, mkey_index)
ID_(eq_id, create_eq_out, eq_number)
ID_(cq_id, create_cq_out, cqn)
ID_(sq_id, create_sq_out, sqn)
ID_(rq_id, create_rq_out, rqn)
ID_(qp_id, create_qp_out, qpn)
ID_(tis_id, create_tis_out, tisn)
ID_(tir_id, create_tir_out, tirn)
ID_(rqt_id, create_rqt_out, rqtn)
ID_(srq_id, create_srq_out, srqn)
ID_(xrc_srq_id, create_xrc_srq_out, xrc_srqn)
ID_(rmp_id, create_rmp_out, rmpn)

/* A kind: how to create one and free it, the capability that bounds how
 * many there may be (as a log2, or a count), and how many Env has. */
typedef struct Kind {
    const char *name;
    HCmd *(*cmd)(Env *e);
    uint32_t (*id)(const HCmd *c);
    uint16_t destroy;
    const char *cap;
    bool cap_is_count;
    unsigned env_has;
} Kind;

static const Kind kinds[] = {
    { "pd", pd_cmd, pd_id, OP_DEALLOC_PD, "log_max_pd", false, 1 },
    { "td", td_cmd, td_id, OP_DEALLOC_TRANSPORT_DOMAIN, "log_max_transport_domain", false, 1 },
    { "xrcd", xrcd_cmd, xrcd_id, OP_DEALLOC_XRCD, "log_max_xrcd", false, 1 },
    { "q-counter", q_counter_cmd, q_counter_id, OP_DEALLOC_Q_COUNTER, "max_qp_cnt", true, 0 },
    { "mkey", mkey_cmd, mkey_id, OP_DESTROY_MKEY, "log_max_mkey", false, 0 },
    { "mtt-mkey", mtt_mkey_cmd, mkey_id, OP_DESTROY_MKEY, "log_max_mkey", false, 0 },
    { "eq", eq_cmd, eq_id, OP_DESTROY_EQ, "log_max_eq", false, 2 },
    { "cq", cq_cmd, cq_id, OP_DESTROY_CQ, "log_max_cq", false, 1 },
    { "sq", sq_cmd, sq_id, OP_DESTROY_SQ, "log_max_sq", false, 0 },
    { "rq", rq_cmd, rq_id, OP_DESTROY_RQ, "log_max_rq", false, 1 },
    { "qp", qp_cmd, qp_id, OP_DESTROY_QP, "log_max_qp", false, 0 },
    { "tis", tis_cmd, tis_id, OP_DESTROY_TIS, "log_max_tis", false, 0 },
    { "tir", tir_cmd, tir_id, OP_DESTROY_TIR, "log_max_tir", false, 0 },
    { "rqt", rqt_cmd, rqt_id, OP_DESTROY_RQT, "log_max_rqt", false, 0 },
    { "srq", srq_cmd, srq_id, OP_DESTROY_SRQ, "log_max_srq", false, 0 },
    { "xrc-srq", xrc_srq_cmd, xrc_srq_id, OP_DESTROY_XRC_SRQ, "log_max_srq", false, 0 },
    { "rmp", rmp_cmd, rmp_id, OP_DESTROY_RMP, "log_max_rmp", false, 0 },
};

/* --- limits ------------------------------------------------------------ */

/* With the capability lowered to 4 (log 2), the fifth object of the kind
 * is "limits exceeded", and freeing one makes room again. */
static void test_limit(gconstpointer p)
{
    const Kind *k = p;
    g_autoptr(Harness) h = h_new();
    Env env = env_on(h), *e = &env;
    g_autoptr(HCmd) c = k->cmd(e);
    g_autoptr(HCmd) over = k->cmd(e);
    uint32_t first = 0;

    h_ok_free(e->h, h_set_general_cap(e->h, k->cap, k->cap_is_count ? 4 : 2));
    for (unsigned i = k->env_has; i < 4; i++) {
        h_ok(e->h, c);
        first = i == k->env_has ? k->id(c) : first;
    }
    h_fail(e->h, over, MLX5_CMD_STAT_LIM_ERR, MLX5_SYND_OBJECT_LIMIT);
    h_destroy(e->h, k->destroy, first);
    h_ok(e->h, over);
}

/* Kinds that share a number space count apart: SQs, RQs and QPs each
 * against their own capability; SRQs and XRC SRQs together against
 * log_max_srq, RMPs against log_max_rmp. */
static void test_limit_kinds_apart(void)
{
    g_autoptr(Harness) h = h_new();
    Env env = env_on(h), *e = &env;
    g_autoptr(HCmd) sq = sq_cmd(e);
    g_autoptr(HCmd) qp = qp_cmd(e);
    g_autoptr(HCmd) srq = srq_cmd(e);
    g_autoptr(HCmd) xrc = xrc_srq_cmd(e);
    g_autoptr(HCmd) rmp = rmp_cmd(e);

    h_ok_free(e->h, h_set_general_cap(e->h, "log_max_sq", 0));
    h_ok_free(e->h, h_set_general_cap(e->h, "log_max_srq", 1));
    h_ok(e->h, sq);
    h_fail(e->h, sq, MLX5_CMD_STAT_LIM_ERR, MLX5_SYND_OBJECT_LIMIT);
    h_ok(e->h, qp);
    h_ok(e->h, qp);
    h_ok(e->h, srq);
    h_ok(e->h, xrc);
    h_fail(e->h, srq, MLX5_CMD_STAT_LIM_ERR, MLX5_SYND_OBJECT_LIMIT);
    h_fail(e->h, xrc, MLX5_CMD_STAT_LIM_ERR, MLX5_SYND_OBJECT_LIMIT);
    h_ok(e->h, rmp);
}

/* NIC receive flow tables: 2^log_max_ft_num (flow_table_prop_layout), not
 * the 2^24 numbers. */
static void test_limit_flow_tables(void)
{
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) over = hcmd_new(OP_CREATE_FLOW_TABLE, 0);
    const uint8_t *rx = PRM_PTR(flow_table_nic_cap, flow_table_properties_nic_receive,
                                MLX5_CAP_CUR(h->fw, MLX5_CAP_FLOW_TABLE));
    unsigned max = 1u << PRM_GET(flow_table_prop_layout, log_max_ft_num, rx);

    h_bringup(h);
    for (unsigned i = 0; i < max; i++) {
        h_create_flow_table(h, 0, 0);
    }
    h_fail(h, over, MLX5_CMD_STAT_LIM_ERR, MLX5_SYND_OBJECT_LIMIT);
}

/* Multicast: a group holds max_qp_mcg QPs, the device 2^log_max_mcg
 * groups (mcg.c); past either, "limits exceeded". */
static HCmd *attach_cmd(uint32_t qpn, uint8_t group)
{
    HCmd *c = hcmd_new(OP_ATTACH_TO_MCG, 0);
    uint8_t *gid = IN_PTR(c, attach_to_mcg_in, multicast_gid);

    IN_SET(c, attach_to_mcg_in, qpn, qpn);
    gid[0] = 0xff;                      /* ff0e::<group> */
    gid[1] = 0x0e;
    gid[15] = group;
    return c;
}

static void test_limit_multicast(void)
{
    g_autoptr(Harness) h = h_new();
    Env env = env_on(h), *e = &env;
    g_autoptr(HCmd) second_qp = NULL, second_group = NULL;
    uint32_t qp[2];

    for (unsigned i = 0; i < 2; i++) {
        qp[i] = h_create_qp(e->h, MLX5_QP_ST_UD, e->h->pd, e->cqn, e->cqn, e->h->uar, 0, 0).num;
    }
    h_ok_free(e->h, h_set_general_cap(e->h, "max_qp_mcg", 1));
    h_ok_free(e->h, h_set_general_cap(e->h, "log_max_mcg", 0));
    h_ok_free(e->h, attach_cmd(qp[0], 1));
    second_qp = attach_cmd(qp[1], 1);
    second_group = attach_cmd(qp[0], 2);
    h_fail(e->h, second_qp, MLX5_CMD_STAT_LIM_ERR, MLX5_SYND_OBJECT_LIMIT);
    h_fail(e->h, second_group, MLX5_CMD_STAT_LIM_ERR, MLX5_SYND_OBJECT_LIMIT);
}

/* --- the budget -------------------------------------------------------- */

/* 2 KiB for each QP the device advertises, unless the board says. */
static void test_budget_default_and_board(void)
{
    g_autoptr(Harness) def = h_new();
    g_autoptr(Harness) small = NULL;
    Mlx5FwConfig cfg;

    g_assert_cmpuint(def->fw->host_mem.limit, ==,
                     (uint64_t)MLX5_HOST_MEM_PER_QP <<
                     PRM_GET(cmd_hca_cap, log_max_qp, MLX5_CAP_MAX(def->fw, MLX5_CAP_GENERAL)));
    g_assert_cmpuint(def->fw->host_mem.limit, ==, 512u << 20);
    h_board_config(&cfg);
    cfg.host_mem_budget = 1u << 20;
    small = h_new_board(&cfg);
    g_assert_cmpuint(small->fw->host_mem.limit, ==, 1u << 20);
    g_assert_cmpuint(small->fw->host_mem.used, ==, 0);
}

/* Every kind is charged: with no room left, creating one is "limits
 * exceeded" with the budget's syndrome, and nothing is held of it. */
static void test_budget_refused(gconstpointer p)
{
    const Kind *k = p;
    g_autoptr(Harness) h = h_new();
    Env env = env_on(h), *e = &env;
    g_autoptr(HCmd) c = k->cmd(e);

    e->h->fw->host_mem.limit = e->h->fw->host_mem.used;
    h_fail(e->h, c, MLX5_CMD_STAT_LIM_ERR, MLX5_SYND_HOST_MEMORY);
}

/* --- flow steering ----------------------------------------------------- */

/* An entry of group `g` (h_create_flow_group_ports on the destination
 * port: entries of one group differ in it) at `index` of table `t`,
 * forwarding `ndest` times to table `up` (whose level is above t's). */
static HCmd *fte_cmd(unsigned op_mod, uint32_t t, uint32_t g, uint32_t index, uint16_t dport,
                     uint32_t up, uint32_t ndest)
{
    HCmd *c = h_fte_cmd(op_mod, t, g, index, FT_ACTION_FWD, FT_DEST_FLOW_TABLE, up, ndest);

    h_match_ports(PRM_PTR(flow_context, match_value, IN_PTR(c, set_fte_in, flow_context)),
                  H_ON_DPORT, dport, 0);
    return c;
}

/* Flow tables, groups and entries too; an entry that no longer fits is
 * refused and the one it would have replaced stays, in its group's index
 * too. */
static void test_budget_refused_flow(void)
{
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) ft = hcmd_new(OP_CREATE_FLOW_TABLE, 0);
    g_autoptr(HCmd) fg = hcmd_new(OP_CREATE_FLOW_GROUP, 0);
    g_autoptr(HCmd) fte = NULL, wider = NULL;
    uint32_t t, up, g;
    Mlx5Fte *e;

    h_bringup(h);
    t = h_create_flow_table(h, 4, 0);
    up = h_create_flow_table(h, 0, 1);
    g = h_create_flow_group_ports(h, t, 0, 3, H_ON_DPORT);
    h_ok_free(h, fte_cmd(0, t, g, 0, 7, up, 1));
    IN_SET(fg, create_flow_group_in, table_id, t);
    IN_SET(fg, create_flow_group_in, start_flow_index, 4);
    IN_SET(fg, create_flow_group_in, end_flow_index, 7);
    fte = fte_cmd(0, t, g, 1, 8, up, 1);
    wider = fte_cmd(1, t, g, 0, 7, up, 2);
    h->fw->host_mem.limit = h->fw->host_mem.used;
    h_fail(h, ft, MLX5_CMD_STAT_LIM_ERR, MLX5_SYND_HOST_MEMORY);
    h_fail(h, fg, MLX5_CMD_STAT_LIM_ERR, MLX5_SYND_HOST_MEMORY);
    h_fail(h, fte, MLX5_CMD_STAT_LIM_ERR, MLX5_SYND_HOST_MEMORY);
    h_fail(h, wider, MLX5_CMD_STAT_LIM_ERR, MLX5_SYND_HOST_MEMORY);
    e = mlx5_table_get(&((Mlx5FlowTable *)mlx5_table_get(&h->fw->flow_table, t))->ftes, 0);
    g_assert_nonnull(e);
    g_assert_cmpuint(e->ndest, ==, 1);
    g_assert_true(mlx5_flow_group_find(e->group, &e->key) == e);
    g_assert_cmpuint(h->fw->flow_ftes, ==, 1);
}

/* A group is charged with its key layout (3 bytes for each match byte its
 * criteria select) and its index, an entry with its key, its destinations
 * and its slot in its group's index: what a guest chooses the size of. */
static void test_budget_flow_charges_what_it_holds(void)
{
    g_autoptr(Harness) h = h_new();
    Mlx5HostMem *m = &h->fw->host_mem;
    uint32_t t, up, g;
    uint64_t before, narrow, wide, one;

    h_bringup(h);
    t = h_create_flow_table(h, 4, 0);
    up = h_create_flow_table(h, 0, 1);
    before = m->used;
    g = h_create_flow_group_ports(h, t, 0, 3, H_ON_DPORT);            /* 2 match bytes */
    narrow = m->used - before;
    before = m->used;
    h_create_flow_group_ports(h, t, 4, 7, H_ON_DPORT | H_ON_SPORT);   /* 4 */
    wide = m->used - before;
    g_assert_cmpuint(wide - narrow, ==, 2 * (sizeof(uint16_t) + 1));
    g_assert_cmpuint(narrow, >=, sizeof(Mlx5FlowGroup) + MLX5_FLOW_INDEX_BYTES);
    before = m->used;
    h_ok_free(h, fte_cmd(0, t, g, 0, 7, up, 1));
    one = m->used - before;
    g_assert_cmpuint(one, ==, sizeof(Mlx5Fte) + 2 + sizeof(Mlx5FlowDest) +
                              2 * MLX5_TABLE_ENTRY_BYTES);
    h_ok_free(h, fte_cmd(1, t, g, 0, 7, up, 16));                     /* replaced */
    g_assert_cmpuint(m->used - before, ==, one + 15 * sizeof(Mlx5FlowDest));
}

/* Room made by freeing is room to create again. */
static void test_budget_freed_makes_room(void)
{
    g_autoptr(Harness) h = h_new();
    Env env = env_on(h), *e = &env;
    g_autoptr(HCmd) c = cq_cmd(e);
    Mlx5HostMem *m = &e->h->fw->host_mem;
    uint64_t before = m->used, one;
    uint32_t first;

    h_ok(e->h, c);
    first = cq_id(c);
    one = m->used - before;
    g_assert_cmpuint(one, >=, sizeof(Mlx5Cq) + 8);      /* the CQ and its page */
    m->limit = m->used + one;
    h_ok(e->h, c);
    h_fail(e->h, c, MLX5_CMD_STAT_LIM_ERR, MLX5_SYND_HOST_MEMORY);
    h_destroy(e->h, OP_DESTROY_CQ, first);
    h_ok(e->h, c);
    g_assert_cmpuint(m->used, ==, m->limit);
}

/* A key's translation entries are charged as they are loaded (8 bytes
 * each): a key whose list does not fit is refused. */
static void test_budget_mtt_entries(void)
{
    g_autoptr(Harness) h = h_new();
    Env env = env_on(h), *e = &env;
    g_autoptr(HCmd) c = mtt_mkey_cmd(e);
    Mlx5HostMem *m = &e->h->fw->host_mem;
    uint64_t before = m->used;

    h_ok(e->h, c);
    g_assert_cmpuint(m->used - before, >=, sizeof(Mlx5Mkey) + MTT_PAGES * 8);
    m->limit = m->used + sizeof(Mlx5Mkey) + MLX5_TABLE_ENTRY_BYTES + MTT_PAGES * 8 - 1;
    h_fail(e->h, c, MLX5_CMD_STAT_LIM_ERR, MLX5_SYND_HOST_MEMORY);
}

/* One of every kind, and the flow objects. */
static void create_all(Env *e, HCmd *const *cmds)
{
    uint32_t t, up, g;

    for (size_t i = 0; i < G_N_ELEMENTS(kinds); i++) {
        h_ok(e->h, cmds[i]);
    }
    t = h_create_flow_table(e->h, 2, 0);
    up = h_create_flow_table(e->h, 0, 1);
    g = h_create_flow_group_ports(e->h, t, 0, 3, H_ON_DPORT);
    h_ok_free(e->h, fte_cmd(0, t, g, 1, 1, up, 1));
    h_ok_free(e->h, fte_cmd(0, t, g, 2, 2, up, 4));
}

static void flow_table_destroy(Harness *h, uint32_t t)
{
    HCmd *c = hcmd_new(OP_DESTROY_FLOW_TABLE, 0);

    IN_SET(c, destroy_flow_table_in, table_id, t);
    h_ok_free(h, c);
}

/* Flow objects freed every way: an entry deleted, replaced, refused (a
 * duplicate match value), a group destroyed, and a table destroyed with
 * its groups and entries in it. */
static void flow_round(Harness *h)
{
    uint32_t t = h_create_flow_table(h, 3, 0), up = h_create_flow_table(h, 0, 1);
    uint32_t g = h_create_flow_group_ports(h, t, 0, 3, H_ON_DPORT);
    uint32_t g2 = h_create_flow_group_ports(h, t, 4, 7, H_ON_DPORT | H_ON_SPORT);
    HCmd *c = hcmd_new(OP_DELETE_FLOW_TABLE_ENTRY, 0);

    h_ok_free(h, fte_cmd(0, t, g, 1, 1, up, 1));
    h_ok_free(h, fte_cmd(1, t, g, 1, 1, up, 3));
    h_ok_free(h, fte_cmd(0, t, g2, 4, 1, up, 2));
    IN_SET(c, delete_fte_in, table_id, t);
    IN_SET(c, delete_fte_in, flow_index, 4);
    h_ok_free(h, c);
    c = fte_cmd(0, t, g, 2, 1, up, 2);
    h_fail(h, c, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_DUPLICATE_MATCH);
    hcmd_free(c);
    c = hcmd_new(OP_DESTROY_FLOW_GROUP, 0);
    IN_SET(c, destroy_flow_group_in, table_id, t);
    IN_SET(c, destroy_flow_group_in, group_id, g2);
    h_ok_free(h, c);
    h_ok_free(h, fte_cmd(0, t, g, 2, 2, up, 2));
    flow_table_destroy(h, t);
    flow_table_destroy(h, up);
}

/* Objects of every kind created and destroyed many times leave the
 * budget where it started, and reset or TEARDOWN_HCA give all back. */
static void test_budget_balances(void)
{
    g_autoptr(Harness) h = h_new();
    Env env = env_on(h), *e = &env;
    HCmd *cmds[G_N_ELEMENTS(kinds)];
    uint64_t start = e->h->fw->host_mem.used;

    g_assert_cmpuint(start, >, 0);
    for (size_t i = 0; i < G_N_ELEMENTS(kinds); i++) {
        cmds[i] = kinds[i].cmd(e);
    }
    for (unsigned round = 0; round < 40; round++) {
        for (size_t i = 0; i < G_N_ELEMENTS(kinds); i++) {
            h_ok(e->h, cmds[i]);
            h_destroy(e->h, kinds[i].destroy, kinds[i].id(cmds[i]));
        }
        flow_round(e->h);
    }
    g_assert_cmpuint(e->h->fw->host_mem.used, ==, start);
    create_all(e, cmds);
    h_ok_free(e->h, hcmd_new(OP_TEARDOWN_HCA, 0));
    g_assert_cmpuint(mlx5_fw_object_count(e->h->fw), ==, 0);
    g_assert_cmpuint(e->h->fw->host_mem.used, ==, 0);
    h_ok_free(e->h, hcmd_new(OP_INIT_HCA, 0));
    h_ok_free(e->h, hcmd_new(OP_ALLOC_PD, 0));
    mlx5_fw_reset(e->h->fw, "test FLR");
    g_assert_cmpuint(e->h->fw->host_mem.used, ==, 0);
    for (size_t i = 0; i < G_N_ELEMENTS(kinds); i++) {
        hcmd_free(cmds[i]);
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    for (size_t i = 0; i < G_N_ELEMENTS(kinds); i++) {
        g_autofree char *limit = g_strdup_printf("/budget/limit/%s", kinds[i].name);
        g_autofree char *mem = g_strdup_printf("/budget/host-memory/%s-refused", kinds[i].name);
        g_test_add_data_func(limit, &kinds[i], test_limit);
        g_test_add_data_func(mem, &kinds[i], test_budget_refused);
    }
    g_test_add_func("/budget/limit/kinds-apart", test_limit_kinds_apart);
    g_test_add_func("/budget/limit/flow-tables", test_limit_flow_tables);
    g_test_add_func("/budget/limit/multicast", test_limit_multicast);
    g_test_add_func("/budget/host-memory/default-and-board", test_budget_default_and_board);
    g_test_add_func("/budget/host-memory/flow-refused", test_budget_refused_flow);
    g_test_add_func("/budget/host-memory/flow-charges-what-it-holds",
                    test_budget_flow_charges_what_it_holds);
    g_test_add_func("/budget/host-memory/freed-makes-room", test_budget_freed_makes_room);
    g_test_add_func("/budget/host-memory/mtt-entries", test_budget_mtt_entries);
    g_test_add_func("/budget/host-memory/balances", test_budget_balances);
    return g_test_run();
}
