/*
 * HCA life cycle and firmware state: ENABLE/INIT/TEARDOWN/DISABLE_HCA,
 * ISSI, boot/init pages and MANAGE_PAGES, capabilities, adapter identity,
 * reset; and one driver-like life cycle that runs every command of
 * cmd-list.h successfully, through mlx5_fw_exec and through the queue.
 */
#include <string.h>

#include "harness.h"

#define GENERAL_CUR (MLX5_CAP_GENERAL << 1 | 1)
#define GENERAL_MAX (MLX5_CAP_GENERAL << 1)

/* Objects of every table; returns how many the tables hold. */
static unsigned populate(Harness *h)
{
    HRing cq, sq, rq, qp;
    uint32_t ft, fg, tir, xrcd;
    g_autoptr(HCmd) fte = NULL;

    h_bringup(h);
    xrcd = h_alloc_simple(h, OP_ALLOC_XRCD);
    h_alloc_simple(h, OP_ALLOC_Q_COUNTER);
    h_create_mkey(h, GUEST_BASE, GUEST_SIZE, true);
    cq = h_create_cq(h, h->comp_eq.num, 6);
    sq = h_create_sq(h, cq.num, 6);
    rq = h_create_rq(h, cq.num, 6);
    g_assert_cmphex(h_modify_sq(h, sq.num, ST_RST, ST_RDY), ==, MLX5_CMD_STAT_OK);
    g_assert_cmphex(h_modify_rq(h, rq.num, ST_RST, ST_RDY), ==, MLX5_CMD_STAT_OK);
    h_create_tis(h);
    tir = h_create_tir_direct(h, rq.num);
    h_create_rqt(h, &rq.num, 1, 4);
    ft = h_create_flow_table(h, 4, 0);
    fg = h_create_flow_group(h, ft, 0, 3);
    fte = h_fte_cmd(0, ft, fg, 0, FT_ACTION_FWD, FT_DEST_TIR, tir, 1);
    h_ok(h, fte);
    qp = h_create_qp(h, MLX5_QP_ST_RC, h->pd, cq.num, cq.num, h->uar, 4, 4);
    h_qp_to_rts(h, qp.num);
    h_create_srq(h, cq.num, 4);
    h_create_xrc_srq(h, xrcd, cq.num, 4);
    h_create_rmp(h, 4);
    return 20;
}

static void test_bringup_like_driver(void)
{
    g_autoptr(Harness) h = h_new();

    h_bringup(h);
    g_assert_cmpint(h->fw->hca_state, ==, MLX5_HCA_INITIALIZED);
    g_assert_cmpuint(h->fw->issi, ==, 1);
    g_assert_cmpuint(h->uar, >=, MLX5_FIRST_UAR_INDEX);
    g_assert_cmpuint(mlx5_fw_object_count(h->fw), ==, 5);
    g_assert_cmpuint(h_nerrors(h), ==, 0);
}

static void test_enable_hca_bad_function(void)
{
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) a = hcmd_new(OP_ENABLE_HCA, 0);
    g_autoptr(HCmd) b = hcmd_new(OP_ENABLE_HCA, 0);

    IN_SET(a, enable_hca_in, function_id, 1);
    h_fail(h, a, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_FUNCTION);
    IN_SET(b, enable_hca_in, embedded_cpu_function, 1);
    h_fail(h, b, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_FUNCTION);
    g_assert_cmpint(h->fw->hca_state, ==, MLX5_HCA_DISABLED);
}

static void test_disable_hca_bad_function(void)
{
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) c = hcmd_new(OP_DISABLE_HCA, 0);

    h_bringup(h);
    IN_SET(c, disable_hca_in, function_id, 2);
    h_fail(h, c, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_FUNCTION);
    g_assert_cmpint(h->fw->hca_state, ==, MLX5_HCA_INITIALIZED);
}

/* Error recovery re-enables without a teardown: a clean function. */
static void test_enable_hca_again_starts_clean(void)
{
    g_autoptr(Harness) h = h_new();

    populate(h);
    h_ok_free(h, hcmd_new(OP_ENABLE_HCA, 0));
    g_assert_cmpuint(mlx5_fw_object_count(h->fw), ==, 0);
    g_assert_cmpint(h->fw->hca_state, ==, MLX5_HCA_ENABLED);
    h_ok_free(h, hcmd_new(OP_INIT_HCA, 0));
}

static void test_init_hca_twice(void)
{
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) c = hcmd_new(OP_INIT_HCA, 0);

    h_init(h);
    h_fail(h, c, MLX5_CMD_STAT_BAD_SYS_STATE, MLX5_SYND_ALREADY_INIT);
}

static void test_teardown_before_init(void)
{
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) c = hcmd_new(OP_TEARDOWN_HCA, 0);

    h_enable(h);
    h_fail(h, c, MLX5_CMD_STAT_BAD_SYS_STATE, MLX5_SYND_NOT_INITIALIZED);
}

static void test_teardown_unsupported_profile(void)
{
    g_autoptr(Harness) h = h_new();

    h_bringup(h);
    for (unsigned profile = 1; profile <= 2; profile++) {   /* force, fast */
        g_autoptr(HCmd) c = hcmd_new(OP_TEARDOWN_HCA, 0);
        IN_SET(c, teardown_hca_in, profile, profile);
        h_fail(h, c, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_TEARDOWN_PROFILE);
    }
    g_assert_cmpint(h->fw->hca_state, ==, MLX5_HCA_INITIALIZED);
}

static void test_teardown_frees_every_object(void)
{
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) c = hcmd_new(OP_TEARDOWN_HCA, 0);

    g_assert_cmpuint(mlx5_fw_object_count(h->fw), ==, 0);
    g_assert_cmpuint(populate(h), ==, mlx5_fw_object_count(h->fw));
    h_ok(h, c);
    g_assert_cmpuint(OUT_GET(c, teardown_hca_out, state), ==, 0);
    g_assert_cmpuint(mlx5_fw_object_count(h->fw), ==, 0);
    g_assert_cmpint(h->fw->hca_state, ==, MLX5_HCA_ENABLED);
    /* And the function initializes again. */
    h_ok_free(h, hcmd_new(OP_INIT_HCA, 0));
    g_assert_cmpuint(h_alloc_simple(h, OP_ALLOC_PD), !=, 0);
}

static void test_disable_frees_every_object(void)
{
    g_autoptr(Harness) h = h_new();

    populate(h);
    h_ok_free(h, hcmd_new(OP_DISABLE_HCA, 0));
    g_assert_cmpuint(mlx5_fw_object_count(h->fw), ==, 0);
    g_assert_cmpint(h->fw->hca_state, ==, MLX5_HCA_DISABLED);
    h_assert_usable(h);
}

static void test_reset_frees_every_object(void)
{
    g_autoptr(Harness) h = h_new();
    unsigned n = populate(h);

    g_assert_cmpuint(mlx5_fw_reset(h->fw, "test"), ==, n);
    g_assert_cmpuint(mlx5_fw_object_count(h->fw), ==, 0);
    g_assert_cmpint(h->fw->hca_state, ==, MLX5_HCA_DISABLED);
    g_assert_cmpuint(mlx5_fw_reset(h->fw, "again"), ==, 0);
    /* A new driver comes up on the same device. */
    h_cmdq_setup(h);
    h->via_cmdq = true;
    g_assert_cmpuint(populate(h), ==, n);
    g_assert_cmpuint(mlx5_fw_reset(h->fw, "flr"), ==, n);
}

/* Reset also drops what SET_HCA_CAP changed and the ISSI. */
static void test_reset_restores_caps(void)
{
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) c = hcmd_new(OP_SET_HCA_CAP, GENERAL_MAX);

    h_enable(h);
    memcpy(IN_PTR(c, set_hca_cap_in, capability), MLX5_CAP_CUR(h->fw, 0), MLX5_CAP_BYTES);
    PRM_SET(cmd_hca_cap, log_max_qp, IN_PTR(c, set_hca_cap_in, capability), 7);
    h_ok(h, c);
    mlx5_fw_reset(h->fw, "test");
    g_assert_cmpuint(MLX5_CAP_GET(h->fw, MLX5_CAP_GENERAL, cmd_hca_cap, log_max_qp), ==, 18);
    g_assert_cmpuint(h->fw->issi, ==, 0);
}

static void test_query_and_set_issi(void)
{
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) q = hcmd_new(OP_QUERY_ISSI, 0);
    g_autoptr(HCmd) s = hcmd_new(OP_SET_ISSI, 0);

    h_ok_free(h, hcmd_new(OP_ENABLE_HCA, 0));
    h_ok(h, q);
    g_assert_cmpuint(OUT_GET(q, query_issi_out, current_issi), ==, 0);
    g_assert_cmphex(OUT_GET(q, query_issi_out, supported_issi_dw0), ==, 0x3);
    IN_SET(s, set_issi_in, current_issi, 1);
    h_ok(h, s);
    h_ok(h, q);
    g_assert_cmpuint(OUT_GET(q, query_issi_out, current_issi), ==, 1);
}

static void test_set_issi_unsupported(void)
{
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) s = hcmd_new(OP_SET_ISSI, 0);

    h_enable(h);
    IN_SET(s, set_issi_in, current_issi, 2);
    h_fail(h, s, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_ISSI);
    g_assert_cmpuint(h->fw->issi, ==, 1);
}

static void test_query_pages_asks_for_none(void)
{
    g_autoptr(Harness) h = h_new();

    h_enable(h);
    for (unsigned op_mod = 1; op_mod <= 3; op_mod++) {
        g_autoptr(HCmd) c = hcmd_new(OP_QUERY_PAGES, op_mod);
        memset(c->out, 0xff, c->outlen);
        h_ok(h, c);
        g_assert_cmpuint(OUT_GET(c, query_pages_out, num_pages), ==, 0);
    }
}

static void test_query_pages_bad_input(void)
{
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) a = hcmd_new(OP_QUERY_PAGES, 0);
    g_autoptr(HCmd) b = hcmd_new(OP_QUERY_PAGES, 4);
    g_autoptr(HCmd) c = hcmd_new(OP_QUERY_PAGES, 1);

    h_enable(h);
    h_fail(h, a, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_OP_MOD);
    h_fail(h, b, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_OP_MOD);
    IN_SET(c, query_pages_in, function_id, 1);
    h_fail(h, c, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_FUNCTION);
}

static HCmd *give_cmd(uint32_t n, uint32_t listed)
{
    uint32_t pas = PRM_BYTE_OFF(manage_pages_in, pas);
    HCmd *c = hcmd_new(OP_MANAGE_PAGES, 1);

    hcmd_grow_in(c, pas + 8 * listed);
    IN_SET(c, manage_pages_in, input_num_entries, n);
    for (uint32_t i = 0; i < listed; i++) {
        prm_put_be64(c->in + pas + 8 * i, GUEST_BASE + (uint64_t)i * PAGE);
    }
    return c;
}

static HCmd *take(Harness *h, uint32_t n, uint32_t room)
{
    HCmd *c = hcmd_new_len(OP_MANAGE_PAGES, 2, PRM_BYTES(manage_pages_in),
                           PRM_BYTE_OFF(manage_pages_out, pas) + 8 * room);
    IN_SET(c, manage_pages_in, input_num_entries, n);
    return h_ok(h, c);
}

static void test_manage_pages_give_then_take(void)
{
    g_autoptr(Harness) h = h_new();
    uint32_t pas = PRM_BYTE_OFF(manage_pages_out, pas);
    HCmd *t;

    h_enable(h);
    h_ok_free(h, give_cmd(3, 3));
    t = take(h, 2, 2);
    g_assert_cmpuint(OUT_GET(t, manage_pages_out, output_num_entries), ==, 2);
    g_assert_cmphex(prm_be64(t->out + pas), ==, GUEST_BASE + 2 * PAGE);
    g_assert_cmphex(prm_be64(t->out + pas + 8), ==, GUEST_BASE + 1 * PAGE);
    hcmd_free(t);
    t = take(h, 5, 5);                          /* more than left */
    g_assert_cmpuint(OUT_GET(t, manage_pages_out, output_num_entries), ==, 1);
    g_assert_cmphex(prm_be64(t->out + pas), ==, GUEST_BASE);
    hcmd_free(t);
    t = take(h, 1, 1);
    g_assert_cmpuint(OUT_GET(t, manage_pages_out, output_num_entries), ==, 0);
    hcmd_free(t);
}

static void test_manage_pages_take_limited_by_outlen(void)
{
    g_autoptr(Harness) h = h_new();
    HCmd *t;

    h_enable(h);
    h_ok_free(h, give_cmd(4, 4));
    t = take(h, 4, 2);
    g_assert_cmpuint(OUT_GET(t, manage_pages_out, output_num_entries), ==, 2);
    hcmd_free(t);
}

static void test_manage_pages_alloc_failed_op_mod(void)
{
    g_autoptr(Harness) h = h_new();

    h_enable(h);
    h_ok_free(h, hcmd_new(OP_MANAGE_PAGES, 0));
}

static void test_manage_pages_bad_input(void)
{
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) shortlist = give_cmd(4, 2);
    g_autoptr(HCmd) op = hcmd_new(OP_MANAGE_PAGES, 3);
    g_autoptr(HCmd) fn = give_cmd(1, 1);

    h_enable(h);
    h_fail(h, shortlist, MLX5_CMD_STAT_BAD_INP_LEN, MLX5_SYND_IN_TOO_SHORT);
    h_fail(h, op, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_OP_MOD);
    IN_SET(fn, manage_pages_in, function_id, 5);
    h_fail(h, fn, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_FUNCTION);
    g_assert_cmpuint(h->fw->npages, ==, 0);
}

/* At most MLX5_MAX_PAGES pages are kept (4 GiB of guest memory). */
static void test_manage_pages_give_over_limit(void)
{
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) all = give_cmd(MLX5_MAX_PAGES, MLX5_MAX_PAGES);
    g_autoptr(HCmd) one = give_cmd(1, 1);

    h_enable(h);
    h_ok(h, all);
    h_fail(h, one, MLX5_CMD_STAT_NO_RES, MLX5_SYND_NO_RESOURCE);
    g_assert_cmpuint(h->fw->npages, ==, MLX5_MAX_PAGES);
}

static void test_query_hca_cap_types(void)
{
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) gmax = hcmd_new(OP_QUERY_HCA_CAP, GENERAL_MAX);
    g_autoptr(HCmd) gcur = hcmd_new(OP_QUERY_HCA_CAP, GENERAL_CUR);
    g_autoptr(HCmd) eth = hcmd_new(OP_QUERY_HCA_CAP, MLX5_CAP_ETHERNET_OFFLOADS << 1 | 1);
    g_autoptr(HCmd) roce = hcmd_new(OP_QUERY_HCA_CAP, MLX5_CAP_ROCE << 1 | 1);
    g_autoptr(HCmd) ft = hcmd_new(OP_QUERY_HCA_CAP, MLX5_CAP_FLOW_TABLE << 1 | 1);
    const uint8_t *cap, *rx;

    h_ok_free(h, hcmd_new(OP_ENABLE_HCA, 0));
    h_ok(h, gmax);
    h_ok(h, gcur);
    g_assert_cmpmem(gmax->out, gmax->outlen, gcur->out, gcur->outlen);
    cap = OUT_PTR(gcur, query_hca_cap_out, capability);
    g_assert_cmpuint(PRM_GET(cmd_hca_cap, port_type, cap), ==, 1);
    g_assert_cmpuint(PRM_GET(cmd_hca_cap, log_max_eq_sz, cap), ==, 13);
    g_assert_cmpuint(PRM_GET(cmd_hca_cap, log_pg_sz, cap), ==, 12);
    g_assert_cmpuint(PRM_GET(cmd_hca_cap, cqe_version, cap), ==, 1);
    h_ok(h, eth);
    cap = OUT_PTR(eth, query_hca_cap_out, capability);
    g_assert_cmpuint(PRM_GET(per_protocol_networking_offload_caps, csum_cap, cap), ==, 1);
    h_ok(h, roce);
    cap = OUT_PTR(roce, query_hca_cap_out, capability);
    g_assert_cmpuint(PRM_GET(roce_cap, r_roce_dest_udp_port, cap), ==, 4791);
    h_ok(h, ft);
    cap = OUT_PTR(ft, query_hca_cap_out, capability);
    rx = PRM_PTR(flow_table_nic_cap, flow_table_properties_nic_receive, cap);
    g_assert_cmpuint(PRM_GET(flow_table_prop_layout, ft_support, rx), ==, 1);
}

static void test_query_hca_cap_bad_input(void)
{
    static const uint16_t bad_op_mods[] = {
        MLX5_CAP_ETHERNET_OFFLOADS << 1 | 0x100, MLX5_CAP_GENERAL_2 << 1,
        MLX5_CAP_TYPES << 1, 0xffff,
    };
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) other = hcmd_new(OP_QUERY_HCA_CAP, GENERAL_CUR);

    h_enable(h);
    for (size_t i = 0; i < G_N_ELEMENTS(bad_op_mods); i++) {
        g_autoptr(HCmd) c = hcmd_new(OP_QUERY_HCA_CAP, bad_op_mods[i]);
        h_fail(h, c, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_CAP_TYPE);
    }
    IN_SET(other, query_hca_cap_in, other_function, 1);
    h_fail(h, other, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_FUNCTION);
}

static void test_set_hca_cap_changes_current_only(void)
{
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) set = NULL;
    g_autoptr(HCmd) cur = hcmd_new(OP_QUERY_HCA_CAP, GENERAL_CUR);
    g_autoptr(HCmd) max = hcmd_new(OP_QUERY_HCA_CAP, GENERAL_MAX);

    h_enable(h);
    set = h_set_general_cap(h, "log_max_qp", 10);
    h_ok(h, set);
    h_ok(h, cur);
    h_ok(h, max);
    g_assert_cmpuint(PRM_GET(cmd_hca_cap, log_max_qp,
                             OUT_PTR(cur, query_hca_cap_out, capability)), ==, 10);
    g_assert_cmpuint(PRM_GET(cmd_hca_cap, log_max_qp,
                             OUT_PTR(max, query_hca_cap_out, capability)), ==, 18);
}

static void test_set_hca_cap_bad_type(void)
{
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) odd = hcmd_new(OP_SET_HCA_CAP, GENERAL_CUR);
    g_autoptr(HCmd) eth = hcmd_new(OP_SET_HCA_CAP, MLX5_CAP_ETHERNET_OFFLOADS << 1);
    g_autoptr(HCmd) big = hcmd_new(OP_SET_HCA_CAP, MLX5_CAP_TYPES << 1);

    h_enable(h);
    h_fail(h, odd, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_CAP_TYPE);
    h_fail(h, eth, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_CAP_TYPE);
    h_fail(h, big, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_CAP_TYPE);
}

/* The on-demand paging page: QUERY answers it; SET takes what mlx5_core
 * writes (CUR, with the bits MAX has turned on: main.c
 * handle_hca_cap_odp) and refuses a bit MAX lacks (UC faults are not
 * offered). */
static void test_set_hca_cap_odp(void)
{
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) q = hcmd_new(OP_QUERY_HCA_CAP, MLX5_CAP_ODP << 1 | 1);
    g_autoptr(HCmd) same = hcmd_new(OP_SET_HCA_CAP, MLX5_CAP_ODP << 1);
    g_autoptr(HCmd) more = hcmd_new(OP_SET_HCA_CAP, MLX5_CAP_ODP << 1);
    const uint8_t *got;
    uint8_t *want;

    h_enable(h);
    h_ok(h, q);
    got = OUT_PTR(q, query_hca_cap_out, capability);
    g_assert_cmpuint(PRM_GET(cmd_hca_cap, pg, MLX5_CAP_CUR(h->fw, MLX5_CAP_GENERAL)), ==, 1);
    /* send, receive, write, read, atomic, srq_receive */
    g_assert_cmphex(PRM_GET(odp_cap, rc_odp_caps, got), ==, 0xfc000000u);
    g_assert_cmphex(PRM_GET(odp_cap, xrc_odp_caps, got), ==, 0xfc000000u);
    g_assert_cmphex(PRM_GET(odp_cap, ud_odp_caps, got), ==, 0x80000000u);     /* send */
    memcpy(IN_PTR(same, set_hca_cap_in, capability), got, MLX5_CAP_BYTES);
    h_ok(h, same);
    want = IN_PTR(more, set_hca_cap_in, capability);
    memcpy(want, got, MLX5_CAP_BYTES);
    PRM_SET(odp_cap, uc_odp_caps, want,
            1u << (31 - PRM_OFF(odp_per_transport_service_cap, send)));
    h_fail(h, more, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_CAP_TYPE);
    g_assert_cmpuint(PRM_GET(odp_cap, uc_odp_caps, MLX5_CAP_CUR(h->fw, MLX5_CAP_ODP)), ==, 0);
}

/* The atomic group: 8-byte CAS and FAA on QPs; software may choose host
 * byte order (mode 1) and nothing else, as mlx5_core does it - a zeroed
 * capability but for that field (handle_hca_cap_atomic). */
static void test_atomic_caps(void)
{
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) max = hcmd_new(OP_QUERY_HCA_CAP, MLX5_CAP_ATOMIC << 1);
    g_autoptr(HCmd) set = hcmd_new(OP_SET_HCA_CAP, MLX5_CAP_ATOMIC << 1);
    g_autoptr(HCmd) bad = hcmd_new(OP_SET_HCA_CAP, MLX5_CAP_ATOMIC << 1);
    const uint8_t *a;

    h_enable(h);
    g_assert_cmpuint(MLX5_CAP_GET(h->fw, MLX5_CAP_GENERAL, cmd_hca_cap, atomic), ==, 1);
    h_ok(h, max);
    a = OUT_PTR(max, query_hca_cap_out, capability);
    g_assert_cmphex(PRM_GET(atomic_caps, atomic_operations, a), ==, 0x3);
    g_assert_cmphex(PRM_GET(atomic_caps, atomic_size_qp, a) & 0x8, ==, 0x8);
    g_assert_cmpuint(PRM_GET(atomic_caps, supported_atomic_req_8B_endianness_mode_1, a), ==, 1);
    PRM_SET(atomic_caps, atomic_req_8B_endianness_mode,
            IN_PTR(set, set_hca_cap_in, capability), 1);
    h_ok(h, set);
    g_assert_cmpuint(MLX5_CAP_GET(h->fw, MLX5_CAP_ATOMIC, atomic_caps,
                                  atomic_req_8B_endianness_mode), ==, 1);
    /* the zeroed rest did not clear what the device can do */
    g_assert_cmphex(MLX5_CAP_GET(h->fw, MLX5_CAP_ATOMIC, atomic_caps, atomic_operations), ==, 0x3);
    PRM_SET(atomic_caps, atomic_req_8B_endianness_mode,
            IN_PTR(bad, set_hca_cap_in, capability), 2);
    h_fail(h, bad, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_CAP_TYPE);
}

/* A feature the device does not have cannot be switched on. */
static void test_set_hca_cap_unsupported_feature(void)
{
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) c = NULL;

    h_enable(h);
    c = h_set_general_cap(h, "dct", 1);
    h_fail(h, c, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_CAP_TYPE);
    g_assert_cmpuint(MLX5_CAP_GET(h->fw, MLX5_CAP_GENERAL, cmd_hca_cap, dct), ==, 0);
}

/* caps.c: "a log2 limit cannot grow past MAX" (SET_HCA_CAP updates CUR
 * within MAX). */
static void test_set_hca_cap_cannot_raise_limits(void)
{
    static const char *fields[] = { "log_max_eq_sz", "log_max_cq_sz", "log_max_wq_sz",
                                    "log_max_qp" };
    g_autoptr(Harness) h = h_new();

    h_enable(h);
    for (size_t i = 0; i < G_N_ELEMENTS(fields); i++) {
        g_autoptr(HCmd) c = h_set_general_cap(h, fields[i], 31);
        g_test_message("SET_HCA_CAP %s = 31", fields[i]);
        h_fail(h, c, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_CAP_TYPE);
    }
}

/* Fields wider than 16 bits are limits too where mlx5_ifc.h says so: a
 * multicast group's QPs cannot grow past MAX (mcg.c bounds ATTACH_TO_MCG
 * by it); they may shrink. */
static void test_set_hca_cap_wide_limit(void)
{
    static const uint64_t raised[] = { 241, 0x10000, 0x1ffffff };
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) lower = NULL;

    h_enable(h);
    g_assert_cmpuint(MLX5_CAP_GET(h->fw, MLX5_CAP_GENERAL, cmd_hca_cap, max_qp_mcg), ==, 240);
    for (size_t i = 0; i < G_N_ELEMENTS(raised); i++) {
        g_autoptr(HCmd) c = h_set_general_cap(h, "max_qp_mcg", raised[i]);
        h_fail(h, c, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_CAP_TYPE);
        g_assert_cmpuint(MLX5_CAP_GET(h->fw, MLX5_CAP_GENERAL, cmd_hca_cap, max_qp_mcg), ==, 240);
    }
    lower = h_set_general_cap(h, "max_qp_mcg", 8);
    h_ok(h, lower);
    g_assert_cmpuint(MLX5_CAP_GET(h->fw, MLX5_CAP_GENERAL, cmd_hca_cap, max_qp_mcg), ==, 8);
}

/* The other wide fields are masks (no bit MAX lacks) or the device's own
 * values (only as MAX has them). */
static void test_set_hca_cap_masks_and_device_values(void)
{
    static const struct { const char *field; uint64_t v; } refused[] = {
        { "general_obj_types", 1ull << 1 }, { "uctx_cap", 1 },
        { "vhca_tunnel_commands", 1ull << 63 }, { "match_definer_format_supported", 1 },
        { "device_frequency_khz", 156250 }, { "create_qp_start_hint", 0x1000 },
        { "num_of_uars_per_page", 2 }, { "num_of_uars_per_page", 0 },
    };
    g_autoptr(Harness) h = h_new();

    h_enable(h);
    for (size_t i = 0; i < G_N_ELEMENTS(refused); i++) {
        g_autoptr(HCmd) c = h_set_general_cap(h, refused[i].field, refused[i].v);
        g_test_message("SET_HCA_CAP %s = 0x%" PRIx64, refused[i].field, refused[i].v);
        h_fail(h, c, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_CAP_TYPE);
    }
    g_assert_cmpuint(MLX5_CAP_GET(h->fw, MLX5_CAP_GENERAL, cmd_hca_cap, num_of_uars_per_page),
                     ==, 1);
}

/* The RoCE page is checked like the general one: its table size cannot
 * grow, and the RoCE versions are a mask (bit 1 is not one we have, though
 * 0x2 < 0x5). */
static void test_set_hca_cap_roce_within_max(void)
{
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) same = hcmd_new(OP_SET_HCA_CAP, MLX5_CAP_ROCE << 1);
    g_autoptr(HCmd) size = hcmd_new(OP_SET_HCA_CAP, MLX5_CAP_ROCE << 1);
    g_autoptr(HCmd) version = hcmd_new(OP_SET_HCA_CAP, MLX5_CAP_ROCE << 1);

    h_enable(h);
    memcpy(IN_PTR(same, set_hca_cap_in, capability), MLX5_CAP_CUR(h->fw, MLX5_CAP_ROCE),
           MLX5_CAP_BYTES);
    memcpy(IN_PTR(size, set_hca_cap_in, capability), MLX5_CAP_CUR(h->fw, MLX5_CAP_ROCE),
           MLX5_CAP_BYTES);
    memcpy(IN_PTR(version, set_hca_cap_in, capability), MLX5_CAP_CUR(h->fw, MLX5_CAP_ROCE),
           MLX5_CAP_BYTES);
    PRM_SET(roce_cap, roce_address_table_size, IN_PTR(size, set_hca_cap_in, capability), 0xffff);
    PRM_SET(roce_cap, roce_version, IN_PTR(version, set_hca_cap_in, capability), 0x2);
    h_ok(h, same);
    h_fail(h, size, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_CAP_TYPE);
    h_fail(h, version, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_CAP_TYPE);
    g_assert_cmpuint(MLX5_CAP_GET(h->fw, MLX5_CAP_ROCE, roce_cap, roce_address_table_size), ==,
                     MLX5_GID_TABLE_SIZE);
    g_assert_cmphex(MLX5_CAP_GET(h->fw, MLX5_CAP_ROCE, roce_cap, roce_version), ==, 0x5);
}

static void test_query_adapter(void)
{
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) c = hcmd_new(OP_QUERY_ADAPTER, 0);
    const uint8_t *blk;

    h_init(h);
    h_ok(h, c);
    blk = OUT_PTR(c, query_adapter_out, query_adapter_struct);
    g_assert_cmphex(PRM_GET(query_adapter_param_block, ieee_vendor_id, blk), ==, 0x0002c9);
    g_assert_cmphex(PRM_GET(query_adapter_param_block, vsd_vendor_id, blk), ==, 0x15b3);
    g_assert_cmpmem(PRM_PTR(query_adapter_param_block, vsd_contd_psid, blk), 13,
                    "MT_0000000359", 13);
}

static void test_set_driver_version_any_string(void)
{
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) c = hcmd_new(OP_SET_DRIVER_VERSION, 0);

    h_init(h);
    memset(IN_PTR(c, set_driver_version_in, driver_version), 'x', 64);  /* no NUL */
    h_ok(h, c);
}

/* The driver's whole life, every command of cmd-list.h at least once. */
static void lifecycle(Harness *h)
{
    HRing cq;
    uint32_t q;

    populate(h);
    cq = h_create_cq(h, h->comp_eq.num, 4);
    {
        g_autoptr(HCmd) c = hcmd_new(OP_QUERY_ADAPTER, 0);
        h_ok(h, c);
    }
    h_ok_free(h, hcmd_new(OP_MANAGE_PAGES, 0));
    {
        g_autoptr(HCmd) c = hcmd_new(OP_QUERY_EQ, 0);
        IN_SET(c, query_eq_in, eq_number, h->comp_eq.num);
        h_ok(h, c);
    }
    {
        g_autoptr(HCmd) c = hcmd_new(OP_QUERY_CQ, 0);
        IN_SET(c, query_cq_in, cqn, cq.num);
        h_ok(h, c);
    }
    {
        g_autoptr(HCmd) c = hcmd_new(OP_MODIFY_CQ, 0);
        IN_SET(c, modify_cq_in, cqn, cq.num);
        h_ok(h, c);
    }
    q = h_alloc_simple(h, OP_ALLOC_Q_COUNTER);
    {
        g_autoptr(HCmd) c = hcmd_new(OP_QUERY_Q_COUNTER, 0);
        IN_SET(c, query_q_counter_in, counter_set_id, q);
        h_ok(h, c);
    }
    h_destroy(h, OP_DEALLOC_Q_COUNTER, q);
    {
        uint32_t mkey = h_create_mkey(h, GUEST_BASE, PAGE, true);
        g_autoptr(HCmd) c = hcmd_new(OP_QUERY_MKEY, 0);
        IN_SET(c, query_mkey_in, mkey_index, mkey >> 8);
        h_ok(h, c);
        h_destroy(h, OP_DESTROY_MKEY, mkey >> 8);
    }
    h_ok_free(h, hcmd_new(OP_QUERY_VPORT_STATE, 0));
    h_ok_free(h, hcmd_new(OP_QUERY_NIC_VPORT_CONTEXT, 0));
    h_ok_free(h, hcmd_new(OP_MODIFY_NIC_VPORT_CONTEXT, 0));
    h_ok_free(h, hcmd_new(OP_SET_ROCE_ADDRESS, 0));
    h_ok_free(h, hcmd_new_len(OP_QUERY_HCA_VPORT_PKEY, 0, 16, 16 + 4));
    h_ok_free(h, hcmd_new(OP_QUERY_VPORT_COUNTER, 0));
    h_destroy(h, OP_DEALLOC_XRCD, h_alloc_simple(h, OP_ALLOC_XRCD));
    h_destroy(h, OP_DEALLOC_TRANSPORT_DOMAIN, h_alloc_simple(h, OP_ALLOC_TRANSPORT_DOMAIN));
    h_destroy(h, OP_DEALLOC_PD, h_alloc_simple(h, OP_ALLOC_PD));
    h_destroy(h, OP_DEALLOC_UAR, h_alloc_simple(h, OP_ALLOC_UAR));
    h_ok_free(h, hcmd_new(OP_PAGE_FAULT_RESUME, 0));    /* no such fault: ignored */
    h_ok_free(h, hcmd_new(OP_QUERY_SPECIAL_CONTEXTS, 0));
    {
        g_autoptr(HCmd) pp = hcmd_new(OP_SET_PP_RATE_LIMIT, 0);

        IN_SET(pp, set_pp_rate_limit_in, rate_limit_index, 1);     /* rate 0: cleared */
        h_ok(h, pp);
    }
    {
        g_autoptr(HCmd) am = hcmd_new(OP_ALLOC_MEMIC, 0);
        g_autoptr(HCmd) dm = hcmd_new(OP_DEALLOC_MEMIC, 0);

        IN_SET(am, alloc_memic_in, range_start_addr, MLX5_MEMIC_BAR_OFFSET);
        IN_SET(am, alloc_memic_in, range_size, 4096);
        IN_SET(am, alloc_memic_in, memic_size, 64);
        h_ok(h, am);
        IN_SET(dm, dealloc_memic_in, memic_start_addr,
               OUT_GET(am, alloc_memic_out, memic_start_addr));
        IN_SET(dm, dealloc_memic_in, memic_size, 64);
        h_ok(h, dm);
    }
    {
        HRing sq = h_create_sq(h, cq.num, 4), rq = h_create_rq(h, cq.num, 4);
        uint32_t tis = h_create_tis(h), tir = h_create_tir_direct(h, rq.num);
        uint32_t rqt = h_create_rqt(h, &rq.num, 1, 2);
        g_autoptr(HCmd) qs = hcmd_new(OP_QUERY_SQ, 0);
        g_autoptr(HCmd) qr = hcmd_new(OP_QUERY_RQ, 0);
        g_autoptr(HCmd) mt = hcmd_new(OP_MODIFY_TIS, 0);
        g_autoptr(HCmd) mr = hcmd_new(OP_MODIFY_TIR, 0);
        g_autoptr(HCmd) mq = hcmd_new(OP_MODIFY_RQT, 0);

        g_assert_cmphex(h_modify_sq(h, sq.num, ST_RST, ST_RDY), ==, 0);
        g_assert_cmphex(h_modify_rq(h, rq.num, ST_RST, ST_RDY), ==, 0);
        IN_SET(qs, query_sq_in, sqn, sq.num);
        h_ok(h, qs);
        IN_SET(qr, query_rq_in, rqn, rq.num);
        h_ok(h, qr);
        IN_SET(mt, modify_tis_in, tisn, tis);
        h_ok(h, mt);
        IN_SET(mr, modify_tir_in, tirn, tir);
        h_ok(h, mr);
        IN_SET(mq, modify_rqt_in, rqtn, rqt);
        h_ok(h, mq);
        h_destroy(h, OP_DESTROY_TIR, tir);
        h_destroy(h, OP_DESTROY_RQT, rqt);
        h_destroy(h, OP_DESTROY_TIS, tis);
        h_destroy(h, OP_DESTROY_SQ, sq.num);
        h_destroy(h, OP_DESTROY_RQ, rq.num);
    }
    {
        static const uint16_t qp_path[] = {
            OP_RST2INIT_QP, OP_INIT2INIT_QP, OP_INIT2RTR_QP, OP_RTR2RTS_QP, OP_RTS2RTS_QP,
            OP_2ERR_QP, OP_2RST_QP,
        };
        uint32_t xrcd = h_alloc_simple(h, OP_ALLOC_XRCD);
        uint32_t srq = h_create_srq(h, 0, 4), xsrq = h_create_xrc_srq(h, xrcd, cq.num, 4);
        uint32_t rmp = h_create_rmp(h, 4);
        HRing qp = h_create_qp(h, MLX5_QP_ST_RC, h->pd, cq.num, cq.num, h->uar, 4, 4);
        g_autoptr(HCmd) arm = hcmd_new(OP_ARM_RQ, 1);

        HRing ud = h_create_qp(h, MLX5_QP_ST_UD, h->pd, cq.num, cq.num, h->uar, 4, 4);

        for (size_t i = 0; i < G_N_ELEMENTS(qp_path); i++) {
            g_assert_cmphex(h_modify_qp(h, qp_path[i], qp.num), ==, MLX5_CMD_STAT_OK);
        }
        /* A UD QP's send error (as the data path reports one) puts it in
         * SQER; SQERR2RTS takes it back. */
        for (size_t i = 0; i < 3; i++) {
            g_assert_cmphex(h_modify_qp(h, qp_path[i == 0 ? 0 : i + 1], ud.num), ==,
                            MLX5_CMD_STAT_OK);
        }
        mlx5_qp_send_error(h->fw, mlx5_qp_get(h->fw, ud.num));
        g_assert_cmpuint(h_query_qp_state(h, ud.num), ==, MLX5_QP_STATE_SQER);
        g_assert_cmphex(h_modify_qp(h, OP_SQERR2RTS_QP, ud.num), ==, MLX5_CMD_STAT_OK);
        g_assert_cmpuint(h_query_qp_state(h, ud.num), ==, MLX5_QP_STATE_RTS);
        for (uint16_t op = OP_ATTACH_TO_MCG; op <= OP_DETACH_FROM_MCG; op++) {
            g_autoptr(HCmd) m = hcmd_new(op, 0);
            IN_SET(m, attach_to_mcg_in, qpn, ud.num);
            IN_PTR(m, attach_to_mcg_in, multicast_gid)[0] = 0xff;
            h_ok(h, m);
        }
        h_destroy(h, OP_DESTROY_QP, ud.num);
        hcmd_free(h_query_qp(h, qp.num));
        h_ok_free(h, h_query_cmd(OP_QUERY_SRQ, srq));
        h_ok_free(h, h_query_cmd(OP_QUERY_XRC_SRQ, xsrq));
        h_ok_free(h, h_query_cmd(OP_QUERY_RMP, rmp));
        IN_SET(arm, arm_rq_in, srq_number, srq);
        h_ok(h, arm);
        {
            g_autoptr(HCmd) xarm = hcmd_new(OP_ARM_XRC_SRQ, 1);
            IN_SET(xarm, arm_xrc_srq_in, xrc_srqn, xsrq);
            IN_SET(xarm, arm_xrc_srq_in, lwm, 2);
            h_ok(h, xarm);
        }
        h_ok_free(h, h_modify_rmp_cmd(rmp, ST_RDY, ST_RST));
        h_destroy(h, OP_DESTROY_QP, qp.num);
        h_destroy(h, OP_DESTROY_RMP, rmp);
        h_destroy(h, OP_DESTROY_XRC_SRQ, xsrq);
        h_destroy(h, OP_DESTROY_SRQ, srq);
        h_destroy(h, OP_DEALLOC_XRCD, xrcd);
    }
    {
        uint32_t ft = h_create_flow_table(h, 2, 1), ft2 = h_create_flow_table(h, 2, 2);
        uint32_t fg = h_create_flow_group(h, ft, 0, 1);
        g_autoptr(HCmd) fte = h_fte_cmd(0, ft, fg, 1, FT_ACTION_FWD, FT_DEST_FLOW_TABLE, ft2, 1);
        g_autoptr(HCmd) del = hcmd_new(OP_DELETE_FLOW_TABLE_ENTRY, 0);
        g_autoptr(HCmd) root = hcmd_new(OP_SET_FLOW_TABLE_ROOT, 0);
        g_autoptr(HCmd) miss = hcmd_new(OP_MODIFY_FLOW_TABLE, 0);
        g_autoptr(HCmd) dg = hcmd_new(OP_DESTROY_FLOW_GROUP, 0);
        g_autoptr(HCmd) dt = hcmd_new(OP_DESTROY_FLOW_TABLE, 0);

        h_ok(h, fte);
        IN_SET(del, delete_fte_in, table_id, ft);
        IN_SET(del, delete_fte_in, flow_index, 1);
        h_ok(h, del);
        IN_SET(root, set_flow_table_root_in, table_id, ft);
        h_ok(h, root);
        IN_SET(miss, modify_flow_table_in, table_id, ft);
        IN_SET(miss, modify_flow_table_in, modify_field_select, 1);
        PRM_SET(flow_table_context, table_miss_action,
                IN_PTR(miss, modify_flow_table_in, flow_table_context), 1);
        PRM_SET(flow_table_context, table_miss_id,
                IN_PTR(miss, modify_flow_table_in, flow_table_context), ft2);
        h_ok(h, miss);
        IN_SET(dg, destroy_flow_group_in, table_id, ft);
        IN_SET(dg, destroy_flow_group_in, group_id, fg);
        h_ok(h, dg);
        IN_SET(dt, destroy_flow_table_in, table_id, ft);
        h_ok(h, dt);
    }
    h_destroy(h, OP_DESTROY_CQ, cq.num);
    h_destroy(h, OP_DESTROY_EQ, h->async_eq.num);
    h_ok_free(h, hcmd_new(OP_TEARDOWN_HCA, 0));
    g_assert_cmpuint(mlx5_fw_object_count(h->fw), ==, 0);
    h_ok_free(h, hcmd_new(OP_MANAGE_PAGES, 0));
    h_ok_free(h, hcmd_new(OP_DISABLE_HCA, 0));
    g_assert_cmpint(h->fw->hca_state, ==, MLX5_HCA_DISABLED);
    g_assert_cmpuint(h_nerrors(h), ==, 0);

#define H_CHECK_RAN_(name, op, fn, in, out, needs) \
    if (!h->ok_ops[op]) g_error("%s(0x%x) never succeeded", #name, op);
    MLX5_CMD_LIST(H_CHECK_RAN_)
#undef H_CHECK_RAN_
}

static void test_lifecycle_runs_every_command(void)
{
    g_autoptr(Harness) h = h_new();
    lifecycle(h);
}

static void test_lifecycle_through_command_queue(void)
{
    g_autoptr(Harness) h = h_new();
    h->via_cmdq = true;
    lifecycle(h);
}

/* The profile names each field once: uc was advertised on and, further
 * down, off again - and the later entry won. */
static void test_caps_each_field_once(void)
{
    g_assert_cmpuint(mlx5_caps_overlaps(), ==, 0);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/hca/bringup-like-driver", test_bringup_like_driver);
    g_test_add_func("/hca/enable-hca-bad-function", test_enable_hca_bad_function);
    g_test_add_func("/hca/disable-hca-bad-function", test_disable_hca_bad_function);
    g_test_add_func("/hca/enable-hca-again-starts-clean", test_enable_hca_again_starts_clean);
    g_test_add_func("/hca/init-hca-twice", test_init_hca_twice);
    g_test_add_func("/hca/teardown-before-init", test_teardown_before_init);
    g_test_add_func("/hca/teardown-unsupported-profile", test_teardown_unsupported_profile);
    g_test_add_func("/hca/teardown-frees-every-object", test_teardown_frees_every_object);
    g_test_add_func("/hca/disable-frees-every-object", test_disable_frees_every_object);
    g_test_add_func("/hca/reset-frees-every-object", test_reset_frees_every_object);
    g_test_add_func("/hca/reset-restores-caps", test_reset_restores_caps);
    g_test_add_func("/hca/query-and-set-issi", test_query_and_set_issi);
    g_test_add_func("/hca/set-issi-unsupported", test_set_issi_unsupported);
    g_test_add_func("/hca/query-pages-asks-for-none", test_query_pages_asks_for_none);
    g_test_add_func("/hca/query-pages-bad-input", test_query_pages_bad_input);
    g_test_add_func("/hca/manage-pages-give-then-take", test_manage_pages_give_then_take);
    g_test_add_func("/hca/manage-pages-take-limited-by-outlen",
                    test_manage_pages_take_limited_by_outlen);
    g_test_add_func("/hca/manage-pages-alloc-failed-op-mod", test_manage_pages_alloc_failed_op_mod);
    g_test_add_func("/hca/manage-pages-bad-input", test_manage_pages_bad_input);
    g_test_add_func("/hca/manage-pages-give-over-limit", test_manage_pages_give_over_limit);
    g_test_add_func("/hca/query-hca-cap-types", test_query_hca_cap_types);
    g_test_add_func("/hca/query-hca-cap-bad-input", test_query_hca_cap_bad_input);
    g_test_add_func("/hca/set-hca-cap-changes-current-only", test_set_hca_cap_changes_current_only);
    g_test_add_func("/hca/set-hca-cap-bad-type", test_set_hca_cap_bad_type);
    g_test_add_func("/hca/set-hca-cap-odp", test_set_hca_cap_odp);
    g_test_add_func("/hca/atomic-caps", test_atomic_caps);
    g_test_add_func("/hca/caps-each-field-once", test_caps_each_field_once);
    g_test_add_func("/hca/set-hca-cap-unsupported-feature", test_set_hca_cap_unsupported_feature);
    h_add_isolated("/hca/set-hca-cap-cannot-raise-limits", test_set_hca_cap_cannot_raise_limits, 30);
    g_test_add_func("/hca/set-hca-cap-wide-limit", test_set_hca_cap_wide_limit);
    g_test_add_func("/hca/set-hca-cap-masks-and-device-values",
                    test_set_hca_cap_masks_and_device_values);
    g_test_add_func("/hca/set-hca-cap-roce-within-max", test_set_hca_cap_roce_within_max);
    g_test_add_func("/hca/query-adapter", test_query_adapter);
    g_test_add_func("/hca/set-driver-version-any-string", test_set_driver_version_any_string);
    g_test_add_func("/hca/lifecycle-runs-every-command", test_lifecycle_runs_every_command);
    g_test_add_func("/hca/lifecycle-through-command-queue", test_lifecycle_through_command_queue);
    return g_test_run();
}
