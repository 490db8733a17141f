/* The fuzzers' starting point: see world.h. */
#include <string.h>

#include "world.h"

#define RQ_LOG 4                /* rc-env's QPs: 2^4 receive WQEs of H_QP_RQ_STRIDE */
#define ETH_BUF (A_BUF + (512u << 10))  /* the Ethernet RQ's buffers */

static void add_region(FuzzWorld *w, const char *name, uint64_t gpa, uint64_t size)
{
    g_assert_cmpuint(w->nregion, <, FUZZ_MAX_REGIONS);
    w->region[w->nregion++] = (FuzzRegion) { name, gpa, size };
}

static FuzzQueue *add_queue(FuzzWorld *w, const char *name, FuzzQueueKind kind, HRing ring)
{
    FuzzQueue *q;

    if (kind == FUZZ_Q_SEND) {
        g_assert_cmpuint(w->nsq, <, FUZZ_MAX_QUEUES);
        q = &w->sq[w->nsq++];
    } else {
        g_assert_cmpuint(w->nrq, <, FUZZ_MAX_QUEUES);
        q = &w->rq[w->nrq++];
    }
    *q = (FuzzQueue) { name, kind, ring };
    add_region(w, name, ring.gpa, (uint64_t)ring.stride << ring.log_size);
    add_region(w, name, ring.dbr, 64);
    return q;
}

/* A QP of rc-env's shape (h_create_qp: the RQ before the SQ in its
 * buffer, 2^RQ_LOG receive WQEs), its queues and its receives. */
static void add_qp(FuzzWorld *w, const char *name, const HRing *sq, unsigned st,
                   uint32_t peer, bool rq)
{
    g_assert_cmpuint(w->nqp, <, FUZZ_MAX_QPS);
    w->qp[w->nqp++] = (FuzzQp) { name, sq->num, st, peer };
    if (sq->log_size) {
        add_queue(w, name, FUZZ_Q_SEND, *sq);
    }
    if (rq) {
        HRing r = *sq;
        FuzzQueue *q;

        r.gpa -= (uint64_t)H_QP_RQ_STRIDE << RQ_LOG;
        r.log_size = RQ_LOG;
        r.stride = H_QP_RQ_STRIDE;
        r.ci = 0;
        q = add_queue(w, name, FUZZ_Q_RECV, r);
        for (unsigned i = 0; i < 8; i++) {
            post_recv_on(w->e->h, sq, &q->ring.ci, w->e->key, i * 4096, 4096);
        }
    }
}

/* Two QPs of service `st` connected to each other at FUZZ_PSN (q2 may have
 * no send queue: log_size 0), their queues; rq: their own receive queues. */
static void add_pair(FuzzWorld *w, unsigned st, const char *n1, const HRing *q1, bool rq1,
                     const char *n2, const HRing *q2, bool rq2)
{
    connect_qp(w->e, q1->num, q2->num, FUZZ_PSN);
    connect_qp(w->e, q2->num, q1->num, FUZZ_PSN);
    add_qp(w, n1, q1, st, q2->num, rq1);
    add_qp(w, n2, q2, st, q1->num, rq2);
}

/* n WQEs of 4 KiB at B_BUF + off, linked in ring order, posted on `srq`. */
static void add_srq(FuzzWorld *w, const char *name, HRing *srq, uint16_t n, uint32_t off)
{
    for (uint16_t i = 0; i < n; i++) {
        srq_wqe(w->e, srq, i, i + 1, off + i * 4096u, 4096);
    }
    srq->ci = n;
    h_put32(w->e->h, srq->dbr, srq->ci);
    add_queue(w, name, FUZZ_Q_SRQ, *srq);
}

/* RC a <-> b (rc-env), and c <-> s, s on an SRQ (an RMP: mlx5_ib's SRQs
 * on ISSI 1). */
static void world_rc(FuzzWorld *w)
{
    RcEnv *e = w->e;
    HRing srq, c, s;

    e->retry = 3;
    e->rnr_retry = 3;
    e->timeout = 14;                    /* 67 ms */
    add_pair(w, MLX5_QP_ST_RC, "a", &e->a, true, "b", &e->b, true);
    w->rmpn = h_create_rmp_ring(e->h, &srq, 3);
    c = h_create_qp(e->h, MLX5_QP_ST_RC, e->h->pd, e->scq.num, e->rcq.num, e->h->uar, 4, RQ_LOG);
    s = srq_qp_of(e, MLX5_QP_ST_RC, w->rmpn, 0);
    add_pair(w, MLX5_QP_ST_RC, "c", &c, true, "s", &s, false);
    add_srq(w, "srq", &srq, 7, 0x20000);
}

/* An XRC initiator and target in one XRC domain, its XRC SRQ posted. */
static void world_xrc(FuzzWorld *w)
{
    RcEnv *e = w->e;
    uint32_t xrcd = h_alloc_simple(e->h, OP_ALLOC_XRCD);
    HRing xsrq, ini, tgt;

    w->xrc_srqn = xrc_srq_ring(e, xrcd, &xsrq);
    ini = srq_qp_of(e, MLX5_QP_ST_XRC, w->xrc_srqn, 0);
    tgt = srq_qp_of(e, MLX5_QP_ST_XRC, w->xrc_srqn, xrcd);
    tgt.log_size = 0;                   /* no send queue */
    add_pair(w, MLX5_QP_ST_XRC, "ini", &ini, false, "tgt", &tgt, false);
    add_srq(w, "xrc-srq", &xsrq, 4, 0x40000);
}

/* A QP of service `st` on rc-env's CQs with 2^log_rq receive WQEs (the
 * UMR QP: no PD, no receive queue, as mlx5_ib makes it); a `process`'s
 * QP has no fast registration (qpc fre), so its UMR WQEs may only bind
 * memory windows (hw-rdma/umr.c window_check). */
static HRing world_qp(FuzzWorld *w, unsigned st, unsigned log_rq, bool process)
{
    Harness *h = w->e->h;
    bool umr = st == MLX5_QP_ST_REG_UMR;
    g_autoptr(HCmd) c = NULL;
    HRing q;

    c = h_create_qp_cmd(h, &q, st, umr ? 0 : h->pd, w->e->scq.num,
                        umr ? w->e->scq.num : w->e->rcq.num, h->uar, 4, log_rq);
    PRM_SET(qpc, fre, IN_PTR(c, create_qp_in, qpc), !process);
    q.num = OUT_GET(h_ok(h, c), create_qp_out, qpn);
    return q;
}

/* Two UC QPs connected to each other, their receive queues posted; a
 * process's, as UC QPs are. */
static void world_uc(FuzzWorld *w)
{
    HRing u1 = world_qp(w, MLX5_QP_ST_UC, RQ_LOG, true), u2 = world_qp(w, MLX5_QP_ST_UC, RQ_LOG, true);

    add_pair(w, MLX5_QP_ST_UC, "uc1", &u1, true, "uc2", &u2, true);
}

/* Datagram QPs (UD and the GSI QP, with the Q_Keys the kernel gives them)
 * and the UMR QP. */
static void world_datagram(FuzzWorld *w)
{
    Harness *h = w->e->h;
    HRing ud = world_qp(w, MLX5_QP_ST_UD, RQ_LOG, false), gsi = world_qp(w, MLX5_QP_ST_QP1, RQ_LOG, false);
    HRing umr = world_qp(w, MLX5_QP_ST_REG_UMR, 0, false);

    ud_qp_to_rts(h, ud.num, UD_QKEY);
    ud_qp_to_rts(h, gsi.num, 0x80010000u);
    h_qp_to_rts(h, umr.num);
    add_qp(w, "ud", &ud, MLX5_QP_ST_UD, 0, true);
    add_qp(w, "gsi", &gsi, MLX5_QP_ST_QP1, 0, true);
    add_qp(w, "umr", &umr, MLX5_QP_ST_REG_UMR, 0, false);
}

/* The Ethernet function as mlx5e makes it, reduced: an SQ, an RQ behind a
 * direct TIR, and a root table whose one entry sends everything there. */
static void world_eth(FuzzWorld *w)
{
    Harness *h = w->e->h;
    HRing sq, rq;
    uint32_t tir, ft, fg;
    HCmd *c;

    w->eth_cq = h_create_cq(h, h->comp_eq.num, 4);
    sq = h_create_sq(h, w->eth_cq.num, 4);
    h_modify_sq(h, sq.num, ST_RST, ST_RDY);
    rq = h_create_rq(h, w->eth_cq.num, 4);
    h_modify_rq(h, rq.num, ST_RST, ST_RDY);
    tir = h_create_tir_direct(h, rq.num);
    ft = h_create_flow_table(h, 4, 0);
    fg = h_create_flow_group(h, ft, 0, 7);
    h_ok_free(h, h_fte_cmd(0, ft, fg, 0, FT_ACTION_FWD, FT_DEST_TIR, tir, 1));
    c = hcmd_new(OP_SET_FLOW_TABLE_ROOT, 0);
    IN_SET(c, set_flow_table_root_in, table_id, ft);
    h_ok_free(h, c);
    add_queue(w, "eth-sq", FUZZ_Q_SEND, sq);
    for (rq.ci = 0; rq.ci < 8; rq.ci++) {
        h_data_seg(h_gpa(h, rq.gpa + (uint64_t)rq.ci * rq.stride), 2048, w->e->key,
                   ETH_BUF + rq.ci * 2048u);
    }
    h_put32(h, rq.dbr, rq.ci);
    add_queue(w, "eth-rq", FUZZ_Q_RECV, rq);
}

/* Where the indirect key's range starts: not an address of RAM. */
#define KLM_BASE 0x40000000ull

/* An indirect (KLM) key over KLM_BASE + [0, GUEST_SIZE) with every right:
 * its two entries are the two halves of RAM through key 0, the upper half
 * first.  UMR may change it: the UC QPs (a process's) may bind it as a
 * memory window, over key 4. */
static uint32_t world_klm_key(FuzzWorld *w)
{
    Harness *h = w->e->h;
    uint32_t half = GUEST_SIZE / 2, base = PRM_BYTE_OFF(create_mkey_in, klm_pas_mtt);
    g_autoptr(HCmd) c = hcmd_new(OP_CREATE_MKEY, 0);
    uint8_t *mkc;

    hcmd_grow_in(c, base + 32);
    mkc = IN_PTR(c, create_mkey_in, memory_key_mkey_entry);
    PRM_SET(mkc, access_mode_1_0, mkc, MLX5_MKC_ACCESS_MODE_KLMS);
    mkc_all_rights(mkc, h->pd);
    PRM_SET(mkc, umr_en, mkc, 1);
    PRM_SET(mkc, qpn, mkc, 0xffffff);   /* any QP's, as mlx5_ib makes keys */
    PRM_SET(mkc, start_addr, mkc, KLM_BASE);
    PRM_SET(mkc, len, mkc, GUEST_SIZE);
    PRM_SET(mkc, translations_octword_size, mkc, 4);
    IN_SET(c, create_mkey_in, translations_octword_actual_size, 2);
    prm_put_be64(c->in + base, (uint64_t)half << 32 | w->e->key);
    prm_put_be64(c->in + base + 8, GUEST_BASE + half);
    prm_put_be64(c->in + base + 16, (uint64_t)half << 32 | w->e->key);
    prm_put_be64(c->in + base + 24, GUEST_BASE);
    h_ok(h, c);
    return OUT_GET(c, create_mkey_out, mkey_index) << 8;
}

/* Where the MTT key's range starts, and how many 4 KiB pages it maps: the
 * first MiB of RAM, its pages in reverse order. */
#define MTT_BASE 0x50000000ull
#define MTT_PAGES 256u

/* A memory region as mlx5_ib registers a process's memory: an MTT key
 * (a window may be bound only on such a key). */
static uint32_t world_mtt_key(FuzzWorld *w)
{
    Harness *h = w->e->h;
    uint32_t base = PRM_BYTE_OFF(create_mkey_in, klm_pas_mtt);
    g_autoptr(HCmd) c = hcmd_new(OP_CREATE_MKEY, 0);
    uint8_t *mkc;

    hcmd_grow_in(c, base + 8 * MTT_PAGES);
    mkc = IN_PTR(c, create_mkey_in, memory_key_mkey_entry);
    PRM_SET(mkc, access_mode_1_0, mkc, MLX5_MKC_ACCESS_MODE_MTT);
    mkc_all_rights(mkc, h->pd);
    PRM_SET(mkc, start_addr, mkc, MTT_BASE);
    PRM_SET(mkc, len, mkc, MTT_PAGES * 4096ull);
    PRM_SET(mkc, log_page_size, mkc, 12);
    PRM_SET(mkc, translations_octword_size, mkc, MTT_PAGES / 2);
    IN_SET(c, create_mkey_in, translations_octword_actual_size, MTT_PAGES / 2);
    for (uint32_t i = 0; i < MTT_PAGES; i++) {
        prm_put_be64(c->in + base + 8 * i, GUEST_BASE + (MTT_PAGES - 1 - i) * 4096ull);
    }
    h_ok(h, c);
    return OUT_GET(c, create_mkey_out, mkey_index) << 8;
}

/* Device memory, as mlx5_ib registers a DM MR (mr.c mlx5_ib_reg_dm_mr):
 * FUZZ_MEMIC_BYTES allocated at the window's start, a MEMIC key over it
 * with every right; its addresses are zero-based. */
static uint32_t world_memic_key(FuzzWorld *w)
{
    Harness *h = w->e->h;
    g_autoptr(HCmd) a = hcmd_new(OP_ALLOC_MEMIC, 0);
    g_autoptr(HCmd) c = hcmd_new(OP_CREATE_MKEY, 0);
    uint8_t *mkc = IN_PTR(c, create_mkey_in, memory_key_mkey_entry);

    IN_SET(a, alloc_memic_in, range_start_addr, MLX5_MEMIC_BAR_OFFSET);
    IN_SET(a, alloc_memic_in, range_size, FUZZ_MEMIC_BYTES);
    IN_SET(a, alloc_memic_in, memic_size, FUZZ_MEMIC_BYTES);
    h_ok(h, a);
    mkc_all_rights(mkc, h->pd);
    PRM_SET(mkc, access_mode_1_0, mkc, MLX5_MKC_ACCESS_MODE_MEMIC & 3);
    PRM_SET(mkc, access_mode_4_2, mkc, MLX5_MKC_ACCESS_MODE_MEMIC >> 2);
    PRM_SET(mkc, start_addr, mkc, OUT_GET(a, alloc_memic_out, memic_start_addr));
    PRM_SET(mkc, len, mkc, FUZZ_MEMIC_BYTES);
    h_ok(h, c);
    return OUT_GET(c, create_mkey_out, mkey_index) << 8;
}

/* Keys: all RAM; all RAM and the 1 MiB below it (the BAR0 window in
 * FUZZ_REENTER, no memory otherwise); a key that names nothing; all RAM
 * through an indirect key; the first MiB through an MTT key; device
 * memory. */
static void world_keys(FuzzWorld *w)
{
    Harness *h = w->e->h;

    w->key[0] = (FuzzKey) { w->e->key, GUEST_BASE, GUEST_SIZE };
    w->key[1] = (FuzzKey) { all_rights_key_over(h, 0, GUEST_BASE + GUEST_SIZE), 0,
                            GUEST_BASE + GUEST_SIZE };
    w->key[2] = (FuzzKey) { 0x00abcd5a, GUEST_BASE, GUEST_SIZE };
    w->key[3] = (FuzzKey) { world_klm_key(w), KLM_BASE, GUEST_SIZE };
    w->key[4] = (FuzzKey) { world_mtt_key(w), MTT_BASE, MTT_PAGES * 4096ull };
    w->key[5] = (FuzzKey) { world_memic_key(w), 0, FUZZ_MEMIC_BYTES };
}

/* a's requester waits for answers: a SEND of three packets, an RDMA READ
 * and a FETCH_AND_ADD went out (and were lost). */
static void world_traffic(FuzzWorld *w)
{
    RcEnv *e = w->e;

    fill(e, 4096);
    fuzz_ram_written(w->f, A_BUF, 4096);        /* outside the harness's allocations */
    post_send_on(e->h, &e->a, e->key, MLX5_OPCODE_SEND, 3000, 0, 0);
    post_send_on(e->h, &e->a, e->key, MLX5_OPCODE_RDMA_READ, 2000, B_BUF + 0x80000, e->key);
    post_atomic_on(e->h, &e->a, e->key, MLX5_OPCODE_ATOMIC_FA, B_BUF + 0x90000, 1, 0);
    w->sq[0].ring = e->a;               /* its producer counter moved */
}

static void world_regions(FuzzWorld *w)
{
    Harness *h = w->e->h;

    for (unsigned i = 0; i < FUZZ_NCQS; i++) {
        add_region(w, "cq", w->cq[i]->gpa, (uint64_t)w->cq[i]->stride << w->cq[i]->log_size);
        add_region(w, "cq-dbr", w->cq[i]->dbr, 64);
    }
    add_region(w, "async-eq", h->async_eq.gpa, (uint64_t)MLX5_EQE_BYTES << 6);
    add_region(w, "comp-eq", h->comp_eq.gpa, (uint64_t)MLX5_EQE_BYTES << 6);
    add_region(w, "cmdq", h->cmdq, PAGE);
    add_region(w, "mailboxes", w->mbox, FUZZ_MBOX_BYTES);
    add_region(w, "a-buf", A_BUF, 1u << 20);
    add_region(w, "b-buf", B_BUF, 1u << 20);
    add_region(w, "ram", GUEST_BASE, GUEST_SIZE);
}

FuzzWorld *fuzz_world_new(FuzzMode mode)
{
    FuzzWorld *w = g_new0(FuzzWorld, 1);

    w->f = fuzz_dev_new(mode);
    w->e = env_create_on(w->f->h, MLX5_QP_ST_RC, MLX5_QP_ST_RC);
    w->cq[0] = &w->e->scq;
    w->cq[1] = &w->e->rcq;
    w->cq[2] = &w->eth_cq;
    memcpy(w->mac, (uint8_t[]){ 0x02, 0, 0, 0, 0, 0x01 }, 6);
    gid_set_v4(w->gid, MY_GID_V4);
    w->mbox = h_alloc(w->e->h, FUZZ_MBOX_BYTES, PAGE);
    world_rc(w);
    world_xrc(w);
    world_datagram(w);
    world_eth(w);
    world_uc(w);
    world_keys(w);
    world_traffic(w);
    world_regions(w);
    fuzz_dev_setup_done(w->f);
    return w;
}

void fuzz_world_free(FuzzWorld *w)
{
    fuzz_dev_free(w->f);                /* the harness and device with it */
    g_free(w->e);
    g_free(w);
}
