/* The operation stream: see ops.h and fuzz/README.md "The grammar". */
#include <string.h>

#include "ops.h"
#include "roce.h"

/* Bounds of the operands (fuzz/README.md). */
enum {
    MAX_CMD_BODY = 8192,        /* command input after its 8-byte header */
    MAX_CMD_OUT = 8192,
    MAX_RAM_WRITE = 4096,
    MAX_FRAME = 9216 + 18,      /* a jumbo frame with its Ethernet header */
    MAX_PAYLOAD = 4096,
    MAX_SEGS = 8,
    MAX_MUTATIONS = 8,
    CLOCK_UNIT_NS = 16384,      /* CLOCK's u16: up to ~1 s */
    /* UAR doorbells (Linux eq.c MLX5_EQ_DOORBEL_OFFSET, cq.h, en/txrx.h) */
    UAR_CQ_ARM = 0x20, UAR_EQ_ARM = 0x40, UAR_BF = 0x800,
};

/* --- reading the input -------------------------------------------------------- */

typedef struct In {
    const uint8_t *p;
    size_t n, off;
} In;

static uint8_t u8(In *in)
{
    return in->off < in->n ? in->p[in->off++] : 0;
}

static uint16_t u16(In *in)
{
    uint16_t lo = u8(in);
    return (uint16_t)(lo | u8(in) << 8);
}

static uint32_t u32(In *in)
{
    uint32_t lo = u16(in);
    return lo | (uint32_t)u16(in) << 16;
}

static uint64_t u64(In *in)
{
    uint64_t lo = u32(in);
    return lo | (uint64_t)u32(in) << 32;
}

/* n bytes into dst; past the input's end, zeros. */
static void bytes(In *in, uint8_t *dst, size_t n)
{
    size_t have = in->off < in->n ? MIN(n, in->n - in->off) : 0;

    memcpy(dst, in->p + in->off, have);
    memset(dst + have, 0, n - have);
    in->off += have;
}

static const FuzzKey *key_of(FuzzWorld *w, In *in)
{
    return &w->key[u8(in) % FUZZ_NKEYS];
}

/* An address through a key: the key's base plus an offset in its span. */
static uint64_t key_addr(const FuzzKey *k, uint32_t off)
{
    return k->base + off % k->span;
}

/* --- commands -------------------------------------------------------------------- */

/* opcode:u16 op_mod:u16 outlen:u16 n:u16 body[n]: a command of 8 + n
 * bytes, the body from byte 8 (mbox_in). */
static uint8_t *read_cmd(In *in, uint32_t *inlen, uint32_t *outlen)
{
    uint16_t opcode = u16(in), op_mod = u16(in);
    uint32_t n;
    uint8_t *cmd;

    *outlen = u16(in) % (MAX_CMD_OUT + 1);
    n = u16(in) % (MAX_CMD_BODY + 1);
    *inlen = 8 + n;
    cmd = g_malloc0(*inlen);
    PRM_SET(mbox_in, opcode, cmd, opcode);
    PRM_SET(mbox_in, op_mod, cmd, op_mod);
    bytes(in, cmd + 8, n);
    return cmd;
}

static void op_cmd_exec(FuzzWorld *w, In *in)
{
    uint32_t inlen, outlen;
    g_autofree uint8_t *cmd = read_cmd(in, &inlen, &outlen);

    fuzz_dev_exec(w->f, cmd, inlen, outlen);
}

/* CMD_QUEUE's flags: what the driver gets wrong (PRM "Command Interface"). */
enum {
    CQF_BAD_TOKEN = 1 << 0,     /* the last input mailbox's token differs */
    CQF_BAD_BLOCK = 1 << 1,     /* block numbers start at 1 */
    CQF_LOOP = 1 << 2,          /* the last input mailbox points to the first */
    CQF_RAW_PTR = 1 << 3,       /* the entry's input pointer comes from the input */
    CQF_NOT_OWNED = 1 << 4,     /* ownership left with software */
    CQF_LONG_INLEN = 1 << 5,    /* the entry claims one mailbox more than chained */
    CQF_SHORT_OUT = 1 << 6,     /* one output mailbox fewer than outlen needs */
    CQF_ALL_SLOTS = 1 << 7,     /* the doorbell rings every slot */
};

static uint32_t mbox_blocks(uint32_t len)
{
    return len > 16 ? (len - 16 + MBOX_DATA_BYTES - 1) / MBOX_DATA_BYTES : 0;
}

/* n mailboxes from `gpa` on, chained, with data[0, len) (NULL: poison). */
static void mbox_chain(Harness *h, uint64_t gpa, uint32_t n, const uint8_t *data, uint32_t len,
                       uint8_t token, uint8_t flags)
{
    for (uint32_t i = 0; i < n; i++) {
        uint8_t *b = h_gpa(h, gpa + (uint64_t)i * MBOX_STRIDE);
        uint32_t off = i * MBOX_DATA_BYTES;
        uint64_t next = i + 1 < n ? gpa + (uint64_t)(i + 1) * MBOX_STRIDE
                        : flags & CQF_LOOP ? gpa : 0;

        memset(b, data ? 0 : POISON, MBOX_BYTES);
        if (data) {
            memcpy(b, data + off, MIN(len - off, (uint32_t)MBOX_DATA_BYTES));
        }
        prm_put_be64(b + MBOX_NEXT, next);
        prm_put_be32(b + MBOX_BLOCK_NUM, i + !!(flags & CQF_BAD_BLOCK));
        b[MBOX_TOKEN] = i + 1 == n && flags & CQF_BAD_TOKEN ? token ^ 0xff : token;
    }
}

/* slot:u8 flags:u8 [ptr:u64] then a command as CMD_EXEC reads it. */
static void op_cmd_queue(FuzzWorld *w, In *in)
{
    Harness *h = w->f->h;
    unsigned slot = u8(in) % MLX5_CMDQ_SLOTS;
    uint8_t flags = u8(in), token = (uint8_t)(0x40 + slot);
    uint64_t raw_ptr = flags & CQF_RAW_PTR ? u64(in) : 0;
    uint32_t inlen, outlen, nin, nout;
    g_autofree uint8_t *cmd = read_cmd(in, &inlen, &outlen);
    uint64_t out_mb, ent = h->cmdq + ((uint64_t)slot << MLX5_CMDQ_LOG_STRIDE);
    uint8_t *e = h_gpa(h, ent);

    nin = mbox_blocks(inlen);
    nout = mbox_blocks(outlen) - (flags & CQF_SHORT_OUT && mbox_blocks(outlen));
    out_mb = w->mbox + (uint64_t)nin * MBOX_STRIDE;
    mbox_chain(h, w->mbox, nin, cmd + 16, inlen > 16 ? inlen - 16 : 0, token, flags);
    mbox_chain(h, out_mb, nout, NULL, 0, token, flags & CQF_LOOP);
    fuzz_ram_written(w->f, w->mbox, (uint64_t)(nin + nout) * MBOX_STRIDE);
    memset(e, 0, 64);
    e[CMD_ENT_TYPE] = 7;                        /* PCIe command transport */
    prm_put_be32(e + CMD_ENT_INLEN, inlen + (flags & CQF_LONG_INLEN ? MBOX_DATA_BYTES : 0));
    prm_put_be64(e + CMD_ENT_IN_PTR, flags & CQF_RAW_PTR ? raw_ptr : nin ? w->mbox : 0);
    memcpy(e + CMD_ENT_IN, cmd, MIN(inlen, 16u));
    prm_put_be64(e + CMD_ENT_OUT_PTR, nout ? out_mb : 0);
    prm_put_be32(e + CMD_ENT_OUTLEN, outlen);
    e[CMD_ENT_TOKEN] = token;
    e[CMD_ENT_STATUS_OWN] = !(flags & CQF_NOT_OWNED);
    fuzz_dev_mmio_write(w->f, ISEG_CMD_DBELL, flags & CQF_ALL_SLOTS ? ~0u : 1u << slot, 4);
}

/* --- BAR0 ---------------------------------------------------------------------------- */

/* off:u16 val:u32 */
static void op_iseg_write(FuzzWorld *w, In *in)
{
    uint32_t off = (u16(in) % MLX5_ISEG_SIZE) & ~3u;

    fuzz_dev_mmio_write(w->f, off, u32(in), 4);
}

/* page:u8 (0: the world's UAR) off:u16 size:u8 (bit 0: 8 bytes) val:u64 */
static void op_uar_write(FuzzWorld *w, In *in)
{
    uint32_t page = u8(in);
    uint32_t off = u16(in) % PAGE;
    unsigned size = u8(in) & 1 ? 8 : 4;

    page = page ? page : w->f->h->uar;
    fuzz_dev_mmio_write(w->f, h_uar_addr(page, off & ~(size - 1)), u64(in), size);
}

/* addr:u32 size:u8 (bit 0: 8 bytes) */
static void op_mmio_read(FuzzWorld *w, In *in)
{
    uint32_t addr = u32(in) % MLX5_BAR0_SIZE;
    unsigned size = u8(in) & 1 ? 8 : 4;

    fuzz_dev_mmio_read(w->f, addr & ~(size - 1), size);
}

/* --- guest memory ---------------------------------------------------------------------- */

/* region:u8 off:u32 n:u16 bytes[n] */
static void op_ram_write(FuzzWorld *w, In *in)
{
    const FuzzRegion *r = &w->region[u8(in) % w->nregion];
    uint64_t off = u32(in) % r->size;
    uint32_t n = u16(in) % (MAX_RAM_WRITE + 1);
    g_autofree uint8_t *buf = g_malloc(MAX(n, 1u));

    bytes(in, buf, n);
    memcpy(h_gpa(w->f->h, r->gpa + off), buf, MIN((uint64_t)n, r->size - off));
    fuzz_ram_written(w->f, r->gpa + off, MIN((uint64_t)n, r->size - off));
}

/* A data segment: len:u32 key:u8 off:u32 (len XOR 64: zeros read as 64
 * bytes at the key's base). */
static void data_seg(FuzzWorld *w, In *in, uint8_t *seg)
{
    uint32_t len = u32(in) ^ 64;
    const FuzzKey *k = key_of(w, in);

    h_data_seg(seg, len, k->key, key_addr(k, u32(in)));
}

/* An address vector to the QP `qp` of this port (Linux qp.h
 * mlx5_wqe_av, as mlx5_ib fills it for RoCE). */
static void av_seg(FuzzWorld *w, In *in, uint8_t *av)
{
    const FuzzQp *qp = &w->qp[u8(in) % w->nqp];

    prm_put_be32(av + WQE_AV_QKEY, (qp->st == MLX5_QP_ST_QP1 ? 0x80010000u : UD_QKEY) ^ u32(in));
    prm_put_be32(av + WQE_AV_DQP, MLX5_EXTENDED_UD_AV | qp->qpn);
    prm_put_be16(av + WQE_AV_UDP_SPORT, 0xc123);
    memcpy(av + WQE_AV_RMAC, w->mac, 6);
    av[WQE_AV_HOP_LIMIT] = 64;
    memcpy(av + WQE_AV_RGID, w->gid, 16);
}

/* An Ethernet segment: cs_flags:u8 mss:u16 hdr_sz:u8 hdr[hdr_sz]; the
 * inlined headers run on past the segment's 16 bytes.  Its length. */
static size_t eth_seg(In *in, uint8_t *seg, size_t room)
{
    uint8_t cs = u8(in);
    uint16_t mss = u16(in);
    size_t want = u8(in);               /* read once: MIN() evaluates twice */
    size_t hdr = MIN(want, room - WQE_ETH_INLINE_HDR);

    seg[WQE_ETH_CS_FLAGS] = cs;
    prm_put_be16(seg + WQE_ETH_MSS, mss);
    prm_put_be16(seg + WQE_ETH_INLINE_HDR_SZ, (uint16_t)hdr);
    bytes(in, seg + WQE_ETH_INLINE_HDR, hdr);
    return (WQE_ETH_INLINE_HDR + hdr + MLX5_DS_BYTES - 1) / MLX5_DS_BYTES * MLX5_DS_BYTES;
}

/* Segment kinds of POST_SEND (fuzz/README.md); each returns its bytes. */
enum { SEG_DATA, SEG_RADDR, SEG_ATOMIC, SEG_AV, SEG_RAW, SEG_INLINE, SEG_XRC, SEG_ETH, NSEG };

static size_t send_seg(FuzzWorld *w, In *in, uint8_t *s, size_t room)
{
    const FuzzKey *k;
    size_t n;

    switch (u8(in) % NSEG) {
    case SEG_DATA: data_seg(w, in, s); return MLX5_DS_BYTES;
    case SEG_RADDR:
        k = key_of(w, in);
        prm_put_be64(s + WQE_RADDR_VA, key_addr(k, u32(in)));
        prm_put_be32(s + WQE_RADDR_RKEY, k->key);
        return MLX5_DS_BYTES;
    case SEG_ATOMIC:
        prm_put_be64(s + WQE_ATOMIC_SWAP_ADD, u64(in));
        prm_put_be64(s + WQE_ATOMIC_COMPARE, u64(in));
        return MLX5_DS_BYTES;
    case SEG_AV:
        if (room < MLX5_AV_BYTES) {
            return 0;
        }
        av_seg(w, in, s);
        return MLX5_AV_BYTES;
    case SEG_INLINE:
        n = u8(in);
        n = MIN(n, room - 4);
        prm_put_be32(s, 0x80000000u | (uint32_t)n);         /* MLX5_INLINE_SEG */
        bytes(in, s + 4, n);
        return (4 + n + MLX5_DS_BYTES - 1) / MLX5_DS_BYTES * MLX5_DS_BYTES;
    case SEG_XRC: prm_put_be32(s, w->xrc_srqn ^ u32(in)); return MLX5_DS_BYTES;
    case SEG_ETH: return eth_seg(in, s, room);
    default: bytes(in, s, MLX5_DS_BYTES); return MLX5_DS_BYTES;
    }
}

/* Copy a WQE of nbb basic blocks into its ring at the producer counter,
 * wrapping as the ring does. */
static void ring_put(Harness *h, HRing *r, const uint8_t *wqe, unsigned nbb)
{
    uint32_t nent = 1u << r->log_size;

    for (unsigned i = 0; i < nbb; i++) {
        uint64_t at = r->gpa + (uint64_t)((r->ci + i) & (nent - 1)) * MLX5_WQEBB_BYTES;
        memcpy(h_gpa(h, at), wqe + i * MLX5_WQEBB_BYTES, MLX5_WQEBB_BYTES);
    }
}

/* POST_SEND's flags */
enum { PSF_NO_DBR = 1 << 0, PSF_NO_BELL = 1 << 1, PSF_RAW_DS = 1 << 2 };

/* q:u8 opcode:u8 opmod:u8 fm_ce_se:u8 imm:u32 flags:u8 [ds:u8] nseg:u8
 * then nseg segments (kind:u8 and its operands) */
static void op_post_send(FuzzWorld *w, In *in)
{
    FuzzQueue *q = &w->sq[u8(in) % w->nsq];
    uint8_t opcode = u8(in), opmod = u8(in), fm_ce_se = u8(in);
    uint32_t imm = u32(in);
    uint8_t flags = u8(in), raw_ds = flags & PSF_RAW_DS ? u8(in) : 0;
    unsigned nseg = u8(in) % (MAX_SEGS + 1), nbb;
    uint8_t wqe[16 * MLX5_WQEBB_BYTES] = { 0 };
    /* ds is 6 bits: at most 63 segments of 16 bytes (a multiple of 16,
     * as every segment's length is) */
    size_t len = MLX5_DS_BYTES,
           room = MIN((size_t)0x3f * MLX5_DS_BYTES, (size_t)MLX5_WQEBB_BYTES << q->ring.log_size);
    unsigned ds;

    for (unsigned i = 0; i < nseg && len + MLX5_DS_BYTES <= room; i++) {
        len += send_seg(w, in, wqe + len, room - len);
    }
    ds = flags & PSF_RAW_DS ? raw_ds & 0x3f : (unsigned)(len / MLX5_DS_BYTES);
    prm_put_be32(wqe + WQE_CTRL_OPMOD_IDX_OPCODE,
                 (uint32_t)opmod << 24 | (q->ring.ci & 0xffff) << 8 | opcode);
    prm_put_be32(wqe + WQE_CTRL_QPN_DS, q->ring.num << 8 | ds);
    wqe[WQE_CTRL_FM_CE_SE] = fm_ce_se;
    prm_put_be32(wqe + WQE_CTRL_IMM, imm);
    nbb = MIN(mlx5_wqe_blocks(ds), (unsigned)(room / MLX5_WQEBB_BYTES));
    ring_put(w->f->h, &q->ring, wqe, nbb);
    q->ring.ci += nbb;
    if (!(flags & PSF_NO_DBR)) {
        h_put32(w->f->h, q->ring.dbr + 4, q->ring.ci & 0xffff);
    }
    if (!(flags & PSF_NO_BELL)) {
        fuzz_dev_mmio_write(w->f, h_uar_addr(w->f->h->uar, UAR_BF),
                            (uint64_t)prm_be32(wqe) << 32 | prm_be32(wqe + WQE_CTRL_QPN_DS), 8);
    }
}

/* q:u8 flags:u8 (bit 0: no record update) nseg:u8, nseg data segments;
 * an SRQ WQE starts with its next segment naming the following WQE. */
static void op_post_recv(FuzzWorld *w, In *in)
{
    FuzzQueue *q = &w->rq[u8(in) % w->nrq];
    uint8_t flags = u8(in);
    unsigned nseg = u8(in) % (MAX_SEGS + 1);
    uint32_t nent = 1u << q->ring.log_size, idx = q->ring.ci & (nent - 1);
    uint8_t *wqe = h_gpa(w->f->h, q->ring.gpa + (uint64_t)idx * q->ring.stride);
    size_t off = 0;

    memset(wqe, 0, q->ring.stride);
    if (q->kind == FUZZ_Q_SRQ) {
        prm_put_be16(wqe + WQE_SRQ_NEXT_WQE_INDEX, (uint16_t)((idx + 1) & (nent - 1)));
        off = MLX5_SRQ_NEXT_SEG_BYTES;
    }
    for (unsigned i = 0; i < nseg && off + MLX5_DS_BYTES <= q->ring.stride; i++) {
        data_seg(w, in, wqe + off);
        off += MLX5_DS_BYTES;
    }
    if (off + MLX5_DS_BYTES <= q->ring.stride) {
        prm_put_be32(wqe + off + WQE_DATA_LKEY, MLX5_INVALID_LKEY);   /* end of list */
    }
    q->ring.ci++;
    if (!(flags & 1)) {
        h_put32(w->f->h, q->ring.dbr, q->ring.ci & 0xffff);
    }
}

/* q:u8 val:u32: the record of send queue q, receive queue q - nsq, or CQ
 * q - nsq - nrq, as the input says. */
static void op_set_dbr(FuzzWorld *w, In *in)
{
    unsigned q = u8(in) % (w->nsq + w->nrq + FUZZ_NCQS);
    uint32_t v = u32(in);
    uint64_t dbr = q < w->nsq ? w->sq[q].ring.dbr + 4
                 : q < w->nsq + w->nrq ? w->rq[q - w->nsq].ring.dbr
                 : w->cq[q - w->nsq - w->nrq]->dbr;

    h_put32(w->f->h, dbr, v);
}

/* --- the wire ----------------------------------------------------------------------------- */

/* len:u16 bytes[len] */
static void op_rx_raw(FuzzWorld *w, In *in)
{
    uint32_t len = u16(in) % (MAX_FRAME + 1);
    g_autofree uint8_t *f = g_malloc(MAX(len, 1u));

    bytes(in, f, len);
    fuzz_dev_receive(w->f, f, len);
}

/* RX_ROCE's flags */
enum {
    RRF_RAW_OPCODE = 1 << 0,    /* the opcode byte as given, not on the QP's transport */
    RRF_SE = 1 << 1, RRF_ACKREQ = 1 << 2, RRF_MIGREQ = 1 << 3,
    RRF_IPV6 = 1 << 4, RRF_VLAN = 1 << 5,
    RRF_CORRUPT = 1 << 6,       /* one byte changed after the ICRC */
};

static uint8_t transport_of(unsigned st)
{
    switch (st) {
    case MLX5_QP_ST_XRC: return MLX5_ROCE_XRC;
    case MLX5_QP_ST_UC: return MLX5_ROCE_UC;
    case MLX5_QP_ST_UD: case MLX5_QP_ST_QP1: return MLX5_ROCE_UD;
    default: return MLX5_ROCE_RC;
    }
}

/* The extension headers, each read whatever the opcode (a fixed layout
 * mutates better); fields XOR the live values. */
static void roce_ext(FuzzWorld *w, In *in, const FuzzQp *qp, Mlx5RocePkt *p)
{
    const FuzzKey *k;

    p->deth.qkey = (qp->st == MLX5_QP_ST_QP1 ? 0x80010000u : UD_QKEY) ^ u32(in);
    p->deth.src_qpn = w->qp[u8(in) % w->nqp].qpn;
    k = key_of(w, in);
    p->reth.va = key_addr(k, u32(in));
    p->reth.rkey = k->key;
    p->reth.dma_len = u32(in);
    k = key_of(w, in);
    p->atomic_eth.va = key_addr(k, u32(in)) & ~7ull;
    p->atomic_eth.rkey = k->key;
    p->atomic_eth.swap_add = u64(in);
    p->atomic_eth.compare = u64(in);
    p->aeth.syndrome = u8(in);
    p->aeth.msn = u32(in) & 0xffffff;
    p->atomic_ack_orig = u64(in);
    p->imm_data = u32(in);
    p->ieth_rkey = key_of(w, in)->key;
    p->xrc_srqn = (w->xrc_srqn ^ u32(in)) & 0xffffff;
}

/* qp:u8 opcode:u8 flags:u8 qpn_xor:u32 psn_delta:u16 pkey_xor:u16, the
 * extension headers (roce_ext), corrupt_off:u16 corrupt_xor:u8,
 * payload_len:u16 payload[payload_len] */
static void op_rx_roce(FuzzWorld *w, In *in)
{
    const FuzzQp *qp = &w->qp[u8(in) % w->nqp];
    uint8_t op = u8(in), flags = u8(in);
    Mlx5RocePkt p = { 0 };
    uint8_t frame[MAX_PAYLOAD + 256];
    g_autofree uint8_t *payload = NULL;
    uint16_t cut_off, plen;
    uint8_t cut_xor;
    size_t len;

    p.opcode = flags & RRF_RAW_OPCODE ? op : (uint8_t)(transport_of(qp->st) | (op & 0x1f));
    p.dest_qpn = (qp->qpn ^ u32(in)) & 0xffffff;
    p.psn = (uint32_t)(FUZZ_PSN + (int16_t)u16(in)) & 0xffffff;
    p.pkey = 0xffff ^ u16(in);
    p.se = flags & RRF_SE;
    p.ackreq = flags & RRF_ACKREQ;
    p.migreq = flags & RRF_MIGREQ;
    p.ip_version = flags & RRF_IPV6 ? 6 : 4;
    p.vlan = flags & RRF_VLAN;
    memcpy(p.dmac, w->mac, 6);
    memcpy(p.smac, w->mac, 6);
    memcpy(p.sgid, w->gid, 16);
    memcpy(p.dgid, w->gid, 16);
    p.hop_limit = 64;
    p.udp_sport = 0xc123;
    roce_ext(w, in, qp, &p);
    cut_off = u16(in);
    cut_xor = u8(in);
    plen = u16(in) % (MAX_PAYLOAD + 1);
    payload = g_malloc(MAX(plen, 1u));
    bytes(in, payload, plen);
    len = mlx5_roce_build(&p, payload, plen, frame, sizeof(frame));
    if (!len) {
        return;                         /* a packet the codec cannot make */
    }
    if (flags & RRF_CORRUPT) {
        frame[cut_off % len] ^= cut_xor;
    }
    fuzz_dev_receive(w->f, frame, len);
}

/* back:u8 n:u8 n x (off:u16 xor:u8) reseal:u8 (bit 0: recompute the
 * checksums and the ICRC) */
static void op_refeed(FuzzWorld *w, In *in)
{
    GBytes *b = fuzz_dev_sent(w->f, u8(in) % FUZZ_TX_KEEP);
    unsigned n = u8(in) % (MAX_MUTATIONS + 1);
    uint16_t off[MAX_MUTATIONS];
    uint8_t x[MAX_MUTATIONS];
    bool reseal;
    g_autofree uint8_t *f = NULL;
    const void *data;
    gsize len;

    for (unsigned i = 0; i < n; i++) {
        off[i] = u16(in);
        x[i] = u8(in);
    }
    reseal = u8(in) & 1;
    if (!b) {
        return;
    }
    data = g_bytes_get_data(b, &len);                   /* len >= ETH_HLEN: p_tx */
    f = g_memdup2(data, len);
    for (unsigned i = 0; i < n && len; i++) {
        f[off[i] % len] ^= x[i];
    }
    if (reseal) {
        mlx5_roce_seal(f, len);
    }
    fuzz_dev_receive(w->f, f, len);
}

/* --- time, link, the driver's polling, reset ------------------------------------------------ */

/* ticks:u16 of CLOCK_UNIT_NS */
static void op_clock(FuzzWorld *w, In *in)
{
    fuzz_dev_advance(w->f, (uint64_t)u16(in) * CLOCK_UNIT_NS);
}

static void op_timer(FuzzWorld *w, In *in)
{
    Harness *h = w->f->h;

    (void)in;
    if (h->timer_ns != UINT64_MAX) {
        fuzz_dev_advance(w->f, h->timer_ns > h->clock_ns ? h->timer_ns - h->clock_ns : 0);
    }
}

/* up:u8 (bit 0) */
static void op_link(FuzzWorld *w, In *in)
{
    fuzz_dev_set_link(w->f, u8(in) & 1);
}

/* Every CQE and EQE the device wrote is consumed, and each CQ and EQ is
 * armed again through the UAR, as mlx5_core's pollers do. */
static void op_drain(FuzzWorld *w, In *in)
{
    Harness *h = w->f->h;
    HRing *eq[] = { &h->async_eq, &h->comp_eq };

    (void)in;
    for (unsigned i = 0; i < FUZZ_NCQS; i++) {
        HRing *cq = w->cq[i];
        uint32_t dw0;

        for (uint32_t n = 0; n < 1u << cq->log_size && h_cq_next(h, cq); n++) {
        }
        dw0 = (uint32_t)(cq->arm_sn++ & 3) << 28 | (cq->ci & 0xffffff);
        fuzz_dev_mmio_write(w->f, h_uar_addr(h->uar, UAR_CQ_ARM), (uint64_t)dw0 << 32 | cq->num,
                            8);
    }
    for (unsigned i = 0; i < G_N_ELEMENTS(eq); i++) {
        for (uint32_t n = 0; n < 1u << eq[i]->log_size && h_eq_next(h, eq[i]); n++) {
        }
        fuzz_dev_mmio_write(w->f, h_uar_addr(h->uar, UAR_EQ_ARM),
                            eq[i]->num << 24 | (eq[i]->ci & 0xffffff), 4);
    }
}

static void op_reset(FuzzWorld *w, In *in)
{
    (void)in;
    fuzz_dev_reset(w->f);
}

/* --- the stream ------------------------------------------------------------------------------- */

typedef void (*OpFn)(FuzzWorld *w, In *in);

static const OpFn op_fns[FUZZ_NOPS] = {
    [FUZZ_OP_CMD_EXEC] = op_cmd_exec, [FUZZ_OP_CMD_QUEUE] = op_cmd_queue,
    [FUZZ_OP_ISEG_WRITE] = op_iseg_write, [FUZZ_OP_UAR_WRITE] = op_uar_write,
    [FUZZ_OP_MMIO_READ] = op_mmio_read, [FUZZ_OP_RAM_WRITE] = op_ram_write,
    [FUZZ_OP_POST_SEND] = op_post_send, [FUZZ_OP_POST_RECV] = op_post_recv,
    [FUZZ_OP_SET_DBR] = op_set_dbr, [FUZZ_OP_RX_RAW] = op_rx_raw,
    [FUZZ_OP_RX_ROCE] = op_rx_roce, [FUZZ_OP_REFEED] = op_refeed,
    [FUZZ_OP_CLOCK] = op_clock, [FUZZ_OP_TIMER] = op_timer, [FUZZ_OP_LINK] = op_link,
    [FUZZ_OP_DRAIN] = op_drain, [FUZZ_OP_RESET] = op_reset,
};

const char *fuzz_op_name(FuzzOp op)
{
#define FUZZ_OP_NAME_(name) [FUZZ_OP_##name] = #name,
    static const char *const names[FUZZ_NOPS] = { FUZZ_OP_LIST(FUZZ_OP_NAME_) };
#undef FUZZ_OP_NAME_
    return op < FUZZ_NOPS ? names[op] : "?";
}

void fuzz_ops_run(FuzzWorld *w, FuzzOpSet ops, const uint8_t *data, size_t size)
{
    In in = { data, size, 0 };
    FuzzOp allowed[FUZZ_NOPS];
    unsigned n = 0;

    for (unsigned op = 0; op < FUZZ_NOPS; op++) {
        if (ops & 1u << op) {
            allowed[n++] = op;
        }
    }
    while (n && in.off < in.n) {
        op_fns[allowed[u8(&in) % n]](w, &in);
    }
}
