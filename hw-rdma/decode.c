/* Decoders of WQEs, CQEs and RoCEv2 packets: see decode.h. */
#include "decode.h"

#include <inttypes.h>
#include <stdbool.h>

#include "cqe.h"
#include "prm.h"
#include "prm-decode.h"
#include "rc.h"
#include "wqe.h"

/* Send opcodes by their control-segment byte (PRM "Send WQE Format";
 * mlx5dv.h MLX5_OPCODE_*). */
static const char *const wqe_opcode_names[256] = {
    [MLX5_OPCODE_NOP] = "NOP",
    [MLX5_OPCODE_SEND_INVAL] = "SEND_INVAL",
    [MLX5_OPCODE_RDMA_WRITE] = "RDMA_WRITE",
    [MLX5_OPCODE_RDMA_WRITE_IMM] = "RDMA_WRITE_IMM",
    [MLX5_OPCODE_SEND] = "SEND",
    [MLX5_OPCODE_SEND_IMM] = "SEND_IMM",
    [MLX5_OPCODE_LSO] = "LSO",
    [MLX5_OPCODE_RDMA_READ] = "RDMA_READ",
    [MLX5_OPCODE_ATOMIC_CS] = "ATOMIC_CS",
    [MLX5_OPCODE_ATOMIC_FA] = "ATOMIC_FA",
    [MLX5_OPCODE_UMR] = "UMR",
};

static const char *const cqe_opcode_names[16] = {
    [MLX5_CQE_REQ] = "REQ",
    [MLX5_CQE_RESP_WR_IMM] = "RESP_WR_IMM",
    [MLX5_CQE_RESP_SEND] = "RESP_SEND",
    [MLX5_CQE_RESP_SEND_IMM] = "RESP_SEND_IMM",
    [MLX5_CQE_RESP_SEND_INV] = "RESP_SEND_INV",
    [MLX5_CQE_REQ_ERR] = "REQ_ERR",
    [MLX5_CQE_RESP_ERR] = "RESP_ERR",
    [MLX5_CQE_INVALID] = "INVALID",
};

static const char *const cqe_syndrome_names[256] = {
    [MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR] = "LOCAL_LENGTH_ERR",
    [MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR] = "LOCAL_QP_OP_ERR",
    [MLX5_CQE_SYNDROME_LOCAL_PROT_ERR] = "LOCAL_PROT_ERR",
    [MLX5_CQE_SYNDROME_WR_FLUSH_ERR] = "WR_FLUSH_ERR",
    [MLX5_CQE_SYNDROME_MW_BIND_ERR] = "MW_BIND_ERR",
    [MLX5_CQE_SYNDROME_BAD_RESP_ERR] = "BAD_RESP_ERR",
    [MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR] = "REMOTE_INVAL_REQ_ERR",
    [MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR] = "REMOTE_ACCESS_ERR",
    [MLX5_CQE_SYNDROME_REMOTE_OP_ERR] = "REMOTE_OP_ERR",
    [MLX5_CQE_SYNDROME_TRANSPORT_RETRY_EXC_ERR] = "TRANSPORT_RETRY_EXC_ERR",
    [MLX5_CQE_SYNDROME_RNR_RETRY_EXC_ERR] = "RNR_RETRY_EXC_ERR",
};

const char *mlx5_wqe_opcode_name(uint8_t opcode)
{
    return wqe_opcode_names[opcode];
}

const char *mlx5_cqe_opcode_name(uint8_t opcode)
{
    return cqe_opcode_names[opcode & 0xf];
}

const char *mlx5_cqe_syndrome_name(uint8_t syndrome)
{
    return cqe_syndrome_names[syndrome];
}

/* "NAME(0x0a)", or "unknown(0x0a)". */
static void decode_named(GString *out, const char *field, const char *name, unsigned v)
{
    bool first = out->len && out->str[out->len - 1] == '{';

    g_string_append_printf(out, "%s%s=%s(0x%02x)", first ? "" : " ", field,
                           name ? name : "unknown", v);
}

static void decode_ctrl(GString *out, const uint8_t *c)
{
    uint32_t op = prm_be32(c + WQE_CTRL_OPMOD_IDX_OPCODE);
    uint32_t qpn_ds = prm_be32(c + WQE_CTRL_QPN_DS);
    uint8_t fm = c[WQE_CTRL_FM_CE_SE];

    g_string_append(out, "ctrl{");
    decode_named(out, "opcode", mlx5_wqe_opcode_name(op & 0xff), op & 0xff);
    g_string_append_printf(out, " wqe_index=%u opmod=%u qpn=0x%x ds=%u fm_ce_se=0x%02x",
                           (op >> 8) & 0xffff, op >> 24, qpn_ds >> 8, qpn_ds & 0x3f, fm);
    g_string_append_printf(out, "%s%s imm=0x%x}", fm & MLX5_WQE_CTRL_CQ_UPDATE ? "(CQ_UPDATE)" : "",
                           fm & MLX5_WQE_CTRL_SOLICITED ? "(SOLICITED)" : "",
                           prm_be32(c + WQE_CTRL_IMM));
}

static void decode_raddr(GString *out, const uint8_t *s)
{
    g_string_append_printf(out, " raddr{va=0x%" PRIx64 " rkey=0x%x}",
                           prm_be64(s + WQE_RADDR_VA), prm_be32(s + WQE_RADDR_RKEY));
}

static void decode_atomic(GString *out, const uint8_t *s)
{
    g_string_append_printf(out, " atomic{swap_add=0x%" PRIx64 " compare=0x%" PRIx64 "}",
                           prm_be64(s + WQE_ATOMIC_SWAP_ADD), prm_be64(s + WQE_ATOMIC_COMPARE));
}

static void decode_gid(GString *out, const char *field, const uint8_t *gid)
{
    g_string_append_printf(out, " %s=", field);
    for (unsigned i = 0; i < 16; i += 2) {
        g_string_append_printf(out, "%s%02x%02x", i ? ":" : "", gid[i], gid[i + 1]);
    }
}

static void decode_av(GString *out, const uint8_t *av)
{
    const uint8_t *m = av + WQE_AV_RMAC;
    uint32_t dqp = prm_be32(av + WQE_AV_DQP);

    g_string_append_printf(out, " av{qkey=0x%x dqpn=0x%x%s udp_sport=%u"
                           " rmac=%02x:%02x:%02x:%02x:%02x:%02x tclass=%u hop_limit=%u"
                           " sgid_index=%u", prm_be32(av + WQE_AV_QKEY), dqp & 0xffffff,
                           dqp & MLX5_EXTENDED_UD_AV ? "(extended)" : "",
                           prm_be16(av + WQE_AV_UDP_SPORT), m[0], m[1], m[2], m[3], m[4], m[5],
                           av[WQE_AV_TCLASS], av[WQE_AV_HOP_LIMIT],
                           (prm_be32(av + WQE_AV_GRH_GID_FL) >> 20) & 0xff);
    decode_gid(out, "rgid", av + WQE_AV_RGID);
    g_string_append(out, "}");
}

/* The Ethernet segment; returns the 16-byte units it and its inline
 * headers take. */
static unsigned decode_eth(GString *out, const uint8_t *e)
{
    uint16_t hdr = prm_be16(e + WQE_ETH_INLINE_HDR_SZ);
    uint8_t cs = e[WQE_ETH_CS_FLAGS];

    g_string_append_printf(out, " eth{cs_flags=0x%02x%s%s mss=%u", cs,
                           cs & MLX5_ETH_WQE_L3_CSUM ? "(L3_CSUM)" : "",
                           cs & MLX5_ETH_WQE_L4_CSUM ? "(L4_CSUM)" : "", prm_be16(e + WQE_ETH_MSS));
    if (hdr & MLX5_ETH_WQE_INSERT_VLAN) {
        g_string_append_printf(out, " insert_vlan_tci=0x%04x}", prm_be16(e + WQE_ETH_INSERT_VLAN_TCI));
        return 1;
    }
    g_string_append_printf(out, " inline_hdr_sz=%u}", hdr);
    return (WQE_ETH_INLINE_HDR + hdr + MLX5_DS_BYTES - 1) / MLX5_DS_BYTES;
}

/* The UMR control segment and the mkey context (umr.c reads the same). */
static void decode_umr(GString *out, const uint8_t *wqe, size_t avail)
{
    const uint8_t *u = wqe + WQE_UMR_CTRL;

    if (avail < WQE_UMR_XLT) {
        g_string_append(out, " umr{truncated}");
        return;
    }
    g_string_append_printf(out, " umr_ctrl{flags=0x%02x xlt_octowords=%u xlt_offset=0x%x"
                           " mkey_mask=0x%" PRIx64 "} mkc{", u[WQE_UMR_FLAGS],
                           prm_be16(u + WQE_UMR_XLT_OCTOWORDS),
                           (unsigned)prm_be32(u + WQE_UMR_XLT_OFFSET_47_16) << 16 |
                           prm_be16(u + WQE_UMR_XLT_OFFSET),
                           prm_be64(u + WQE_UMR_MKEY_MASK));
    prm_decode(out, "mkc", wqe + WQE_UMR_MKC, avail - WQE_UMR_MKC);
    g_string_append(out, " }");
}

/* Data segments from unit `first` on: pointers, or inline data. */
static void decode_data(GString *out, const uint8_t *wqe, unsigned first, unsigned ds)
{
    for (unsigned s = first; s < ds; s++) {
        const uint8_t *seg = wqe + s * MLX5_DS_BYTES;
        uint32_t bc = prm_be32(seg + WQE_DATA_BYTE_COUNT);

        if (bc & WQE_INLINE_SEG) {
            uint32_t n = mlx5_wqe_inline_len(bc);

            g_string_append_printf(out, " inline{byte_count=%u}", n);
            s += mlx5_wqe_inline_extra_segs(n);
            continue;
        }
        g_string_append_printf(out, " data{byte_count=%u lkey=0x%x addr=0x%" PRIx64 "}", bc,
                               prm_be32(seg + WQE_DATA_LKEY), prm_be64(seg + WQE_DATA_ADDR));
    }
}

/* The segments between ctrl and the data segments, by layout and opcode;
 * returns the unit the data segments start at. */
static unsigned decode_middle(GString *out, const uint8_t *wqe, unsigned ds,
                              Mlx5WqeLayout layout, uint8_t opcode)
{
    unsigned s = 1;

    if (layout == MLX5_WQE_LAYOUT_ETH) {
        return ds > 1 ? 1 + decode_eth(out, wqe + MLX5_DS_BYTES) : ds;
    }
    if (layout == MLX5_WQE_LAYOUT_UD) {
        if (ds >= 1 + MLX5_AV_BYTES / MLX5_DS_BYTES) {
            decode_av(out, wqe + MLX5_DS_BYTES);
        }
        return 1 + MLX5_AV_BYTES / MLX5_DS_BYTES;
    }
    if (layout == MLX5_WQE_LAYOUT_XRC && s < ds) {
        g_string_append_printf(out, " xrc{srqn=0x%x}", prm_be32(wqe + MLX5_DS_BYTES) & 0xffffff);
        s++;
    }
    switch (opcode) {
    case MLX5_OPCODE_ATOMIC_CS:
    case MLX5_OPCODE_ATOMIC_FA:
        if (s + 1 < ds) {
            decode_raddr(out, wqe + s * MLX5_DS_BYTES);
            decode_atomic(out, wqe + (s + 1) * MLX5_DS_BYTES);
        }
        return s + 2;
    case MLX5_OPCODE_RDMA_WRITE:
    case MLX5_OPCODE_RDMA_WRITE_IMM:
    case MLX5_OPCODE_RDMA_READ:
        if (s < ds) {
            decode_raddr(out, wqe + s * MLX5_DS_BYTES);
        }
        return s + 1;
    }
    return s;
}

void mlx5_decode_send_wqe(GString *out, const uint8_t *wqe, size_t len, unsigned ds,
                          Mlx5WqeLayout layout)
{
    uint8_t opcode;

    if (len < MLX5_DS_BYTES) {
        g_string_append(out, "ctrl{truncated}");
        return;
    }
    decode_ctrl(out, wqe);
    ds = MIN(ds, len / MLX5_DS_BYTES);
    opcode = wqe[WQE_CTRL_OPMOD_IDX_OPCODE + 3];
    if (opcode == MLX5_OPCODE_UMR) {
        decode_umr(out, wqe, MIN(len, ds * MLX5_DS_BYTES));
        return;
    }
    decode_data(out, wqe, decode_middle(out, wqe, ds, layout, opcode), ds);
}

/* A responder CQE's own fields: immediate or invalidated key, source QP. */
static void decode_cqe_resp(GString *out, const uint8_t *cqe, unsigned op)
{
    uint32_t flags_rqpn = prm_be32(cqe + CQE_FLAGS_RQPN);

    if (op == MLX5_CQE_RESP_SEND_IMM || op == MLX5_CQE_RESP_WR_IMM) {
        g_string_append_printf(out, " imm=0x%x", prm_be32(cqe + CQE_IMMEDIATE));
    } else if (op == MLX5_CQE_RESP_SEND_INV) {
        g_string_append_printf(out, " inval_rkey=0x%x", prm_be32(cqe + CQE_IMMEDIATE));
    }
    g_string_append_printf(out, " srqn_user_index=0x%x flags_rqpn=0x%x(src_qpn=0x%x%s)",
                           prm_be32(cqe + CQE_SRQN), flags_rqpn, flags_rqpn & 0xffffff,
                           flags_rqpn & MLX5_CQE_GRH_IN_BUFFER ? " grh" : "");
}

void mlx5_decode_cqe(GString *out, const uint8_t *cqe)
{
    unsigned op = cqe[CQE_OP_OWN] >> 4;
    uint32_t sop = prm_be32(cqe + CQE_SOP_DROP_QPN);

    g_string_append(out, "cqe{");
    decode_named(out, "opcode", mlx5_cqe_opcode_name(op), op);
    g_string_append_printf(out, " owner=%u qpn=0x%x wqe_counter=%u", cqe[CQE_OP_OWN] & 1,
                           sop & 0xffffff, prm_be16(cqe + CQE_WQE_COUNTER));
    if (mlx5_cqe_is_error(cqe)) {
        decode_named(out, "syndrome", mlx5_cqe_syndrome_name(cqe[CQE_ERR_SYNDROME]),
                     cqe[CQE_ERR_SYNDROME]);
        g_string_append_printf(out, " vendor_syndrome=0x%02x}", cqe[CQE_ERR_VENDOR_SYNDROME]);
        return;
    }
    if (op == MLX5_CQE_REQ) {
        decode_named(out, "wqe_opcode", mlx5_wqe_opcode_name(sop >> 24), sop >> 24);
    } else {
        decode_cqe_resp(out, cqe, op);
    }
    g_string_append_printf(out, " byte_cnt=%u timestamp=%" PRIu64 "}",
                           prm_be32(cqe + CQE_BYTE_CNT), prm_be64(cqe + CQE_TIMESTAMP));
}

const char *mlx5_aeth_name(uint8_t syndrome)
{
    switch (syndrome & AETH_KIND_MASK) {
    case AETH_KIND_ACK:
        return "ACK";
    case AETH_KIND_RNR:
        return "RNR_NAK";
    case AETH_KIND_NAK:
        break;
    default:
        return "reserved";
    }
    switch (syndrome) {
    case AETH_NAK_PSN_SEQ:
        return "NAK_PSN_SEQUENCE_ERROR";
    case AETH_NAK_INVALID_REQ:
        return "NAK_INVALID_REQUEST";
    case AETH_NAK_REMOTE_ACCESS:
        return "NAK_REMOTE_ACCESS_ERROR";
    case AETH_NAK_REMOTE_OP:
        return "NAK_REMOTE_OPERATIONAL_ERROR";
    }
    return "NAK_reserved";
}

/* The extension headers the opcode has (IBTA 9.3-9.5, A14.3.2). */
static void decode_ext(GString *out, const Mlx5RocePkt *p, unsigned h)
{
    if (h & MLX5_ROCE_HDR_XRCETH) {
        g_string_append_printf(out, " XRCETH{xrc_srqn=0x%x}", p->xrc_srqn);
    }
    if (h & MLX5_ROCE_HDR_DETH) {
        g_string_append_printf(out, " DETH{qkey=0x%x src_qp=0x%x}", p->deth.qkey, p->deth.src_qpn);
    }
    if (h & MLX5_ROCE_HDR_RETH) {
        g_string_append_printf(out, " RETH{va=0x%" PRIx64 " rkey=0x%x dma_len=%u}",
                               p->reth.va, p->reth.rkey, p->reth.dma_len);
    }
    if (h & MLX5_ROCE_HDR_ATOMIC_ETH) {
        g_string_append_printf(out, " AtomicETH{va=0x%" PRIx64 " rkey=0x%x swap_add=0x%" PRIx64
                               " compare=0x%" PRIx64 "}", p->atomic_eth.va, p->atomic_eth.rkey,
                               p->atomic_eth.swap_add, p->atomic_eth.compare);
    }
    if (h & MLX5_ROCE_HDR_AETH) {
        g_string_append_printf(out, " AETH{syndrome=0x%02x(%s) msn=%u}", p->aeth.syndrome,
                               mlx5_aeth_name(p->aeth.syndrome), p->aeth.msn);
    }
    if (h & MLX5_ROCE_HDR_ATOMIC_ACK_ETH) {
        g_string_append_printf(out, " AtomicAckETH{orig=0x%" PRIx64 "}", p->atomic_ack_orig);
    }
    if (h & MLX5_ROCE_HDR_IMMDT) {
        g_string_append_printf(out, " ImmDt{imm=0x%x}", p->imm_data);
    }
    if (h & MLX5_ROCE_HDR_IETH) {
        g_string_append_printf(out, " IETH{rkey=0x%x}", p->ieth_rkey);
    }
}

void mlx5_decode_roce(GString *out, const Mlx5RocePkt *p)
{
    const Mlx5RoceOpcode *op = mlx5_roce_opcode(p->opcode);

    g_string_append(out, "BTH{");
    decode_named(out, "opcode", op ? op->name : NULL, p->opcode);
    g_string_append_printf(out, " se=%d m=%d pad=%u pkey=0x%04x fecn=%d becn=%d"
                           " dest_qp=0x%x ackreq=%d psn=%u}", p->se, p->migreq, p->pad,
                           p->pkey, p->fecn, p->becn, p->dest_qpn, p->ackreq, p->psn);
    if (op) {
        decode_ext(out, p, op->hdrs);
    }
    if (!op || (op->flags & MLX5_ROCE_OPF_PAYLOAD)) {
        g_string_append_printf(out, " payload{%zu bytes}", p->payload_len);
    }
}
