/*
 * The port and the NIC vport: vport state and PORT_CHANGE events, the NIC
 * vport context (MTU, address lists, promiscuous modes, RoCE enable), the
 * RoCE address table, P_Keys, vport counters; and the access registers
 * (PMTU, PTYS, PAOS, PFCC, PPCNT, PCAM, NODE_DESC, HOST_ENDIANNESS).
 */
#include <string.h>

#include "harness.h"

enum {
    REG_PMTU = 0x5003, REG_PTYS = 0x5004, REG_PAOS = 0x5006, REG_PFCC = 0x5007,
    REG_PPCNT = 0x5008, REG_PCAM = 0x507f, REG_NODE_DESC = 0x6001,
    REG_HOST_ENDIANNESS = 0x7004, REG_MCQS = 0x9060, REG_MCQI = 0x9061, REG_MCAM = 0x907f,
};
#define REG_READ 1
#define REG_WRITE 0
#define NODE_DESC_BYTES 64

static Harness *up(void)
{
    Harness *h = h_new();
    h_bringup(h);
    return h;
}

/* --- vport state and port events -------------------------------------- */

static HCmd *vport_state(Harness *h)
{
    return h_ok(h, hcmd_new(OP_QUERY_VPORT_STATE, 0));
}

static void expect_port_change(Harness *h, unsigned sub_type)
{
    const uint8_t *eqe = h_eq_next(h, &h->async_eq);

    g_assert_nonnull(eqe);
    g_assert_cmphex(eqe[EQE_TYPE], ==, MLX5_EVENT_PORT_CHANGE);
    g_assert_cmphex(eqe[EQE_SUB_TYPE], ==, sub_type);
    g_assert_cmphex(eqe[EQE_PORT] >> 4, ==, 1);                /* port 1 */
    g_assert_null(h_eq_next(h, &h->async_eq));
}

static void test_port_up_posts_port_change(void)
{
    g_autoptr(Harness) h = up();
    HCmd *s = vport_state(h);

    g_assert_cmpuint(OUT_GET(s, query_vport_state_out, state), ==, 0);
    g_assert_cmpuint(OUT_GET(s, query_vport_state_out, admin_state), ==, 0);
    hcmd_free(s);
    h_port_up(h);
    expect_port_change(h, MLX5_PORT_CHANGE_ACTIVE);
    g_assert_cmpuint(h_msix_count(h, 0), ==, 1);               /* async EQ vector */
    s = vport_state(h);
    g_assert_cmpuint(OUT_GET(s, query_vport_state_out, state), ==, 1);
    g_assert_cmpuint(OUT_GET(s, query_vport_state_out, admin_state), ==, 1);
    hcmd_free(s);
    h_port_up(h);                                               /* no change: no event */
    g_assert_null(h_eq_next(h, &h->async_eq));
}

static void test_carrier_follows_link(void)
{
    g_autoptr(Harness) h = up();
    HCmd *s;

    h_port_up(h);
    expect_port_change(h, MLX5_PORT_CHANGE_ACTIVE);
    mlx5_port_set_carrier(h->fw, false);
    expect_port_change(h, MLX5_PORT_CHANGE_DOWN);
    s = vport_state(h);
    g_assert_cmpuint(OUT_GET(s, query_vport_state_out, state), ==, 0);
    hcmd_free(s);
    mlx5_port_set_carrier(h->fw, true);
    expect_port_change(h, MLX5_PORT_CHANGE_ACTIVE);
}

static void test_vport_state_bad_input(void)
{
    g_autoptr(Harness) h = up();
    g_autoptr(HCmd) other = hcmd_new(OP_QUERY_VPORT_STATE, 0);
    g_autoptr(HCmd) op = hcmd_new(OP_QUERY_VPORT_STATE, 2);

    IN_SET(other, query_vport_state_in, other_vport, 1);
    h_fail(h, other, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_PORT);
    h_fail(h, op, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_PORT);
}

/* --- NIC vport context ------------------------------------------------ */

#define LIST_OFF (PRM_BYTE_OFF(modify_nic_vport_context_in, nic_vport_context) + \
                  PRM_BYTE_OFF(nic_vport_context, current_uc_mac_address))
#define QLIST_OFF (PRM_BYTE_OFF(query_nic_vport_context_out, nic_vport_context) + \
                   PRM_BYTE_OFF(nic_vport_context, current_uc_mac_address))

static HCmd *query_ctx(Harness *h, unsigned list_type, uint32_t list_room)
{
    HCmd *c = hcmd_new_len(OP_QUERY_NIC_VPORT_CONTEXT, 0,
                           PRM_BYTES(query_nic_vport_context_in), QLIST_OFF + 8 * list_room);
    IN_SET(c, query_nic_vport_context_in, allowed_list_type, list_type);
    return h_ok(h, c);
}

static uint8_t *qctx(HCmd *c)
{
    return OUT_PTR(c, query_nic_vport_context_out, nic_vport_context);
}

static HCmd *modify_ctx(uint32_t listed)
{
    HCmd *c = hcmd_new(OP_MODIFY_NIC_VPORT_CONTEXT, 0);
    hcmd_grow_in(c, LIST_OFF + 8 * listed);
    return c;
}

static uint8_t *mctx(HCmd *c)
{
    return IN_PTR(c, modify_nic_vport_context_in, nic_vport_context);
}

static void select_field(HCmd *c, const char *what)
{
    uint8_t *sel = IN_PTR(c, modify_nic_vport_context_in, field_select);

    if (!strcmp(what, "mtu")) {
        PRM_SET(modify_nic_vport_field_select, mtu, sel, 1);
    } else if (!strcmp(what, "list")) {
        PRM_SET(modify_nic_vport_field_select, addresses_list, sel, 1);
    } else if (!strcmp(what, "roce")) {
        PRM_SET(modify_nic_vport_field_select, roce_en, sel, 1);
    } else {
        PRM_SET(modify_nic_vport_field_select, promisc, sel, 1);
    }
}

/* An address list of n MACs 02:00:00:00:<type>:<i>. */
static HCmd *list_cmd(unsigned type, uint32_t n, uint32_t listed)
{
    HCmd *c = modify_ctx(listed);

    select_field(c, "list");
    PRM_SET(nic_vport_context, allowed_list_type, mctx(c), type);
    PRM_SET(nic_vport_context, allowed_list_size, mctx(c), n);
    for (uint32_t i = 0; i < listed; i++) {
        uint8_t *m = c->in + LIST_OFF + 8 * i;
        PRM_SET(mac_address_layout, mac_addr_47_32, m, 0x0200);
        PRM_SET(mac_address_layout, mac_addr_31_0, m, type << 8 | i);
    }
    return c;
}

static void test_nic_context_identity(void)
{
    g_autoptr(Harness) h = up();
    g_autoptr(HCmd) q = query_ctx(h, 0, 0);
    uint8_t *ctx = qctx(q);
    uint8_t *perm = PRM_PTR(nic_vport_context, permanent_address, ctx);

    g_assert_cmphex(PRM_GET(mac_address_layout, mac_addr_47_32, perm), ==, 0x0200);
    g_assert_cmphex(PRM_GET(mac_address_layout, mac_addr_31_0, perm), ==, 0x00000001);
    g_assert_cmphex(PRM_GET(nic_vport_context, node_guid, ctx), ==, 0x000000fffe000001ull);
    g_assert_cmphex(PRM_GET(nic_vport_context, port_guid, ctx), ==, 0x000000fffe000001ull);
    g_assert_cmpuint(PRM_GET(nic_vport_context, mtu, ctx), ==, 0);
    g_assert_cmpuint(PRM_GET(nic_vport_context, roce_en, ctx), ==, 0);
}

static void test_nic_context_modify(void)
{
    g_autoptr(Harness) h = up();
    g_autoptr(HCmd) m = modify_ctx(0);
    g_autoptr(HCmd) q = NULL;
    uint8_t *ctx = mctx(m);

    select_field(m, "mtu");
    select_field(m, "roce");
    select_field(m, "promisc");
    PRM_SET(nic_vport_context, mtu, ctx, 1522);
    PRM_SET(nic_vport_context, roce_en, ctx, 1);
    PRM_SET(nic_vport_context, promisc_mc, ctx, 1);
    PRM_SET(nic_vport_context, promisc_all, ctx, 1);
    h_ok(h, m);
    q = query_ctx(h, 0, 0);
    ctx = qctx(q);
    g_assert_cmpuint(PRM_GET(nic_vport_context, mtu, ctx), ==, 1522);
    g_assert_cmpuint(PRM_GET(nic_vport_context, roce_en, ctx), ==, 1);
    g_assert_cmpuint(PRM_GET(nic_vport_context, promisc_uc, ctx), ==, 0);
    g_assert_cmpuint(PRM_GET(nic_vport_context, promisc_mc, ctx), ==, 1);
    g_assert_cmpuint(PRM_GET(nic_vport_context, promisc_all, ctx), ==, 1);
}

static void test_nic_context_address_lists(void)
{
    g_autoptr(Harness) h = up();

    h_ok_free(h, list_cmd(0, 3, 3));
    h_ok_free(h, list_cmd(1, 2, 2));
    for (unsigned type = 0; type < 2; type++) {
        g_autoptr(HCmd) q = query_ctx(h, type, 8);
        uint32_t n = type ? 2 : 3;

        g_assert_cmpuint(PRM_GET(nic_vport_context, allowed_list_type, qctx(q)), ==, type);
        g_assert_cmpuint(PRM_GET(nic_vport_context, allowed_list_size, qctx(q)), ==, n);
        for (uint32_t i = 0; i < n; i++) {
            const uint8_t *mac = q->out + QLIST_OFF + 8 * i;
            g_assert_cmphex(PRM_GET(mac_address_layout, mac_addr_47_32, mac), ==, 0x0200);
            g_assert_cmphex(PRM_GET(mac_address_layout, mac_addr_31_0, mac), ==, type << 8 | i);
        }
    }
    h_ok_free(h, list_cmd(0, 0, 0));                            /* empty the list */
    {
        g_autoptr(HCmd) q = query_ctx(h, 0, 8);
        g_assert_cmpuint(PRM_GET(nic_vport_context, allowed_list_size, qctx(q)), ==, 0);
    }
}

static void test_nic_context_list_limited_by_outlen(void)
{
    g_autoptr(Harness) h = up();
    g_autoptr(HCmd) q = NULL;

    h_ok_free(h, list_cmd(0, 5, 5));
    q = query_ctx(h, 0, 2);
    g_assert_cmpuint(PRM_GET(nic_vport_context, allowed_list_size, qctx(q)), ==, 2);
}

static void test_nic_context_largest_list(void)
{
    g_autoptr(Harness) h = up();
    g_autoptr(HCmd) q = NULL;

    h_ok_free(h, list_cmd(1, 128, 128));
    q = query_ctx(h, 1, 128);
    g_assert_cmpuint(PRM_GET(nic_vport_context, allowed_list_size, qctx(q)), ==, 128);
}

static void test_nic_context_bad_input(void)
{
    g_autoptr(Harness) h = up();

    for (unsigned i = 0; i < 2; i++) {
        g_autoptr(HCmd) m = modify_ctx(0);
        select_field(m, "mtu");
        PRM_SET(nic_vport_context, mtu, mctx(m), i ? MLX5_PORT_MAX_MTU + 1 : 67);
        h_fail(h, m, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_MTU);
    }
    {
        g_autoptr(HCmd) m = list_cmd(0, 129, 129);
        h_fail(h, m, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_LIST_SIZE);
    }
    {
        g_autoptr(HCmd) m = list_cmd(2, 1, 1);
        h_fail(h, m, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_INDEX);
    }
    {
        g_autoptr(HCmd) m = list_cmd(0, 4, 2);
        h_fail(h, m, MLX5_CMD_STAT_BAD_INP_LEN, MLX5_SYND_IN_TOO_SHORT);
    }
    {
        g_autoptr(HCmd) m = modify_ctx(0);
        IN_SET(m, modify_nic_vport_context_in, other_vport, 1);
        h_fail(h, m, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_PORT);
    }
    {
        g_autoptr(HCmd) q = hcmd_new(OP_QUERY_NIC_VPORT_CONTEXT, 0);
        IN_SET(q, query_nic_vport_context_in, allowed_list_type, 3);
        h_fail(h, q, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_INDEX);
    }
    {
        g_autoptr(HCmd) q = hcmd_new(OP_QUERY_NIC_VPORT_CONTEXT, 0);
        IN_SET(q, query_nic_vport_context_in, other_vport, 1);
        h_fail(h, q, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_PORT);
    }
}

/* A refused MODIFY changes nothing, even the fields that were fine. */
static void test_nic_context_failed_modify_changes_nothing(void)
{
    g_autoptr(Harness) h = up();
    g_autoptr(HCmd) m = list_cmd(0, 3, 3);
    g_autoptr(HCmd) q = NULL;

    select_field(m, "mtu");
    PRM_SET(nic_vport_context, mtu, mctx(m), 20);
    h_fail(h, m, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_MTU);
    q = query_ctx(h, 0, 8);
    g_assert_cmpuint(PRM_GET(nic_vport_context, allowed_list_size, qctx(q)), ==, 0);
}

/* --- RoCE addresses, P_Keys, counters -------------------------------- */

static HCmd *gid_cmd(uint32_t index, unsigned port, bool zero)
{
    HCmd *c = hcmd_new(OP_SET_ROCE_ADDRESS, 0);
    uint8_t *a = IN_PTR(c, set_roce_address_in, roce_address);
    uint8_t *l3 = PRM_PTR(roce_addr_layout, source_l3_address, a);

    IN_SET(c, set_roce_address_in, roce_address_index, index);
    IN_SET(c, set_roce_address_in, vhca_port_num, port);
    if (!zero) {
        l3[10] = l3[11] = 0xff;                                 /* ::ffff:10.0.0.1 */
        l3[12] = 10;
        l3[15] = 1;
        PRM_SET(roce_addr_layout, source_mac_47_32, a, 0x0200);
        PRM_SET(roce_addr_layout, source_mac_31_0, a, 0x00000001);
        PRM_SET(roce_addr_layout, roce_version, a, 2);
        PRM_SET(roce_addr_layout, roce_l3_type, a, 0);
        PRM_SET(roce_addr_layout, vlan_valid, a, 1);
        PRM_SET(roce_addr_layout, vlan_id, a, 100);
    }
    return c;
}

static void test_roce_address_set_and_delete(void)
{
    g_autoptr(Harness) h = up();
    const Mlx5RoceAddr *g = &h->fw->gid[3];
    static const uint8_t mac[6] = { 0x02, 0, 0, 0, 0, 0x01 };

    h_ok_free(h, gid_cmd(3, 1, false));
    g_assert_true(g->valid);
    g_assert_cmpmem(g->mac, 6, mac, 6);
    g_assert_cmpuint(g->roce_version, ==, 2);
    g_assert_true(g->vlan_valid);
    g_assert_cmpuint(g->vlan_id, ==, 100);
    g_assert_cmphex(g->l3[12], ==, 10);
    h_ok_free(h, gid_cmd(3, 1, true));
    g_assert_false(g->valid);
    h_ok_free(h, gid_cmd(MLX5_GID_TABLE_SIZE - 1, 0, false));
}

static void test_roce_address_bad_input(void)
{
    g_autoptr(Harness) h = up();
    g_autoptr(HCmd) index = gid_cmd(MLX5_GID_TABLE_SIZE, 1, false);
    g_autoptr(HCmd) huge = gid_cmd(0xffff, 1, false);
    g_autoptr(HCmd) port = gid_cmd(0, 2, false);

    h_fail(h, index, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_INDEX);
    h_fail(h, huge, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_INDEX);
    h_fail(h, port, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_PORT);
    g_assert_false(h->fw->gid[0].valid);
}

static HCmd *pkey_cmd(uint32_t index, uint32_t room)
{
    HCmd *c = hcmd_new_len(OP_QUERY_HCA_VPORT_PKEY, 0, PRM_BYTES(query_hca_vport_pkey_in),
                           PRM_BYTES(query_hca_vport_pkey_out) + 4 * room);
    IN_SET(c, query_hca_vport_pkey_in, pkey_index, index);
    return c;
}

static void test_pkey_table(void)
{
    g_autoptr(Harness) h = up();
    g_autoptr(HCmd) one = pkey_cmd(0, 1);
    g_autoptr(HCmd) all = pkey_cmd(0xffff, 128);
    g_autoptr(HCmd) last = pkey_cmd(127, 1);
    uint32_t base = PRM_BYTES(query_hca_vport_pkey_out);

    h_ok(h, one);
    g_assert_cmphex(PRM_GET(pkey, pkey, one->out + base), ==, 0xffff);
    h_ok(h, all);
    g_assert_cmphex(PRM_GET(pkey, pkey, all->out + base), ==, 0xffff);
    for (uint32_t i = 1; i < 128; i++) {
        g_assert_cmphex(PRM_GET(pkey, pkey, all->out + base + 4 * i), ==, 0);
    }
    h_ok(h, last);
    g_assert_cmphex(PRM_GET(pkey, pkey, last->out + base), ==, 0);
}

static void test_pkey_bad_input(void)
{
    g_autoptr(Harness) h = up();
    g_autoptr(HCmd) index = pkey_cmd(128, 1);
    g_autoptr(HCmd) room = pkey_cmd(0xffff, 127);
    g_autoptr(HCmd) port = pkey_cmd(0, 1);
    g_autoptr(HCmd) other = pkey_cmd(0, 1);

    h_fail(h, index, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_INDEX);
    h_fail(h, room, MLX5_CMD_STAT_BAD_OUTP_LEN, MLX5_SYND_OUT_TOO_SHORT);
    IN_SET(port, query_hca_vport_pkey_in, port_num, 2);
    h_fail(h, port, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_PORT);
    IN_SET(other, query_hca_vport_pkey_in, other_vport, 1);
    h_fail(h, other, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_PORT);
}

static void set_counters(Harness *h)
{
    Mlx5PortCounters *k = &h->fw->counters;

    /* The wire: 10 frames (1000 octets) out, 20 (3000) in. */
    k->phy_tx = (Mlx5Traffic){ .frames = { 7, 2, 1 }, .octets = { 700, 200, 100 } };
    k->phy_rx = (Mlx5Traffic){ .frames = { 15, 3, 2 }, .octets = { 2500, 300, 200 } };
    /* The vport accepted fewer (steering) and looped one back. */
    k->vport_tx = (Mlx5Traffic){ .frames = { 8, 2, 1 }, .octets = { 800, 200, 100 } };
    k->vport_rx = (Mlx5Traffic){ .frames = { 12, 1, 2 }, .octets = { 2000, 100, 200 } };
    /* RoCE packets QPs sent and took: the vport's RDMA counters */
    k->vport_rdma_tx = (Mlx5Traffic){ .frames = { 40, 3, 0 }, .octets = { 40000, 300, 0 } };
    k->vport_rdma_rx = (Mlx5Traffic){ .frames = { 30, 4, 0 }, .octets = { 3000, 400, 0 } };
    k->rx_out_of_buffer = 3;
    k->rx_roce_discards = 1;
    k->rx_steer_miss = 5;
}

static void test_vport_counters(void)
{
    g_autoptr(Harness) h = up();
    g_autoptr(HCmd) c = hcmd_new(OP_QUERY_VPORT_COUNTER, 0);
    g_autoptr(HCmd) other = hcmd_new(OP_QUERY_VPORT_COUNTER, 0);
    uint8_t *tc;

    set_counters(h);
    h_ok(h, c);
    tc = OUT_PTR(c, query_vport_counter_out, transmitted_eth_unicast);
    g_assert_cmpuint(PRM_GET(traffic_counter, packets, tc), ==, 8);
    g_assert_cmpuint(PRM_GET(traffic_counter, octets, tc), ==, 800);
    tc = OUT_PTR(c, query_vport_counter_out, received_eth_unicast);
    g_assert_cmpuint(PRM_GET(traffic_counter, packets, tc), ==, 12);
    g_assert_cmpuint(PRM_GET(traffic_counter, octets, tc), ==, 2000);
    tc = OUT_PTR(c, query_vport_counter_out, received_eth_multicast);
    g_assert_cmpuint(PRM_GET(traffic_counter, packets, tc), ==, 1);
    g_assert_cmpuint(PRM_GET(traffic_counter, octets, tc), ==, 100);
    tc = OUT_PTR(c, query_vport_counter_out, transmitted_eth_broadcast);
    g_assert_cmpuint(PRM_GET(traffic_counter, packets, tc), ==, 1);
    g_assert_cmpuint(PRM_GET(traffic_counter, octets, tc), ==, 100);
    tc = OUT_PTR(c, query_vport_counter_out, transmitted_ib_unicast);
    g_assert_cmpuint(PRM_GET(traffic_counter, packets, tc), ==, 40);
    g_assert_cmpuint(PRM_GET(traffic_counter, octets, tc), ==, 40000);
    tc = OUT_PTR(c, query_vport_counter_out, received_ib_unicast);
    g_assert_cmpuint(PRM_GET(traffic_counter, packets, tc), ==, 30);
    tc = OUT_PTR(c, query_vport_counter_out, received_ib_multicast);
    g_assert_cmpuint(PRM_GET(traffic_counter, packets, tc), ==, 4);
    g_assert_cmpuint(PRM_GET(traffic_counter, octets, tc), ==, 400);
    IN_SET(other, query_vport_counter_in, other_vport, 1);
    h_fail(h, other, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_PORT);
}

/* --- access registers ------------------------------------------------- */

/* A register access; port registers get local_port 1 (bits 15:8 of their
 * first dword in all of them). */
static HCmd *reg(Harness *h, unsigned op_mod, uint16_t id, uint32_t bytes)
{
    HCmd *c = h_access_reg(h, op_mod, id, bytes);
    if (bytes >= 2 && id >= REG_PMTU && id <= REG_PPCNT) {
        c->in[16 + 1] = 1;
    }
    return c;
}

static uint8_t *rd(HCmd *c)
{
    return c->out + 16;
}

static uint8_t *wr(HCmd *c)
{
    return c->in + 16;
}

static void test_reg_pmtu(void)
{
    g_autoptr(Harness) h = up();
    g_autoptr(HCmd) r = reg(h, REG_READ, REG_PMTU, PRM_BYTES(pmtu_reg));
    HCmd *w = reg(h, REG_WRITE, REG_PMTU, PRM_BYTES(pmtu_reg));

    h_ok(h, r);
    g_assert_cmpuint(PRM_GET(pmtu_reg, local_port, rd(r)), ==, 1);
    g_assert_cmpuint(PRM_GET(pmtu_reg, max_mtu, rd(r)), ==, MLX5_PORT_MAX_MTU);
    g_assert_cmpuint(PRM_GET(pmtu_reg, admin_mtu, rd(r)), ==, 1522);
    PRM_SET(pmtu_reg, admin_mtu, wr(w), 9022);
    h_ok_free(h, w);
    h_ok(h, r);
    g_assert_cmpuint(PRM_GET(pmtu_reg, admin_mtu, rd(r)), ==, 9022);
    g_assert_cmpuint(PRM_GET(pmtu_reg, oper_mtu, rd(r)), ==, 9022);
}

static void test_reg_pmtu_bad(void)
{
    g_autoptr(Harness) h = up();

    for (int i = 0; i < 2; i++) {
        g_autoptr(HCmd) w = reg(h, REG_WRITE, REG_PMTU, PRM_BYTES(pmtu_reg));
        PRM_SET(pmtu_reg, admin_mtu, wr(w), i ? MLX5_PORT_MAX_MTU + 1 : 67);
        h_fail(h, w, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_MTU);
    }
    for (int op = 0; op < 2; op++) {
        g_autoptr(HCmd) c = reg(h, op, REG_PMTU, PRM_BYTES(pmtu_reg));
        PRM_SET(pmtu_reg, local_port, wr(c), 2);
        PRM_SET(pmtu_reg, admin_mtu, wr(c), 1500);
        h_fail(h, c, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_PORT);
    }
}

static void test_reg_ptys(void)
{
    g_autoptr(Harness) h = up();
    g_autoptr(HCmd) r = reg(h, REG_READ, REG_PTYS, PRM_BYTES(ptys_reg));
    g_autoptr(HCmd) ib = reg(h, REG_READ, REG_PTYS, PRM_BYTES(ptys_reg));
    g_autoptr(HCmd) w = reg(h, REG_WRITE, REG_PTYS, PRM_BYTES(ptys_reg));
    g_autoptr(HCmd) wbad = reg(h, REG_WRITE, REG_PTYS, PRM_BYTES(ptys_reg));

    PRM_SET(ptys_reg, proto_mask, wr(r), 4);                    /* Ethernet */
    h_ok(h, r);
    g_assert_cmphex(PRM_GET(ptys_reg, eth_proto_capability, rd(r)), ==, 1u << 20);
    g_assert_cmphex(PRM_GET(ptys_reg, eth_proto_oper, rd(r)), ==, 0);
    h_port_up(h);
    h_ok(h, r);
    g_assert_cmphex(PRM_GET(ptys_reg, eth_proto_oper, rd(r)), ==, 1u << 20);
    PRM_SET(ptys_reg, proto_mask, wr(ib), 1);                   /* InfiniBand */
    h_fail(h, ib, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_INDEX);
    PRM_SET(ptys_reg, eth_proto_admin, wr(w), 1u << 20);
    h_ok(h, w);
    PRM_SET(ptys_reg, eth_proto_admin, wr(wbad), 1u << 3);
    h_fail(h, wbad, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_INDEX);
}

static void test_reg_paos(void)
{
    g_autoptr(Harness) h = up();
    g_autoptr(HCmd) r = reg(h, REG_READ, REG_PAOS, PRM_BYTES(paos_reg));
    g_autoptr(HCmd) no_ase = reg(h, REG_WRITE, REG_PAOS, PRM_BYTES(paos_reg));
    g_autoptr(HCmd) bad = reg(h, REG_WRITE, REG_PAOS, PRM_BYTES(paos_reg));

    h_ok(h, r);
    g_assert_cmpuint(PRM_GET(paos_reg, admin_status, rd(r)), ==, 2);
    g_assert_cmpuint(PRM_GET(paos_reg, oper_status, rd(r)), ==, 2);
    PRM_SET(paos_reg, admin_status, wr(no_ase), 1);             /* ase = 0: ignored */
    h_ok(h, no_ase);
    h_ok(h, r);
    g_assert_cmpuint(PRM_GET(paos_reg, admin_status, rd(r)), ==, 2);
    h_port_up(h);
    h_ok(h, r);
    g_assert_cmpuint(PRM_GET(paos_reg, admin_status, rd(r)), ==, 1);
    g_assert_cmpuint(PRM_GET(paos_reg, oper_status, rd(r)), ==, 1);
    PRM_SET(paos_reg, admin_status, wr(bad), 3);
    PRM_SET(paos_reg, ase, wr(bad), 1);
    h_fail(h, bad, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_INDEX);
}

static void test_reg_pfcc(void)
{
    g_autoptr(Harness) h = up();
    g_autoptr(HCmd) w = reg(h, REG_WRITE, REG_PFCC, PRM_BYTES(pfcc_reg));
    g_autoptr(HCmd) r = reg(h, REG_READ, REG_PFCC, PRM_BYTES(pfcc_reg));
    g_autoptr(HCmd) pfc = reg(h, REG_WRITE, REG_PFCC, PRM_BYTES(pfcc_reg));

    PRM_SET(pfcc_reg, pptx, wr(w), 1);
    h_ok(h, w);
    h_ok(h, r);
    g_assert_cmpuint(PRM_GET(pfcc_reg, pptx, rd(r)), ==, 1);
    g_assert_cmpuint(PRM_GET(pfcc_reg, pprx, rd(r)), ==, 0);
    PRM_SET(pfcc_reg, pfcrx, wr(pfc), 0x08);
    h_fail(h, pfc, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_INDEX);
}

static HCmd *ppcnt(Harness *h, unsigned grp, unsigned prio)
{
    HCmd *c = reg(h, REG_READ, REG_PPCNT, PRM_BYTES(ppcnt_reg));

    PRM_SET(ppcnt_reg, grp, wr(c), grp);
    PRM_SET(ppcnt_reg, prio_tc, wr(c), prio);
    memset(PRM_PTR(ppcnt_reg, counter_set, wr(c)), 0xee, 8);   /* stale input */
    return c;
}

static uint64_t cnt64(const uint8_t *set, const char *layout, const char *field)
{
    const PrmLayout *l = prm_layout_find(layout);
    g_autofree char *hi = g_strconcat(field, "_high", NULL);
    g_autofree char *lo = g_strconcat(field, "_low", NULL);
    uint64_t v = 0;

    for (unsigned i = 0; i < l->nfields; i++) {
        if (!strcmp(l->fields[i].name, hi)) {
            v |= prm_get_bits(set, l->fields[i].off, 32) << 32;
        } else if (!strcmp(l->fields[i].name, lo)) {
            v |= prm_get_bits(set, l->fields[i].off, 32);
        }
    }
    return v;
}

static void test_reg_ppcnt_groups(void)
{
    g_autoptr(Harness) h = up();
    g_autoptr(HCmd) g0 = ppcnt(h, 0x0, 0);
    g_autoptr(HCmd) g1 = ppcnt(h, 0x1, 0);
    g_autoptr(HCmd) g2 = ppcnt(h, 0x2, 0);
    g_autoptr(HCmd) prio0 = ppcnt(h, 0x10, 0);
    g_autoptr(HCmd) prio3 = ppcnt(h, 0x10, 3);
    g_autoptr(HCmd) ib = ppcnt(h, 0x20, 0);
    const char *l802 = "eth_802_3_cntrs_grp_data_layout";

    set_counters(h);
    h_ok(h, g0);
    g_assert_cmpuint(cnt64(PRM_PTR(ppcnt_reg, counter_set, rd(g0)), l802,
                           "a_frames_transmitted_ok"), ==, 10);
    g_assert_cmpuint(cnt64(PRM_PTR(ppcnt_reg, counter_set, rd(g0)), l802,
                           "a_octets_received_ok"), ==, 3000);
    h_ok(h, g1);
    g_assert_cmpuint(cnt64(PRM_PTR(ppcnt_reg, counter_set, rd(g1)),
                           "eth_2863_cntrs_grp_data_layout", "if_in_discards"), ==, 4);
    h_ok(h, g2);
    g_assert_cmpuint(cnt64(PRM_PTR(ppcnt_reg, counter_set, rd(g2)),
                           "eth_2819_cntrs_grp_data_layout", "ether_stats_pkts"), ==, 20);
    h_ok(h, prio0);
    g_assert_cmpuint(cnt64(PRM_PTR(ppcnt_reg, counter_set, rd(prio0)),
                           "eth_per_prio_grp_data_layout", "tx_frames"), ==, 10);
    h_ok(h, prio3);
    g_assert_cmpuint(cnt64(PRM_PTR(ppcnt_reg, counter_set, rd(prio3)),
                           "eth_per_prio_grp_data_layout", "tx_frames"), ==, 0);
    g_assert_cmphex(rd(prio3)[8], ==, 0);                       /* stale input cleared */
    /* The IB port group (mlx5_ib's PMA PortCounters): no error of its
     * kinds on this link, an answer of zeros */
    memset(wr(ib) + PRM_BYTE_OFF(ppcnt_reg, counter_set), 0xa5, 64);
    h_ok(h, ib);
    for (unsigned i = 0; i < 64; i++) {
        g_assert_cmphex(PRM_PTR(ppcnt_reg, counter_set, rd(ib))[i], ==, 0);
    }
}

static void test_reg_ppcnt_bad_group_and_clear(void)
{
    g_autoptr(Harness) h = up();
    g_autoptr(HCmd) bad = ppcnt(h, 0x3, 0);
    g_autoptr(HCmd) clr = reg(h, REG_WRITE, REG_PPCNT, PRM_BYTES(ppcnt_reg));

    h_fail(h, bad, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_INDEX);
    set_counters(h);
    PRM_SET(ppcnt_reg, clr, wr(clr), 1);
    h_ok(h, clr);
    g_assert_cmpuint(mlx5_traffic_frames(&h->fw->counters.phy_tx) +
                     mlx5_traffic_frames(&h->fw->counters.vport_rx) +
                     h->fw->counters.rx_out_of_buffer, ==, 0);
}

static void test_reg_pcam(void)
{
    g_autoptr(Harness) h = up();
    g_autoptr(HCmd) r = reg(h, REG_READ, REG_PCAM, PRM_BYTES(pcam_reg));
    g_autoptr(HCmd) grp = reg(h, REG_READ, REG_PCAM, PRM_BYTES(pcam_reg));
    g_autoptr(HCmd) w = reg(h, REG_WRITE, REG_PCAM, PRM_BYTES(pcam_reg));

    memset(wr(r) + 4, 0xff, PRM_BYTES(pcam_reg) - 4);
    h_ok(h, r);
    for (size_t i = 0; i < PRM_BYTES(pcam_reg); i++) {
        g_assert_cmphex(rd(r)[i], ==, 0);
    }
    PRM_SET(pcam_reg, feature_group, wr(grp), 1);
    h_fail(h, grp, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_INDEX);
    h_fail(h, w, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_REGISTER);
}

static void test_reg_node_desc(void)
{
    g_autoptr(Harness) h = up();
    g_autoptr(HCmd) r = reg(h, REG_READ, REG_NODE_DESC, NODE_DESC_BYTES);
    g_autoptr(HCmd) w = reg(h, REG_WRITE, REG_NODE_DESC, NODE_DESC_BYTES);

    h_ok(h, r);
    g_assert_cmpstr((char *)rd(r), ==, "mlx5emu ConnectX-6 Dx (emulated)");
    memset(wr(w), 'n', NODE_DESC_BYTES);                        /* no terminator */
    h_ok(h, w);
    h_ok(h, r);
    g_assert_cmpuint(strnlen((char *)rd(r), NODE_DESC_BYTES), ==, NODE_DESC_BYTES - 1);
}

static void test_reg_host_endianness_write_only(void)
{
    g_autoptr(Harness) h = up();
    g_autoptr(HCmd) r = reg(h, REG_READ, REG_HOST_ENDIANNESS, 16);

    h_ok_free(h, reg(h, REG_WRITE, REG_HOST_ENDIANNESS, 16));
    h_fail(h, r, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_REGISTER);
}

static void test_reg_bad_access(void)
{
    g_autoptr(Harness) h = up();
    g_autoptr(HCmd) unknown = reg(h, REG_READ, 0x5001, 64);
    g_autoptr(HCmd) op = reg(h, 2, REG_PMTU, PRM_BYTES(pmtu_reg));
    g_autoptr(HCmd) short_in = reg(h, REG_READ, REG_PPCNT, PRM_BYTES(ppcnt_reg) - 4);
    g_autoptr(HCmd) short_out = reg(h, REG_READ, REG_PTYS, PRM_BYTES(ptys_reg));
    g_autoptr(HCmd) header_only = reg(h, REG_WRITE, REG_PAOS, 0);

    h_fail(h, unknown, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_REGISTER);
    h_fail(h, op, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_OP_MOD);
    h_fail(h, short_in, MLX5_CMD_STAT_BAD_INP_LEN, MLX5_SYND_BAD_REG_LEN);
    short_out->outlen = 16 + PRM_BYTES(ptys_reg) - 1;
    h_fail(h, short_out, MLX5_CMD_STAT_BAD_OUTP_LEN, MLX5_SYND_BAD_REG_LEN);
    h_fail(h, header_only, MLX5_CMD_STAT_BAD_INP_LEN, MLX5_SYND_BAD_REG_LEN);
}

/* MCAM/MCQS/MCQI: what devlink's fw.version reads. */
static void test_reg_mcam(void)
{
    g_autoptr(Harness) h = up();
    g_autoptr(HCmd) r = reg(h, REG_READ, REG_MCAM, PRM_BYTES(mcam_reg));
    g_autoptr(HCmd) grp = reg(h, REG_READ, REG_MCAM, PRM_BYTES(mcam_reg));
    g_autoptr(HCmd) feat = reg(h, REG_READ, REG_MCAM, PRM_BYTES(mcam_reg));
    g_autoptr(HCmd) w = reg(h, REG_WRITE, REG_MCAM, PRM_BYTES(mcam_reg));
    uint8_t *regs;

    h_ok(h, r);
    regs = PRM_PTR(mcam_reg, mng_access_reg_cap_mask, rd(r));
    g_assert_cmpuint(PRM_GET(mcam_access_reg, mcqs, regs), ==, 1);
    g_assert_cmpuint(PRM_GET(mcam_access_reg, mcqi, regs), ==, 1);
    g_assert_cmpuint(PRM_GET(mcam_access_reg, mcc, regs), ==, 0);
    PRM_SET(mcam_reg, access_reg_group, wr(grp), 4);
    h_fail(h, grp, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_INDEX);
    PRM_SET(mcam_reg, feature_group, wr(feat), 1);
    h_fail(h, feat, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_INDEX);
    h_fail(h, w, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_REGISTER);
}

static void test_reg_mcqs(void)
{
    g_autoptr(Harness) h = up();
    g_autoptr(HCmd) r = reg(h, REG_READ, REG_MCQS, PRM_BYTES(mcqs_reg));
    g_autoptr(HCmd) idx = reg(h, REG_READ, REG_MCQS, PRM_BYTES(mcqs_reg));

    h_ok(h, r);
    g_assert_cmpuint(PRM_GET(mcqs_reg, last_index_flag, rd(r)), ==, 1);
    g_assert_cmpuint(PRM_GET(mcqs_reg, identifier, rd(r)), ==, 1);       /* boot image */
    g_assert_cmpuint(PRM_GET(mcqs_reg, component_update_state, rd(r)), ==, 0);
    PRM_SET(mcqs_reg, component_index, wr(idx), 1);
    h_fail(h, idx, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_INDEX);
}

/* The driver sends the 24-byte MCQI header and has room for the data. */
static HCmd *mcqi(uint32_t room, unsigned info_type)
{
    HCmd *c = hcmd_new_len(OP_ACCESS_REG, REG_READ, 16 + PRM_BYTES(mcqi_reg),
                           16 + PRM_BYTES(mcqi_reg) + room);

    IN_SET(c, access_register_in, register_id, REG_MCQI);
    PRM_SET(mcqi_reg, info_type, wr(c), info_type);
    PRM_SET(mcqi_reg, data_size, wr(c), room);
    return c;
}

static void test_reg_mcqi_version(void)
{
    g_autoptr(Harness) h = up();
    g_autoptr(HCmd) c = mcqi(PRM_BYTES(mcqi_version), 1);
    uint8_t *v;

    h_ok(h, c);
    v = PRM_PTR(mcqi_reg, data, rd(c));
    g_assert_cmphex(PRM_GET(mcqi_version, version, v), ==, 22u << 24 | 39u << 16 | 1002);
    g_assert_cmpuint(PRM_GET(mcqi_version, version_string_length, v), ==, 10);
    g_assert_cmpmem(PRM_PTR(mcqi_version, version_string, v), 10, "22.39.1002", 10);
    g_assert_cmpuint(PRM_GET(mcqi_reg, data_size, rd(c)), ==, PRM_BYTES(mcqi_version));
}

static void test_reg_mcqi_bad(void)
{
    g_autoptr(Harness) h = up();
    g_autoptr(HCmd) room = mcqi(PRM_BYTES(mcqi_version) - 1, 1);
    g_autoptr(HCmd) type = mcqi(PRM_BYTES(mcqi_version), 0);
    g_autoptr(HCmd) pending = mcqi(PRM_BYTES(mcqi_version), 1);
    g_autoptr(HCmd) w = mcqi(0, 1);
    g_autoptr(HCmd) huge = mcqi(8192, 1);

    h_fail(h, room, MLX5_CMD_STAT_BAD_OUTP_LEN, MLX5_SYND_BAD_REG_LEN);
    h_fail(h, type, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_INDEX);
    PRM_SET(mcqi_reg, read_pending_component, wr(pending), 1);
    h_fail(h, pending, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_INDEX);
    PRM_SET(mbox_in, op_mod, w->in, REG_WRITE);
    h_fail(h, w, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_REGISTER);
    h_ok(h, huge);                                  /* a bigger buffer is fine */
}

/* Registers work before INIT_HCA (the driver reads them early). */
static void test_reg_before_init(void)
{
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) r = NULL;

    h_enable(h);
    r = reg(h, REG_READ, REG_PMTU, PRM_BYTES(pmtu_reg));
    h_ok(h, r);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/vport/port-up-posts-port-change", test_port_up_posts_port_change);
    g_test_add_func("/vport/carrier-follows-link", test_carrier_follows_link);
    g_test_add_func("/vport/state-bad-input", test_vport_state_bad_input);
    g_test_add_func("/vport/nic-context/identity", test_nic_context_identity);
    g_test_add_func("/vport/nic-context/modify", test_nic_context_modify);
    g_test_add_func("/vport/nic-context/address-lists", test_nic_context_address_lists);
    g_test_add_func("/vport/nic-context/list-limited-by-outlen",
                    test_nic_context_list_limited_by_outlen);
    g_test_add_func("/vport/nic-context/largest-list", test_nic_context_largest_list);
    g_test_add_func("/vport/nic-context/bad-input", test_nic_context_bad_input);
    h_add_isolated("/vport/nic-context/failed-modify-changes-nothing",
                   test_nic_context_failed_modify_changes_nothing, 30);
    g_test_add_func("/vport/roce-address/set-and-delete", test_roce_address_set_and_delete);
    g_test_add_func("/vport/roce-address/bad-input", test_roce_address_bad_input);
    g_test_add_func("/vport/pkey/table", test_pkey_table);
    g_test_add_func("/vport/pkey/bad-input", test_pkey_bad_input);
    g_test_add_func("/vport/counters", test_vport_counters);
    g_test_add_func("/regs/pmtu", test_reg_pmtu);
    g_test_add_func("/regs/pmtu-bad", test_reg_pmtu_bad);
    g_test_add_func("/regs/ptys", test_reg_ptys);
    g_test_add_func("/regs/paos", test_reg_paos);
    g_test_add_func("/regs/pfcc", test_reg_pfcc);
    g_test_add_func("/regs/ppcnt-groups", test_reg_ppcnt_groups);
    g_test_add_func("/regs/ppcnt-bad-group-and-clear", test_reg_ppcnt_bad_group_and_clear);
    g_test_add_func("/regs/pcam", test_reg_pcam);
    g_test_add_func("/regs/node-desc", test_reg_node_desc);
    g_test_add_func("/regs/host-endianness-write-only", test_reg_host_endianness_write_only);
    g_test_add_func("/regs/mcam", test_reg_mcam);
    g_test_add_func("/regs/mcqs", test_reg_mcqs);
    g_test_add_func("/regs/mcqi-version", test_reg_mcqi_version);
    g_test_add_func("/regs/mcqi-bad", test_reg_mcqi_bad);
    g_test_add_func("/regs/bad-access", test_reg_bad_access);
    g_test_add_func("/regs/before-init", test_reg_before_init);
    return g_test_run();
}
