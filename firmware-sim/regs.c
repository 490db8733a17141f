/*
 * ACCESS_REG (PRM "Access Registers"): op_mod 0 = write, 1 = read; the
 * register data follows the 16-byte header and the output carries as many
 * data bytes as the input (Linux port.c mlx5_access_reg).
 *
 * One row per register: id, name, size, read and write handlers.  A read
 * starts from the input data (so index fields such as local_port and grp
 * come back) and fills in the rest.
 */
#include <string.h>

#include "cmd.h"

enum { MLX5_REG_WRITE = 0, MLX5_REG_READ = 1 };

typedef struct Mlx5Reg {
    uint16_t id;
    const char *name;
    uint32_t bytes;
    unsigned (*read)(Mlx5Fw *fw, Mlx5Cmd *c, uint8_t *data);
    unsigned (*write)(Mlx5Fw *fw, Mlx5Cmd *c, const uint8_t *data);
} Mlx5Reg;

static bool port_ok(const uint8_t *data, unsigned off)
{
    return prm_get_bits(data, off, 8) == 1;     /* local_port 1 */
}

/* PMTU 0x5003: port MTU (the driver reads max_mtu, writes admin_mtu). */
static unsigned pmtu_read(Mlx5Fw *fw, Mlx5Cmd *c, uint8_t *d)
{
    if (!port_ok(d, PRM_OFF(pmtu_reg, local_port))) {
        return CMD_FAIL(c, BAD_PARAM, BAD_PORT);
    }
    PRM_SET(pmtu_reg, max_mtu, d, MLX5_PORT_MAX_MTU);
    PRM_SET(pmtu_reg, admin_mtu, d, fw->admin_mtu);
    PRM_SET(pmtu_reg, oper_mtu, d, fw->admin_mtu);
    return MLX5_CMD_STAT_OK;
}

static unsigned pmtu_write(Mlx5Fw *fw, Mlx5Cmd *c, const uint8_t *d)
{
    uint32_t mtu = PRM_GET(pmtu_reg, admin_mtu, d);

    if (!port_ok(d, PRM_OFF(pmtu_reg, local_port))) {
        return CMD_FAIL(c, BAD_PARAM, BAD_PORT);
    }
    if (mtu < 68 || mtu > MLX5_PORT_MAX_MTU) {
        return CMD_FAIL(c, BAD_PARAM, BAD_MTU);
    }
    fw->admin_mtu = mtu;
    return MLX5_CMD_STAT_OK;
}

/* PTYS 0x5004: Ethernet protocols.  Legacy protocol bits (PCAM says no
 * extended ones): 100GBASE-CR4 = bit 20 (Linux en/port.h). */
#define MLX5_PTYS_100GBASE_CR4 (1u << 20)
enum { MLX5_PTYS_EN = 1 << 2 };

static unsigned ptys_read(Mlx5Fw *fw, Mlx5Cmd *c, uint8_t *d)
{
    if (!port_ok(d, PRM_OFF(ptys_reg, local_port))) {
        return CMD_FAIL(c, BAD_PARAM, BAD_PORT);
    }
    if (!(PRM_GET(ptys_reg, proto_mask, d) & MLX5_PTYS_EN)) {
        return CMD_FAIL(c, BAD_PARAM, BAD_INDEX);    /* IB protocols: not this port */
    }
    PRM_SET(ptys_reg, eth_proto_capability, d, MLX5_PTYS_100GBASE_CR4);
    PRM_SET(ptys_reg, eth_proto_admin, d, MLX5_PTYS_100GBASE_CR4);
    PRM_SET(ptys_reg, eth_proto_oper, d, fw->port_up ? MLX5_PTYS_100GBASE_CR4 : 0);
    PRM_SET(ptys_reg, eth_proto_lp_advertise, d, fw->port_up ? MLX5_PTYS_100GBASE_CR4 : 0);
    PRM_SET(ptys_reg, an_disable_cap, d, 1);
    PRM_SET(ptys_reg, connector_type, d, 0x5);      /* DA (direct attach copper) */
    return MLX5_CMD_STAT_OK;
}

static unsigned ptys_write(Mlx5Fw *fw, Mlx5Cmd *c, const uint8_t *d)
{
    uint32_t admin = PRM_GET(ptys_reg, eth_proto_admin, d);

    if (!port_ok(d, PRM_OFF(ptys_reg, local_port))) {
        return CMD_FAIL(c, BAD_PARAM, BAD_PORT);
    }
    if (admin & ~MLX5_PTYS_100GBASE_CR4) {
        return CMD_FAIL(c, BAD_PARAM, BAD_INDEX);    /* speed the port cannot do */
    }
    (void)fw;
    return MLX5_CMD_STAT_OK;
}

/* PAOS 0x5006: administrative / operational port status (1 up, 2 down). */
static unsigned paos_read(Mlx5Fw *fw, Mlx5Cmd *c, uint8_t *d)
{
    if (!port_ok(d, PRM_OFF(paos_reg, local_port))) {
        return CMD_FAIL(c, BAD_PARAM, BAD_PORT);
    }
    PRM_SET(paos_reg, admin_status, d, fw->paos_admin);
    PRM_SET(paos_reg, oper_status, d, fw->port_up ? 1 : 2);
    return MLX5_CMD_STAT_OK;
}

static unsigned paos_write(Mlx5Fw *fw, Mlx5Cmd *c, const uint8_t *d)
{
    uint32_t admin = PRM_GET(paos_reg, admin_status, d);

    if (!port_ok(d, PRM_OFF(paos_reg, local_port))) {
        return CMD_FAIL(c, BAD_PARAM, BAD_PORT);
    }
    if (!PRM_GET(paos_reg, ase, d)) {
        return MLX5_CMD_STAT_OK;                /* admin status not to be set */
    }
    if (admin != 1 && admin != 2) {
        return CMD_FAIL(c, BAD_PARAM, BAD_INDEX);
    }
    fw->paos_admin = admin;
    mlx5_port_update(fw);
    return MLX5_CMD_STAT_OK;
}

/* PFCC 0x5007: global pause. */
static unsigned pfcc_read(Mlx5Fw *fw, Mlx5Cmd *c, uint8_t *d)
{
    if (!port_ok(d, PRM_OFF(pfcc_reg, local_port))) {
        return CMD_FAIL(c, BAD_PARAM, BAD_PORT);
    }
    PRM_SET(pfcc_reg, pptx, d, fw->pause_tx);
    PRM_SET(pfcc_reg, pprx, d, fw->pause_rx);
    return MLX5_CMD_STAT_OK;
}

static unsigned pfcc_write(Mlx5Fw *fw, Mlx5Cmd *c, const uint8_t *d)
{
    if (!port_ok(d, PRM_OFF(pfcc_reg, local_port))) {
        return CMD_FAIL(c, BAD_PARAM, BAD_PORT);
    }
    if (PRM_GET(pfcc_reg, pfctx, d) || PRM_GET(pfcc_reg, pfcrx, d)) {
        return CMD_FAIL(c, BAD_PARAM, BAD_INDEX);    /* no per-priority PFC */
    }
    fw->pause_tx = PRM_GET(pfcc_reg, pptx, d);
    fw->pause_rx = PRM_GET(pfcc_reg, pprx, d);
    return MLX5_CMD_STAT_OK;
}

/* PPCNT 0x5008: port counters by group. */
enum {
    MLX5_PPCNT_802_3 = 0x0, MLX5_PPCNT_RFC_2863 = 0x1, MLX5_PPCNT_RFC_2819 = 0x2,
    MLX5_PPCNT_PER_PRIO = 0x10,
};

#define PUT64(layout, field, set, v) do { \
    PRM_SET(layout, field##_high, set, (uint64_t)(v) >> 32); \
    PRM_SET(layout, field##_low, set, (uint32_t)(v)); \
} while (0)

static unsigned ppcnt_read(Mlx5Fw *fw, Mlx5Cmd *c, uint8_t *d)
{
    uint8_t *set = PRM_PTR(ppcnt_reg, counter_set, d);
    const Mlx5PortCounters *k = &fw->counters;

    if (!port_ok(d, PRM_OFF(ppcnt_reg, local_port))) {
        return CMD_FAIL(c, BAD_PARAM, BAD_PORT);
    }
    memset(set, 0, PRM_BYTES(ppcnt_reg) - PRM_BYTE_OFF(ppcnt_reg, counter_set));
    switch (PRM_GET(ppcnt_reg, grp, d)) {
    case MLX5_PPCNT_802_3:
        PUT64(eth_802_3_cntrs_grp_data_layout, a_frames_transmitted_ok, set, k->tx_frames);
        PUT64(eth_802_3_cntrs_grp_data_layout, a_frames_received_ok, set, k->rx_frames);
        PUT64(eth_802_3_cntrs_grp_data_layout, a_octets_transmitted_ok, set, k->tx_octets);
        PUT64(eth_802_3_cntrs_grp_data_layout, a_octets_received_ok, set, k->rx_octets);
        PUT64(eth_802_3_cntrs_grp_data_layout, a_multicast_frames_xmitted_ok, set, k->tx_mcast);
        PUT64(eth_802_3_cntrs_grp_data_layout, a_broadcast_frames_xmitted_ok, set, k->tx_bcast);
        PUT64(eth_802_3_cntrs_grp_data_layout, a_multicast_frames_received_ok, set, k->rx_mcast);
        PUT64(eth_802_3_cntrs_grp_data_layout, a_broadcast_frames_received_ok, set, k->rx_bcast);
        break;
    case MLX5_PPCNT_RFC_2863:
        PUT64(eth_2863_cntrs_grp_data_layout, if_in_octets, set, k->rx_octets);
        PUT64(eth_2863_cntrs_grp_data_layout, if_in_ucast_pkts, set, k->rx_ucast);
        PUT64(eth_2863_cntrs_grp_data_layout, if_in_discards, set, k->rx_dropped);
        PUT64(eth_2863_cntrs_grp_data_layout, if_out_octets, set, k->tx_octets);
        PUT64(eth_2863_cntrs_grp_data_layout, if_out_ucast_pkts, set, k->tx_ucast);
        PUT64(eth_2863_cntrs_grp_data_layout, if_in_multicast_pkts, set, k->rx_mcast);
        PUT64(eth_2863_cntrs_grp_data_layout, if_in_broadcast_pkts, set, k->rx_bcast);
        PUT64(eth_2863_cntrs_grp_data_layout, if_out_multicast_pkts, set, k->tx_mcast);
        PUT64(eth_2863_cntrs_grp_data_layout, if_out_broadcast_pkts, set, k->tx_bcast);
        break;
    case MLX5_PPCNT_RFC_2819:
        PUT64(eth_2819_cntrs_grp_data_layout, ether_stats_drop_events, set, k->rx_dropped);
        PUT64(eth_2819_cntrs_grp_data_layout, ether_stats_octets, set, k->rx_octets);
        PUT64(eth_2819_cntrs_grp_data_layout, ether_stats_pkts, set, k->rx_frames);
        PUT64(eth_2819_cntrs_grp_data_layout, ether_stats_broadcast_pkts, set, k->rx_bcast);
        PUT64(eth_2819_cntrs_grp_data_layout, ether_stats_multicast_pkts, set, k->rx_mcast);
        break;
    case MLX5_PPCNT_PER_PRIO:
        if (PRM_GET(ppcnt_reg, prio_tc, d) == 0) {   /* all traffic is priority 0 */
            PUT64(eth_per_prio_grp_data_layout, rx_octets, set, k->rx_octets);
            PUT64(eth_per_prio_grp_data_layout, rx_frames, set, k->rx_frames);
            PUT64(eth_per_prio_grp_data_layout, tx_octets, set, k->tx_octets);
            PUT64(eth_per_prio_grp_data_layout, tx_frames, set, k->tx_frames);
        }
        break;
    default:
        return CMD_FAIL(c, BAD_PARAM, BAD_INDEX);
    }
    return MLX5_CMD_STAT_OK;
}

static unsigned ppcnt_write(Mlx5Fw *fw, Mlx5Cmd *c, const uint8_t *d)
{
    if (!port_ok(d, PRM_OFF(ppcnt_reg, local_port))) {
        return CMD_FAIL(c, BAD_PARAM, BAD_PORT);
    }
    if (PRM_GET(ppcnt_reg, clr, d)) {
        memset(&fw->counters, 0, sizeof(fw->counters));
    }
    return MLX5_CMD_STAT_OK;
}

/* PCAM 0x507f: port capabilities mask; we advertise none of the optional
 * port registers or features (extended PTYS, PPCNT extended groups...). */
static unsigned pcam_read(Mlx5Fw *fw, Mlx5Cmd *c, uint8_t *d)
{
    uint8_t group = PRM_GET(pcam_reg, feature_group, d);

    if (group != 0) {
        return CMD_FAIL(c, BAD_PARAM, BAD_INDEX);
    }
    memset(d, 0, PRM_BYTES(pcam_reg));
    (void)fw;
    return MLX5_CMD_STAT_OK;
}

/* NODE_DESC 0x6001: 64-byte node description string. */
#define MLX5_NODE_DESC_BYTES 64
static unsigned node_desc_read(Mlx5Fw *fw, Mlx5Cmd *c, uint8_t *d)
{
    memcpy(d, fw->node_desc, MLX5_NODE_DESC_BYTES);
    (void)c;
    return MLX5_CMD_STAT_OK;
}

static unsigned node_desc_write(Mlx5Fw *fw, Mlx5Cmd *c, const uint8_t *d)
{
    memcpy(fw->node_desc, d, MLX5_NODE_DESC_BYTES);
    fw->node_desc[MLX5_NODE_DESC_BYTES - 1] = 0;
    (void)c;
    return MLX5_CMD_STAT_OK;
}

/* HOST_ENDIANNESS 0x7004: the PF driver declares little-endian (he = 0);
 * the device keeps its big-endian interface either way. */
static unsigned host_endianness_write(Mlx5Fw *fw, Mlx5Cmd *c, const uint8_t *d)
{
    (void)fw; (void)c; (void)d;
    return MLX5_CMD_STAT_OK;
}

static const Mlx5Reg mlx5_regs[] = {
    { 0x5003, "PMTU", PRM_BYTES(pmtu_reg), pmtu_read, pmtu_write },
    { 0x5004, "PTYS", PRM_BYTES(ptys_reg), ptys_read, ptys_write },
    { 0x5006, "PAOS", PRM_BYTES(paos_reg), paos_read, paos_write },
    { 0x5007, "PFCC", PRM_BYTES(pfcc_reg), pfcc_read, pfcc_write },
    { 0x5008, "PPCNT", PRM_BYTES(ppcnt_reg), ppcnt_read, ppcnt_write },
    { 0x507f, "PCAM", PRM_BYTES(pcam_reg), pcam_read, NULL },
    { 0x6001, "NODE_DESC", MLX5_NODE_DESC_BYTES, node_desc_read, node_desc_write },
    { 0x7004, "HOST_ENDIANNESS", PRM_BYTES(host_endianness_reg), NULL, host_endianness_write },
};

unsigned cmd_access_reg(Mlx5Fw *fw, Mlx5Cmd *c)
{
    uint32_t id = PRM_GET(access_register_in, register_id, c->in);
    uint32_t hdr = PRM_BYTE_OFF(access_register_in, register_data);
    const Mlx5Reg *r = NULL;
    uint8_t *data;
    unsigned st;

    for (size_t i = 0; i < G_N_ELEMENTS(mlx5_regs); i++) {
        if (mlx5_regs[i].id == id) {
            r = &mlx5_regs[i];
        }
    }
    c->obj = id;
    if (!r || (c->op_mod == MLX5_REG_READ ? !r->read : !r->write)) {
        return CMD_FAIL(c, BAD_PARAM, BAD_REGISTER);
    }
    if (c->op_mod > MLX5_REG_READ) {
        return CMD_FAIL(c, BAD_PARAM, BAD_OP_MOD);
    }
    if (c->inlen - hdr < r->bytes) {
        return CMD_FAIL(c, BAD_INP_LEN, BAD_REG_LEN);
    }
    if (c->op_mod == MLX5_REG_READ && c->outlen - hdr < r->bytes) {
        return CMD_FAIL(c, BAD_OUTP_LEN, BAD_REG_LEN);
    }
    /* Work on a copy of the register image, then return as many bytes as
     * the driver sent and has room for. */
    data = g_malloc0(r->bytes);
    memcpy(data, c->in + hdr, r->bytes);
    st = c->op_mod == MLX5_REG_READ ? r->read(fw, c, data) : r->write(fw, c, data);
    if (st == MLX5_CMD_STAT_OK && c->op_mod == MLX5_REG_READ) {
        memcpy(c->out + hdr, data, MIN(r->bytes, c->outlen - hdr));
    }
    mlx5emu_trace_reg_access(r->name, id, c->op_mod == MLX5_REG_READ ? "read" : "write", st);
    g_free(data);
    return st;
}
