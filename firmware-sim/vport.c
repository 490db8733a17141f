/*
 * The NIC vport (PRM "NIC Vport Context"): MAC, MTU, address lists,
 * promiscuous modes, RoCE enable, GUIDs; vport state and counters; the
 * RoCE address (GID) table and P_Keys.
 *
 * This function is its own and only vport (no eswitch), so other_vport
 * requests are refused.
 */
#include <string.h>

#include "cmd.h"

static void put_mac(uint8_t *layout, const uint8_t mac[6])
{
    PRM_SET(mac_address_layout, mac_addr_47_32, layout, (uint32_t)mac[0] << 8 | mac[1]);
    PRM_SET(mac_address_layout, mac_addr_31_0, layout, prm_be32(mac + 2));
}

static void get_mac(const uint8_t *layout, uint8_t mac[6])
{
    uint16_t hi = PRM_GET(mac_address_layout, mac_addr_47_32, layout);
    mac[0] = hi >> 8;
    mac[1] = (uint8_t)hi;
    prm_put_be32(mac + 2, PRM_GET(mac_address_layout, mac_addr_31_0, layout));
}

/* EUI-64 from the MAC: what the node and system image GUIDs are built on. */
static uint64_t mac_guid(const uint8_t mac[6])
{
    return (uint64_t)(mac[0] ^ 2) << 56 | (uint64_t)mac[1] << 48 |
           (uint64_t)mac[2] << 40 | 0xfffeull << 24 |
           (uint64_t)mac[3] << 16 | (uint64_t)mac[4] << 8 | mac[5];
}

unsigned cmd_query_vport_state(Mlx5Fw *fw, Mlx5Cmd *c)
{
    if (PRM_GET(query_vport_state_in, other_vport, c->in) || c->op_mod > 1) {
        return CMD_FAIL(c, BAD_PARAM, BAD_PORT);
    }
    PRM_SET(query_vport_state_out, state, c->out, fw->port_up ? 1 : 0);
    PRM_SET(query_vport_state_out, admin_state, c->out, fw->paos_admin == 1 ? 1 : 0);
    return MLX5_CMD_STAT_OK;
}

enum { MLX5_NVPRT_LIST_TYPE_UC = 0, MLX5_NVPRT_LIST_TYPE_MC = 1 };

unsigned cmd_query_nic_vport_context(Mlx5Fw *fw, Mlx5Cmd *c)
{
    uint8_t *ctx = PRM_PTR(query_nic_vport_context_out, nic_vport_context, c->out);
    unsigned type = PRM_GET(query_nic_vport_context_in, allowed_list_type, c->in);
    uint32_t list_off = PRM_BYTE_OFF(query_nic_vport_context_out, nic_vport_context) +
                        PRM_BYTE_OFF(nic_vport_context, current_uc_mac_address);
    uint8_t (*list)[6] = type == MLX5_NVPRT_LIST_TYPE_MC ? fw->mc_list : fw->uc_list;
    uint32_t n = type == MLX5_NVPRT_LIST_TYPE_MC ? fw->mc_count : fw->uc_count;

    if (PRM_GET(query_nic_vport_context_in, other_vport, c->in)) {
        return CMD_FAIL(c, BAD_PARAM, BAD_PORT);
    }
    if (type > MLX5_NVPRT_LIST_TYPE_MC) {
        return CMD_FAIL(c, BAD_PARAM, BAD_INDEX);
    }
    PRM_SET(nic_vport_context, roce_en, ctx, fw->roce_en);
    PRM_SET(nic_vport_context, mtu, ctx, fw->vport_mtu);
    PRM_SET(nic_vport_context, system_image_guid, ctx, mac_guid(fw->cfg.mac));
    PRM_SET(nic_vport_context, node_guid, ctx, mac_guid(fw->cfg.mac));
    PRM_SET(nic_vport_context, port_guid, ctx, mac_guid(fw->cfg.mac));
    PRM_SET(nic_vport_context, promisc_uc, ctx, fw->promisc_uc);
    PRM_SET(nic_vport_context, promisc_mc, ctx, fw->promisc_mc);
    PRM_SET(nic_vport_context, promisc_all, ctx, fw->promisc_all);
    put_mac(PRM_PTR(nic_vport_context, permanent_address, ctx), fw->cfg.mac);
    /* The address list goes out only as far as outlen reaches. */
    n = MIN(n, c->outlen > list_off ? (c->outlen - list_off) / 8 : 0);
    PRM_SET(nic_vport_context, allowed_list_type, ctx, type);
    PRM_SET(nic_vport_context, allowed_list_size, ctx, n);
    for (uint32_t i = 0; i < n; i++) {
        put_mac(c->out + list_off + 8 * i, list[i]);
    }
    return MLX5_CMD_STAT_OK;
}

static unsigned vport_set_list(Mlx5Fw *fw, Mlx5Cmd *c, const uint8_t *ctx)
{
    unsigned type = PRM_GET(nic_vport_context, allowed_list_type, ctx);
    uint32_t n = PRM_GET(nic_vport_context, allowed_list_size, ctx);
    uint64_t off = (uint64_t)(ctx - c->in) + PRM_BYTE_OFF(nic_vport_context,
                                                         current_uc_mac_address);
    unsigned log_max = type == MLX5_NVPRT_LIST_TYPE_MC
        ? MLX5_CAP_GET(fw, MLX5_CAP_GENERAL, cmd_hca_cap, log_max_current_mc_list)
        : MLX5_CAP_GET(fw, MLX5_CAP_GENERAL, cmd_hca_cap, log_max_current_uc_list);
    uint8_t (*list)[6] = type == MLX5_NVPRT_LIST_TYPE_MC ? fw->mc_list : fw->uc_list;

    if (type > MLX5_NVPRT_LIST_TYPE_MC) {
        return CMD_FAIL(c, BAD_PARAM, BAD_INDEX);
    }
    if (n > (1u << log_max) || n > MLX5_MAX_UC_LIST) {
        return CMD_FAIL(c, BAD_PARAM, BAD_LIST_SIZE);
    }
    if (!mlx5_cmd_has(c, off, n, 8)) {
        return CMD_FAIL(c, BAD_INP_LEN, IN_TOO_SHORT);
    }
    for (uint32_t i = 0; i < n; i++) {
        get_mac(c->in + off + 8 * i, list[i]);
    }
    if (type == MLX5_NVPRT_LIST_TYPE_MC) {
        fw->mc_count = n;
    } else {
        fw->uc_count = n;
    }
    return MLX5_CMD_STAT_OK;
}

unsigned cmd_modify_nic_vport_context(Mlx5Fw *fw, Mlx5Cmd *c)
{
    const uint8_t *sel = PRM_PTR(modify_nic_vport_context_in, field_select, c->in);
    const uint8_t *ctx = PRM_PTR(modify_nic_vport_context_in, nic_vport_context, c->in);
    bool set_mtu = PRM_GET(modify_nic_vport_field_select, mtu, sel);
    uint32_t mtu = PRM_GET(nic_vport_context, mtu, ctx);

    if (PRM_GET(modify_nic_vport_context_in, other_vport, c->in)) {
        return CMD_FAIL(c, BAD_PARAM, BAD_PORT);
    }
    /* Check every selected field before changing any: a refused command
     * leaves the vport as it was. */
    if (set_mtu && (mtu < 68 || mtu > MLX5_PORT_MAX_MTU)) {
        return CMD_FAIL(c, BAD_PARAM, BAD_MTU);
    }
    if (PRM_GET(modify_nic_vport_field_select, addresses_list, sel)) {
        unsigned st = vport_set_list(fw, c, ctx);
        if (st != MLX5_CMD_STAT_OK) {
            return st;
        }
    }
    if (set_mtu) {
        fw->vport_mtu = mtu;
    }
    if (PRM_GET(modify_nic_vport_field_select, roce_en, sel)) {
        fw->roce_en = PRM_GET(nic_vport_context, roce_en, ctx);
    }
    if (PRM_GET(modify_nic_vport_field_select, promisc, sel)) {
        fw->promisc_uc = PRM_GET(nic_vport_context, promisc_uc, ctx);
        fw->promisc_mc = PRM_GET(nic_vport_context, promisc_mc, ctx);
        fw->promisc_all = PRM_GET(nic_vport_context, promisc_all, ctx);
    }
    mlx5emu_trace_vport_modify(prm_be32(sel), fw->vport_mtu, fw->roce_en,
                               fw->uc_count, fw->mc_count, fw->promisc_all);
    return MLX5_CMD_STAT_OK;
}

static void traffic(uint8_t *tc, uint64_t packets, uint64_t octets)
{
    PRM_SET(traffic_counter, packets, tc, packets);
    PRM_SET(traffic_counter, octets, tc, octets);
}

unsigned cmd_query_vport_counter(Mlx5Fw *fw, Mlx5Cmd *c)
{
    const Mlx5PortCounters *k = &fw->counters;

    if (PRM_GET(query_vport_counter_in, other_vport, c->in)) {
        return CMD_FAIL(c, BAD_PARAM, BAD_PORT);
    }
    static const struct { unsigned rx, tx; } off[MLX5_CAST_KINDS] = {
        [MLX5_CAST_UNICAST] = { PRM_BYTE_OFF(query_vport_counter_out, received_eth_unicast),
                                PRM_BYTE_OFF(query_vport_counter_out, transmitted_eth_unicast) },
        [MLX5_CAST_MULTICAST] = { PRM_BYTE_OFF(query_vport_counter_out, received_eth_multicast),
                                  PRM_BYTE_OFF(query_vport_counter_out, transmitted_eth_multicast) },
        [MLX5_CAST_BROADCAST] = { PRM_BYTE_OFF(query_vport_counter_out, received_eth_broadcast),
                                  PRM_BYTE_OFF(query_vport_counter_out, transmitted_eth_broadcast) },
    };

    /* RoCE: unicast and multicast (a UD multicast group); never broadcast */
    static const struct { unsigned rx, tx; } ib[MLX5_CAST_BROADCAST] = {
        [MLX5_CAST_UNICAST] = { PRM_BYTE_OFF(query_vport_counter_out, received_ib_unicast),
                                PRM_BYTE_OFF(query_vport_counter_out, transmitted_ib_unicast) },
        [MLX5_CAST_MULTICAST] = { PRM_BYTE_OFF(query_vport_counter_out, received_ib_multicast),
                                  PRM_BYTE_OFF(query_vport_counter_out, transmitted_ib_multicast) },
    };

    for (unsigned i = 0; i < MLX5_CAST_KINDS; i++) {
        traffic(c->out + off[i].rx, k->vport_rx.frames[i], k->vport_rx.octets[i]);
        traffic(c->out + off[i].tx, k->vport_tx.frames[i], k->vport_tx.octets[i]);
    }
    for (unsigned i = 0; i < MLX5_CAST_BROADCAST; i++) {
        traffic(c->out + ib[i].rx, k->vport_rdma_rx.frames[i], k->vport_rdma_rx.octets[i]);
        traffic(c->out + ib[i].tx, k->vport_rdma_tx.frames[i], k->vport_rdma_tx.octets[i]);
    }
    return MLX5_CMD_STAT_OK;
}

unsigned cmd_set_roce_address(Mlx5Fw *fw, Mlx5Cmd *c)
{
    uint32_t idx = PRM_GET(set_roce_address_in, roce_address_index, c->in);
    const uint8_t *a = PRM_PTR(set_roce_address_in, roce_address, c->in);
    uint32_t port = PRM_GET(set_roce_address_in, vhca_port_num, c->in);
    Mlx5RoceAddr *g;
    static const uint8_t zero[16];

    c->obj = idx;
    if (idx >= MLX5_CAP_GET(fw, MLX5_CAP_ROCE, roce_cap, roce_address_table_size) ||
        idx >= MLX5_GID_TABLE_SIZE) {
        return CMD_FAIL(c, BAD_PARAM, BAD_INDEX);
    }
    if (port > 1) {
        return CMD_FAIL(c, BAD_PARAM, BAD_PORT);
    }
    g = &fw->gid[idx];
    memcpy(g->l3, PRM_PTR(roce_addr_layout, source_l3_address, a), 16);
    g->mac[0] = PRM_GET(roce_addr_layout, source_mac_47_32, a) >> 8;
    g->mac[1] = (uint8_t)PRM_GET(roce_addr_layout, source_mac_47_32, a);
    prm_put_be32(g->mac + 2, PRM_GET(roce_addr_layout, source_mac_31_0, a));
    g->roce_version = PRM_GET(roce_addr_layout, roce_version, a);
    g->l3_type = PRM_GET(roce_addr_layout, roce_l3_type, a);
    g->vlan_valid = PRM_GET(roce_addr_layout, vlan_valid, a);
    g->vlan_id = PRM_GET(roce_addr_layout, vlan_id, a);
    /* The driver deletes an entry by writing zeros (lib/gid.c). */
    g->valid = memcmp(g->l3, zero, 16) != 0;
    mlx5emu_trace_gid_set(idx, g->valid, g->roce_version, g->l3_type);
    return MLX5_CMD_STAT_OK;
}

/* P_Key table: 128 entries (pkey_table_size 0); only the default
 * full-membership P_Key 0xffff exists on Ethernet (index 0). */
#define MLX5_PKEY_TABLE_LEN 128

unsigned cmd_query_hca_vport_pkey(Mlx5Fw *fw, Mlx5Cmd *c)
{
    uint32_t idx = PRM_GET(query_hca_vport_pkey_in, pkey_index, c->in);
    uint32_t base = PRM_BYTES(query_hca_vport_pkey_out);
    uint32_t first = idx == 0xffff ? 0 : idx;
    uint32_t n = idx == 0xffff ? MLX5_PKEY_TABLE_LEN : 1;

    if (PRM_GET(query_hca_vport_pkey_in, other_vport, c->in) ||
        PRM_GET(query_hca_vport_pkey_in, port_num, c->in) > 1) {
        return CMD_FAIL(c, BAD_PARAM, BAD_PORT);
    }
    if (idx != 0xffff && idx >= MLX5_PKEY_TABLE_LEN) {
        return CMD_FAIL(c, BAD_PARAM, BAD_INDEX);
    }
    if (c->outlen < base + 4 * n) {
        return CMD_FAIL(c, BAD_OUTP_LEN, OUT_TOO_SHORT);
    }
    for (uint32_t i = 0; i < n; i++) {
        PRM_SET(pkey, pkey, c->out + base + 4 * i, first + i == 0 ? 0xffff : 0);
    }
    (void)fw;
    return MLX5_CMD_STAT_OK;
}
