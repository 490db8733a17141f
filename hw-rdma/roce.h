/*
 * RoCEv2 packet codec (IBTA Annex A17 "RoCEv2"; IBTA vol. 1 ch. 9).
 *
 * Concepts
 * --------
 * A RoCEv2 frame is
 *
 *   Ethernet [802.1Q] | IPv4 (20 bytes) or IPv6 (40) | UDP (dport 4791) |
 *   BTH (12) | extension headers | payload | pad (0-3) | ICRC (4)
 *
 * The BTH opcode fixes which extension headers follow it (IBTA 9.2,
 * Table 38); mlx5_roce_opcode() gives that and the opcode's other
 * properties from one table.  mlx5_roce_parse() turns a received frame into
 * an Mlx5RocePkt and checks everything the receiver must (lengths, IPv4
 * header checksum, UDP checksum if not zero, BTH version, opcode, pad,
 * ICRC); mlx5_roce_build() does the reverse.  Both only touch the buffer
 * they are given and keep no state.
 *
 * The ICRC (Annex A17.3.3) is the CRC-32 of the Ethernet FCS (zlib's
 * crc32) over 8 bytes of 0xff standing for the InfiniBand LRH, the IP
 * header, the UDP header, the BTH and everything after it up to the ICRC,
 * with the fields that routers and switches may change replaced by ones:
 * IPv4 TOS, TTL and header checksum; IPv6 traffic class, flow label and
 * hop limit; the UDP checksum; the BTH byte holding FECN, BECN and resv6.
 * The result is stored least significant byte first, as Linux rxe does.
 *
 * Addresses are 16-byte GIDs: an IPv4 address is the IPv4-mapped IPv6
 * address ::ffff:a.b.c.d.
 */
#ifndef MLX5EMU_ROCE_H
#define MLX5EMU_ROCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MLX5_ROCE_UDP_DPORT     4791
#define MLX5_ROCE_BTH_BYTES     12
#define MLX5_ROCE_ICRC_BYTES    4

/* BTH opcode = transport (bits 7:5) | operation (bits 4:0); ib_pack.h. */
enum {
    MLX5_ROCE_RC = 0x00,
    MLX5_ROCE_UC = 0x20,
    MLX5_ROCE_UD = 0x60,
    MLX5_ROCE_XRC = 0xa0,       /* IBA Annex A14 */
    MLX5_ROCE_CNP = 0x81,       /* congestion notification (A17.9.3) */

    MLX5_ROCE_SEND_FIRST = 0x00,
    MLX5_ROCE_SEND_MIDDLE = 0x01,
    MLX5_ROCE_SEND_LAST = 0x02,
    MLX5_ROCE_SEND_LAST_WITH_IMMEDIATE = 0x03,
    MLX5_ROCE_SEND_ONLY = 0x04,
    MLX5_ROCE_SEND_ONLY_WITH_IMMEDIATE = 0x05,
    MLX5_ROCE_RDMA_WRITE_FIRST = 0x06,
    MLX5_ROCE_RDMA_WRITE_MIDDLE = 0x07,
    MLX5_ROCE_RDMA_WRITE_LAST = 0x08,
    MLX5_ROCE_RDMA_WRITE_LAST_WITH_IMMEDIATE = 0x09,
    MLX5_ROCE_RDMA_WRITE_ONLY = 0x0a,
    MLX5_ROCE_RDMA_WRITE_ONLY_WITH_IMMEDIATE = 0x0b,
    MLX5_ROCE_RDMA_READ_REQUEST = 0x0c,
    MLX5_ROCE_RDMA_READ_RESPONSE_FIRST = 0x0d,
    MLX5_ROCE_RDMA_READ_RESPONSE_MIDDLE = 0x0e,
    MLX5_ROCE_RDMA_READ_RESPONSE_LAST = 0x0f,
    MLX5_ROCE_RDMA_READ_RESPONSE_ONLY = 0x10,
    MLX5_ROCE_ACKNOWLEDGE = 0x11,
    MLX5_ROCE_ATOMIC_ACKNOWLEDGE = 0x12,
    MLX5_ROCE_COMPARE_SWAP = 0x13,
    MLX5_ROCE_FETCH_ADD = 0x14,
    MLX5_ROCE_SEND_LAST_WITH_INVALIDATE = 0x16,
    MLX5_ROCE_SEND_ONLY_WITH_INVALIDATE = 0x17,
};

/* Extension headers after the BTH; on the wire in this bit order. */
enum {
    MLX5_ROCE_HDR_XRCETH = 1 << 0,          /*  4: XRC SRQ number (A14.3.2) */
    MLX5_ROCE_HDR_DETH = 1 << 1,            /*  8: Q_Key, source QP */
    MLX5_ROCE_HDR_RETH = 1 << 2,            /* 16: VA, R_Key, DMA length */
    MLX5_ROCE_HDR_ATOMIC_ETH = 1 << 3,      /* 28: VA, R_Key, swap/add, compare */
    MLX5_ROCE_HDR_AETH = 1 << 4,            /*  4: syndrome, MSN */
    MLX5_ROCE_HDR_ATOMIC_ACK_ETH = 1 << 5,  /*  8: original remote data */
    MLX5_ROCE_HDR_IMMDT = 1 << 6,           /*  4: immediate data */
    MLX5_ROCE_HDR_IETH = 1 << 7,            /*  4: R_Key to invalidate */
    MLX5_ROCE_HDR_CNP = 1 << 8,             /* 16: reserved (CNP only) */
    MLX5_ROCE_HDR_KINDS = 9,
};

/* Opcode properties. */
enum {
    MLX5_ROCE_OPF_PAYLOAD = 1 << 0,     /* carries a payload (may be empty) */
    MLX5_ROCE_OPF_REQUEST = 1 << 1,     /* requester -> responder */
    MLX5_ROCE_OPF_RESPONSE = 1 << 2,    /* responder -> requester */
    MLX5_ROCE_OPF_FIRST = 1 << 3,       /* FIRST, or ONLY with LAST */
    MLX5_ROCE_OPF_MIDDLE = 1 << 4,
    MLX5_ROCE_OPF_LAST = 1 << 5,        /* LAST, or ONLY with FIRST */
};

typedef struct Mlx5RoceOpcode {
    const char *name;           /* as in ib_pack.h, e.g. "RC_SEND_ONLY" */
    uint16_t hdrs;              /* MLX5_ROCE_HDR_* */
    uint8_t flags;              /* MLX5_ROCE_OPF_* */
} Mlx5RoceOpcode;

typedef enum {
    MLX5_ROCE_OK,
    MLX5_ROCE_NOT_ROCE,         /* not IPv4/IPv6 UDP to port 4791: the Ethernet path's */
    MLX5_ROCE_BAD_IP,           /* IPv4 options, fragment, header checksum, total length */
    MLX5_ROCE_TRUNCATED,        /* ends before what the IP/UDP lengths or the opcode need */
    MLX5_ROCE_BAD_UDP_LEN,      /* UDP length is not the IP payload length */
    MLX5_ROCE_BAD_UDP_CSUM,     /* non-zero UDP checksum that does not verify */
    MLX5_ROCE_BAD_TVER,         /* BTH transport header version is not 0 */
    MLX5_ROCE_BAD_OPCODE,       /* not in the opcode table */
    MLX5_ROCE_BAD_PAD,          /* pad count larger than the payload, or on an opcode without one */
    MLX5_ROCE_BAD_LENGTH,       /* payload + pad not a multiple of 4, or bytes after a payload-less opcode */
    MLX5_ROCE_BAD_ICRC,
} Mlx5RoceStatus;

/*
 * A RoCEv2 packet.  mlx5_roce_parse() fills every field (an extension
 * header's fields only when the opcode has that header); mlx5_roce_build()
 * reads them, except those marked "parse only".
 */
typedef struct Mlx5RocePkt {
    /* Ethernet */
    uint8_t dmac[6], smac[6];
    bool vlan;                  /* an 802.1Q tag follows the source MAC */
    uint16_t vlan_tci;          /* PCP (3 bits) | DEI | VID (12 bits) */
    /* IP */
    uint8_t ip_version;         /* 4 or 6 */
    uint8_t sgid[16], dgid[16]; /* IPv4: ::ffff:a.b.c.d */
    uint8_t traffic_class;      /* DSCP << 2 | ECN (IPv4 TOS) */
    uint8_t hop_limit;          /* IPv4 TTL */
    uint32_t flow_label;        /* IPv6 only, 20 bits */
    uint16_t ip_id;             /* IPv4 identification (DF is always set) */
    /* UDP */
    uint16_t udp_sport;
    /* BTH */
    uint8_t opcode;
    bool se, migreq, fecn, becn, ackreq;
    uint8_t pad;                /* parse only: build pads to 4 bytes itself */
    uint16_t pkey;
    uint32_t dest_qpn;          /* 24 bits */
    uint32_t psn;               /* 24 bits */
    /* Extension headers */
    uint32_t xrc_srqn;          /* XRCETH: the responder's XRC SRQ, 24 bits */
    struct {
        uint32_t qkey;
        uint32_t src_qpn;       /* 24 bits */
    } deth;
    struct {
        uint64_t va;
        uint32_t rkey;
        uint32_t dma_len;
    } reth;
    struct {
        uint64_t va;
        uint32_t rkey;
        uint64_t swap_add;
        uint64_t compare;
    } atomic_eth;
    struct {
        uint8_t syndrome;
        uint32_t msn;           /* 24 bits */
    } aeth;
    uint64_t atomic_ack_orig;   /* AtomicAckETH original remote data */
    uint32_t imm_data;          /* ImmDt, big-endian on the wire */
    uint32_t ieth_rkey;         /* IETH */
    /* Parse only */
    size_t l3_off;              /* where the IP header starts in the frame */
    const uint8_t *payload;     /* into the frame; without the pad */
    size_t payload_len;
} Mlx5RocePkt;

/* The table entry for a BTH opcode, or NULL if the codec does not know it
 * (RD, UC atomics and reads, reserved and manufacturer opcodes). */
const Mlx5RoceOpcode *mlx5_roce_opcode(uint8_t opcode);
/* Total length of the extension headers in `hdrs` (MLX5_ROCE_HDR_*). */
size_t mlx5_roce_ext_len(unsigned hdrs);
const char *mlx5_roce_status_name(Mlx5RoceStatus s);

/* Parse and check a received frame (without FCS; Ethernet padding after
 * the IP packet is ignored).  On MLX5_ROCE_OK *pkt is filled; otherwise its
 * contents are unspecified. */
Mlx5RoceStatus mlx5_roce_parse(const uint8_t *frame, size_t len, Mlx5RocePkt *pkt);

/* Where the payload starts in a frame built from *pkt: the length of the
 * headers up to the last extension header; 0 if *pkt cannot be built. */
size_t mlx5_roce_hdr_len(const Mlx5RocePkt *pkt);
/* The whole frame's length for a payload of payload_len bytes, or 0. */
size_t mlx5_roce_frame_len(const Mlx5RocePkt *pkt, size_t payload_len);

/*
 * Write a frame for *pkt with payload_len bytes of payload into buf and
 * return its length (no Ethernet padding to 60 bytes, no FCS); 0 if it does
 * not fit in buflen, *pkt cannot be built (IP version, IPv4 without
 * IPv4-mapped GIDs, opcode, a field wider than its header field) or the
 * opcode has no payload but payload_len is not 0.  A NULL payload means
 * the payload already is in buf at mlx5_roce_hdr_len(pkt).  IPv4 gets a
 * header checksum and a zero UDP checksum, as rxe sends; IPv6 gets a real
 * UDP checksum (see mlx5_roce_seal()).
 */
size_t mlx5_roce_build(const Mlx5RocePkt *pkt, const uint8_t *payload, size_t payload_len,
                       uint8_t *buf, size_t buflen);

/*
 * Recompute the checksums of a frame whose headers and payload are in
 * place: IPv4 header checksum and zero UDP checksum, or IPv6 UDP checksum
 * (rxe sends zero for IPv6 too, which only receivers that opted in accept;
 * rxe's own socket accepts both), then the ICRC.  The IP and UDP lengths
 * must be right.  False if the frame is not IPv4 (20-byte header) or IPv6
 * UDP with room for a BTH and an ICRC.
 */
bool mlx5_roce_seal(uint8_t *frame, size_t len);

/*
 * The ICRC of the packet whose IP header starts at l3 (IPv4 without
 * options or IPv6, as l3[0] says) and whose ICRC starts at l3 + n; on the
 * wire it is stored least significant byte first.  n must cover the IP,
 * UDP and BT headers (0 is returned otherwise).
 */
uint32_t mlx5_roce_icrc(const uint8_t *l3, size_t n);

#endif
