/*
 * Receive path: Toeplitz hash against the published RSS verification
 * vectors, frame parsing into match parameters, the steering walk (root,
 * masked matches, forwarding, miss chains, drop, loops), and delivery into
 * a legacy RQ with its CQE (and the ways delivery is refused).
 */
#include <string.h>

#include "cqe.h"
#include "harness-dev.h"
#include "steering.h"
#include "toeplitz.h"

/* The key of the Microsoft RSS verification suite. */
static const uint8_t rss_key[40] = {
    0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2, 0x41, 0x67, 0x25, 0x3d, 0x43, 0xa3,
    0x8f, 0xb0, 0xd0, 0xca, 0x2b, 0xcb, 0xae, 0x7b, 0x30, 0xb4, 0x77, 0xcb, 0x2d, 0xa3,
    0x80, 0x30, 0xf2, 0x0c, 0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa,
};

static void test_toeplitz_ipv4_vectors(void)
{
    /* 66.9.149.187:2794 -> 161.142.100.80:1766 */
    static const uint8_t in[12] = { 66, 9, 149, 187, 161, 142, 100, 80, 0x0a, 0xea, 0x06, 0xe6 };

    g_assert_cmphex(mlx5_toeplitz(rss_key, in, 12), ==, 0x51ccc178);
    g_assert_cmphex(mlx5_toeplitz(rss_key, in, 8), ==, 0x323e8fc2);
}

static void test_toeplitz_ipv6_vectors(void)
{
    /* 3ffe:2501:200:1fff::7:2794 -> 3ffe:2501:200:3::1:1766 */
    static const uint8_t in[36] = {
        0x3f, 0xfe, 0x25, 0x01, 0x02, 0x00, 0x1f, 0xff, 0, 0, 0, 0, 0, 0, 0, 0x07,
        0x3f, 0xfe, 0x25, 0x01, 0x02, 0x00, 0x00, 0x03, 0, 0, 0, 0, 0, 0, 0, 0x01,
        0x0a, 0xea, 0x06, 0xe6,
    };

    g_assert_cmphex(mlx5_toeplitz(rss_key, in, 36), ==, 0x40207d3d);
    g_assert_cmphex(mlx5_toeplitz(rss_key, in, 32), ==, 0x2cc18cd5);
}

/* A VLAN-tagged IPv4/UDP frame of `len` bytes (len >= 46). */
static size_t udp_frame(uint8_t *f, size_t len, bool vlan)
{
    static const uint8_t hdr[] = {
        0x02, 0, 0, 0, 0, 0x01,  0x02, 0, 0, 0, 0, 0x02,
    };
    size_t l2 = ETH_HLEN + (vlan ? VLAN_HLEN : 0), iplen = len - l2;
    uint8_t *ip = f + l2, *udp = ip + IPV4_HLEN;
    uint32_t sum = 0;

    memset(f, 0, len);
    memcpy(f, hdr, sizeof(hdr));
    if (vlan) {
        prm_put_be16(f + ETH_TYPE, ETH_P_8021Q);
        prm_put_be16(f + VLAN_TCI, 0x2000 | 10);    /* prio 1, vid 10 */
    }
    prm_put_be16(f + l2 - 2, ETH_P_IP);
    ip[0] = 0x45;
    prm_put_be16(ip + IPV4_TOT_LEN, (uint16_t)iplen);
    ip[IPV4_TTL] = 64;
    ip[IPV4_PROTOCOL] = IP_PROTO_UDP;
    memcpy(ip + IPV4_SADDR, (uint8_t[]){ 10, 0, 0, 1, 10, 0, 0, 2 }, 8);     /* and DADDR */
    for (int i = 0; i < IPV4_HLEN; i += 2) {
        sum += (uint32_t)ip[i] << 8 | ip[i + 1];
    }
    while (sum >> 16) {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    prm_put_be16(ip + IPV4_CHECK, (uint16_t)~sum);
    prm_put_be16(udp + UDP_SPORT, 1234);
    prm_put_be16(udp + UDP_DPORT, 5678);
    prm_put_be16(udp + UDP_LEN, (uint16_t)(iplen - IPV4_HLEN));     /* UDP checksum 0: none */
    return len;
}

static void test_parse_vlan_udp(void)
{
    uint8_t f[64], p[MLX5_MATCH_PARAM_BYTES];
    const uint8_t *o = p;
    Mlx5PktInfo pi;

    mlx5_steer_parse(f, udp_frame(f, sizeof(f), true), p, &pi);
    g_assert_cmphex(PRM_GET(fte_match_set_lyr_2_4, dmac_47_16, o), ==, 0x02000000);
    g_assert_cmphex(PRM_GET(fte_match_set_lyr_2_4, dmac_15_0, o), ==, 0x0001);
    g_assert_cmphex(PRM_GET(fte_match_set_lyr_2_4, ethertype, o), ==, ETH_P_IP);
    g_assert_cmpuint(PRM_GET(fte_match_set_lyr_2_4, cvlan_tag, o), ==, 1);
    g_assert_cmpuint(PRM_GET(fte_match_set_lyr_2_4, first_vid, o), ==, 10);
    g_assert_cmpuint(PRM_GET(fte_match_set_lyr_2_4, first_prio, o), ==, 1);
    g_assert_cmpuint(PRM_GET(fte_match_set_lyr_2_4, ip_version, o), ==, 4);
    g_assert_cmpuint(PRM_GET(fte_match_set_lyr_2_4, ip_protocol, o), ==, IP_PROTO_UDP);
    g_assert_cmpuint(PRM_GET(fte_match_set_lyr_2_4, udp_sport, o), ==, 1234);
    g_assert_cmpuint(PRM_GET(fte_match_set_lyr_2_4, udp_dport, o), ==, 5678);
    g_assert_cmpuint(pi.l3_off, ==, ETH_HLEN + VLAN_HLEN);
    g_assert_cmpuint(pi.l4_off, ==, ETH_HLEN + VLAN_HLEN + IPV4_HLEN);
}

/* Truncated frames never read past their length. */
static void test_parse_truncated(void)
{
    uint8_t f[64], p[MLX5_MATCH_PARAM_BYTES];
    Mlx5PktInfo pi;

    udp_frame(f, sizeof(f), false);
    for (size_t len = 0; len < sizeof(f); len++) {
        g_autofree uint8_t *copy = g_memdup2(f, len ? len : 1);
        mlx5_steer_parse(copy, len, p, &pi);
        g_assert_true(pi.l4_off == 0 || pi.l4_off + 4u <= len);
        g_assert_true(pi.l3_off == 0 || pi.l3_off + (size_t)IPV4_HLEN <= len);
    }
}

/* --- steering and delivery ------------------------------------------- */

#define BUF_GPA 0x800000ull
typedef struct RxEnv {
    Harness *h;
    HRing cq, rq;
    uint32_t tir, ft, fg, mkey;
    uint16_t rq_pc;
} RxEnv;

static void set_root(Harness *h, uint32_t ft)
{
    HCmd *c = hcmd_new(OP_SET_FLOW_TABLE_ROOT, 0);
    IN_SET(c, set_flow_table_root_in, table_id, ft);
    h_ok_free(h, c);
}

/* MODIFY_FLOW_TABLE: `ft` misses to table `miss`. */
static void set_miss(Harness *h, uint32_t ft, uint32_t miss)
{
    HCmd *c = hcmd_new(OP_MODIFY_FLOW_TABLE, 0);
    uint8_t *ctx = IN_PTR(c, modify_flow_table_in, flow_table_context);

    IN_SET(c, modify_flow_table_in, table_id, ft);
    IN_SET(c, modify_flow_table_in, modify_field_select, 1);
    PRM_SET(flow_table_context, table_miss_action, ctx, 1);
    PRM_SET(flow_table_context, table_miss_id, ctx, miss);
    h_ok_free(h, c);
}

static RxEnv *env_new(void)
{
    RxEnv *e = g_new0(RxEnv, 1);

    e->h = h_new_device();
    h_bringup(e->h);
    h_port_up(e->h);
    e->cq = h_create_cq(e->h, e->h->comp_eq.num, 4);
    e->rq = h_create_rq(e->h, e->cq.num, 4);
    h_modify_rq(e->h, e->rq.num, 0, 1);
    e->tir = h_create_tir_direct(e->h, e->rq.num);
    e->ft = h_create_flow_table(e->h, 4, 0);
    e->fg = h_create_flow_group(e->h, e->ft, 0, 7);     /* matches everything */
    e->mkey = h_create_mkey(e->h, BUF_GPA, 0x10000, true);
    return e;
}

static void env_free(RxEnv *e)
{
    h_free(e->h);
    g_free(e);
}
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RxEnv, env_free)

static void fte(RxEnv *e, uint32_t ft, uint32_t fg, uint32_t index, uint16_t action,
                uint8_t dtype, uint32_t did)
{
    h_ok_free(e->h, h_fte_cmd(0, ft, fg, index, action, dtype, did, action == FT_ACTION_FWD));
}

/* Post one receive WQE (one data segment of `bytes`) and ring the record. */
static void post_rx(RxEnv *e, uint32_t bytes, uint32_t lkey)
{
    uint64_t wqe = e->rq.gpa + (uint64_t)(e->rq_pc % (1u << e->rq.log_size)) * e->rq.stride;

    h_data_seg(h_gpa(e->h, wqe), bytes, lkey, BUF_GPA + e->rq_pc * 0x1000);
    e->rq_pc++;
    h_put32(e->h, e->rq.dbr, e->rq_pc);
}

static void test_steer_no_root(void)
{
    g_autoptr(RxEnv) e = env_new();
    uint8_t p[MLX5_MATCH_PARAM_BYTES] = { 0 };
    uint32_t tirn, tag;

    g_assert_cmpint(mlx5_steer_lookup(e->h->fw, p, &tirn, &tag), ==, MLX5_STEER_NO_ROOT);
}

static void test_steer_chain_miss_and_drop(void)
{
    g_autoptr(RxEnv) e = env_new();
    uint32_t ft2 = h_create_flow_table(e->h, 4, 1), fg2 = h_create_flow_group(e->h, ft2, 2, 3);
    uint8_t p[MLX5_MATCH_PARAM_BYTES] = { 0 };
    uint32_t tirn = 0, tag = 0;

    set_root(e->h, e->ft);
    /* empty root with no miss table: dropped */
    g_assert_cmpint(mlx5_steer_lookup(e->h->fw, p, &tirn, &tag), ==, MLX5_STEER_MISS);
    /* root misses to ft2, whose entry forwards to the TIR */
    set_miss(e->h, e->ft, ft2);
    fte(e, ft2, fg2, 2, FT_ACTION_FWD, FT_DEST_TIR, e->tir);
    g_assert_cmpint(mlx5_steer_lookup(e->h->fw, p, &tirn, &tag), ==, MLX5_STEER_TIR);
    g_assert_cmpuint(tirn, ==, e->tir);
    g_assert_cmphex(tag, ==, 0xabc);
    /* a lower index that drops wins (both groups match everything) */
    fte(e, ft2, h_create_flow_group(e->h, ft2, 0, 1), 1, FT_ACTION_DROP, 0, 0);
    g_assert_cmpint(mlx5_steer_lookup(e->h->fw, p, &tirn, &tag), ==, MLX5_STEER_DROP);
}

/* A table cannot be made to forward to itself or below (test-flow.c
 * /flow/level/).  If a table it forwards to is destroyed and its number
 * handed out again to a table at or below it, the walk stops there: levels
 * rise at every hop or the frame is dropped.  (Numbers are handed out
 * round-robin over 2^24: here the reuse is made by lowering the level of
 * the table in place.) */
static void test_steer_level_rises(void)
{
    g_autoptr(RxEnv) e = env_new();
    uint32_t next = h_create_flow_table(e->h, 4, 1);
    g_autoptr(HCmd) self = h_fte_cmd(0, e->ft, e->fg, 0, FT_ACTION_FWD, FT_DEST_FLOW_TABLE,
                                     e->ft, 1);
    uint8_t p[MLX5_MATCH_PARAM_BYTES] = { 0 };
    Mlx5FlowTable *t = mlx5_table_get(&e->h->fw->flow_table, next);
    uint32_t tirn, tag;

    h_fail(e->h, self, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_FLOW_LEVEL);
    set_root(e->h, e->ft);
    fte(e, e->ft, e->fg, 0, FT_ACTION_FWD, FT_DEST_FLOW_TABLE, next);
    fte(e, next, h_create_flow_group(e->h, next, 0, 0), 0, FT_ACTION_FWD, FT_DEST_TIR, e->tir);
    g_assert_cmpint(mlx5_steer_lookup(e->h->fw, p, &tirn, &tag), ==, MLX5_STEER_TIR);
    t->level = 0;
    g_assert_cmpint(mlx5_steer_lookup(e->h->fw, p, &tirn, &tag), ==, MLX5_STEER_LOOP);
    t->miss_action = 1;                 /* and back to the root: a loop, but one hop */
    t->miss_id = e->ft;
    g_assert_cmpint(mlx5_steer_lookup(e->h->fw, p, &tirn, &tag), ==, MLX5_STEER_LOOP);
}

/* Rising levels bound a walk to 256 tables; it stops after
 * MLX5_STEER_MAX_HOPS. */
static void test_steer_hop_bound(void)
{
    g_autoptr(RxEnv) e = env_new();
    uint8_t p[MLX5_MATCH_PARAM_BYTES] = { 0 };
    uint32_t ft = 0, tirn, tag;

    /* created from the last: each misses to the one created before it */
    for (unsigned level = MLX5_STEER_MAX_HOPS + 1; level >= 1; level--) {
        HCmd *c = hcmd_new(OP_CREATE_FLOW_TABLE, 0);
        uint8_t *ctx = IN_PTR(c, create_flow_table_in, flow_table_context);
        PRM_SET(flow_table_context, level, ctx, level);
        PRM_SET(flow_table_context, table_miss_action, ctx, ft ? 1 : 0);
        PRM_SET(flow_table_context, table_miss_id, ctx, ft);
        h_ok(e->h, c);
        ft = OUT_GET(c, create_flow_table_out, table_id);
        hcmd_free(c);
    }
    set_root(e->h, ft);
    g_assert_cmpint(mlx5_steer_lookup(e->h->fw, p, &tirn, &tag), ==, MLX5_STEER_LOOP);
}

/* A root table of 20000 entries (a group on the UDP destination port,
 * the entry for port p at index p) that misses to a table with one
 * catch-all entry: a frame takes the entry of its port, and a frame of a
 * port with no entry goes on to the miss table. */
static void test_steer_many_entries_miss_table(void)
{
    g_autoptr(RxEnv) e = env_new();
    uint32_t root = h_create_flow_table(e->h, 15, 3), next = h_create_flow_table(e->h, 1, 4);
    uint32_t fg = h_create_flow_group_ports(e->h, root, 0, 19999, H_ON_DPORT);
    uint8_t f[64], p[MLX5_MATCH_PARAM_BYTES];
    uint8_t *dport = f + ETH_HLEN + IPV4_HLEN + UDP_DPORT;
    uint32_t tirn, tag;
    Mlx5PktInfo pi;

    for (uint16_t i = 0; i < 20000; i++) {
        h_ok_free(e->h, h_fte_ports_cmd(0, root, fg, i, i, 0, e->tir, i));
    }
    h_ok_free(e->h, h_fte_ports_cmd(0, next, h_create_flow_group(e->h, next, 0, 0), 0, 0, 0,
                                    e->tir, 0xfff));
    set_miss(e->h, root, next);
    set_root(e->h, root);
    udp_frame(f, sizeof(f), false);
    for (uint16_t port = 0; port < 30000; port += 1999) {
        prm_put_be16(dport, port);
        mlx5_steer_parse(f, sizeof(f), p, &pi);
        g_assert_cmpint(mlx5_steer_lookup(e->h->fw, p, &tirn, &tag), ==, MLX5_STEER_TIR);
        g_assert_cmphex(tag, ==, port < 20000 ? port : 0xfff);
    }
}

/* Masked match: a group on dmac only sends other MACs to the miss path. */
static void test_steer_masked_match(void)
{
    g_autoptr(RxEnv) e = env_new();
    uint32_t ft = h_create_flow_table(e->h, 4, 2);
    HCmd *c = hcmd_new(OP_CREATE_FLOW_GROUP, 0);
    uint8_t *crit = IN_PTR(c, create_flow_group_in, match_criteria);
    uint8_t f[64], p[MLX5_MATCH_PARAM_BYTES];
    uint32_t fg, tirn, tag, fc = PRM_BYTE_OFF(set_fte_in, flow_context);
    Mlx5PktInfo pi;
    HCmd *s;

    IN_SET(c, create_flow_group_in, table_id, ft);
    IN_SET(c, create_flow_group_in, end_flow_index, 3);
    IN_SET(c, create_flow_group_in, match_criteria_enable, 1);     /* outer headers */
    PRM_SET(fte_match_set_lyr_2_4, dmac_47_16, crit, 0xffffffff);
    PRM_SET(fte_match_set_lyr_2_4, dmac_15_0, crit, 0xffff);
    h_ok(e->h, c);
    fg = OUT_GET(c, create_flow_group_out, group_id);
    hcmd_free(c);
    s = h_fte_cmd(0, ft, fg, 0, FT_ACTION_FWD, FT_DEST_TIR, e->tir, 1);
    PRM_SET(fte_match_set_lyr_2_4, dmac_47_16, s->in + fc + PRM_BYTE_OFF(flow_context, match_value), 0x02000000);
    PRM_SET(fte_match_set_lyr_2_4, dmac_15_0, s->in + fc + PRM_BYTE_OFF(flow_context, match_value), 0x0001);
    h_ok_free(e->h, s);
    set_root(e->h, ft);
    mlx5_steer_parse(f, udp_frame(f, sizeof(f), false), p, &pi);
    g_assert_cmpint(mlx5_steer_lookup(e->h->fw, p, &tirn, &tag), ==, MLX5_STEER_TIR);
    f[5] = 0x09;                                    /* another MAC */
    mlx5_steer_parse(f, sizeof(f), p, &pi);
    g_assert_cmpint(mlx5_steer_lookup(e->h->fw, p, &tirn, &tag), ==, MLX5_STEER_MISS);
}

static RxEnv *env_steered(void)
{
    RxEnv *e = env_new();
    set_root(e->h, e->ft);
    fte(e, e->ft, e->fg, 0, FT_ACTION_FWD, FT_DEST_TIR, e->tir);
    return e;
}

static void test_rx_delivers_with_cqe(void)
{
    g_autoptr(RxEnv) e = env_steered();
    uint8_t f[100];
    const uint8_t *cqe;

    udp_frame(f, sizeof(f), false);
    post_rx(e, 2048, e->mkey);
    mlx5_rx_frame(h_dp(e->h), f, sizeof(f), false);
    cqe = h_cq_next(e->h, &e->cq);
    g_assert_nonnull(cqe);
    g_assert_cmpuint(cqe[CQE_OP_OWN] >> 4, ==, MLX5_CQE_RESP_SEND);
    g_assert_cmpuint(prm_be32(cqe + CQE_BYTE_CNT), ==, sizeof(f));
    g_assert_cmpuint(prm_be16(cqe + CQE_WQE_COUNTER), ==, 0);
    g_assert_cmphex(cqe[CQE_L4_L3_HDR_TYPE], ==, CQE_L4_HDR_UDP << 4 | CQE_L3_HDR_IPV4 << 2);
    g_assert_cmphex(cqe[CQE_HDS_IP_EXT] & (CQE_HDS_L3_OK | CQE_HDS_L4_OK), ==,
                    CQE_HDS_L3_OK | CQE_HDS_L4_OK);
    g_assert_cmphex(prm_be32(cqe + CQE_SOP_DROP_QPN), ==, 0xabc);     /* flow tag */
    g_assert_cmpmem(h_gpa(e->h, BUF_GPA), sizeof(f), f, sizeof(f));
    g_assert_cmpuint(mlx5_traffic_frames(&e->h->fw->counters.phy_rx), ==, 1);
}

static void test_rx_strips_vlan(void)
{
    g_autoptr(RxEnv) e = env_steered();
    uint8_t f[100];
    const uint8_t *cqe;

    udp_frame(f, sizeof(f), true);
    post_rx(e, 2048, e->mkey);
    mlx5_rx_frame(h_dp(e->h), f, sizeof(f), false);
    cqe = h_cq_next(e->h, &e->cq);
    g_assert_nonnull(cqe);
    g_assert_cmpuint(prm_be32(cqe + CQE_BYTE_CNT), ==, sizeof(f) - 4);
    g_assert_cmpuint(cqe[CQE_L4_L3_HDR_TYPE] & CQE_CVLAN_PRESENT, ==, CQE_CVLAN_PRESENT);
    g_assert_cmphex(prm_be16(cqe + CQE_VLAN_INFO), ==, 0x2000 | 10);
    g_assert_cmphex(prm_be16((uint8_t *)h_gpa(e->h, BUF_GPA) + ETH_TYPE), ==, ETH_P_IP);
}

/* No receive WQE posted: dropped and counted, nothing written. */
static void test_rx_out_of_buffer(void)
{
    g_autoptr(RxEnv) e = env_steered();
    uint8_t f[64];

    udp_frame(f, sizeof(f), false);
    mlx5_rx_frame(h_dp(e->h), f, sizeof(f), false);
    g_assert_null(h_cq_next(e->h, &e->cq));
    g_assert_cmpuint(e->h->fw->counters.rx_out_of_buffer, ==, 1);
}

/* A frame larger than the first segment continues in the next one; bit 31
 * of byte_count (HW start padding, set by mlx5e) is not part of the size. */
static void test_rx_spans_segments(void)
{
    g_autoptr(RxEnv) e = env_steered();
    uint8_t *wqe = h_gpa(e->h, e->rq.gpa), f[300];
    const uint8_t *buf0 = h_gpa(e->h, BUF_GPA), *buf1 = h_gpa(e->h, BUF_GPA + 0x2000);

    udp_frame(f, sizeof(f), false);
    for (size_t i = 42; i < sizeof(f); i++) {
        f[i] = (uint8_t)i;
    }
    h_data_seg(wqe, 0x80000000u | 128, e->mkey, BUF_GPA);
    h_data_seg(wqe + MLX5_DS_BYTES, 0x80000000u | 4096, e->mkey, BUF_GPA + 0x2000);
    h_put32(e->h, e->rq.dbr, 1);
    g_assert_true(mlx5_rx_frame(h_dp(e->h), f, sizeof(f), false));
    g_assert_nonnull(h_cq_next(e->h, &e->cq));
    g_assert_cmpmem(buf0, 128, f, 128);
    g_assert_cmpmem(buf1, sizeof(f) - 128, f + 128, sizeof(f) - 128);
    g_assert_cmphex(buf0[128], ==, 0);              /* nothing past segment 0 */
}

/* Self loopback: a frame to the function's own MAC from an SQ of the
 * TIR's own transport domain comes back only if the TIR's self_lb_block
 * has the unicast bit (mlx5e's "enable" encoding); from another domain (a
 * second process's raw packet QP) always.  Before, the second was refused
 * too, and rdma-core's flow tests between two contexts never received. */
static void test_rx_loopback(void)
{
    g_autoptr(RxEnv) e = env_steered();
    Mlx5Tir *t = mlx5_table_get(&e->h->fw->tir, e->tir);
    uint8_t f[64];

    udp_frame(f, sizeof(f), false);
    memcpy(f, e->h->fw->cfg.mac, 6);
    post_rx(e, 2048, e->mkey);
    t->self_lb_block = 0;
    mlx5_rx_loopback(h_dp(e->h), f, sizeof(f), t->td);
    g_assert_null(h_cq_next(e->h, &e->cq));
    mlx5_rx_loopback(h_dp(e->h), f, sizeof(f), t->td + 1);
    g_assert_nonnull(h_cq_next(e->h, &e->cq));
    post_rx(e, 2048, e->mkey);
    t->self_lb_block = 1;
    mlx5_rx_loopback(h_dp(e->h), f, sizeof(f), t->td);
    g_assert_nonnull(h_cq_next(e->h, &e->cq));
    f[5] ^= 1;                                      /* someone else's MAC */
    post_rx(e, 2048, e->mkey);
    mlx5_rx_loopback(h_dp(e->h), f, sizeof(f), t->td + 1);
    g_assert_null(h_cq_next(e->h, &e->cq));
    g_assert_cmpuint(mlx5_traffic_frames(&e->h->fw->counters.phy_rx), ==, 0);   /* not wire traffic */
}

/* A lossless platform holds the frame until a WQE is posted. */
static void test_rx_waits_for_wqe(void)
{
    g_autoptr(RxEnv) e = env_steered();
    uint8_t f[64];

    udp_frame(f, sizeof(f), false);
    g_assert_false(mlx5_rx_frame(h_dp(e->h), f, sizeof(f), true));
    g_assert_true(h_dp(e->h)->rx_waiting);
    g_assert_cmpuint(mlx5_traffic_frames(&e->h->fw->counters.phy_rx) + e->h->fw->counters.rx_steer_miss, ==, 0);
    post_rx(e, 2048, e->mkey);
    g_assert_true(mlx5_rx_frame(h_dp(e->h), f, sizeof(f), true));
    g_assert_nonnull(h_cq_next(e->h, &e->cq));
    g_assert_cmpuint(mlx5_traffic_frames(&e->h->fw->counters.phy_rx), ==, 1);
}

/* A WQE too small, or with a foreign key: a responder error CQE with the
 * PRM syndrome, the RQ in error; after MODIFY_RQ ERR -> RST -> RDY the RQ
 * works again. */
static void expect_rq_err_cqe(RxEnv *e, uint8_t syndrome, uint16_t index)
{
    const uint8_t *cqe = h_cq_next(e->h, &e->cq);

    g_assert_nonnull(cqe);
    g_assert_cmphex(cqe[CQE_OP_OWN] >> 4, ==, MLX5_CQE_RESP_ERR);
    g_assert_cmphex(cqe[CQE_ERR_SYNDROME], ==, syndrome);
    g_assert_cmpuint(prm_be16(cqe + CQE_WQE_COUNTER), ==, index);
}

static void test_rx_bad_wqe(void)
{
    g_autoptr(RxEnv) e = env_steered();
    Mlx5Rq *rq;
    uint8_t f[200];

    udp_frame(f, sizeof(f), false);
    post_rx(e, 64, e->mkey);
    mlx5_rx_frame(h_dp(e->h), f, sizeof(f), false);
    expect_rq_err_cqe(e, MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR, 0);
    rq = mlx5_rq_get(e->h->fw, e->rq.num);
    g_assert_cmpuint(rq->state, ==, MLX5_RQC_STATE_ERR);
    post_rx(e, 2048, e->mkey);
    mlx5_rx_frame(h_dp(e->h), f, sizeof(f), false);    /* an RQ in error takes nothing */
    g_assert_null(h_cq_next(e->h, &e->cq));
    rq->state = MLX5_RQC_STATE_RDY;                  /* as MODIFY_RQ RST -> RDY leaves it */
    mlx5_rx_frame(h_dp(e->h), f, sizeof(f), false);
    g_assert_cmphex(h_cq_next(e->h, &e->cq)[CQE_OP_OWN] >> 4, ==, MLX5_CQE_RESP_SEND);
    post_rx(e, 2048, e->mkey ^ 0x1);                 /* wrong key byte */
    mlx5_rx_frame(h_dp(e->h), f, sizeof(f), false);
    expect_rq_err_cqe(e, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR, 2);
    g_assert_cmpuint(h_nerrors(e->h), >=, 2);
}

/* Port down, runt and giant frames never reach steering. */
static void test_rx_refused_frames(void)
{
    g_autoptr(RxEnv) e = env_steered();
    g_autofree uint8_t *big = g_malloc0(MLX5_PORT_MAX_MTU + 100);

    post_rx(e, 2048, e->mkey);
    mlx5_rx_frame(h_dp(e->h), big, 10, false);
    mlx5_rx_frame(h_dp(e->h), big, MLX5_PORT_MAX_MTU + 100, false);
    g_assert_null(h_cq_next(e->h, &e->cq));
    g_assert_cmpuint(mlx5_traffic_frames(&e->h->fw->counters.phy_rx), ==, 0);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/rx/toeplitz/ipv4-vectors", test_toeplitz_ipv4_vectors);
    g_test_add_func("/rx/toeplitz/ipv6-vectors", test_toeplitz_ipv6_vectors);
    g_test_add_func("/rx/parse/vlan-udp", test_parse_vlan_udp);
    g_test_add_func("/rx/parse/truncated", test_parse_truncated);
    g_test_add_func("/rx/steer/no-root", test_steer_no_root);
    g_test_add_func("/rx/steer/chain-miss-and-drop", test_steer_chain_miss_and_drop);
    g_test_add_func("/rx/steer/level-rises", test_steer_level_rises);
    g_test_add_func("/rx/steer/hop-bound", test_steer_hop_bound);
    g_test_add_func("/rx/steer/many-entries-miss-table", test_steer_many_entries_miss_table);
    g_test_add_func("/rx/steer/masked-match", test_steer_masked_match);
    g_test_add_func("/rx/deliver/cqe", test_rx_delivers_with_cqe);
    g_test_add_func("/rx/deliver/vlan-strip", test_rx_strips_vlan);
    g_test_add_func("/rx/deliver/out-of-buffer", test_rx_out_of_buffer);
    g_test_add_func("/rx/deliver/bad-wqe", test_rx_bad_wqe);
    g_test_add_func("/rx/deliver/waits-for-wqe", test_rx_waits_for_wqe);
    g_test_add_func("/rx/deliver/spans-segments", test_rx_spans_segments);
    g_test_add_func("/rx/deliver/loopback", test_rx_loopback);
    g_test_add_func("/rx/deliver/refused-frames", test_rx_refused_frames);
    return g_test_run();
}
