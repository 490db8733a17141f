/* RoCEv2 packet codec: see roce.h. */
#include "roce.h"

#include <string.h>
#include <zlib.h>

#include "prm.h"

enum {
    ETH_HLEN = 14,
    VLAN_HLEN = 4,
    ETHERTYPE_IPV4 = 0x0800,
    ETHERTYPE_IPV6 = 0x86dd,
    ETHERTYPE_VLAN = 0x8100,
    IPV4_HLEN = 20,
    IPV6_HLEN = 40,
    IPPROTO_UDP_ = 17,
    UDP_HLEN = 8,
    U24 = 0xffffff,
};

/*
 * The opcode table (IBTA 9.2 Table 38; Linux ib_pack.h, rxe_opcode.c).
 * RC and UC share the SEND and RDMA WRITE operations; RC alone has READ,
 * atomics, ACKs and SEND with invalidate; UD has SEND ONLY (with
 * immediate); XRC (Annex A14) has RC's operations with an XRCETH on every
 * request; CNP is Annex A17.9.3.
 */
#define NONE    0
#define XRCETH  MLX5_ROCE_HDR_XRCETH
#define DETH    MLX5_ROCE_HDR_DETH
#define RETH    MLX5_ROCE_HDR_RETH
#define ATOMIC  MLX5_ROCE_HDR_ATOMIC_ETH
#define AETH    MLX5_ROCE_HDR_AETH
#define ATMACK  MLX5_ROCE_HDR_ATOMIC_ACK_ETH
#define IMMDT   MLX5_ROCE_HDR_IMMDT
#define IETH    MLX5_ROCE_HDR_IETH
#define PAY     MLX5_ROCE_OPF_PAYLOAD
#define REQ     MLX5_ROCE_OPF_REQUEST
#define RESP    MLX5_ROCE_OPF_RESPONSE
#define FIRST   MLX5_ROCE_OPF_FIRST
#define MIDDLE  MLX5_ROCE_OPF_MIDDLE
#define LAST    MLX5_ROCE_OPF_LAST
#define ONLY    (FIRST | LAST)

#define ROCE_SEND_AND_WRITE(X, T) \
    X(T, SEND_FIRST,                     NONE,         REQ | PAY | FIRST) \
    X(T, SEND_MIDDLE,                    NONE,         REQ | PAY | MIDDLE) \
    X(T, SEND_LAST,                      NONE,         REQ | PAY | LAST) \
    X(T, SEND_LAST_WITH_IMMEDIATE,       IMMDT,        REQ | PAY | LAST) \
    X(T, SEND_ONLY,                      NONE,         REQ | PAY | ONLY) \
    X(T, SEND_ONLY_WITH_IMMEDIATE,       IMMDT,        REQ | PAY | ONLY) \
    X(T, RDMA_WRITE_FIRST,               RETH,         REQ | PAY | FIRST) \
    X(T, RDMA_WRITE_MIDDLE,              NONE,         REQ | PAY | MIDDLE) \
    X(T, RDMA_WRITE_LAST,                NONE,         REQ | PAY | LAST) \
    X(T, RDMA_WRITE_LAST_WITH_IMMEDIATE, IMMDT,        REQ | PAY | LAST) \
    X(T, RDMA_WRITE_ONLY,                RETH,         REQ | PAY | ONLY) \
    X(T, RDMA_WRITE_ONLY_WITH_IMMEDIATE, RETH | IMMDT, REQ | PAY | ONLY)

/* An XRC request carries the XRCETH before its other headers. */
#define ROCE_OP(T, op, h, f) \
    [MLX5_ROCE_##T + MLX5_ROCE_##op] = { \
        #T "_" #op, \
        (h) | (MLX5_ROCE_##T == MLX5_ROCE_XRC && ((f) & REQ) ? XRCETH : 0), (f) },

#define ROCE_RC_ONLY(X, T) \
    X(T, RDMA_READ_REQUEST,          RETH,          REQ | ONLY) \
    X(T, RDMA_READ_RESPONSE_FIRST,   AETH,          RESP | PAY | FIRST) \
    X(T, RDMA_READ_RESPONSE_MIDDLE,  NONE,          RESP | PAY | MIDDLE) \
    X(T, RDMA_READ_RESPONSE_LAST,    AETH,          RESP | PAY | LAST) \
    X(T, RDMA_READ_RESPONSE_ONLY,    AETH,          RESP | PAY | ONLY) \
    X(T, ACKNOWLEDGE,                AETH,          RESP | ONLY) \
    X(T, ATOMIC_ACKNOWLEDGE,         AETH | ATMACK, RESP | ONLY) \
    X(T, COMPARE_SWAP,               ATOMIC,        REQ | ONLY) \
    X(T, FETCH_ADD,                  ATOMIC,        REQ | ONLY) \
    X(T, SEND_LAST_WITH_INVALIDATE,  IETH,          REQ | PAY | LAST) \
    X(T, SEND_ONLY_WITH_INVALIDATE,  IETH,          REQ | PAY | ONLY)

static const Mlx5RoceOpcode roce_opcodes[256] = {
    ROCE_SEND_AND_WRITE(ROCE_OP, RC)
    ROCE_RC_ONLY(ROCE_OP, RC)
    ROCE_SEND_AND_WRITE(ROCE_OP, XRC)
    ROCE_RC_ONLY(ROCE_OP, XRC)
    ROCE_SEND_AND_WRITE(ROCE_OP, UC)
    ROCE_OP(UD, SEND_ONLY,                  DETH,          REQ | PAY | ONLY)
    ROCE_OP(UD, SEND_ONLY_WITH_IMMEDIATE,   DETH | IMMDT,  REQ | PAY | ONLY)
    [MLX5_ROCE_CNP] = { "CNP", MLX5_ROCE_HDR_CNP, ONLY },
};

#undef ROCE_OP
#undef ROCE_SEND_AND_WRITE
#undef ROCE_RC_ONLY
#undef NONE
#undef XRCETH
#undef DETH
#undef RETH
#undef ATOMIC
#undef AETH
#undef ATMACK
#undef IMMDT
#undef IETH
#undef PAY
#undef REQ
#undef RESP
#undef FIRST
#undef MIDDLE
#undef LAST
#undef ONLY

/* Bytes of each extension header, in MLX5_ROCE_HDR_* bit order. */
static const uint8_t roce_ext_bytes[MLX5_ROCE_HDR_KINDS] = { 4, 8, 16, 28, 4, 8, 4, 4, 16 };

const Mlx5RoceOpcode *mlx5_roce_opcode(uint8_t opcode)
{
    return roce_opcodes[opcode].name ? &roce_opcodes[opcode] : NULL;
}

size_t mlx5_roce_ext_len(unsigned hdrs)
{
    size_t n = 0;

    for (unsigned i = 0; i < MLX5_ROCE_HDR_KINDS; i++) {
        if (hdrs & (1u << i)) {
            n += roce_ext_bytes[i];
        }
    }
    return n;
}

const char *mlx5_roce_status_name(Mlx5RoceStatus s)
{
    static const char *const names[] = {
        [MLX5_ROCE_OK] = "ok",
        [MLX5_ROCE_NOT_ROCE] = "not RoCE",
        [MLX5_ROCE_BAD_IP] = "bad IP header",
        [MLX5_ROCE_TRUNCATED] = "truncated",
        [MLX5_ROCE_BAD_UDP_LEN] = "bad UDP length",
        [MLX5_ROCE_BAD_UDP_CSUM] = "bad UDP checksum",
        [MLX5_ROCE_BAD_TVER] = "bad BTH version",
        [MLX5_ROCE_BAD_OPCODE] = "unknown opcode",
        [MLX5_ROCE_BAD_PAD] = "bad pad count",
        [MLX5_ROCE_BAD_LENGTH] = "bad payload length",
        [MLX5_ROCE_BAD_ICRC] = "bad ICRC",
    };
    return (unsigned)s < sizeof(names) / sizeof(names[0]) ? names[s] : "?";
}

/* RFC 1071: the ones'-complement sum of n bytes, folded to 16 bits. */
static uint16_t inet_sum(uint64_t sum, const uint8_t *p, size_t n)
{
    for (; n >= 2; p += 2, n -= 2) {
        sum += prm_be16(p);
    }
    sum += n ? (uint64_t)p[0] << 8 : 0;
    while (sum > 0xffff) {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    return (uint16_t)sum;
}

/* The UDP checksum sum, pseudo header included, of a datagram of ulen bytes
 * (checksum field as it is): 0xffff when the checksum verifies. */
static uint16_t udp_sum(const uint8_t *l3, bool v6, const uint8_t *udp, size_t ulen)
{
    uint64_t pseudo = v6 ? inet_sum(0, l3 + 8, 32) : inet_sum(0, l3 + 12, 8);

    return inet_sum(pseudo + IPPROTO_UDP_ + ulen, udp, ulen);
}

uint32_t mlx5_roce_icrc(const uint8_t *l3, size_t n)
{
    static const uint8_t lrh[8] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
    uint8_t masked[IPV6_HLEN + UDP_HLEN + MLX5_ROCE_BTH_BYTES];
    size_t iph, hl;
    uLong crc;

    if (n < IPV4_HLEN + UDP_HLEN + MLX5_ROCE_BTH_BYTES ||
        ((l3[0] >> 4) != 4 && (l3[0] >> 4) != 6)) {
        return 0;
    }
    iph = (l3[0] >> 4) == 4 ? IPV4_HLEN : IPV6_HLEN;
    hl = iph + UDP_HLEN + MLX5_ROCE_BTH_BYTES;
    if (n < hl) {
        return 0;
    }
    memcpy(masked, l3, hl);
    if (iph == IPV4_HLEN) {
        masked[1] = 0xff;                           /* TOS */
        masked[8] = 0xff;                           /* TTL */
        masked[10] = masked[11] = 0xff;             /* header checksum */
    } else {
        masked[0] |= 0x0f;                          /* traffic class, */
        memset(masked + 1, 0xff, 3);                /* flow label */
        masked[7] = 0xff;                           /* hop limit */
    }
    masked[iph + 6] = masked[iph + 7] = 0xff;       /* UDP checksum */
    masked[iph + UDP_HLEN + 4] = 0xff;              /* BTH FECN, BECN, resv6 */

    crc = crc32(0, lrh, sizeof(lrh));
    crc = crc32(crc, masked, (uInt)hl);
    crc = crc32(crc, l3 + hl, (uInt)(n - hl));
    return (uint32_t)crc;
}

/* Where a RoCEv2 packet's parts are in a frame. */
typedef struct RoceLoc {
    size_t l3, l4, end;         /* IP header, UDP header, end of the IP packet */
    bool v6;
} RoceLoc;

/*
 * Find the IP and UDP headers and check their lengths; the checksums are
 * not looked at.  Everything read is inside len.
 */
static Mlx5RoceStatus roce_locate(const uint8_t *f, size_t len, RoceLoc *loc)
{
    size_t l3 = ETH_HLEN, iph, ip_len;
    uint16_t ethertype;

    if (len < ETH_HLEN) {
        return MLX5_ROCE_NOT_ROCE;
    }
    ethertype = prm_be16(f + 12);
    if (ethertype == ETHERTYPE_VLAN) {
        if (len < ETH_HLEN + VLAN_HLEN) {
            return MLX5_ROCE_NOT_ROCE;
        }
        ethertype = prm_be16(f + 16);
        l3 += VLAN_HLEN;
    }
    loc->l3 = l3;
    loc->v6 = ethertype == ETHERTYPE_IPV6;
    if (ethertype == ETHERTYPE_IPV4) {
        /* A fragment other than the first has no UDP header to match on. */
        if (len < l3 + IPV4_HLEN || f[l3] >> 4 != 4 || f[l3 + 9] != IPPROTO_UDP_ ||
            (f[l3] & 0xf) < 5 || (prm_be16(f + l3 + 6) & 0x1fff)) {
            return MLX5_ROCE_NOT_ROCE;
        }
        iph = (f[l3] & 0xfu) * 4;
        ip_len = prm_be16(f + l3 + 2);
    } else if (ethertype == ETHERTYPE_IPV6) {
        if (len < l3 + IPV6_HLEN || f[l3] >> 4 != 6 || f[l3 + 6] != IPPROTO_UDP_) {
            return MLX5_ROCE_NOT_ROCE;
        }
        iph = IPV6_HLEN;
        ip_len = IPV6_HLEN + prm_be16(f + l3 + 4);
    } else {
        return MLX5_ROCE_NOT_ROCE;
    }
    loc->l4 = l3 + iph;
    if (len < loc->l4 + UDP_HLEN || prm_be16(f + loc->l4 + 2) != MLX5_ROCE_UDP_DPORT) {
        return MLX5_ROCE_NOT_ROCE;
    }
    /* Ours from here on.  No IPv4 options (rxe and the ICRC know 20 bytes
     * only), no first fragment (more-fragments flag). */
    if (iph != (loc->v6 ? IPV6_HLEN : IPV4_HLEN) || ip_len < iph + UDP_HLEN ||
        (!loc->v6 && (f[l3 + 6] & 0x20))) {
        return MLX5_ROCE_BAD_IP;
    }
    loc->end = l3 + ip_len;
    if (loc->end > len) {
        return MLX5_ROCE_TRUNCATED;
    }
    if (prm_be16(f + loc->l4 + 4) != ip_len - iph) {
        return MLX5_ROCE_BAD_UDP_LEN;
    }
    return MLX5_ROCE_OK;
}

static void ext_parse(const uint8_t *h, unsigned hdrs, Mlx5RocePkt *p)
{
    for (unsigned i = 0; i < MLX5_ROCE_HDR_KINDS; i++) {
        switch (hdrs & (1u << i)) {
        case MLX5_ROCE_HDR_XRCETH:
            p->xrc_srqn = prm_be32(h) & U24;
            break;
        case MLX5_ROCE_HDR_DETH:
            p->deth.qkey = prm_be32(h);
            p->deth.src_qpn = prm_be32(h + 4) & U24;
            break;
        case MLX5_ROCE_HDR_RETH:
            p->reth.va = prm_be64(h);
            p->reth.rkey = prm_be32(h + 8);
            p->reth.dma_len = prm_be32(h + 12);
            break;
        case MLX5_ROCE_HDR_ATOMIC_ETH:
            p->atomic_eth.va = prm_be64(h);
            p->atomic_eth.rkey = prm_be32(h + 8);
            p->atomic_eth.swap_add = prm_be64(h + 12);
            p->atomic_eth.compare = prm_be64(h + 20);
            break;
        case MLX5_ROCE_HDR_AETH:
            p->aeth.syndrome = h[0];
            p->aeth.msn = prm_be32(h) & U24;
            break;
        case MLX5_ROCE_HDR_ATOMIC_ACK_ETH:
            p->atomic_ack_orig = prm_be64(h);
            break;
        case MLX5_ROCE_HDR_IMMDT:
            p->imm_data = prm_be32(h);
            break;
        case MLX5_ROCE_HDR_IETH:
            p->ieth_rkey = prm_be32(h);
            break;
        default:                /* absent, or the CNP's reserved bytes */
            break;
        }
        h += hdrs & (1u << i) ? roce_ext_bytes[i] : 0;
    }
}

static void ext_write(uint8_t *h, unsigned hdrs, const Mlx5RocePkt *p)
{
    for (unsigned i = 0; i < MLX5_ROCE_HDR_KINDS; i++) {
        if (!(hdrs & (1u << i))) {
            continue;
        }
        memset(h, 0, roce_ext_bytes[i]);
        switch (1u << i) {
        case MLX5_ROCE_HDR_XRCETH:
            prm_put_be32(h, p->xrc_srqn & U24);     /* byte 0 reserved */
            break;
        case MLX5_ROCE_HDR_DETH:
            prm_put_be32(h, p->deth.qkey);
            prm_put_be32(h + 4, p->deth.src_qpn);   /* byte 4 reserved */
            break;
        case MLX5_ROCE_HDR_RETH:
            prm_put_be64(h, p->reth.va);
            prm_put_be32(h + 8, p->reth.rkey);
            prm_put_be32(h + 12, p->reth.dma_len);
            break;
        case MLX5_ROCE_HDR_ATOMIC_ETH:
            prm_put_be64(h, p->atomic_eth.va);
            prm_put_be32(h + 8, p->atomic_eth.rkey);
            prm_put_be64(h + 12, p->atomic_eth.swap_add);
            prm_put_be64(h + 20, p->atomic_eth.compare);
            break;
        case MLX5_ROCE_HDR_AETH:
            prm_put_be32(h, (uint32_t)p->aeth.syndrome << 24 | p->aeth.msn);
            break;
        case MLX5_ROCE_HDR_ATOMIC_ACK_ETH:
            prm_put_be64(h, p->atomic_ack_orig);
            break;
        case MLX5_ROCE_HDR_IMMDT:
            prm_put_be32(h, p->imm_data);
            break;
        case MLX5_ROCE_HDR_IETH:
            prm_put_be32(h, p->ieth_rkey);
            break;
        default:                /* CNP: reserved, zero */
            break;
        }
        h += roce_ext_bytes[i];
    }
}

static const uint8_t v4_mapped_prefix[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

/* The checksums, the BTH and the lengths of a located packet (IBA A17.3,
 * 9.2): its opcode, where the payload starts and how much follows it up
 * to the ICRC (payload and pad). */
static Mlx5RoceStatus roce_check(const uint8_t *f, const RoceLoc *loc,
                                 const Mlx5RoceOpcode **op, size_t *ext, size_t *rest)
{
    const uint8_t *ip = f + loc->l3, *udp = f + loc->l4, *bth = udp + UDP_HLEN;
    const uint8_t *icrc = f + loc->end - MLX5_ROCE_ICRC_BYTES;
    size_t min = loc->l4 + UDP_HLEN + MLX5_ROCE_BTH_BYTES + MLX5_ROCE_ICRC_BYTES;

    if (!loc->v6 && inet_sum(0, ip, IPV4_HLEN) != 0xffff) {
        return MLX5_ROCE_BAD_IP;
    }
    /* IPv6 allows a zero UDP checksum for tunnels (RFC 6935); rxe sends it. */
    if (prm_be16(udp + 6) && udp_sum(ip, loc->v6, udp, loc->end - loc->l4) != 0xffff) {
        return MLX5_ROCE_BAD_UDP_CSUM;
    }
    if (loc->end < min) {
        return MLX5_ROCE_TRUNCATED;
    }
    if (bth[1] & 0x0f) {
        return MLX5_ROCE_BAD_TVER;
    }
    *op = mlx5_roce_opcode(bth[0]);
    if (!*op) {
        return MLX5_ROCE_BAD_OPCODE;
    }
    *ext = mlx5_roce_ext_len((*op)->hdrs);
    if (loc->end < min + *ext) {
        return MLX5_ROCE_TRUNCATED;
    }
    if (mlx5_roce_icrc(ip, (size_t)(icrc - ip)) !=
        ((uint32_t)icrc[3] << 24 | (uint32_t)icrc[2] << 16 | (uint32_t)icrc[1] << 8 | icrc[0])) {
        return MLX5_ROCE_BAD_ICRC;
    }
    *rest = loc->end - min - *ext;
    return MLX5_ROCE_OK;
}

/* The pad count (BTH byte 1 bits 5:4) against the bytes after the
 * headers: none without a payload, at most all of them, a whole number of
 * 4-byte words in all (IBA 9.2: the pad makes the payload 4-aligned). */
static Mlx5RoceStatus roce_check_pad(const Mlx5RoceOpcode *op, unsigned pad, size_t rest)
{
    if (!(op->flags & MLX5_ROCE_OPF_PAYLOAD)) {
        return pad ? MLX5_ROCE_BAD_PAD : rest ? MLX5_ROCE_BAD_LENGTH : MLX5_ROCE_OK;
    }
    return pad > rest ? MLX5_ROCE_BAD_PAD : rest % 4 ? MLX5_ROCE_BAD_LENGTH : MLX5_ROCE_OK;
}

/* Ethernet, IP and UDP fields into *p. */
static void parse_l2_l4(const uint8_t *f, const RoceLoc *loc, Mlx5RocePkt *p)
{
    const uint8_t *ip = f + loc->l3;

    memcpy(p->dmac, f, 6);
    memcpy(p->smac, f + 6, 6);
    p->vlan = loc->l3 != ETH_HLEN;
    p->vlan_tci = p->vlan ? prm_be16(f + 14) : 0;
    p->l3_off = loc->l3;
    if (loc->v6) {
        p->ip_version = 6;
        p->traffic_class = (uint8_t)(prm_be16(ip) >> 4);
        p->flow_label = prm_be32(ip) & 0xfffff;
        p->hop_limit = ip[7];
        memcpy(p->sgid, ip + 8, 16);
        memcpy(p->dgid, ip + 24, 16);
    } else {
        p->ip_version = 4;
        p->traffic_class = ip[1];
        p->ip_id = prm_be16(ip + 4);
        p->hop_limit = ip[8];
        memcpy(p->sgid, v4_mapped_prefix, 12);
        memcpy(p->sgid + 12, ip + 12, 4);
        memcpy(p->dgid, v4_mapped_prefix, 12);
        memcpy(p->dgid + 12, ip + 16, 4);
    }
    p->udp_sport = prm_be16(f + loc->l4);
}

/* The BTH (IBA 9.2, Figure 42) into *p. */
static void parse_bth(const uint8_t *bth, Mlx5RocePkt *p)
{
    p->opcode = bth[0];
    p->se = bth[1] & 0x80;
    p->migreq = bth[1] & 0x40;
    p->pad = bth[1] >> 4 & 3;
    p->pkey = prm_be16(bth + 2);
    p->fecn = bth[4] & 0x80;
    p->becn = bth[4] & 0x40;
    p->dest_qpn = prm_be32(bth + 4) & U24;
    p->ackreq = bth[8] & 0x80;
    p->psn = prm_be32(bth + 8) & U24;
}

Mlx5RoceStatus mlx5_roce_parse(const uint8_t *f, size_t len, Mlx5RocePkt *p)
{
    const Mlx5RoceOpcode *op = NULL;
    const uint8_t *bth;
    size_t ext = 0, rest = 0;
    RoceLoc loc;
    Mlx5RoceStatus st;

    memset(p, 0, sizeof(*p));
    st = roce_locate(f, len, &loc);
    if (st == MLX5_ROCE_OK) {
        st = roce_check(f, &loc, &op, &ext, &rest);
    }
    if (st != MLX5_ROCE_OK) {
        return st;
    }
    bth = f + loc.l4 + UDP_HLEN;
    st = roce_check_pad(op, bth[1] >> 4 & 3, rest);
    if (st != MLX5_ROCE_OK) {
        return st;
    }
    parse_l2_l4(f, &loc, p);
    parse_bth(bth, p);
    ext_parse(bth + MLX5_ROCE_BTH_BYTES, op->hdrs, p);
    p->payload = bth + MLX5_ROCE_BTH_BYTES + ext;
    p->payload_len = rest - p->pad;
    return MLX5_ROCE_OK;
}

size_t mlx5_roce_hdr_len(const Mlx5RocePkt *p)
{
    const Mlx5RoceOpcode *op = mlx5_roce_opcode(p->opcode);
    bool v4 = p->ip_version == 4;

    if (!op || (!v4 && p->ip_version != 6) ||
        (v4 && (memcmp(p->sgid, v4_mapped_prefix, 12) || memcmp(p->dgid, v4_mapped_prefix, 12))) ||
        p->flow_label > 0xfffff || (v4 && p->flow_label) ||
        p->dest_qpn > U24 || p->psn > U24 || p->deth.src_qpn > U24 || p->aeth.msn > U24) {
        return 0;
    }
    return ETH_HLEN + (p->vlan ? VLAN_HLEN : 0) + (v4 ? IPV4_HLEN : IPV6_HLEN) + UDP_HLEN +
           MLX5_ROCE_BTH_BYTES + mlx5_roce_ext_len(op->hdrs);
}

size_t mlx5_roce_frame_len(const Mlx5RocePkt *p, size_t payload_len)
{
    size_t hl = mlx5_roce_hdr_len(p);
    size_t l4 = ETH_HLEN + (p->vlan ? VLAN_HLEN : 0) +
                (p->ip_version == 4 ? IPV4_HLEN : IPV6_HLEN);
    size_t total;

    if (!hl || (payload_len && !(mlx5_roce_opcode(p->opcode)->flags & MLX5_ROCE_OPF_PAYLOAD)) ||
        payload_len > 0xffff) {
        return 0;
    }
    total = hl + payload_len + (-payload_len & 3) + MLX5_ROCE_ICRC_BYTES;
    /* The IPv4 total length, or the IPv6 payload length (= UDP length), is
     * a 16-bit field. */
    return total - l4 + (p->ip_version == 4 ? IPV4_HLEN : 0) <= 0xffff ? total : 0;
}

bool mlx5_roce_seal(uint8_t *f, size_t len)
{
    uint8_t *ip, *udp;
    size_t ulen;
    uint32_t icrc;
    RoceLoc loc;

    if (roce_locate(f, len, &loc) != MLX5_ROCE_OK ||
        loc.end < loc.l4 + UDP_HLEN + MLX5_ROCE_BTH_BYTES + MLX5_ROCE_ICRC_BYTES) {
        return false;
    }
    ip = f + loc.l3;
    udp = f + loc.l4;
    ulen = loc.end - loc.l4;
    /* The ICRC first: the UDP checksum covers it (and it masks the latter). */
    icrc = mlx5_roce_icrc(ip, loc.end - MLX5_ROCE_ICRC_BYTES - loc.l3);
    for (unsigned i = 0; i < MLX5_ROCE_ICRC_BYTES; i++) {
        f[loc.end - MLX5_ROCE_ICRC_BYTES + i] = (uint8_t)(icrc >> (8 * i));
    }
    prm_put_be16(udp + 6, 0);
    if (loc.v6) {
        uint16_t sum = (uint16_t)~udp_sum(ip, true, udp, ulen);
        prm_put_be16(udp + 6, sum ? sum : 0xffff);
    } else {
        prm_put_be16(ip + 10, 0);
        prm_put_be16(ip + 10, (uint16_t)~inet_sum(0, ip, IPV4_HLEN));
    }
    return true;
}

/* Ethernet, IP and UDP headers of a frame of `total` bytes; where the
 * BTH goes. */
static uint8_t *build_l2_l4(const Mlx5RocePkt *p, uint8_t *buf, size_t total)
{
    uint8_t *ip = buf + ETH_HLEN, *udp;

    memcpy(buf, p->dmac, 6);
    memcpy(buf + 6, p->smac, 6);
    if (p->vlan) {
        prm_put_be16(buf + 12, ETHERTYPE_VLAN);
        prm_put_be16(buf + 14, p->vlan_tci);
        ip += VLAN_HLEN;
    }
    prm_put_be16(ip - 2, p->ip_version == 4 ? ETHERTYPE_IPV4 : ETHERTYPE_IPV6);
    if (p->ip_version == 4) {
        udp = ip + IPV4_HLEN;
        ip[0] = 0x45;
        ip[1] = p->traffic_class;
        prm_put_be16(ip + 2, (uint16_t)(buf + total - ip));
        prm_put_be16(ip + 4, p->ip_id);
        prm_put_be16(ip + 6, 0x4000);               /* DF */
        ip[8] = p->hop_limit;
        ip[9] = IPPROTO_UDP_;
        memcpy(ip + 12, p->sgid + 12, 4);
        memcpy(ip + 16, p->dgid + 12, 4);
    } else {
        udp = ip + IPV6_HLEN;
        prm_put_be32(ip, 6u << 28 | (uint32_t)p->traffic_class << 20 | p->flow_label);
        prm_put_be16(ip + 4, (uint16_t)(buf + total - udp));
        ip[6] = IPPROTO_UDP_;
        ip[7] = p->hop_limit;
        memcpy(ip + 8, p->sgid, 16);
        memcpy(ip + 24, p->dgid, 16);
    }
    prm_put_be16(udp, p->udp_sport);
    prm_put_be16(udp + 2, MLX5_ROCE_UDP_DPORT);
    prm_put_be16(udp + 4, (uint16_t)(buf + total - udp));
    return udp + UDP_HLEN;
}

static void build_bth(const Mlx5RocePkt *p, uint8_t *bth, unsigned pad)
{
    bth[0] = p->opcode;
    bth[1] = (uint8_t)((p->se ? 0x80 : 0) | (p->migreq ? 0x40 : 0) | pad << 4);
    prm_put_be16(bth + 2, p->pkey);
    prm_put_be32(bth + 4, p->dest_qpn);
    bth[4] = (uint8_t)((p->fecn ? 0x80 : 0) | (p->becn ? 0x40 : 0));
    prm_put_be32(bth + 8, p->psn);
    bth[8] = p->ackreq ? 0x80 : 0;
}

size_t mlx5_roce_build(const Mlx5RocePkt *p, const uint8_t *payload, size_t payload_len,
                       uint8_t *buf, size_t buflen)
{
    size_t total = mlx5_roce_frame_len(p, payload_len);
    size_t hl = mlx5_roce_hdr_len(p);
    unsigned pad = -payload_len & 3;
    uint8_t *bth;

    if (!total || total > buflen) {
        return 0;
    }
    if (payload) {
        memmove(buf + hl, payload, payload_len);
    }
    memset(buf + hl + payload_len, 0, pad);
    bth = build_l2_l4(p, buf, total);
    build_bth(p, bth, pad);
    ext_write(bth + MLX5_ROCE_BTH_BYTES, mlx5_roce_opcode(p->opcode)->hdrs, p);
    return mlx5_roce_seal(buf, total) ? total : 0;
}
