/*
 * MADs seen on the GSI QP, decoded for tracing only.
 *
 * Concepts
 * --------
 * The device does not interpret MADs: the kernel's MAD layer and its
 * connection manager (ib_cm, under rdma_cm) build and parse them, and
 * the GSI QP carries them as ordinary UD payload.  A user watching a
 * connection come up wants to see which management message crossed the
 * wire, so every MAD the GSI QP sends or receives is traced with the
 * common MAD header (IBA 13.4.2: management class at byte 1, method at
 * byte 3, attribute ID at bytes 16-17) and, for the CM class, the
 * message name and the two communication IDs (IBA 12.6: local at byte
 * 24, remote at byte 28; a REQ has no remote one yet, traced as 0) that
 * tie REQ, REP, RTU, DREQ and DREP of one connection together.  Nothing
 * here is trusted or acted upon.
 */
#include "transport.h"

enum {
    MAD_MGMT_CLASS = 1, MAD_METHOD = 3, MAD_ATTR_ID = 16, MAD_HDR_BYTES = 24,
    CM_LOCAL_COMM_ID = 24, CM_REMOTE_COMM_ID = 28, CM_HDR_BYTES = 32,
    MGMT_CLASS_CM = 0x07, CM_ATTR_REQ = 0x10,
};

static const char *mad_class_name(uint8_t mgmt_class)
{
    switch (mgmt_class) {
    case 0x01: return "SMP";
    case 0x81: return "SMP-directed";
    case 0x03: return "SA";
    case 0x04: return "PerfMgt";
    case 0x05: return "BM";
    case 0x06: return "DevMgt";
    case MGMT_CLASS_CM: return "CM";
    case 0x10: return "SNMP";
    default: return "other";
    }
}

/* IBA 12.6, table 97 (attribute IDs of the CM class). */
static const char *cm_attr_name(uint16_t attr_id)
{
    static const char *const names[] = {
        [CM_ATTR_REQ] = "REQ", [0x11] = "MRA", [0x12] = "REJ", [0x13] = "REP",
        [0x14] = "RTU", [0x15] = "DREQ", [0x16] = "DREP", [0x17] = "SIDR_REQ",
        [0x18] = "SIDR_REP", [0x19] = "LAP", [0x1a] = "APR",
    };
    if (attr_id < sizeof(names) / sizeof(names[0]) && names[attr_id]) {
        return names[attr_id];
    }
    return attr_id == 0x01 ? "ClassPortInfo" : "other";
}

void mlx5_mad_trace(const uint8_t *mad, size_t len, bool send, unsigned peer_qpn)
{
    uint8_t cls;
    uint16_t attr;

    if (len < MAD_HDR_BYTES) {
        return;
    }
    cls = mad[MAD_MGMT_CLASS];
    attr = prm_be16(mad + MAD_ATTR_ID);
    mlx5emu_trace_gsi_mad(send ? "sends" : "receives", mad_class_name(cls), cls,
                          mad[MAD_METHOD], attr, peer_qpn);
    if (cls == MGMT_CLASS_CM && len >= CM_HDR_BYTES) {
        uint32_t remote = attr == CM_ATTR_REQ ? 0 : prm_be32(mad + CM_REMOTE_COMM_ID);
        mlx5emu_trace_gsi_cm(send ? "sends" : "receives", cm_attr_name(attr),
                             prm_be32(mad + CM_LOCAL_COMM_ID), remote);
    }
}
