/*
 * ACCESS_REG (PRM "Access Registers"): op_mod 0 = write, 1 = read; the
 * register data follows the 16-byte header and the output carries as many
 * data bytes as the input (Linux port.c mlx5_access_reg).
 *
 * One row per register: id, name, size, read and write handlers.  A read
 * starts from the input data (so index fields such as local_port and grp
 * come back) and fills in the rest.
 */
#include <stdio.h>
#include <string.h>

#include "cmd.h"

enum { MLX5_REG_WRITE = 0, MLX5_REG_READ = 1 };

typedef struct Mlx5Reg {
    uint16_t id;
    const char *name;
    uint32_t bytes;             /* the register; inputs may not be shorter */
    unsigned (*read)(Mlx5Fw *fw, Mlx5Cmd *c, uint8_t *data);
    unsigned (*write)(Mlx5Fw *fw, Mlx5Cmd *c, const uint8_t *data);
    /* registers whose reply is longer than the request (MCQI) */
    unsigned (*read_var)(Mlx5Fw *fw, Mlx5Cmd *c, uint8_t *data, uint32_t room);
} Mlx5Reg;

/* Largest register reply we build (MCQI with its version block). */
#define MLX5_REG_MAX_BYTES 512

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

/* PPCNT 0x5008: port counters by group.  The IB port group (mlx5_ib's PMA
 * PortCounters: symbol errors, link recovery and downs, constraint and
 * relay errors, VL15 drops) is all zeros. */
enum {
    MLX5_PPCNT_802_3 = 0x0, MLX5_PPCNT_RFC_2863 = 0x1, MLX5_PPCNT_RFC_2819 = 0x2,
    MLX5_PPCNT_PER_PRIO = 0x10, MLX5_PPCNT_IB_PORT = 0x20,
};

#define PUT64(layout, field, set, v) do { \
    PRM_SET(layout, field##_high, set, (uint64_t)(v) >> 32); \
    PRM_SET(layout, field##_low, set, (uint32_t)(v)); \
} while (0)

static unsigned ppcnt_read(Mlx5Fw *fw, Mlx5Cmd *c, uint8_t *d)
{
    uint8_t *set = PRM_PTR(ppcnt_reg, counter_set, d);
    const Mlx5PortCounters *k = &fw->counters;
    const Mlx5Traffic *rx = &k->phy_rx, *tx = &k->phy_tx;
    uint64_t rx_frames = mlx5_traffic_frames(rx), tx_frames = mlx5_traffic_frames(tx);
    uint64_t rx_octets = mlx5_traffic_octets(rx), tx_octets = mlx5_traffic_octets(tx);
    enum { UC = MLX5_CAST_UNICAST, MC = MLX5_CAST_MULTICAST, BC = MLX5_CAST_BROADCAST };

    if (!port_ok(d, PRM_OFF(ppcnt_reg, local_port))) {
        return CMD_FAIL(c, BAD_PARAM, BAD_PORT);
    }
    memset(set, 0, PRM_BYTES(ppcnt_reg) - PRM_BYTE_OFF(ppcnt_reg, counter_set));
    switch (PRM_GET(ppcnt_reg, grp, d)) {
    case MLX5_PPCNT_802_3:
        PUT64(eth_802_3_cntrs_grp_data_layout, a_frames_transmitted_ok, set, tx_frames);
        PUT64(eth_802_3_cntrs_grp_data_layout, a_frames_received_ok, set, rx_frames);
        PUT64(eth_802_3_cntrs_grp_data_layout, a_octets_transmitted_ok, set, tx_octets);
        PUT64(eth_802_3_cntrs_grp_data_layout, a_octets_received_ok, set, rx_octets);
        PUT64(eth_802_3_cntrs_grp_data_layout, a_multicast_frames_xmitted_ok, set, tx->frames[MC]);
        PUT64(eth_802_3_cntrs_grp_data_layout, a_broadcast_frames_xmitted_ok, set, tx->frames[BC]);
        PUT64(eth_802_3_cntrs_grp_data_layout, a_multicast_frames_received_ok, set, rx->frames[MC]);
        PUT64(eth_802_3_cntrs_grp_data_layout, a_broadcast_frames_received_ok, set, rx->frames[BC]);
        break;
    case MLX5_PPCNT_RFC_2863:
        PUT64(eth_2863_cntrs_grp_data_layout, if_in_octets, set, rx_octets);
        PUT64(eth_2863_cntrs_grp_data_layout, if_in_ucast_pkts, set, rx->frames[UC]);
        PUT64(eth_2863_cntrs_grp_data_layout, if_in_discards, set,
              k->rx_out_of_buffer + k->rx_roce_discards);
        PUT64(eth_2863_cntrs_grp_data_layout, if_out_octets, set, tx_octets);
        PUT64(eth_2863_cntrs_grp_data_layout, if_out_ucast_pkts, set, tx->frames[UC]);
        PUT64(eth_2863_cntrs_grp_data_layout, if_in_multicast_pkts, set, rx->frames[MC]);
        PUT64(eth_2863_cntrs_grp_data_layout, if_in_broadcast_pkts, set, rx->frames[BC]);
        PUT64(eth_2863_cntrs_grp_data_layout, if_out_multicast_pkts, set, tx->frames[MC]);
        PUT64(eth_2863_cntrs_grp_data_layout, if_out_broadcast_pkts, set, tx->frames[BC]);
        break;
    case MLX5_PPCNT_RFC_2819:
        PUT64(eth_2819_cntrs_grp_data_layout, ether_stats_drop_events, set, k->rx_out_of_buffer);
        PUT64(eth_2819_cntrs_grp_data_layout, ether_stats_octets, set, rx_octets);
        PUT64(eth_2819_cntrs_grp_data_layout, ether_stats_pkts, set, rx_frames);
        PUT64(eth_2819_cntrs_grp_data_layout, ether_stats_broadcast_pkts, set, rx->frames[BC]);
        PUT64(eth_2819_cntrs_grp_data_layout, ether_stats_multicast_pkts, set, rx->frames[MC]);
        break;
    case MLX5_PPCNT_PER_PRIO:
        if (PRM_GET(ppcnt_reg, prio_tc, d) == 0) {   /* all traffic is priority 0 */
            PUT64(eth_per_prio_grp_data_layout, rx_octets, set, rx_octets);
            PUT64(eth_per_prio_grp_data_layout, rx_frames, set, rx_frames);
            PUT64(eth_per_prio_grp_data_layout, tx_octets, set, tx_octets);
            PUT64(eth_per_prio_grp_data_layout, tx_frames, set, tx_frames);
        }
        break;
    case MLX5_PPCNT_IB_PORT:     /* errors a link between QEMU NICs never has */
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

/* MCAM 0x907f: management capabilities.  Access-register group 0 covers
 * registers 0x9000-0x907f; of those we implement MCQS and MCQI, which is
 * what devlink's "fw.version" needs (Linux fw.c mlx5_fw_version_query). */
static unsigned mcam_read(Mlx5Fw *fw, Mlx5Cmd *c, uint8_t *d)
{
    uint8_t group = PRM_GET(mcam_reg, access_reg_group, d);

    if (PRM_GET(mcam_reg, feature_group, d) != 0 || group > 3) {
        return CMD_FAIL(c, BAD_PARAM, BAD_INDEX);
    }
    memset(d + 4, 0, PRM_BYTES(mcam_reg) - 4);
    if (group == 0) {
        uint8_t *regs = PRM_PTR(mcam_reg, mng_access_reg_cap_mask, d);
        PRM_SET(mcam_access_reg, mcqs, regs, 1);
        PRM_SET(mcam_access_reg, mcqi, regs, 1);
    }
    (void)fw;
    return MLX5_CMD_STAT_OK;
}

/* MCQS 0x9060 / MCQI 0x9061: firmware components.  One component, the
 * running boot image (identifier 1), idle (no update pending). */
enum { MLX5_MCQS_IDENTIFIER_BOOT_IMG = 1, MLX5_MCQI_INFO_TYPE_VERSION = 1 };

static unsigned mcqs_read(Mlx5Fw *fw, Mlx5Cmd *c, uint8_t *d)
{
    if (PRM_GET(mcqs_reg, component_index, d) != 0) {
        return CMD_FAIL(c, BAD_PARAM, BAD_INDEX);
    }
    PRM_SET(mcqs_reg, last_index_flag, d, 1);
    PRM_SET(mcqs_reg, identifier, d, MLX5_MCQS_IDENTIFIER_BOOT_IMG);
    PRM_SET(mcqs_reg, component_status, d, 0);
    PRM_SET(mcqs_reg, component_update_state, d, 0);    /* IDLE */
    (void)fw;
    return MLX5_CMD_STAT_OK;
}

static unsigned mcqi_read(Mlx5Fw *fw, Mlx5Cmd *c, uint8_t *d, uint32_t room)
{
    uint8_t *v = PRM_PTR(mcqi_reg, data, d);
    char str[32];
    int n;

    if (PRM_GET(mcqi_reg, component_index, d) != 0 ||
        PRM_GET(mcqi_reg, read_pending_component, d) ||
        PRM_GET(mcqi_reg, info_type, d) != MLX5_MCQI_INFO_TYPE_VERSION) {
        return CMD_FAIL(c, BAD_PARAM, BAD_INDEX);
    }
    if (room < PRM_BYTES(mcqi_reg) + PRM_BYTES(mcqi_version)) {
        return CMD_FAIL(c, BAD_OUTP_LEN, BAD_REG_LEN);
    }
    /* version: major << 24 | minor << 16 | subminor (devlink prints
     * "%d.%d.%04d"). */
    PRM_SET(mcqi_version, version, v, (uint32_t)(fw->cfg.fw_major & 0xff) << 24 |
            (uint32_t)(fw->cfg.fw_minor & 0xff) << 16 | fw->cfg.fw_sub);
    n = snprintf(str, sizeof(str), "%u.%u.%04u", fw->cfg.fw_major, fw->cfg.fw_minor,
                 fw->cfg.fw_sub);
    memcpy(PRM_PTR(mcqi_version, version_string, v), str, (size_t)n);
    PRM_SET(mcqi_version, version_string_length, v, n);
    PRM_SET(mcqi_reg, info_size, d, PRM_BYTES(mcqi_version));
    PRM_SET(mcqi_reg, data_size, d, PRM_BYTES(mcqi_version));
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
    { 0x9060, "MCQS", PRM_BYTES(mcqs_reg), mcqs_read, NULL },
    { 0x9061, "MCQI", PRM_BYTES(mcqi_reg), NULL, NULL, mcqi_read },
    { 0x907f, "MCAM", PRM_BYTES(mcam_reg), mcam_read, NULL },
};

unsigned cmd_access_reg(Mlx5Fw *fw, Mlx5Cmd *c)
{
    uint32_t id = PRM_GET(access_register_in, register_id, c->in);
    uint32_t hdr = PRM_BYTE_OFF(access_register_in, register_data);
    uint32_t in_data = c->inlen - hdr, out_data = c->outlen - hdr;
    bool read = c->op_mod == MLX5_REG_READ;
    const Mlx5Reg *r = NULL;
    uint8_t data[MLX5_REG_MAX_BYTES] = { 0 };
    unsigned st;

    for (size_t i = 0; i < G_N_ELEMENTS(mlx5_regs); i++) {
        if (mlx5_regs[i].id == id) {
            r = &mlx5_regs[i];
        }
    }
    c->obj = id;
    if (c->op_mod > MLX5_REG_READ) {
        return CMD_FAIL(c, BAD_PARAM, BAD_OP_MOD);
    }
    if (!r || (read ? !r->read && !r->read_var : !r->write)) {
        return CMD_FAIL(c, BAD_PARAM, BAD_REGISTER);
    }
    if (in_data < r->bytes) {
        return CMD_FAIL(c, BAD_INP_LEN, BAD_REG_LEN);
    }
    if (read && out_data < r->bytes) {
        return CMD_FAIL(c, BAD_OUTP_LEN, BAD_REG_LEN);
    }
    /* Work on a bounded copy of the register image; the reply carries as
     * many data bytes as the driver has room for. */
    memcpy(data, c->in + hdr, MIN(in_data, sizeof(data)));
    if (!read) {
        st = r->write(fw, c, data);
    } else if (r->read_var) {
        st = r->read_var(fw, c, data, MIN(out_data, sizeof(data)));
    } else {
        st = r->read(fw, c, data);
    }
    if (st == MLX5_CMD_STAT_OK && read) {
        memcpy(c->out + hdr, data, MIN(out_data, sizeof(data)));
    }
    mlx5emu_trace_reg_access(r->name, id, read ? "read" : "write", st);
    return st;
}
