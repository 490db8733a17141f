/*
 * RoCEv2 codec (hw-rdma/roce.c): the opcode table, the ICRC against two
 * frames made elsewhere (one captured from a ConnectX-4 Lx, one built by
 * scapy's RoCE layer), build -> parse round trips for every opcode over
 * IPv4 and IPv6 with and without a VLAN tag, and the ways parsing refuses a
 * frame: every truncation, every corrupted byte, bad lengths, version,
 * opcode and pad.
 *
 * With $MLX5EMU_ROCE_PCAP set, /roce/pcap writes the frames of the round
 * trip to that pcap file (and a manifest next to it) for roce-tshark.py,
 * which checks them with tshark and its own ICRC.
 */
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "roce.h"

enum { FRAME_MAX = 9000 };

/* The ICRC as stored on the wire: least significant byte first. */
static uint32_t wire_icrc(const uint8_t *f, size_t len)
{
    const uint8_t *p = f + len - MLX5_ROCE_ICRC_BYTES;

    return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

static size_t hex_frame(const char *hex, uint8_t *out)
{
    size_t n = 0;

    for (const char *s = hex; s[0] && s[1]; s += 2) {
        unsigned v;
        g_assert_true(sscanf(s, "%2x", &v) == 1);
        out[n++] = (uint8_t)v;
    }
    return n;
}

/* A frame made elsewhere: our ICRC must be the one it carries, and it parses. */
static size_t known_frame(const char *hex, uint8_t *f, size_t want_len, uint32_t want_icrc,
                          Mlx5RocePkt *p)
{
    size_t n = hex_frame(hex, f);

    g_assert_cmpuint(n, ==, want_len);
    g_assert_cmphex(wire_icrc(f, n), ==, want_icrc);
    g_assert_cmphex(mlx5_roce_icrc(f + 14, n - 14 - MLX5_ROCE_ICRC_BYTES), ==, want_icrc);
    g_assert_cmpint(mlx5_roce_parse(f, n, p), ==, MLX5_ROCE_OK);
    return n;
}

static void test_opcode_table(void)
{
    const Mlx5RoceOpcode *op;
    unsigned known = 0;

    for (unsigned c = 0; c < 256; c++) {
        op = mlx5_roce_opcode((uint8_t)c);
        if (!op) {
            continue;
        }
        known++;
        /* Exactly one of FIRST-or-LAST / MIDDLE; payload-less ones are ONLY. */
        g_assert_cmpuint(!!(op->flags & MLX5_ROCE_OPF_MIDDLE), !=,
                         !!(op->flags & (MLX5_ROCE_OPF_FIRST | MLX5_ROCE_OPF_LAST)));
        if (!(op->flags & MLX5_ROCE_OPF_PAYLOAD)) {
            g_assert_cmpuint(op->flags & (MLX5_ROCE_OPF_FIRST | MLX5_ROCE_OPF_LAST), ==,
                             MLX5_ROCE_OPF_FIRST | MLX5_ROCE_OPF_LAST);
        }
        g_assert_false((op->flags & MLX5_ROCE_OPF_REQUEST) && (op->flags & MLX5_ROCE_OPF_RESPONSE));
        g_assert_cmpuint(mlx5_roce_ext_len(op->hdrs) % 4, ==, 0);
    }
    /* RC 23, XRC 23, UC 12, UD 2, CNP. */
    g_assert_cmpuint(known, ==, 61);
    /* XRC (A14): requests carry the XRCETH first, responses do not */
    op = mlx5_roce_opcode(MLX5_ROCE_XRC + MLX5_ROCE_RDMA_WRITE_ONLY_WITH_IMMEDIATE);
    g_assert_cmpstr(op->name, ==, "XRC_RDMA_WRITE_ONLY_WITH_IMMEDIATE");
    g_assert_cmphex(op->hdrs, ==, MLX5_ROCE_HDR_XRCETH | MLX5_ROCE_HDR_RETH | MLX5_ROCE_HDR_IMMDT);
    g_assert_cmpuint(mlx5_roce_ext_len(op->hdrs), ==, 24);
    op = mlx5_roce_opcode(MLX5_ROCE_XRC + MLX5_ROCE_ACKNOWLEDGE);
    g_assert_cmphex(op->hdrs, ==, MLX5_ROCE_HDR_AETH);
    g_assert_cmpuint(mlx5_roce_ext_len(mlx5_roce_opcode(0xb3)->hdrs), ==, 32);  /* CmpSwap */

    op = mlx5_roce_opcode(MLX5_ROCE_RC + MLX5_ROCE_RDMA_WRITE_ONLY_WITH_IMMEDIATE);
    g_assert_cmpstr(op->name, ==, "RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE");
    g_assert_cmphex(op->hdrs, ==, MLX5_ROCE_HDR_RETH | MLX5_ROCE_HDR_IMMDT);
    g_assert_cmpuint(mlx5_roce_ext_len(op->hdrs), ==, 20);
    op = mlx5_roce_opcode(MLX5_ROCE_RC + MLX5_ROCE_RDMA_READ_RESPONSE_MIDDLE);
    g_assert_cmphex(op->hdrs, ==, 0);
    g_assert_cmphex(op->flags, ==, MLX5_ROCE_OPF_RESPONSE | MLX5_ROCE_OPF_PAYLOAD |
                    MLX5_ROCE_OPF_MIDDLE);
    op = mlx5_roce_opcode(MLX5_ROCE_RC + MLX5_ROCE_RDMA_READ_RESPONSE_LAST);
    g_assert_cmphex(op->hdrs, ==, MLX5_ROCE_HDR_AETH);
    op = mlx5_roce_opcode(MLX5_ROCE_RC + MLX5_ROCE_ATOMIC_ACKNOWLEDGE);
    g_assert_cmphex(op->hdrs, ==, MLX5_ROCE_HDR_AETH | MLX5_ROCE_HDR_ATOMIC_ACK_ETH);
    g_assert_cmphex(op->flags & MLX5_ROCE_OPF_PAYLOAD, ==, 0);
    op = mlx5_roce_opcode(MLX5_ROCE_RC + MLX5_ROCE_COMPARE_SWAP);
    g_assert_cmpuint(mlx5_roce_ext_len(op->hdrs), ==, 28);
    g_assert_cmphex(op->flags, ==, MLX5_ROCE_OPF_REQUEST | MLX5_ROCE_OPF_FIRST | MLX5_ROCE_OPF_LAST);
    op = mlx5_roce_opcode(MLX5_ROCE_RC + MLX5_ROCE_SEND_ONLY_WITH_INVALIDATE);
    g_assert_cmphex(op->hdrs, ==, MLX5_ROCE_HDR_IETH);
    op = mlx5_roce_opcode(MLX5_ROCE_UD + MLX5_ROCE_SEND_ONLY_WITH_IMMEDIATE);
    g_assert_cmpstr(op->name, ==, "UD_SEND_ONLY_WITH_IMMEDIATE");
    g_assert_cmphex(op->hdrs, ==, MLX5_ROCE_HDR_DETH | MLX5_ROCE_HDR_IMMDT);
    op = mlx5_roce_opcode(MLX5_ROCE_UC + MLX5_ROCE_RDMA_WRITE_FIRST);
    g_assert_cmpstr(op->name, ==, "UC_RDMA_WRITE_FIRST");
    g_assert_cmphex(op->hdrs, ==, MLX5_ROCE_HDR_RETH);
    g_assert_cmpuint(mlx5_roce_ext_len(mlx5_roce_opcode(MLX5_ROCE_CNP)->hdrs), ==, 16);

    g_assert_null(mlx5_roce_opcode(0x15));                          /* reserved */
    g_assert_null(mlx5_roce_opcode(MLX5_ROCE_UC + MLX5_ROCE_RDMA_READ_REQUEST));
    g_assert_null(mlx5_roce_opcode(0x40));                          /* RD */
    g_assert_null(mlx5_roce_opcode(MLX5_ROCE_UD + MLX5_ROCE_SEND_FIRST));
    g_assert_null(mlx5_roce_opcode(0x1c));                          /* FLUSH */
    g_assert_null(mlx5_roce_opcode(0xff));

    for (Mlx5RoceStatus s = MLX5_ROCE_OK; s <= MLX5_ROCE_BAD_ICRC; s++) {
        g_assert_cmpstr(mlx5_roce_status_name(s), !=, "?");
    }
}

/*
 * A CNP captured on a ConnectX-4 Lx, from scapy's test/contrib/roce.uts
 * ("RoCE CNP captured on ConnectX-4 Lx"): hardware's ICRC, 82 fd 00 2a.
 */
static const char cx4_cnp[] =
    "e41d2dab2bc27cfe90643b32080045c2003c718c4000401191610a0011010a00"
    "1201000012b7002800008100ffff400001180000000000000000000000000000"
    "00000000000082fd002a";

static void test_icrc_connectx4_cnp(void)
{
    uint8_t f[128], again[128];
    Mlx5RocePkt p;
    size_t n = known_frame(cx4_cnp, f, 74, 0x2a00fd82, &p);

    g_assert_cmphex(p.opcode, ==, MLX5_ROCE_CNP);
    g_assert_true(p.becn);
    g_assert_false(p.fecn);
    g_assert_cmphex(p.dest_qpn, ==, 0x118);
    g_assert_cmphex(p.psn, ==, 0);
    g_assert_cmphex(p.pkey, ==, 0xffff);
    g_assert_cmpuint(p.ip_version, ==, 4);
    g_assert_cmphex(p.traffic_class, ==, 0xc2);    /* DSCP 48, ECN ECT(0) */
    g_assert_cmpuint(p.hop_limit, ==, 64);
    g_assert_cmphex(p.sgid[10], ==, 0xff);
    g_assert_cmphex(p.dgid[14], ==, 0x12);
    g_assert_cmpuint(p.payload_len, ==, 0);
    /* What the codec builds from it is the hardware's frame, byte for byte. */
    g_assert_cmpuint(mlx5_roce_build(&p, NULL, 0, again, sizeof(again)), ==, n);
    g_assert_cmpmem(again, n, f, n);
}

/*
 * The UC SEND_ONLY packet of scapy's roce.uts ("RoCE layer"), whose ICRC
 * scapy's own code computes as 0x78f353f3 (wire order) and whose UDP
 * checksum it fills in (0xaca2).  The test there gives the PSN as
 * 13571856 = 0xcf1710.
 */
static const char scapy_uc_send[] =
    "248a07a8fa22248a07a8fa22080045010040047840004011b4d5c0a80007c0a8"
    "0007c00012b7002caca22460ffff000000d300cf17104630818be28935d90e9a"
    "95505401be885e50000078f353f3";

static void test_icrc_scapy_uc_send(void)
{
    uint8_t f[128], again[128];
    Mlx5RocePkt p;
    /* Parsing checks its non-zero IPv4 UDP checksum too. */
    size_t n = known_frame(scapy_uc_send, f, 78, 0xf353f378, &p);

    g_assert_cmphex(p.opcode, ==, MLX5_ROCE_UC + MLX5_ROCE_SEND_ONLY);
    g_assert_true(p.migreq);
    g_assert_false(p.se);
    g_assert_cmpuint(p.pad, ==, 2);
    g_assert_cmpuint(p.payload_len, ==, 18);
    g_assert_cmpmem(p.payload, 4, "F0\x81\x8b", 4);
    g_assert_cmphex(p.dest_qpn, ==, 211);
    g_assert_cmpuint(p.psn, ==, 13571856);
    g_assert_cmphex(p.traffic_class, ==, 1);
    g_assert_cmphex(p.ip_id, ==, 1144);
    g_assert_cmphex(p.udp_sport, ==, 49152);
    /* Rebuilt, only the UDP checksum differs (0 from us, as from rxe); the
     * ICRC does not cover it. */
    g_assert_cmpuint(mlx5_roce_build(&p, p.payload, p.payload_len, again, sizeof(again)), ==, n);
    g_assert_cmphex(again[40] << 8 | again[41], ==, 0);
    again[40] = 0xac;
    again[41] = 0xa2;
    g_assert_cmpmem(again, n, f, n);
}

/* A packet with every field set to something recognisable. */
static Mlx5RocePkt sample_pkt(uint8_t opcode, int ip_version, bool vlan)
{
    static const uint8_t v6_src[16] = { 0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x02, 0x11, 0x22, 0xff,
                                        0xfe, 0x33, 0x44, 0x55 };
    static const uint8_t v6_dst[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                        0x7b };
    Mlx5RocePkt p;

    memset(&p, 0, sizeof(p));
    memcpy(p.dmac, "\x52\x54\x00\x12\x34\x56", 6);
    memcpy(p.smac, "\x52\x54\x00\xab\xcd\xef", 6);
    p.vlan = vlan;
    p.vlan_tci = vlan ? 0xa07b : 0;                 /* PCP 5, VID 123 */
    p.ip_version = (uint8_t)ip_version;
    if (ip_version == 4) {
        memcpy(p.sgid, "\0\0\0\0\0\0\0\0\0\0\xff\xff\x0a\x00\x00\x01", 16);
        memcpy(p.dgid, "\0\0\0\0\0\0\0\0\0\0\xff\xff\x0a\x00\x00\x02", 16);
        p.ip_id = 0x1234 + opcode;
    } else {
        memcpy(p.sgid, v6_src, 16);
        memcpy(p.dgid, v6_dst, 16);
        p.flow_label = 0xabcde;
    }
    p.traffic_class = 0x6a;                         /* DSCP 26, ECN ECT(0) */
    p.hop_limit = 64;
    p.udp_sport = 0xc000 | opcode;
    p.opcode = opcode;
    p.se = opcode & 1;
    p.migreq = true;
    p.fecn = opcode & 2;
    p.becn = opcode & 4;
    p.ackreq = true;
    p.pkey = 0xffff;
    p.dest_qpn = 0xabcd00 | opcode;
    p.psn = 0xfffff0 + (opcode & 0xf);
    p.deth.qkey = 0x80010000;
    p.deth.src_qpn = 0x000001;
    p.reth.va = 0x00007f1234567890ull;
    p.reth.rkey = 0x1badcafe;
    p.reth.dma_len = 0x10000;
    p.atomic_eth.va = 0x00007f0000001008ull;
    p.atomic_eth.rkey = 0xdeadbeef;
    p.atomic_eth.swap_add = 0x0102030405060708ull;
    p.atomic_eth.compare = 0x1112131415161718ull;
    p.aeth.syndrome = 0x1f;
    p.aeth.msn = 0x00fedc;
    p.atomic_ack_orig = 0x8877665544332211ull;
    p.imm_data = 0xc0ffee01;
    p.ieth_rkey = 0x00abcd07;
    return p;
}

static void check_parsed(const Mlx5RocePkt *in, const Mlx5RocePkt *out, const uint8_t *payload,
                         size_t payload_len)
{
    unsigned hdrs = mlx5_roce_opcode(in->opcode)->hdrs;

    g_assert_cmpmem(out->dmac, 6, in->dmac, 6);
    g_assert_cmpmem(out->smac, 6, in->smac, 6);
    g_assert_cmpint(out->vlan, ==, in->vlan);
    g_assert_cmphex(out->vlan_tci, ==, in->vlan_tci);
    g_assert_cmpuint(out->ip_version, ==, in->ip_version);
    g_assert_cmpmem(out->sgid, 16, in->sgid, 16);
    g_assert_cmpmem(out->dgid, 16, in->dgid, 16);
    g_assert_cmphex(out->traffic_class, ==, in->traffic_class);
    g_assert_cmpuint(out->hop_limit, ==, in->hop_limit);
    g_assert_cmphex(out->flow_label, ==, in->flow_label);
    g_assert_cmphex(out->ip_id, ==, in->ip_id);
    g_assert_cmphex(out->udp_sport, ==, in->udp_sport);
    g_assert_cmphex(out->opcode, ==, in->opcode);
    g_assert_cmpint(out->se, ==, in->se);
    g_assert_cmpint(out->migreq, ==, in->migreq);
    g_assert_cmpint(out->fecn, ==, in->fecn);
    g_assert_cmpint(out->becn, ==, in->becn);
    g_assert_cmpint(out->ackreq, ==, in->ackreq);
    g_assert_cmpuint(out->pad, ==, -payload_len & 3);
    g_assert_cmphex(out->pkey, ==, in->pkey);
    g_assert_cmphex(out->dest_qpn, ==, in->dest_qpn);
    g_assert_cmphex(out->psn, ==, in->psn);
    if (hdrs & MLX5_ROCE_HDR_DETH) {
        g_assert_cmphex(out->deth.qkey, ==, in->deth.qkey);
        g_assert_cmphex(out->deth.src_qpn, ==, in->deth.src_qpn);
    }
    if (hdrs & MLX5_ROCE_HDR_RETH) {
        g_assert_cmphex(out->reth.va, ==, in->reth.va);
        g_assert_cmphex(out->reth.rkey, ==, in->reth.rkey);
        g_assert_cmphex(out->reth.dma_len, ==, in->reth.dma_len);
    }
    if (hdrs & MLX5_ROCE_HDR_ATOMIC_ETH) {
        g_assert_cmphex(out->atomic_eth.va, ==, in->atomic_eth.va);
        g_assert_cmphex(out->atomic_eth.rkey, ==, in->atomic_eth.rkey);
        g_assert_cmphex(out->atomic_eth.swap_add, ==, in->atomic_eth.swap_add);
        g_assert_cmphex(out->atomic_eth.compare, ==, in->atomic_eth.compare);
    }
    if (hdrs & MLX5_ROCE_HDR_AETH) {
        g_assert_cmphex(out->aeth.syndrome, ==, in->aeth.syndrome);
        g_assert_cmphex(out->aeth.msn, ==, in->aeth.msn);
    }
    if (hdrs & MLX5_ROCE_HDR_ATOMIC_ACK_ETH) {
        g_assert_cmphex(out->atomic_ack_orig, ==, in->atomic_ack_orig);
    }
    if (hdrs & MLX5_ROCE_HDR_IMMDT) {
        g_assert_cmphex(out->imm_data, ==, in->imm_data);
    }
    if (hdrs & MLX5_ROCE_HDR_IETH) {
        g_assert_cmphex(out->ieth_rkey, ==, in->ieth_rkey);
    }
    g_assert_cmpuint(out->l3_off, ==, in->vlan ? 18 : 14);
    g_assert_cmpmem(out->payload, out->payload_len, payload, payload_len);
}

/* Build a frame for (opcode, IP version, VLAN) with payload_len bytes. */
static size_t build_sample(uint8_t *f, uint8_t opcode, int ip_version, bool vlan,
                           size_t payload_len)
{
    Mlx5RocePkt p = sample_pkt(opcode, ip_version, vlan);
    uint8_t payload[FRAME_MAX];

    for (size_t i = 0; i < payload_len; i++) {
        payload[i] = (uint8_t)(i * 7 + 3);
    }
    return mlx5_roce_build(&p, payload, payload_len, f, FRAME_MAX);
}

static void test_round_trip(void)
{
    static const size_t sizes[] = { 0, 1, 2, 3, 4, 5, 7, 256, 1023, 4096 };
    uint8_t payload[4096], f[FRAME_MAX], again[FRAME_MAX];
    unsigned frames = 0;

    for (size_t i = 0; i < sizeof(payload); i++) {
        payload[i] = (uint8_t)(i * 13 + 1);
    }
    for (unsigned c = 0; c < 256; c++) {
        const Mlx5RoceOpcode *op = mlx5_roce_opcode((uint8_t)c);
        if (!op) {
            continue;
        }
        for (int v = 4; v <= 6; v += 2) {
            for (int vlan = 0; vlan < 2; vlan++) {
                for (size_t s = 0; s < G_N_ELEMENTS(sizes); s++) {
                    Mlx5RocePkt in = sample_pkt((uint8_t)c, v, vlan), out;
                    size_t n = mlx5_roce_build(&in, payload, sizes[s], f, sizeof(f));

                    if (!(op->flags & MLX5_ROCE_OPF_PAYLOAD) && sizes[s]) {
                        g_assert_cmpuint(n, ==, 0);     /* no payload allowed */
                        continue;
                    }
                    g_assert_cmpuint(n, ==, mlx5_roce_frame_len(&in, sizes[s]));
                    g_assert_cmpuint(n, ==, mlx5_roce_hdr_len(&in) + sizes[s] +
                                     (-sizes[s] & 3) + MLX5_ROCE_ICRC_BYTES);
                    g_assert_cmpuint(n % 4, ==, (vlan ? 18u : 14u) % 4);
                    g_assert_cmpint(mlx5_roce_parse(f, n, &out), ==, MLX5_ROCE_OK);
                    check_parsed(&in, &out, payload, sizes[s]);
                    /* Parsing loses nothing: building again gives the frame. */
                    g_assert_cmpuint(mlx5_roce_build(&out, out.payload, out.payload_len,
                                                     again, sizeof(again)), ==, n);
                    g_assert_cmpmem(again, n, f, n);
                    frames++;
                }
            }
        }
    }
    g_test_message("%u frames round-tripped", frames);
}

static void test_build_limits(void)
{
    Mlx5RocePkt p = sample_pkt(MLX5_ROCE_RC + MLX5_ROCE_SEND_ONLY, 4, true);
    uint8_t f[FRAME_MAX], payload[64] = { 1, 2, 3 };
    size_t n = mlx5_roce_frame_len(&p, 5), hl = mlx5_roce_hdr_len(&p);
    Mlx5RocePkt bad, out;

    /* Exactly the frame's length is needed, and nothing after it is written. */
    for (size_t len = 0; len < n; len++) {
        g_assert_cmpuint(mlx5_roce_build(&p, payload, 5, f, len), ==, 0);
    }
    memset(f, 0xee, sizeof(f));
    g_assert_cmpuint(mlx5_roce_build(&p, payload, 5, f, n), ==, n);
    g_assert_cmphex(f[n], ==, 0xee);
    g_assert_cmpmem(f + n - 7, 3, "\0\0\0", 3);     /* the pad */

    /* A NULL payload is already in place. */
    memcpy(f + hl, "\x10\x20\x30\x40\x50", 5);
    g_assert_cmpuint(mlx5_roce_build(&p, NULL, 5, f, n), ==, n);
    g_assert_cmpint(mlx5_roce_parse(f, n, &out), ==, MLX5_ROCE_OK);
    g_assert_cmpmem(out.payload, out.payload_len, "\x10\x20\x30\x40\x50", 5);

    /* What cannot go on the wire. */
    bad = p;
    bad.ip_version = 5;
    g_assert_cmpuint(mlx5_roce_build(&bad, payload, 5, f, sizeof(f)), ==, 0);
    bad = p;
    bad.dgid[10] = 0;                               /* not IPv4-mapped */
    g_assert_cmpuint(mlx5_roce_build(&bad, payload, 5, f, sizeof(f)), ==, 0);
    bad = p;
    bad.flow_label = 1;                             /* IPv4 has none */
    g_assert_cmpuint(mlx5_roce_build(&bad, payload, 5, f, sizeof(f)), ==, 0);
    bad = sample_pkt(MLX5_ROCE_RC + MLX5_ROCE_SEND_ONLY, 6, false);
    bad.flow_label = 0x100000;
    g_assert_cmpuint(mlx5_roce_build(&bad, payload, 5, f, sizeof(f)), ==, 0);
    bad = p;
    bad.opcode = 0x15;
    g_assert_cmpuint(mlx5_roce_build(&bad, payload, 5, f, sizeof(f)), ==, 0);
    g_assert_cmpuint(mlx5_roce_hdr_len(&bad), ==, 0);
    bad = p;
    bad.dest_qpn = 0x1000000;
    g_assert_cmpuint(mlx5_roce_build(&bad, payload, 5, f, sizeof(f)), ==, 0);
    bad = p;
    bad.psn = 0x1000000;
    g_assert_cmpuint(mlx5_roce_build(&bad, payload, 5, f, sizeof(f)), ==, 0);
    bad = sample_pkt(MLX5_ROCE_UD + MLX5_ROCE_SEND_ONLY, 4, false);
    bad.deth.src_qpn = 0x1000000;
    g_assert_cmpuint(mlx5_roce_build(&bad, payload, 5, f, sizeof(f)), ==, 0);
    bad = sample_pkt(MLX5_ROCE_RC + MLX5_ROCE_ACKNOWLEDGE, 4, false);
    bad.aeth.msn = 0x1000000;
    g_assert_cmpuint(mlx5_roce_build(&bad, NULL, 0, f, sizeof(f)), ==, 0);

    /* The IP length fields are 16 bits: the largest payloads that fit. */
    {
        g_autofree uint8_t *big = g_malloc0(70000);
        Mlx5RocePkt v4 = sample_pkt(MLX5_ROCE_RC + MLX5_ROCE_SEND_ONLY, 4, false);
        Mlx5RocePkt v6 = sample_pkt(MLX5_ROCE_RC + MLX5_ROCE_SEND_ONLY, 6, false);
        size_t max4 = 0xffff - 20 - 8 - 12 - 4 - 3, max6 = 0xffff - 8 - 12 - 4 - 3;

        g_assert_cmpuint(mlx5_roce_frame_len(&v4, max4), ==, 14 + 0xffff - 3);
        g_assert_cmpuint(mlx5_roce_frame_len(&v4, max4 + 1), ==, 0);
        g_assert_cmpuint(mlx5_roce_frame_len(&v6, max6), ==, 14 + 40 + 0xffff - 3);
        g_assert_cmpuint(mlx5_roce_frame_len(&v6, max6 + 1), ==, 0);
        n = mlx5_roce_build(&v6, NULL, max6, big, 70000);
        g_assert_cmpuint(n, ==, 14 + 40 + 0xffff - 3);
        g_assert_cmpint(mlx5_roce_parse(big, n, &out), ==, MLX5_ROCE_OK);
        g_assert_cmpuint(out.payload_len, ==, max6);
    }
}

/* The frames the bad-input tests corrupt. */
typedef struct Sample {
    uint8_t opcode;
    int ip_version;
    bool vlan;
    size_t payload_len;
} Sample;

static const Sample samples[] = {
    { MLX5_ROCE_RC + MLX5_ROCE_SEND_ONLY, 4, false, 5 },
    { MLX5_ROCE_RC + MLX5_ROCE_RDMA_WRITE_ONLY_WITH_IMMEDIATE, 6, true, 9 },
    { MLX5_ROCE_RC + MLX5_ROCE_ACKNOWLEDGE, 4, true, 0 },
    { MLX5_ROCE_RC + MLX5_ROCE_COMPARE_SWAP, 6, false, 0 },
    { MLX5_ROCE_UD + MLX5_ROCE_SEND_ONLY_WITH_IMMEDIATE, 4, false, 12 },
    { MLX5_ROCE_RC + MLX5_ROCE_RDMA_READ_RESPONSE_MIDDLE, 6, false, 0 },
};

static size_t sample_l4(const Sample *s)
{
    return (s->vlan ? 18 : 14) + (s->ip_version == 4 ? 20 : 40);
}

static void test_truncated(void)
{
    for (size_t i = 0; i < G_N_ELEMENTS(samples); i++) {
        const Sample *s = &samples[i];
        uint8_t f[FRAME_MAX];
        size_t n = build_sample(f, s->opcode, s->ip_version, s->vlan, s->payload_len);
        Mlx5RocePkt p;

        g_assert_cmpuint(n, >, 0);
        for (size_t len = 0; len < n; len++) {
            /* An exact-size copy, so that a sanitizer sees any over-read. */
            g_autofree uint8_t *cut = g_memdup2(f, len ? len : 1);
            Mlx5RoceStatus want = len < sample_l4(s) + 8 ? MLX5_ROCE_NOT_ROCE
                                                         : MLX5_ROCE_TRUNCATED;
            g_assert_cmpint(mlx5_roce_parse(cut, len, &p), ==, want);
        }
        /* Ethernet padding after the IP packet is not part of it. */
        memset(f + n, 0, 64);
        g_assert_cmpint(mlx5_roce_parse(f, n + 64, &p), ==, MLX5_ROCE_OK);
        g_assert_cmpuint(p.payload_len, ==, s->payload_len);
    }
}

/*
 * Corrupt each byte in turn (three ways).  Parsing must fail, except where
 * nothing covers the byte: the Ethernet addresses and VLAN TCI, the IPv6
 * traffic class, flow label and hop limit (variant, outside the ICRC and
 * the UDP pseudo header) and the BTH FECN/BECN/resv6 byte; there the
 * change must show in the parsed fields (a reserved bit may vanish).
 */
static void test_corrupt_every_byte(void)
{
    static const uint8_t masks[] = { 0xff, 0x01, 0x80 };
    unsigned refused = 0, variant = 0;

    for (size_t i = 0; i < G_N_ELEMENTS(samples); i++) {
        const Sample *s = &samples[i];
        uint8_t f[FRAME_MAX], c[FRAME_MAX], again[FRAME_MAX];
        size_t n = build_sample(f, s->opcode, s->ip_version, s->vlan, s->payload_len);
        size_t l3 = s->vlan ? 18 : 14, bth = sample_l4(s) + 8;

        for (size_t off = 0; off < n; off++) {
            for (size_t m = 0; m < G_N_ELEMENTS(masks); m++) {
                bool uncovered = (off < 12) || (s->vlan && (off == 14 || off == 15)) ||
                                 (s->ip_version == 6 && (off == l3 || off == l3 + 1 ||
                                  off == l3 + 2 || off == l3 + 3 || off == l3 + 7)) ||
                                 off == bth + 4;
                Mlx5RocePkt p;
                Mlx5RoceStatus st;

                memcpy(c, f, n);
                c[off] ^= masks[m];
                st = mlx5_roce_parse(c, n, &p);
                if (st != MLX5_ROCE_OK) {
                    refused++;
                    continue;
                }
                if (!uncovered) {
                    g_error("byte %zu ^ 0x%02x of sample %zu parsed OK", off, masks[m], i);
                }
                variant++;
                g_assert_cmpuint(mlx5_roce_build(&p, p.payload, p.payload_len, again,
                                                 sizeof(again)), ==, n);
                c[bth + 4] &= 0xc0;                     /* resv6 is not kept */
                g_assert_cmpmem(again, n, c, n);
            }
        }
    }
    g_test_message("%u corruptions refused, %u variant fields", refused, variant);
}

/* A sample frame with one change, checksums and ICRC made right again. */
static size_t sealed_variant(uint8_t *f, const Sample *s, size_t off, uint8_t value)
{
    size_t n = build_sample(f, s->opcode, s->ip_version, s->vlan, s->payload_len);

    f[off] = value;
    g_assert_true(mlx5_roce_seal(f, n));
    return n;
}

static void test_bad_tver_and_opcode(void)
{
    for (size_t i = 0; i < G_N_ELEMENTS(samples); i++) {
        const Sample *s = &samples[i];
        size_t bth = sample_l4(s) + 8;
        uint8_t f[FRAME_MAX];
        Mlx5RocePkt p;
        size_t n;

        n = build_sample(f, s->opcode, s->ip_version, s->vlan, s->payload_len);
        for (unsigned tver = 1, bth1 = f[bth + 1]; tver < 16; tver++) {
            n = sealed_variant(f, s, bth + 1, (uint8_t)((bth1 & 0xf0) | tver));
            g_assert_cmpint(mlx5_roce_parse(f, n, &p), ==, MLX5_ROCE_BAD_TVER);
        }
        for (unsigned op = 0; op < 256; op++) {
            if (mlx5_roce_opcode((uint8_t)op)) {
                continue;
            }
            n = sealed_variant(f, s, bth, (uint8_t)op);
            g_assert_cmpint(mlx5_roce_parse(f, n, &p), ==, MLX5_ROCE_BAD_OPCODE);
        }
    }
}

static void test_bad_udp_length(void)
{
    static const int deltas[] = { -1, 1, -4, 4, -100 };

    for (size_t i = 0; i < G_N_ELEMENTS(samples); i++) {
        const Sample *s = &samples[i];
        size_t l4 = sample_l4(s);
        uint8_t f[FRAME_MAX];
        Mlx5RocePkt p;
        size_t n = build_sample(f, s->opcode, s->ip_version, s->vlan, s->payload_len);
        unsigned ulen = (unsigned)(f[l4 + 4] << 8 | f[l4 + 5]);

        for (size_t d = 0; d < G_N_ELEMENTS(deltas); d++) {
            uint8_t c[FRAME_MAX];
            unsigned bad = (unsigned)((int)ulen + deltas[d]) & 0xffff;

            memcpy(c, f, n);
            c[l4 + 4] = (uint8_t)(bad >> 8);
            c[l4 + 5] = (uint8_t)bad;
            g_assert_cmpint(mlx5_roce_parse(c, n, &p), ==, MLX5_ROCE_BAD_UDP_LEN);
        }
        /* Consistent lengths that leave no room for the BTH and ICRC. */
        if (s->ip_version == 6) {
            uint8_t c[FRAME_MAX];
            size_t l3 = l4 - 40;

            memcpy(c, f, n);
            c[l3 + 4] = 0;
            c[l3 + 5] = 8 + 12;
            c[l4 + 4] = 0;
            c[l4 + 5] = 8 + 12;
            c[l4 + 6] = c[l4 + 7] = 0;                  /* no checksum */
            g_assert_cmpint(mlx5_roce_parse(c, n, &p), ==, MLX5_ROCE_TRUNCATED);
            c[l3 + 5] = 4;                          /* shorter than UDP */
            g_assert_cmpint(mlx5_roce_parse(c, n, &p), ==, MLX5_ROCE_BAD_IP);
        }
    }
}

/* Change the payload region of a sealed frame by delta bytes (lengths fixed). */
static size_t resize_payload(uint8_t *f, size_t n, const Sample *s, int delta)
{
    size_t l4 = sample_l4(s), l3 = l4 - (s->ip_version == 4 ? 20 : 40);
    unsigned ulen = (unsigned)(f[l4 + 4] << 8 | f[l4 + 5]) + (unsigned)delta;
    size_t m = n + (size_t)delta;

    g_assert_cmpint(n, >, (gint64)(-(gint64)delta));
    memset(f + n - 4, 0, delta > 0 ? (size_t)delta + 4 : 4);
    f[l4 + 4] = (uint8_t)(ulen >> 8);
    f[l4 + 5] = (uint8_t)ulen;
    if (s->ip_version == 4) {
        f[l3 + 2] = (uint8_t)((ulen + 20) >> 8);
        f[l3 + 3] = (uint8_t)(ulen + 20);
    } else {
        f[l3 + 4] = (uint8_t)(ulen >> 8);
        f[l3 + 5] = (uint8_t)ulen;
    }
    g_assert_true(mlx5_roce_seal(f, m));
    return m;
}

static void test_bad_pad_and_length(void)
{
    const Sample send = { MLX5_ROCE_RC + MLX5_ROCE_SEND_ONLY, 6, false, 0 };
    const Sample ack = { MLX5_ROCE_RC + MLX5_ROCE_ACKNOWLEDGE, 4, true, 0 };
    size_t bth = sample_l4(&send) + 8, ack_bth = sample_l4(&ack) + 8;
    uint8_t f[FRAME_MAX];
    Mlx5RocePkt p;
    size_t n;

    /* An empty SEND claiming 1-3 pad bytes: the pad is bigger than the payload. */
    for (unsigned pad = 1; pad < 4; pad++) {
        n = sealed_variant(f, &send, bth + 1, (uint8_t)(0x40 | pad << 4));
        g_assert_cmpint(mlx5_roce_parse(f, n, &p), ==, MLX5_ROCE_BAD_PAD);
    }
    /* 4 bytes with pad 3 is fine: one byte of payload. */
    n = build_sample(f, send.opcode, 6, false, 4);
    f[bth + 1] = 0x40 | 3 << 4;
    g_assert_true(mlx5_roce_seal(f, n));
    g_assert_cmpint(mlx5_roce_parse(f, n, &p), ==, MLX5_ROCE_OK);
    g_assert_cmpuint(p.payload_len, ==, 1);
    /* Payload + pad not a multiple of 4. */
    n = build_sample(f, send.opcode, 6, false, 8);
    n = resize_payload(f, n, &send, -1);
    g_assert_cmpint(mlx5_roce_parse(f, n, &p), ==, MLX5_ROCE_BAD_LENGTH);
    /* An ACK has neither pad nor payload. */
    n = sealed_variant(f, &ack, ack_bth + 1, 1 << 4);
    g_assert_cmpint(mlx5_roce_parse(f, n, &p), ==, MLX5_ROCE_BAD_PAD);
    n = build_sample(f, ack.opcode, 4, true, 0);
    n = resize_payload(f, n, &ack, 4);
    g_assert_cmpint(mlx5_roce_parse(f, n, &p), ==, MLX5_ROCE_BAD_LENGTH);
    /* An ACK without room for its AETH. */
    n = build_sample(f, ack.opcode, 4, true, 0);
    n = resize_payload(f, n, &ack, -4);
    g_assert_cmpint(mlx5_roce_parse(f, n, &p), ==, MLX5_ROCE_TRUNCATED);
}

static void test_bad_ip_and_udp(void)
{
    const Sample v4 = { MLX5_ROCE_RC + MLX5_ROCE_SEND_ONLY, 4, false, 8 };
    const Sample v6 = { MLX5_ROCE_RC + MLX5_ROCE_SEND_ONLY, 6, true, 8 };
    size_t l3 = 14, l4 = 34, l4v6 = 18 + 40;
    uint8_t f[FRAME_MAX];
    Mlx5RocePkt p;
    size_t n;

    /* Not ours: other UDP port, TCP, ARP, a later fragment, IPv6 extension header. */
    n = build_sample(f, v4.opcode, 4, false, 8);
    f[l4 + 3]++;
    g_assert_cmpint(mlx5_roce_parse(f, n, &p), ==, MLX5_ROCE_NOT_ROCE);
    n = build_sample(f, v4.opcode, 4, false, 8);
    f[l3 + 9] = 6;
    g_assert_cmpint(mlx5_roce_parse(f, n, &p), ==, MLX5_ROCE_NOT_ROCE);
    n = build_sample(f, v4.opcode, 4, false, 8);
    f[12] = 0x08;
    f[13] = 0x06;
    g_assert_cmpint(mlx5_roce_parse(f, n, &p), ==, MLX5_ROCE_NOT_ROCE);
    n = build_sample(f, v4.opcode, 4, false, 8);
    f[l3 + 7] = 0x10;                                       /* fragment offset 16 */
    g_assert_cmpint(mlx5_roce_parse(f, n, &p), ==, MLX5_ROCE_NOT_ROCE);
    n = build_sample(f, v6.opcode, 6, true, 8);
    f[18 + 6] = 0;                                          /* hop-by-hop options */
    g_assert_cmpint(mlx5_roce_parse(f, n, &p), ==, MLX5_ROCE_NOT_ROCE);
    n = build_sample(f, v4.opcode, 4, false, 8);
    f[l3] = 0x44;                                           /* IHL 4 */
    g_assert_cmpint(mlx5_roce_parse(f, n, &p), ==, MLX5_ROCE_NOT_ROCE);

    /* Ours but broken IPv4: options, first fragment, checksum, lengths. */
    n = build_sample(f, v4.opcode, 4, false, 8);
    memmove(f + l4 + 4, f + l4, n - l4);
    memset(f + l4, 1, 4);                                   /* 4 NOP options */
    f[l3] = 0x46;
    f[l3 + 3] += 4;
    g_assert_cmpint(mlx5_roce_parse(f, n + 4, &p), ==, MLX5_ROCE_BAD_IP);
    g_assert_false(mlx5_roce_seal(f, n + 4));
    n = build_sample(f, v4.opcode, 4, false, 8);
    f[l3 + 6] = 0x60;                                       /* DF | MF */
    g_assert_cmpint(mlx5_roce_parse(f, n, &p), ==, MLX5_ROCE_BAD_IP);
    n = build_sample(f, v4.opcode, 4, false, 8);
    f[l3 + 10] ^= 1;
    g_assert_cmpint(mlx5_roce_parse(f, n, &p), ==, MLX5_ROCE_BAD_IP);
    n = sealed_variant(f, &v4, l3 + 8, 1);                  /* TTL: checksum redone */
    g_assert_cmpint(mlx5_roce_parse(f, n, &p), ==, MLX5_ROCE_OK);
    g_assert_cmpuint(p.hop_limit, ==, 1);
    n = build_sample(f, v4.opcode, 4, false, 8);
    f[l3 + 2] = 0;
    f[l3 + 3] = 27;                                         /* < IP + UDP headers */
    g_assert_cmpint(mlx5_roce_parse(f, n, &p), ==, MLX5_ROCE_BAD_IP);
    n = build_sample(f, v4.opcode, 4, false, 8);
    f[l3 + 3] += 4;                                         /* longer than the frame */
    g_assert_cmpint(mlx5_roce_parse(f, n, &p), ==, MLX5_ROCE_TRUNCATED);

    /* UDP checksums: a good IPv4 one is fine, a bad one is not; IPv6 may be 0. */
    n = build_sample(f, v4.opcode, 4, false, 8);
    f[l4 + 6] = 0x12;
    g_assert_cmpint(mlx5_roce_parse(f, n, &p), ==, MLX5_ROCE_BAD_UDP_CSUM);
    n = build_sample(f, v6.opcode, 6, true, 8);
    g_assert_cmphex(f[l4v6 + 6] << 8 | f[l4v6 + 7], !=, 0);
    f[l4v6 + 7] ^= 0x40;
    g_assert_cmpint(mlx5_roce_parse(f, n, &p), ==, MLX5_ROCE_BAD_UDP_CSUM);
    f[l4v6 + 6] = f[l4v6 + 7] = 0;
    g_assert_cmpint(mlx5_roce_parse(f, n, &p), ==, MLX5_ROCE_OK);

    /* seal refuses what it cannot fix. */
    g_assert_false(mlx5_roce_seal(f, 40));
}

/* The IPv6 UDP checksum is the real one (RFC 8200), never 0. */
static void test_ipv6_udp_checksum(void)
{
    for (unsigned pl = 0; pl < 64; pl++) {
        uint8_t f[FRAME_MAX];
        size_t n = build_sample(f, MLX5_ROCE_UD + MLX5_ROCE_SEND_ONLY, 6, false, pl);
        const uint8_t *ip = f + 14, *udp = f + 54;
        uint32_t sum = 17 + (uint32_t)(n - 54);

        for (size_t i = 8; i < 40; i += 2) {
            sum += (uint32_t)(ip[i] << 8 | ip[i + 1]);
        }
        for (size_t i = 0; i + 1 < n - 54; i += 2) {
            sum += (uint32_t)(udp[i] << 8 | udp[i + 1]);
        }
        while (sum >> 16) {
            sum = (sum & 0xffff) + (sum >> 16);
        }
        g_assert_cmphex(sum, ==, 0xffff);
        g_assert_cmphex(udp[6] << 8 | udp[7], !=, 0);
    }
}

/* Write a pcap (and a manifest) of one frame per (opcode, IP, VLAN). */
static void test_pcap(void)
{
    const char *path = g_getenv("MLX5EMU_ROCE_PCAP");
    g_autofree char *manifest_path = NULL;
    FILE *pcap, *manifest;
    const uint32_t header[6] = { 0xa1b2c3d4, 2 | 4 << 16, 0, 0, 65535, 1 };
    unsigned frames = 0;

    if (!path) {
        g_test_skip("MLX5EMU_ROCE_PCAP is not set (roce-tshark.py sets it)");
        return;
    }
    manifest_path = g_strconcat(path, ".txt", NULL);
    pcap = fopen(path, "wb");
    manifest = fopen(manifest_path, "w");
    g_assert_nonnull(pcap);
    g_assert_nonnull(manifest);
    g_assert_cmpuint(fwrite(header, sizeof(header), 1, pcap), ==, 1);   /* little-endian host */
    for (unsigned c = 0; c < 256; c++) {
        const Mlx5RoceOpcode *op = mlx5_roce_opcode((uint8_t)c);
        if (!op) {
            continue;
        }
        for (int v = 4; v <= 6; v += 2) {
            for (int vlan = 0; vlan < 2; vlan++) {
                uint8_t f[FRAME_MAX];
                size_t pl = op->flags & MLX5_ROCE_OPF_PAYLOAD ? 5 + frames % 7 : 0;
                size_t n = build_sample(f, (uint8_t)c, v, vlan, pl);
                Mlx5RocePkt p = sample_pkt((uint8_t)c, v, vlan);
                uint32_t rec[4] = { frames, 0, (uint32_t)n, (uint32_t)n };

                g_assert_cmpuint(n, >, 0);
                g_assert_cmpuint(fwrite(rec, sizeof(rec), 1, pcap), ==, 1);
                g_assert_cmpuint(fwrite(f, n, 1, pcap), ==, 1);
                fprintf(manifest, "%u %s %d %d %u %u %zu\n", c, op->name, v, vlan,
                        p.dest_qpn, p.psn, pl);
                frames++;
            }
        }
    }
    g_assert_cmpint(fclose(pcap), ==, 0);
    g_assert_cmpint(fclose(manifest), ==, 0);
    g_test_message("%u frames written to %s", frames, path);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/roce/opcode-table", test_opcode_table);
    g_test_add_func("/roce/icrc/connectx4-cnp", test_icrc_connectx4_cnp);
    g_test_add_func("/roce/icrc/scapy-uc-send", test_icrc_scapy_uc_send);
    g_test_add_func("/roce/round-trip", test_round_trip);
    g_test_add_func("/roce/build/limits", test_build_limits);
    g_test_add_func("/roce/build/ipv6-udp-checksum", test_ipv6_udp_checksum);
    g_test_add_func("/roce/bad/truncated", test_truncated);
    g_test_add_func("/roce/bad/corrupt-every-byte", test_corrupt_every_byte);
    g_test_add_func("/roce/bad/tver-and-opcode", test_bad_tver_and_opcode);
    g_test_add_func("/roce/bad/udp-length", test_bad_udp_length);
    g_test_add_func("/roce/bad/pad-and-length", test_bad_pad_and_length);
    g_test_add_func("/roce/bad/ip-and-udp", test_bad_ip_and_udp);
    g_test_add_func("/roce/pcap", test_pcap);
    return g_test_run();
}
