/*
 * Decoders (hw-rdma/decode.c): every BTH opcode the codec knows decodes to
 * its IBTA name and each of its extension headers with their fields, after
 * a build -> parse round trip; every send opcode the device executes
 * decodes with the segments its queue's layout gives it (RC, XRC, UD,
 * Ethernet, UMR); every CQE opcode and error syndrome decodes by name; and
 * what is not known or runs past the end says so without reading past the
 * bytes given (the ASan build checks that).
 */
#include <string.h>

#include <glib.h>

#include "cqe.h"
#include "decode.h"
#include "prm.h"
#include "wqe.h"

static void assert_has(const char *text, const char *want)
{
    if (!strstr(text, want)) {
        g_test_message("decoded: %s", text);
        g_test_message("missing: %s", want);
        g_test_fail();
    }
}

/* One packet of each opcode, every header field set to something seen. */
static void fill_pkt(Mlx5RocePkt *p, uint8_t opcode)
{
    static const uint8_t v4a[16] = { [10] = 0xff, [11] = 0xff, 169, 254, 77, 1 };
    static const uint8_t v4b[16] = { [10] = 0xff, [11] = 0xff, 169, 254, 77, 2 };

    memset(p, 0, sizeof(*p));
    memcpy(p->dmac, "\x02\x6d\x6c\x35\x00\x02", 6);
    memcpy(p->smac, "\x02\x6d\x6c\x35\x00\x01", 6);
    p->ip_version = 4;
    memcpy(p->sgid, v4a, 16);
    memcpy(p->dgid, v4b, 16);
    p->hop_limit = 64;
    p->udp_sport = 0xc000;
    p->opcode = opcode;
    p->ackreq = true;
    p->pkey = 0xffff;
    p->dest_qpn = 0x4a;
    p->psn = 4242;
    p->xrc_srqn = 0x77;
    p->deth.qkey = 0x11111111;
    p->deth.src_qpn = 0x1;
    p->reth.va = 0x7f0012340000;
    p->reth.rkey = 0x1a0f;
    p->reth.dma_len = 8;
    p->atomic_eth.va = 0x7f0012340000;
    p->atomic_eth.rkey = 0x1a0f;
    p->atomic_eth.swap_add = 5;
    p->atomic_eth.compare = 6;
    p->aeth.syndrome = 0x1f;
    p->aeth.msn = 9;
    p->atomic_ack_orig = 0x1234;
    p->imm_data = 0xabcd;
    p->ieth_rkey = 0x2b0e;
}

static void want_headers(const char *text, unsigned hdrs)
{
    static const struct { unsigned bit; const char *want; } h[] = {
        { MLX5_ROCE_HDR_XRCETH, "XRCETH{xrc_srqn=0x77}" },
        { MLX5_ROCE_HDR_DETH, "DETH{qkey=0x11111111 src_qp=0x1}" },
        { MLX5_ROCE_HDR_RETH, "RETH{va=0x7f0012340000 rkey=0x1a0f dma_len=8}" },
        { MLX5_ROCE_HDR_ATOMIC_ETH, "AtomicETH{va=0x7f0012340000 rkey=0x1a0f swap_add=0x5 "
                                    "compare=0x6}" },
        { MLX5_ROCE_HDR_AETH, "AETH{syndrome=0x1f(ACK) msn=9}" },
        { MLX5_ROCE_HDR_ATOMIC_ACK_ETH, "AtomicAckETH{orig=0x1234}" },
        { MLX5_ROCE_HDR_IMMDT, "ImmDt{imm=0xabcd}" },
        { MLX5_ROCE_HDR_IETH, "IETH{rkey=0x2b0e}" },
    };

    for (unsigned i = 0; i < G_N_ELEMENTS(h); i++) {
        if (hdrs & h[i].bit) {
            assert_has(text, h[i].want);
        } else {
            g_autofree char *name = g_strdup_printf(" %.*s", (int)(strchr(h[i].want, '{') -
                                                                 h[i].want + 1), h[i].want);
            g_assert_null(strstr(text, name));
        }
    }
}

static void test_bth_every_opcode(void)
{
    uint8_t frame[512];
    unsigned decoded = 0;

    for (unsigned c = 0; c < 256; c++) {
        const Mlx5RoceOpcode *op = mlx5_roce_opcode((uint8_t)c);
        g_autoptr(GString) text = g_string_new(NULL);
        Mlx5RocePkt p, q;
        size_t n, pay;

        if (!op || c == MLX5_ROCE_CNP) {
            continue;
        }
        fill_pkt(&p, (uint8_t)c);
        pay = op->flags & MLX5_ROCE_OPF_PAYLOAD ? 5 : 0;
        n = mlx5_roce_build(&p, (const uint8_t *)"hello", pay, frame, sizeof(frame));
        g_assert_cmpuint(n, >, 0);
        g_assert_cmpint(mlx5_roce_parse(frame, n, &q), ==, MLX5_ROCE_OK);
        mlx5_decode_roce(text, &q);
        g_autofree char *name = g_strdup_printf("BTH{opcode=%s(0x%02x) ", op->name, c);
        assert_has(text->str, name);
        assert_has(text->str, "dest_qp=0x4a ackreq=1 psn=4242}");
        want_headers(text->str, op->hdrs);
        if (pay) {
            assert_has(text->str, "pad=3");
            assert_has(text->str, "payload{5 bytes}");
        }
        decoded++;
    }
    g_assert_cmpuint(decoded, ==, 60);          /* the table's 61 less CNP */
}

static void test_bth_unknown_and_aeth(void)
{
    g_autoptr(GString) text = g_string_new(NULL);
    Mlx5RocePkt p;

    fill_pkt(&p, 0x3f);                         /* RC reserved */
    mlx5_decode_roce(text, &p);
    assert_has(text->str, "BTH{opcode=unknown(0x3f)");
    g_assert_cmpstr(mlx5_aeth_name(0x1f), ==, "ACK");
    g_assert_cmpstr(mlx5_aeth_name(0x2e), ==, "RNR_NAK");
    g_assert_cmpstr(mlx5_aeth_name(0x60), ==, "NAK_PSN_SEQUENCE_ERROR");
    g_assert_cmpstr(mlx5_aeth_name(0x61), ==, "NAK_INVALID_REQUEST");
    g_assert_cmpstr(mlx5_aeth_name(0x62), ==, "NAK_REMOTE_ACCESS_ERROR");
    g_assert_cmpstr(mlx5_aeth_name(0x63), ==, "NAK_REMOTE_OPERATIONAL_ERROR");
    g_assert_cmpstr(mlx5_aeth_name(0x64), ==, "NAK_reserved");
    g_assert_cmpstr(mlx5_aeth_name(0x40), ==, "reserved");
}

/* A control segment: opcode, WQE index, QPN, ds, flags. */
static void put_ctrl(uint8_t *w, uint8_t opcode, uint16_t idx, unsigned ds)
{
    prm_put_be32(w + WQE_CTRL_OPMOD_IDX_OPCODE, (uint32_t)idx << 8 | opcode);
    prm_put_be32(w + WQE_CTRL_QPN_DS, 0x4a << 8 | ds);
    w[WQE_CTRL_FM_CE_SE] = MLX5_WQE_CTRL_CQ_UPDATE;
}

static void put_data(uint8_t *seg, uint32_t bc, uint32_t lkey, uint64_t addr)
{
    prm_put_be32(seg + WQE_DATA_BYTE_COUNT, bc);
    prm_put_be32(seg + WQE_DATA_LKEY, lkey);
    prm_put_be64(seg + WQE_DATA_ADDR, addr);
}

static char *decode_wqe(const uint8_t *w, size_t len, unsigned ds, Mlx5WqeLayout layout)
{
    GString *text = g_string_new(NULL);

    mlx5_decode_send_wqe(text, w, len, ds, layout);
    return g_string_free(text, false);
}

/* RC and XRC: each operation with the segments before its data. */
static void test_wqe_rc(void)
{
    static const struct { uint8_t op; unsigned before; const char *name; } ops[] = {
        { MLX5_OPCODE_SEND, 0, "SEND(0x0a)" }, { MLX5_OPCODE_SEND_IMM, 0, "SEND_IMM(0x0b)" },
        { MLX5_OPCODE_SEND_INVAL, 0, "SEND_INVAL(0x01)" },
        { MLX5_OPCODE_RDMA_WRITE, 1, "RDMA_WRITE(0x08)" },
        { MLX5_OPCODE_RDMA_WRITE_IMM, 1, "RDMA_WRITE_IMM(0x09)" },
        { MLX5_OPCODE_RDMA_READ, 1, "RDMA_READ(0x10)" },
        { MLX5_OPCODE_ATOMIC_CS, 2, "ATOMIC_CS(0x11)" },
        { MLX5_OPCODE_ATOMIC_FA, 2, "ATOMIC_FA(0x12)" },
    };

    for (unsigned i = 0; i < G_N_ELEMENTS(ops); i++) {
        for (unsigned xrc = 0; xrc < 2; xrc++) {
            uint8_t w[256] = { 0 };
            unsigned s = 1 + xrc, ds = s + ops[i].before + 1;
            g_autofree char *t = NULL;

            put_ctrl(w, ops[i].op, 7, ds);
            prm_put_be32(w + MLX5_DS_BYTES, 0x55);          /* XRC SRQ, if XRC */
            prm_put_be64(w + s * MLX5_DS_BYTES + WQE_RADDR_VA, 0x7f0012340000);
            prm_put_be32(w + s * MLX5_DS_BYTES + WQE_RADDR_RKEY, 0x1a0f);
            prm_put_be64(w + (s + 1) * MLX5_DS_BYTES + WQE_ATOMIC_SWAP_ADD, 5);
            put_data(w + (s + ops[i].before) * MLX5_DS_BYTES, 8, 0x1b0e, 0x55d0e0);
            t = decode_wqe(w, sizeof(w), ds, xrc ? MLX5_WQE_LAYOUT_XRC : MLX5_WQE_LAYOUT_RC);
            assert_has(t, ops[i].name);
            assert_has(t, "wqe_index=7 opmod=0 qpn=0x4a");
            assert_has(t, "fm_ce_se=0x08(CQ_UPDATE)");
            assert_has(t, "data{byte_count=8 lkey=0x1b0e addr=0x55d0e0}");
            g_assert_true(!xrc == !strstr(t, "xrc{srqn=0x55}"));
            g_assert_true(!ops[i].before == !strstr(t, "raddr{va=0x7f0012340000 rkey=0x1a0f}"));
            g_assert_true((ops[i].before == 2) == !!strstr(t, "atomic{swap_add=0x5 compare=0x0}"));
        }
    }
}

static void test_wqe_inline_ud_eth(void)
{
    uint8_t w[256] = { 0 };
    g_autofree char *inl = NULL, *ud = NULL, *eth = NULL, *vlan = NULL;

    put_ctrl(w, MLX5_OPCODE_SEND, 1, 3);
    prm_put_be32(w + MLX5_DS_BYTES, 0x80000000u | 20);     /* 20 inline bytes: 2 units */
    inl = decode_wqe(w, sizeof(w), 3, MLX5_WQE_LAYOUT_RC);
    assert_has(inl, "inline{byte_count=20}");
    g_assert_null(strstr(inl, "data{"));

    memset(w, 0, sizeof(w));
    put_ctrl(w, MLX5_OPCODE_SEND, 2, 5);
    prm_put_be32(w + MLX5_DS_BYTES + WQE_AV_QKEY, 0x11111111);
    prm_put_be32(w + MLX5_DS_BYTES + WQE_AV_DQP, MLX5_EXTENDED_UD_AV | 0x1);
    memcpy(w + MLX5_DS_BYTES + WQE_AV_RMAC, "\x02\x6d\x6c\x35\x00\x02", 6);
    put_data(w + 4 * MLX5_DS_BYTES, 256, 0x300, 0x1000);
    ud = decode_wqe(w, sizeof(w), 5, MLX5_WQE_LAYOUT_UD);
    assert_has(ud, "av{qkey=0x11111111 dqpn=0x1(extended)");
    assert_has(ud, "rmac=02:6d:6c:35:00:02");
    assert_has(ud, "data{byte_count=256 lkey=0x300 addr=0x1000}");

    memset(w, 0, sizeof(w));
    put_ctrl(w, MLX5_OPCODE_LSO, 3, 5);
    w[MLX5_DS_BYTES + WQE_ETH_CS_FLAGS] = MLX5_ETH_WQE_L3_CSUM | MLX5_ETH_WQE_L4_CSUM;
    prm_put_be16(w + MLX5_DS_BYTES + WQE_ETH_MSS, 1448);
    prm_put_be16(w + MLX5_DS_BYTES + WQE_ETH_INLINE_HDR_SZ, 18);   /* eth + 2: 2 units */
    put_data(w + 4 * MLX5_DS_BYTES, 9000, 0x400, 0x2000);
    eth = decode_wqe(w, sizeof(w), 5, MLX5_WQE_LAYOUT_ETH);
    assert_has(eth, "LSO(0x0e)");
    assert_has(eth, "eth{cs_flags=0xc0(L3_CSUM)(L4_CSUM) mss=1448 inline_hdr_sz=18}");
    assert_has(eth, "data{byte_count=9000 lkey=0x400 addr=0x2000}");

    prm_put_be16(w + MLX5_DS_BYTES + WQE_ETH_INLINE_HDR_SZ, MLX5_ETH_WQE_INSERT_VLAN);
    prm_put_be16(w + MLX5_DS_BYTES + WQE_ETH_INSERT_VLAN_TCI, 0x2005);
    put_data(w + 2 * MLX5_DS_BYTES, 60, 0x400, 0x3000);
    vlan = decode_wqe(w, sizeof(w), 3, MLX5_WQE_LAYOUT_ETH);
    assert_has(vlan, "insert_vlan_tci=0x2005}");
    assert_has(vlan, "data{byte_count=60 lkey=0x400 addr=0x3000}");
}

/* UMR: its control segment and the mkey context, by the PRM's names. */
static void test_wqe_umr(void)
{
    uint8_t w[256] = { 0 };
    g_autofree char *t = NULL, *cut = NULL;

    put_ctrl(w, MLX5_OPCODE_UMR, 9, 8);
    w[WQE_UMR_CTRL + WQE_UMR_FLAGS] = MLX5_UMR_INLINE;
    prm_put_be16(w + WQE_UMR_CTRL + WQE_UMR_XLT_OCTOWORDS, 4);
    prm_put_be64(w + WQE_UMR_CTRL + WQE_UMR_MKEY_MASK, MLX5_MKEY_MASK_LEN | MLX5_MKEY_MASK_PD);
    PRM_SET(mkc, pd, w + WQE_UMR_MKC, 0x17);
    PRM_SET(mkc, len, w + WQE_UMR_MKC, 0x10000);
    PRM_SET(mkc, lr, w + WQE_UMR_MKC, 1);
    t = decode_wqe(w, sizeof(w), 8, MLX5_WQE_LAYOUT_RC);
    assert_has(t, "UMR(0x25)");
    assert_has(t, "umr_ctrl{flags=0x80 xlt_octowords=4 xlt_offset=0x0 mkey_mask=0x81}");
    assert_has(t, "mkc{ lr=0x1 pd=0x17 len=0x10000 }");

    cut = decode_wqe(w, 48, 8, MLX5_WQE_LAYOUT_RC);     /* only 48 bytes readable */
    assert_has(cut, "umr{truncated}");
}

static void test_wqe_truncated_and_unknown(void)
{
    uint8_t w[64] = { 0 };
    g_autofree char *shortw = NULL, *unknown = NULL, *past = NULL;
    g_auto(GStrv) parts = NULL;

    shortw = decode_wqe(w, 8, 1, MLX5_WQE_LAYOUT_RC);
    g_assert_cmpstr(shortw, ==, "ctrl{truncated}");
    put_ctrl(w, 0x7e, 0, 1);
    unknown = decode_wqe(w, sizeof(w), 1, MLX5_WQE_LAYOUT_RC);
    assert_has(unknown, "ctrl{opcode=unknown(0x7e)");
    /* ds says 63 units, 64 bytes are there: the decoder stops at 4 units */
    put_ctrl(w, MLX5_OPCODE_SEND, 0, 63);
    put_data(w + 16, 1, 2, 3);
    past = decode_wqe(w, sizeof(w), 63, MLX5_WQE_LAYOUT_RC);
    assert_has(past, "ds=63");
    parts = g_strsplit(past, "data{", -1);
    g_assert_cmpuint(g_strv_length(parts) - 1, ==, 3);
}

static void put_cqe(uint8_t *c, unsigned op, uint32_t sop)
{
    memset(c, 0, 64);
    c[CQE_OP_OWN] = (uint8_t)(op << 4 | 1);
    prm_put_be32(c + CQE_SOP_DROP_QPN, sop);
    prm_put_be16(c + CQE_WQE_COUNTER, 12);
    prm_put_be32(c + CQE_BYTE_CNT, 64);
    prm_put_be64(c + CQE_TIMESTAMP, 123456789);
    prm_put_be32(c + CQE_IMMEDIATE, 0xabcd);
    prm_put_be32(c + CQE_FLAGS_RQPN, MLX5_CQE_GRH_IN_BUFFER | 0x1);
}

static void test_cqe(void)
{
    static const struct { unsigned op; const char *want; } ops[] = {
        { MLX5_CQE_REQ, "opcode=REQ(0x00) owner=1 qpn=0x4a wqe_counter=12 "
                        "wqe_opcode=RDMA_WRITE(0x08) byte_cnt=64 timestamp=123456789}" },
        { MLX5_CQE_RESP_WR_IMM, "opcode=RESP_WR_IMM(0x01) owner=1 qpn=0x4a wqe_counter=12 imm=0xabcd" },
        { MLX5_CQE_RESP_SEND, "opcode=RESP_SEND(0x02)" },
        { MLX5_CQE_RESP_SEND_IMM, "opcode=RESP_SEND_IMM(0x03)" },
        { MLX5_CQE_RESP_SEND_INV, "inval_rkey=0xabcd" },
        { MLX5_CQE_INVALID, "opcode=INVALID(0x0f)" },
        { 0x7, "opcode=unknown(0x07)" },
    };
    uint8_t c[64];

    for (unsigned i = 0; i < G_N_ELEMENTS(ops); i++) {
        g_autoptr(GString) t = g_string_new(NULL);

        put_cqe(c, ops[i].op, (uint32_t)MLX5_OPCODE_RDMA_WRITE << 24 | 0x4a);
        mlx5_decode_cqe(t, c);
        assert_has(t->str, ops[i].want);
        if (ops[i].op >= MLX5_CQE_RESP_WR_IMM && ops[i].op <= MLX5_CQE_RESP_SEND_INV) {
            assert_has(t->str, "flags_rqpn=0x10000001(src_qpn=0x1 grh)");
        }
    }
}

static void test_cqe_errors(void)
{
    unsigned named = 0;
    uint8_t c[64];

    for (unsigned s = 0; s < 256; s++) {
        g_autoptr(GString) t = g_string_new(NULL);
        const char *name = mlx5_cqe_syndrome_name((uint8_t)s);
        g_autofree char *want = g_strdup_printf("syndrome=%s(0x%02x) vendor_syndrome=0x%02x}",
                                                name ? name : "unknown", s, 0x81);

        put_cqe(c, s & 1 ? MLX5_CQE_REQ_ERR : MLX5_CQE_RESP_ERR, 0x4a);
        c[CQE_ERR_SYNDROME] = (uint8_t)s;
        c[CQE_ERR_VENDOR_SYNDROME] = 0x81;
        mlx5_decode_cqe(t, c);
        assert_has(t->str, s & 1 ? "opcode=REQ_ERR(0x0d)" : "opcode=RESP_ERR(0x0e)");
        assert_has(t->str, want);
        g_assert_null(strstr(t->str, "timestamp"));     /* not an error CQE's */
        named += name != NULL;
    }
    g_assert_cmpuint(named, ==, 11);                    /* every syndrome cqe.h names */
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/decode/bth-every-opcode", test_bth_every_opcode);
    g_test_add_func("/decode/bth-unknown-and-aeth", test_bth_unknown_and_aeth);
    g_test_add_func("/decode/wqe-rc-xrc", test_wqe_rc);
    g_test_add_func("/decode/wqe-inline-ud-eth", test_wqe_inline_ud_eth);
    g_test_add_func("/decode/wqe-umr", test_wqe_umr);
    g_test_add_func("/decode/wqe-truncated-and-unknown", test_wqe_truncated_and_unknown);
    g_test_add_func("/decode/cqe", test_cqe);
    g_test_add_func("/decode/cqe-errors", test_cqe_errors);
    return g_test_run();
}
