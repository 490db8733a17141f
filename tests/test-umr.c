/*
 * UMR (hw-rdma/umr.c): memory keys changed from a send queue - fast
 * registration (REG_MR), local invalidation, the kernel's UMR QP - and
 * remote invalidation by SEND with invalidate (rc-responder.c), on the
 * RC environment of rc-env.h.
 */
#include <string.h>

#include "rc-env.h"

#define FR_IOVA 0x70000f00ull           /* not page aligned, as ib_map_mr_sg leaves it */

/* A free MTT key with room for `n` pages, as ib_alloc_mr makes it (mlx5_ib
 * mr.c _mlx5_alloc_mkey_descs: free, umr_en, local read, no range). */
static uint32_t free_mtt_key(Harness *h, uint32_t pd, uint32_t n, bool umr_en)
{
    g_autoptr(HCmd) c = hcmd_new(OP_CREATE_MKEY, 0);
    uint8_t *mkc = IN_PTR(c, create_mkey_in, memory_key_mkey_entry);

    PRM_SET(mkc, free, mkc, 1);
    PRM_SET(mkc, umr_en, mkc, umr_en);
    PRM_SET(mkc, access_mode_1_0, mkc, 1);
    PRM_SET(mkc, lr, mkc, 1);
    PRM_SET(mkc, pd, mkc, pd);
    PRM_SET(mkc, qpn, mkc, 0xffffff);
    PRM_SET(mkc, mkey_7_0, mkc, 0x11);
    PRM_SET(mkc, translations_octword_size, mkc, n / 2);
    PRM_SET(mkc, log_page_size, mkc, 12);
    h_ok(h, c);
    return OUT_GET(c, create_mkey_out, mkey_index) << 8 | 0x11;
}

static bool key_is_free(Harness *h, uint32_t key)
{
    g_autoptr(HCmd) c = hcmd_new(OP_QUERY_MKEY, 0);

    IN_SET(c, query_mkey_in, mkey_index, key >> 8);
    h_ok(h, c);
    return PRM_GET(mkc, free, OUT_PTR(c, query_mkey_out, memory_key_mkey_entry));
}

/* What a UMR WQE says; umr_wqe() writes it as mlx5_ib wr.c set_reg_wr,
 * set_linv_wr and umr.c mlx5r_umr_post_send do. */
typedef struct Umr {
    uint32_t key;               /* ctrl imm: the key (REG_MR: its new key byte) */
    uint8_t flags;
    uint64_t mask;
    bool free, en_rinval;
    uint32_t pd;
    uint64_t iova, len;
    unsigned log_page_size;
    const uint64_t *pages;      /* inline list (flag INLINE) */
    bool raw;                   /* the list's 8-byte slots as they are (a KLM list) */
    unsigned npages;
    unsigned xlt_octowords;     /* 0: from npages, padded to 64 bytes */
    uint32_t list_lkey;         /* a list in memory at A_BUF instead (no INLINE) */
    uint64_t xlt_offset;        /* in 16-byte units (with TRANSLATION_OFFSET_EN) */
    unsigned ds;                /* 0: what the above needs */
    bool no_lw;                 /* the key without local write */
} Umr;

/* An MTT entry's rights bits (mlx5_ib MLX5_EN_RD, MLX5_EN_WR): flags the
 * device leaves out of the address (hw-rdma/mkey.c). */
enum { MLX5_EN_RD = 1, MLX5_EN_WR = 2 };
/* What IB_WR_REG_MR changes (mlx5_ib wr.c frwr_mkey_mask). */
#define FRWR_MASK (MLX5_MKEY_MASK_LEN | MLX5_MKEY_MASK_PAGE_SIZE | MLX5_MKEY_MASK_START_ADDR | \
                   MLX5_MKEY_MASK_EN_RINVAL | MLX5_MKEY_MASK_KEY | MLX5_MKEY_MASK_LR | \
                   MLX5_MKEY_MASK_LW | MLX5_MKEY_MASK_RR | MLX5_MKEY_MASK_RW | \
                   MLX5_MKEY_MASK_SMALL_FENCE | MLX5_MKEY_MASK_FREE)

static void post_umr(Harness *h, HRing *qp, const Umr *u, uint8_t fm_ce_se)
{
    unsigned oct = u->xlt_octowords ? u->xlt_octowords
                                    : ((u->npages * 8 + 63) & ~63u) / MLX5_DS_BYTES;
    bool inl = u->flags & MLX5_UMR_INLINE;
    unsigned ds = u->ds ? u->ds
                        : WQE_UMR_XLT / MLX5_DS_BYTES + (inl ? oct : (u->list_lkey ? 1 : 0));
    uint8_t *w = h_sq_wqe(h, qp, MLX5_OPCODE_UMR, ds, fm_ce_se);
    uint8_t *ctrl = w + WQE_UMR_CTRL, *mkc = w + WQE_UMR_MKC, *xlt = w + WQE_UMR_XLT;

    prm_put_be32(w + WQE_CTRL_IMM, u->key);
    ctrl[WQE_UMR_FLAGS] = u->flags;
    prm_put_be16(ctrl + WQE_UMR_XLT_OCTOWORDS, u->list_lkey || inl ? oct : 0);
    prm_put_be16(ctrl + WQE_UMR_XLT_OFFSET, u->xlt_offset & 0xffff);
    prm_put_be64(ctrl + WQE_UMR_MKEY_MASK, u->mask);
    prm_put_be32(ctrl + WQE_UMR_XLT_OFFSET_47_16, (uint32_t)(u->xlt_offset >> 16));
    PRM_SET(mkc, free, mkc, u->free);
    PRM_SET(mkc, umr_en, mkc, 1);
    PRM_SET(mkc, rr, mkc, 1);
    PRM_SET(mkc, rw, mkc, 1);
    PRM_SET(mkc, lw, mkc, !u->no_lw);
    PRM_SET(mkc, lr, mkc, 1);
    PRM_SET(mkc, access_mode_1_0, mkc, 1);
    PRM_SET(mkc, qpn, mkc, 0xffffff);
    PRM_SET(mkc, mkey_7_0, mkc, u->key & 0xff);
    PRM_SET(mkc, en_rinval, mkc, u->en_rinval);
    PRM_SET(mkc, pd, mkc, u->pd);
    PRM_SET(mkc, start_addr, mkc, u->iova);
    PRM_SET(mkc, len, mkc, u->len);
    PRM_SET(mkc, log_page_size, mkc, u->log_page_size ? u->log_page_size : 12);
    for (unsigned i = 0; inl && i < u->npages && WQE_UMR_XLT + i * 8 + 8 <= ds * MLX5_DS_BYTES;
         i++) {
        prm_put_be64(xlt + i * 8, u->pages[i] | (u->raw ? 0 : MLX5_EN_RD | MLX5_EN_WR));
    }
    if (!inl && u->list_lkey) {
        h_data_seg(xlt, oct * MLX5_DS_BYTES, u->list_lkey, A_BUF);
    }
    h_sq_ring(h, qp);
}

/* IB_WR_REG_MR of two pages in reverse order under the new key byte. */
static uint32_t reg_mr(RcEnv *e, HRing *qp, uint32_t fkey, uint8_t variant, uint8_t fm_ce_se)
{
    static const uint64_t pages[] = { B_BUF + 0x3000, B_BUF };
    Umr u = { .key = (fkey & ~0xffu) | variant, .flags = MLX5_UMR_CHECK_NOT_FREE | MLX5_UMR_INLINE,
              .mask = FRWR_MASK, .en_rinval = true, .iova = FR_IOVA, .len = 4096,
              .pages = pages, .npages = 2 };

    post_umr(e->h, qp, &u, fm_ce_se);
    return u.key;
}

static void local_inv(RcEnv *e, uint32_t key)
{
    Umr u = { .key = key, .flags = MLX5_UMR_INLINE, .mask = MLX5_MKEY_MASK_FREE, .free = true };

    post_umr(e->h, &e->a, &u, MLX5_WQE_CTRL_CQ_UPDATE);
}

/* REG_MR (unsignaled), an RDMA WRITE through the new key lands on the
 * pages it lists, LOCAL_INV (signaled: a CQE of opcode UMR), then the key
 * is refused (remote access error). */
static void test_umr_fast_reg(void)
{
    g_autoptr(RcEnv) e = env_new(10);
    uint32_t fkey = free_mtt_key(e->h, e->h->pd, 8, true);
    uint32_t key = reg_mr(e, &e->a, fkey, 0x12, 0);
    uint8_t *b = h_gpa(e->h, B_BUF);

    g_assert_false(key_is_free(e->h, fkey));
    fill(e, 4096);
    post_send_rkey(e, MLX5_OPCODE_RDMA_WRITE, 4096, FR_IOVA, key);
    wire(e, false);
    expect_req(e, MLX5_OPCODE_RDMA_WRITE, 0);       /* the REG_MR wrote none */
    g_assert_cmpmem(b + 0x3f00, 0x100, h_gpa(e->h, A_BUF), 0x100);
    g_assert_cmpmem(b, 0xf00, h_gpa(e->h, A_BUF + 0x100), 0xf00);
    post_send_rkey(e, MLX5_OPCODE_RDMA_WRITE, 64, FR_IOVA, fkey); /* the old key byte */
    wire(e, false);
    expect_req(e, MLX5_OPCODE_RDMA_WRITE, MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
}

static void test_umr_local_inv(void)
{
    g_autoptr(RcEnv) e = env_new(10);
    uint32_t key = reg_mr(e, &e->a, free_mtt_key(e->h, e->h->pd, 8, true), 0x13, 0);

    local_inv(e, key);
    expect_req(e, MLX5_OPCODE_UMR, 0);
    g_assert_true(key_is_free(e->h, key));
    post_send_rkey(e, MLX5_OPCODE_RDMA_WRITE, 64, FR_IOVA, key);
    wire(e, false);
    expect_req(e, MLX5_OPCODE_RDMA_WRITE, MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
}

/* A UMR's CQE comes after those of the WQEs before it (mlx5_ib retires
 * every WQE up to a CQE's wqe_counter). */
static void test_umr_in_order(void)
{
    g_autoptr(RcEnv) e = env_new(10);
    uint32_t fkey = free_mtt_key(e->h, e->h->pd, 8, true);
    uint16_t umr_index;
    const uint8_t *cqe;

    post_recv(e, 0, 64);
    post_send(e, MLX5_OPCODE_SEND, 64, 0);
    umr_index = (uint16_t)e->a.ci;
    reg_mr(e, &e->a, fkey, 0x14, MLX5_WQE_CTRL_CQ_UPDATE);
    g_assert_null(h_cq_next(e->h, &e->scq));        /* the SEND is not acknowledged yet */
    wire(e, false);
    h_cq_next(e->h, &e->rcq);
    expect_req(e, MLX5_OPCODE_SEND, 0);
    cqe = expect_req(e, MLX5_OPCODE_UMR, 0);
    g_assert_cmpuint(prm_be16(cqe + CQE_WQE_COUNTER), ==, umr_index);
}

/* SEND with invalidate: the responder frees the key the IETH names and
 * says so in the receive CQE (MLX5_CQE_RESP_SEND_INV, the key at
 * CQE_IMMEDIATE); a key that does not allow it fails both ends with a
 * remote invalid request. */
static void send_inv(RcEnv *e, uint32_t rkey)
{
    uint8_t *w = h_sq_wqe(e->h, &e->a, MLX5_OPCODE_SEND_INVAL, 2, MLX5_WQE_CTRL_CQ_UPDATE);

    prm_put_be32(w + WQE_CTRL_IMM, rkey);
    h_data_seg(w + MLX5_DS_BYTES, 64, e->key, A_BUF);
    h_sq_ring(e->h, &e->a);
    post_recv(e, 0, 64);
    wire(e, false);
}

static void test_umr_send_with_invalidate(void)
{
    g_autoptr(RcEnv) e = env_new(10);
    uint32_t key = reg_mr(e, &e->b, free_mtt_key(e->h, e->h->pd, 8, true), 0x15, 0);
    const uint8_t *cqe;

    send_inv(e, key);
    cqe = h_cq_next(e->h, &e->rcq);
    g_assert_nonnull(cqe);
    g_assert_cmphex(cqe[CQE_OP_OWN] >> 4, ==, MLX5_CQE_RESP_SEND_INV);
    g_assert_cmphex(prm_be32(cqe + CQE_IMMEDIATE), ==, key);
    g_assert_cmpuint(prm_be32(cqe + CQE_BYTE_CNT), ==, 64);
    expect_req(e, MLX5_OPCODE_SEND_INVAL, 0);
    g_assert_true(key_is_free(e->h, key));
    send_inv(e, e->key);                            /* created without en_rinval */
    cqe = h_cq_next(e->h, &e->rcq);
    g_assert_nonnull(cqe);
    g_assert_cmphex(cqe[CQE_OP_OWN] >> 4, ==, MLX5_CQE_RESP_ERR);
    g_assert_cmphex(cqe[CQE_ERR_SYNDROME], ==, MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR);
    expect_req(e, MLX5_OPCODE_SEND_INVAL, MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR);
    g_assert_false(key_is_free(e->h, e->key));
}

/* The kernel's UMR QP loads a cached key's list in two chunks through a
 * list in memory (the second at an offset), enables it with the last, and
 * revokes it (mlx5_ib umr.c). */
static void test_umr_qp(void)
{
    g_autoptr(RcEnv) e = env_new(10);
    HRing uq = h_create_qp(e->h, MLX5_QP_ST_REG_UMR, 0, e->scq.num, e->scq.num, e->h->uar, 4, 0);
    uint32_t fkey = free_mtt_key(e->h, e->h->pd, 1024, true);
    Umr u = { .key = fkey, .flags = MLX5_UMR_CHECK_NOT_FREE, .list_lkey = e->key,
              .xlt_octowords = 256 };
    const uint8_t *cqe;

    h_qp_to_rts(e->h, uq.num);
    for (unsigned i = 0; i < 512; i++) {            /* entry i: page B_BUF + i*4K, present */
        prm_put_be64(h_gpa(e->h, A_BUF + i * 8), (B_BUF + i * 4096ull) | MLX5_EN_RD | MLX5_EN_WR);
    }
    post_umr(e->h, &uq, &u, MLX5_WQE_CTRL_CQ_UPDATE);
    u.flags |= MLX5_UMR_TRANSLATION_OFFSET_EN;
    u.xlt_offset = 256;                             /* entries 512.. */
    u.xlt_octowords = 4;
    u.mask = MLX5_MKEY_MASK_KEY | MLX5_MKEY_MASK_FREE | MLX5_MKEY_MASK_LR | MLX5_MKEY_MASK_LW |
             MLX5_MKEY_MASK_RR | MLX5_MKEY_MASK_RW | MLX5_MKEY_MASK_PD | MLX5_MKEY_MASK_LEN |
             MLX5_MKEY_MASK_PAGE_SIZE | MLX5_MKEY_MASK_START_ADDR;
    u.pd = e->h->pd;
    u.iova = 0x100000000ull;
    u.len = 520 * 4096ull;
    for (unsigned i = 0; i < 8; i++) {
        prm_put_be64(h_gpa(e->h, A_BUF + i * 8),
                     (B_BUF + 0x300000 + i * 4096ull) | MLX5_EN_RD | MLX5_EN_WR);
    }
    post_umr(e->h, &uq, &u, MLX5_WQE_CTRL_CQ_UPDATE);
    for (int i = 0; i < 2; i++) {
        cqe = h_cq_next(e->h, &e->scq);
        g_assert_nonnull(cqe);
        g_assert_cmphex(cqe[CQE_OP_OWN] >> 4, ==, MLX5_CQE_REQ);
        g_assert_cmphex(prm_be32(cqe + CQE_SOP_DROP_QPN), ==,
                        (uint32_t)MLX5_OPCODE_UMR << 24 | uq.num);
    }
    fill(e, 64);
    post_send_rkey(e, MLX5_OPCODE_RDMA_WRITE, 64, 0x100000000ull + 513 * 4096ull + 8, fkey);
    wire(e, false);
    expect_req(e, MLX5_OPCODE_RDMA_WRITE, 0);
    g_assert_cmpmem(h_gpa(e->h, B_BUF + 0x301008), 64, h_gpa(e->h, A_BUF), 64);
    post_send_rkey(e, MLX5_OPCODE_RDMA_WRITE, 64, 0x100000000ull + 3 * 4096ull, fkey);
    wire(e, false);
    expect_req(e, MLX5_OPCODE_RDMA_WRITE, 0);
    g_assert_cmpmem(h_gpa(e->h, B_BUF + 0x3000), 64, h_gpa(e->h, A_BUF), 64);
    /* revoke: PD | FREE, the key goes back to the cache's PD */
    u = (Umr){ .key = fkey, .flags = MLX5_UMR_INLINE,
               .mask = MLX5_MKEY_MASK_PD | MLX5_MKEY_MASK_FREE, .free = true,
               .pd = h_alloc_simple(e->h, OP_ALLOC_PD) };
    post_umr(e->h, &uq, &u, MLX5_WQE_CTRL_CQ_UPDATE);
    g_assert_nonnull(h_cq_next(e->h, &e->scq));
    g_assert_true(key_is_free(e->h, fkey));
    post_send_rkey(e, MLX5_OPCODE_RDMA_WRITE, 64, 0x100000000ull, fkey);
    wire(e, false);
    expect_req(e, MLX5_OPCODE_RDMA_WRITE, MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
}

/* Bad UMR WQEs: an error CQE with the syndrome, and the key as it was. */
typedef struct UmrBad {
    const char *what;
    uint8_t syndrome;
    void (*edit)(RcEnv *e, Umr *u, uint32_t *fkey);
} UmrBad;

static void bad_in_use(RcEnv *e, Umr *u, uint32_t *fkey)
{
    *fkey = reg_mr(e, &e->a, *fkey, 0x20, 0);
    u->key = (*fkey & ~0xffu) | 0x21;
}
static void bad_other_pd(RcEnv *e, Umr *u, uint32_t *fkey)
{
    *fkey = free_mtt_key(e->h, h_alloc_simple(e->h, OP_ALLOC_PD), 8, true);
    u->key = *fkey;
}
static void bad_no_umr_en(RcEnv *e, Umr *u, uint32_t *fkey)
{
    *fkey = free_mtt_key(e->h, e->h->pd, 8, false);
    u->key = *fkey;
}
static void bad_no_key(RcEnv *e, Umr *u, uint32_t *fkey)
{
    u->key = 0xfff00;
}
static void bad_capacity(RcEnv *e, Umr *u, uint32_t *fkey)
{
    u->xlt_octowords = 8;                           /* 16 entries, room for 8 */
    u->flags &= ~MLX5_UMR_INLINE;
    u->list_lkey = e->key;
}
static void bad_short_wqe(RcEnv *e, Umr *u, uint32_t *fkey)
{
    u->ds = 5;
}
static void bad_inline_past_wqe(RcEnv *e, Umr *u, uint32_t *fkey)
{
    u->xlt_octowords = 4;
    u->ds = 10;
}
static void bad_list_lkey(RcEnv *e, Umr *u, uint32_t *fkey)
{
    u->flags &= ~MLX5_UMR_INLINE;
    u->list_lkey = e->key ^ 0x80;
}
static void bad_page_size(RcEnv *e, Umr *u, uint32_t *fkey)
{
    u->log_page_size = 3;
}
static void bad_check_free(RcEnv *e, Umr *u, uint32_t *fkey)
{
    u->flags = MLX5_UMR_CHECK_FREE | MLX5_UMR_INLINE;    /* fail if free: it is */
}

static void test_umr_bad_inputs(void)
{
    static const uint64_t pages[] = { B_BUF, B_BUF + 0x1000 };
    static const UmrBad cases[] = {
        { "key in use (CHECK_NOT_FREE)", MLX5_CQE_SYNDROME_LOCAL_PROT_ERR, bad_in_use },
        { "key of another PD", MLX5_CQE_SYNDROME_LOCAL_PROT_ERR, bad_other_pd },
        { "key without umr_en", MLX5_CQE_SYNDROME_LOCAL_PROT_ERR, bad_no_umr_en },
        { "no such key", MLX5_CQE_SYNDROME_LOCAL_PROT_ERR, bad_no_key },
        { "list beyond capacity", MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR, bad_capacity },
        { "WQE shorter than its segments", MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR, bad_short_wqe },
        { "inline list past the WQE", MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR, bad_inline_past_wqe },
        { "list pointer with a bad lkey", MLX5_CQE_SYNDROME_LOCAL_PROT_ERR, bad_list_lkey },
        { "page size 8 bytes", MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR, bad_page_size },
        { "CHECK_FREE on a free key", MLX5_CQE_SYNDROME_LOCAL_PROT_ERR, bad_check_free },
    };

    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autoptr(RcEnv) e = env_new(10);
        uint32_t fkey = free_mtt_key(e->h, e->h->pd, 8, true);
        Umr u = { .key = fkey, .flags = MLX5_UMR_CHECK_NOT_FREE | MLX5_UMR_INLINE,
                  .mask = FRWR_MASK, .iova = FR_IOVA, .len = 4096, .pages = pages, .npages = 2 };
        bool was_free;

        g_test_message("%s", cases[i].what);
        cases[i].edit(e, &u, &fkey);
        was_free = cases[i].edit != bad_no_key && key_is_free(e->h, fkey);
        post_umr(e->h, &e->a, &u, 0);
        expect_req(e, MLX5_OPCODE_UMR, cases[i].syndrome);
        g_assert_cmpuint(h_query_qp_state(e->h, e->a.num), ==, MLX5_QP_STATE_ERR);
        if (cases[i].edit != bad_no_key) {
            g_assert_cmpint(key_is_free(e->h, fkey), ==, was_free);
        }
    }
}

/* --- indirect keys (KLMS, KSM) --------------------------------------------- */

/* Where the indirect keys' ranges start (a WQE's remote address 0 would
 * mean none: rc-env post_send_on). */
#define IVA 0x20000ull

/* A KLM entry as the list holds it: two 8-byte slots. */
#define KLM(bytes, key, va) ((uint64_t)(bytes) << 32 | (key)), (va)

/* CREATE_MKEY of an indirect key with every right over [start, +len) of
 * PD `pd`: `mode` KLMS or KSM (entries of 2^log_entity bytes), its list
 * in use (`n` slots) unless `free`. */
static HCmd *indirect_key_cmd(Harness *h, unsigned mode, unsigned log_entity, uint32_t pd,
                              uint64_t start, uint64_t len, const uint64_t *slots, unsigned n,
                              bool free)
{
    HCmd *c = hcmd_new(OP_CREATE_MKEY, 0);
    uint32_t base = PRM_BYTE_OFF(create_mkey_in, klm_pas_mtt);
    uint8_t *mkc;

    hcmd_grow_in(c, base + 8 * n);
    mkc = IN_PTR(c, create_mkey_in, memory_key_mkey_entry);
    PRM_SET(mkc, access_mode_1_0, mkc, mode);
    PRM_SET(mkc, free, mkc, free);
    PRM_SET(mkc, umr_en, mkc, 1);
    mkc_all_rights(mkc, pd);
    PRM_SET(mkc, qpn, mkc, 0xffffff);
    PRM_SET(mkc, mkey_7_0, mkc, 0x3c);
    PRM_SET(mkc, start_addr, mkc, start);
    PRM_SET(mkc, len, mkc, len);
    PRM_SET(mkc, log_page_size, mkc, log_entity);
    PRM_SET(mkc, translations_octword_size, mkc, MAX(n / 2, 4u));
    IN_SET(c, create_mkey_in, translations_octword_actual_size, n / 2);
    for (unsigned i = 0; i < n; i++) {
        prm_put_be64(c->in + base + 8 * i, slots[i]);
    }
    return c;
}

/* A PA key over all RAM with every right, of PD `pd`. */
static uint32_t pa_key_of_pd(Harness *h, uint32_t pd)
{
    g_autoptr(HCmd) c = indirect_key_cmd(h, MLX5_MKC_ACCESS_MODE_PA, 0, pd, 0, 0, NULL, 0,
                                         false);

    PRM_SET(mkc, length64, IN_PTR(c, create_mkey_in, memory_key_mkey_entry), 1);
    h_ok(h, c);
    return OUT_GET(c, create_mkey_out, mkey_index) << 8 | 0x3c;
}

static uint32_t indirect_key(Harness *h, unsigned mode, unsigned log_entity, uint64_t start,
                             uint64_t len, const uint64_t *slots, unsigned n)
{
    g_autoptr(HCmd) c = indirect_key_cmd(h, mode, log_entity, h->pd, start, len, slots, n,
                                         false);

    h_ok(h, c);
    return OUT_GET(c, create_mkey_out, mkey_index) << 8 | 0x3c;
}

/* A WRITE through a KLM key whose two entries name two keys lands in both
 * (100 bytes at the first, 200 at the second), and a KSM key's 4 KiB
 * entities the same way. */
/* An MTT key of three pages made as mlx5_ib makes one when the device
 * pages (pg_access, each entry's rd_en/wr_en): readable and writable, read
 * only, absent (0). */
static uint32_t presence_key(Harness *h, bool pg_access)
{
    const uint64_t pages[] = { (B_BUF + PAGE) | MLX5_MTT_RD_EN | MLX5_MTT_WR_EN,
                               (B_BUF + 2 * PAGE) | MLX5_MTT_RD_EN, 0 };

    return mtt_key_of(h, 0x7000000, pages, 3, pg_access);
}

/* While the device pages, an entry's rd_en/wr_en say whether the page is
 * there for a read, a write (not: ABSENT, a page fault); an entry zapped
 * to 0 reaches nothing, not guest address 0.  Without pg_access the bits were never meant (every
 * page may be read and written), and while the device does not page they
 * are not looked at. */
static void test_mtt_presence_bits(void)
{
    for (int pg = 0; pg <= 1; pg++) {
        g_autoptr(RcEnv) e = env_new(10);
        Harness *h = e->h;
        uint32_t key = presence_key(h, true), open = presence_key(h, false);
        uint8_t b[16];

        PRM_SET(cmd_hca_cap, pg, MLX5_CAP_CUR(h->fw, MLX5_CAP_GENERAL), pg);
        g_assert_cmpint(mlx5_mkey_dma(h->fw, key, h->pd, 0x7000000, b, 16,
                                      MLX5_MKEY_LOCAL_WRITE), ==, MLX5_MKEY_OK);
        g_assert_cmpint(mlx5_mkey_dma(h->fw, key, h->pd, 0x7001000, b, 16,
                                      MLX5_MKEY_LOCAL_READ), ==, MLX5_MKEY_OK);
        g_assert_cmpint(mlx5_mkey_dma(h->fw, key, h->pd, 0x7001000, b, 16,
                                      MLX5_MKEY_LOCAL_WRITE), ==,
                        pg ? MLX5_MKEY_ABSENT : MLX5_MKEY_OK);
        /* without pg the entry is the address 0, which is no RAM here */
        g_assert_cmpint(mlx5_mkey_dma(h->fw, key, h->pd, 0x7002000, b, 16,
                                      MLX5_MKEY_LOCAL_READ), ==,
                        pg ? MLX5_MKEY_ABSENT : MLX5_MKEY_NO_MEM);
        g_assert_cmpint(mlx5_mkey_dma(h->fw, open, h->pd, 0x7001000, b, 16,
                                      MLX5_MKEY_LOCAL_WRITE), ==, MLX5_MKEY_OK);
    }
}

static void test_indirect_write_spans_keys(void)
{
    g_autoptr(RcEnv) e = env_new(10);
    Harness *h = e->h;
    uint32_t k1 = all_rights_key_over(h, B_BUF, 0x8000);
    uint32_t k2 = all_rights_key_over(h, B_BUF + 0x8000, 0x8000);
    const uint64_t klms[] = { KLM(100, k1, B_BUF + 0x10), KLM(200, k2, B_BUF + 0x8020) };
    const uint64_t ksm[] = { KLM(0, k1, B_BUF + 0x1000), KLM(0, k2, B_BUF + 0x9000) };
    uint32_t klm = indirect_key(h, MLX5_MKC_ACCESS_MODE_KLMS, 0, 0x7000, 300, klms, 4);
    uint32_t ksmk = indirect_key(h, MLX5_MKC_ACCESS_MODE_KSM, 12, 0x20000, 8192, ksm, 4);
    const uint8_t *a = h_gpa(h, A_BUF), *b = h_gpa(h, B_BUF);

    fill(e, 6000);
    post_send_rkey(e, MLX5_OPCODE_RDMA_WRITE, 300, 0x7000, klm);
    wire(e, false);
    expect_req(e, MLX5_OPCODE_RDMA_WRITE, 0);
    g_assert_cmpmem(b + 0x10, 100, a, 100);
    g_assert_cmpmem(b + 0x8020, 200, a + 100, 200);
    post_send_rkey(e, MLX5_OPCODE_RDMA_WRITE, 6000, 0x20000, ksmk);
    wire(e, false);
    expect_req(e, MLX5_OPCODE_RDMA_WRITE, 0);
    g_assert_cmpmem(b + 0x1000, 4096, a, 4096);
    g_assert_cmpmem(b + 0x9000, 6000 - 4096, a + 4096, 6000 - 4096);
}

/* Accesses an indirect key refuses, each a remote access error: past the
 * key's range; an entry naming a key of another PD, or no key; a chain of
 * indirect keys deeper than max_indirection (4 keys: 3 indirect ones and
 * the last one's key do; 4 indirect ones do not). */
static void test_indirect_refused(void)
{
    Harness *h;
    uint32_t k1, other, klm[5];

    for (unsigned c = 0; c < 4; c++) {
        g_autoptr(RcEnv) e = env_new(10);
        uint64_t slots[2];

        h = e->h;
        k1 = all_rights_key_over(h, B_BUF, 0x8000);
        other = pa_key_of_pd(h, h_alloc_simple(h, OP_ALLOC_PD));
        slots[0] = (uint64_t)4096 << 32 | (c == 1 ? other : c == 2 ? 0x77700 : k1);
        slots[1] = B_BUF;
        klm[0] = indirect_key(h, MLX5_MKC_ACCESS_MODE_KLMS, 0, IVA, 4096, slots, 2);
        for (unsigned d = 1; d < 5; d++) {      /* klm[d] names klm[d - 1] */
            slots[0] = (uint64_t)4096 << 32 | klm[d - 1];
            slots[1] = IVA;
            klm[d] = indirect_key(h, MLX5_MKC_ACCESS_MODE_KLMS, 0, IVA, 4096, slots, 2);
        }
        fill(e, 64);
        if (c == 0) {
            post_send_rkey(e, MLX5_OPCODE_RDMA_WRITE, 64, IVA + 4096 - 32, klm[0]);  /* past */
        } else if (c == 3) {
            post_send_rkey(e, MLX5_OPCODE_RDMA_WRITE, 64, IVA, klm[2]);           /* 4 deep */
            wire(e, false);
            expect_req(e, MLX5_OPCODE_RDMA_WRITE, 0);
            post_send_rkey(e, MLX5_OPCODE_RDMA_WRITE, 64, IVA, klm[3]);           /* 5 deep */
        } else {
            post_send_rkey(e, MLX5_OPCODE_RDMA_WRITE, 64, IVA, klm[0]);
        }
        wire(e, false);
        expect_req(e, MLX5_OPCODE_RDMA_WRITE, MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
    }
}

/* CREATE_MKEY of an indirect key refuses a list longer than the command
 * holds, one beyond log_max_klm_list_size, a KSM entity over 1 GiB. */
static void test_indirect_create_refused(void)
{
    g_autoptr(Harness) h = h_new();
    const uint64_t slots[] = { KLM(64, 0x100, 0) };
    HCmd *c;

    h_bringup(h);
    c = indirect_key_cmd(h, MLX5_MKC_ACCESS_MODE_KLMS, 0, h->pd, 0, 64, slots, 2, false);
    IN_SET(c, create_mkey_in, translations_octword_actual_size, 2);
    h_fail(h, c, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_LIST_SIZE);
    hcmd_free(c);
    c = indirect_key_cmd(h, MLX5_MKC_ACCESS_MODE_KLMS, 0, h->pd, 0, 64, slots, 2, true);
    PRM_SET(mkc, translations_octword_size, IN_PTR(c, create_mkey_in, memory_key_mkey_entry),
            (1u << PRM_GET(cmd_hca_cap, log_max_klm_list_size,
                           MLX5_CAP_CUR(h->fw, MLX5_CAP_GENERAL))) + 1);
    h_fail(h, c, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_LIST_SIZE);
    hcmd_free(c);
    c = indirect_key_cmd(h, MLX5_MKC_ACCESS_MODE_KSM, 31, h->pd, 0, 64, slots, 2, false);
    h_fail(h, c, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_PAGE_SIZE);
    hcmd_free(c);
}

/* A free KLM key, as ib_alloc_mr(IB_MR_TYPE_SG_GAPS) makes one, gets its
 * list by REG_MR (log_page_size 0, wr.c set_reg_wr) and a WRITE lands
 * through it; a second REG_MR rewrites the list in place and the next
 * WRITE follows the new one. */
static void test_indirect_umr_list(void)
{
    g_autoptr(RcEnv) e = env_new(10);
    Harness *h = e->h;
    uint32_t k1 = all_rights_key_over(h, B_BUF, 0x10000);
    g_autoptr(HCmd) c = indirect_key_cmd(h, MLX5_MKC_ACCESS_MODE_KLMS, 0, h->pd, 0, 0, NULL, 0,
                                         true);
    const uint64_t first[] = { KLM(32, k1, B_BUF + 0x100), KLM(32, k1, B_BUF + 0x300) };
    const uint64_t second[] = { KLM(32, k1, B_BUF + 0x500), KLM(32, k1, B_BUF + 0x700) };
    uint32_t fkey;
    Umr u = { .flags = MLX5_UMR_CHECK_NOT_FREE | MLX5_UMR_INLINE,
              .mask = FRWR_MASK & ~MLX5_MKEY_MASK_PAGE_SIZE, .iova = 0x9000, .len = 64,
              .pages = first, .npages = 4, .raw = true, .log_page_size = 0 };
    uint8_t *b = h_gpa(h, B_BUF);

    h_ok(h, c);
    fkey = OUT_GET(c, create_mkey_out, mkey_index) << 8 | 0x3c;
    u.key = fkey;
    post_umr(h, &e->a, &u, 0);
    fill(e, 64);
    post_send_rkey(e, MLX5_OPCODE_RDMA_WRITE, 64, 0x9000, fkey);
    wire(e, false);
    expect_req(e, MLX5_OPCODE_RDMA_WRITE, 0);
    g_assert_cmpmem(b + 0x100, 32, h_gpa(h, A_BUF), 32);
    g_assert_cmpmem(b + 0x300, 32, h_gpa(h, A_BUF + 32), 32);
    u.flags = MLX5_UMR_INLINE;
    u.pages = second;
    post_umr(h, &e->a, &u, 0);
    post_send_rkey(e, MLX5_OPCODE_RDMA_WRITE, 64, 0x9000, fkey);
    wire(e, false);
    expect_req(e, MLX5_OPCODE_RDMA_WRITE, 0);
    g_assert_cmpmem(b + 0x500, 32, h_gpa(h, A_BUF), 32);
    g_assert_cmpmem(b + 0x700, 32, h_gpa(h, A_BUF + 32), 32);
}

/* UMR is for RC, XRC and the UMR QP: on a UD QP it is a local QP
 * operation error. */
static void test_umr_on_ud(void)
{
    g_autoptr(RcEnv) e = ud_env_new(MLX5_QP_ST_UD);
    uint32_t fkey = free_mtt_key(e->h, e->h->pd, 8, true);
    Umr u = { .key = fkey, .flags = MLX5_UMR_CHECK_NOT_FREE | MLX5_UMR_INLINE,
              .mask = MLX5_MKEY_MASK_FREE };

    post_umr(e->h, &e->a, &u, MLX5_WQE_CTRL_CQ_UPDATE);
    expect_req(e, MLX5_OPCODE_UMR, MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR);
    g_assert_true(key_is_free(e->h, fkey));
}


/* A process's QP (qpc fre clear: mlx5_ib create_user_qp) may not post a
 * UMR: the key it names stays as it was, and the WQE fails with a local
 * QP operation error.  Before, any RC QP could point a key that allows
 * UMR at any guest-physical page and reach it through RDMA. */
static void test_umr_user_qp_refused(void)
{
    g_autoptr(RcEnv) e = env_new(10);
    uint32_t fkey = free_mtt_key(e->h, e->h->pd, 8, true);
    g_autoptr(HCmd) c = NULL;
    HRing user;
    const uint8_t *cqe;

    c = h_create_qp_cmd(e->h, &user, MLX5_QP_ST_RC, e->h->pd, e->scq.num, e->rcq.num,
                        e->h->uar, 4, 4);
    PRM_SET(qpc, fre, IN_PTR(c, create_qp_in, qpc), 0);
    user.num = OUT_GET(h_ok(e->h, c), create_qp_out, qpn);
    connect_qp(e, user.num, e->b.num, 10);
    reg_mr(e, &user, fkey, 0x15, MLX5_WQE_CTRL_CQ_UPDATE);
    cqe = h_cq_next(e->h, &e->scq);
    g_assert_nonnull(cqe);
    g_assert_cmphex(cqe[CQE_OP_OWN] >> 4, ==, MLX5_CQE_REQ_ERR);
    g_assert_cmphex(cqe[CQE_ERR_SYNDROME], ==, MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR);
    g_assert_true(key_is_free(e->h, fkey));
    g_assert_cmpuint(h_query_qp_state(e->h, user.num), ==, MLX5_QP_STATE_ERR);
}

/* --- memory windows (a process's QP binds them: umr.c window_check) ---------- */

/* A pair of QPs as a process has them (qpc fre clear, mlx5_ib
 * create_user_qp), connected to each other: `u` owns the windows, `p` is
 * its peer.  The MR they are bound to is reg_mr's: iova FR_IOVA, 4 KiB,
 * every right; FR_IOVA + 0x100 on is B_BUF. */
typedef struct MwEnv {
    RcEnv *e;
    HRing u, p;
    uint32_t u_rq_pc, mr;
} MwEnv;

static HRing user_qp(RcEnv *e)
{
    g_autoptr(HCmd) c = NULL;
    HRing q;

    c = h_create_qp_cmd(e->h, &q, MLX5_QP_ST_RC, e->h->pd, e->scq.num, e->rcq.num, e->h->uar,
                        4, 4);
    PRM_SET(qpc, fre, IN_PTR(c, create_qp_in, qpc), 0);
    q.num = OUT_GET(h_ok(e->h, c), create_qp_out, qpn);
    return q;
}

static void mw_env(MwEnv *m, RcEnv *e)
{
    m->e = e;
    m->u = user_qp(e);
    m->p = user_qp(e);
    connect_qp(e, m->u.num, m->p.num, 10);
    connect_qp(e, m->p.num, m->u.num, 10);
    m->u_rq_pc = 0;
    m->mr = reg_mr(e, &e->a, free_mtt_key(e->h, e->h->pd, 8, true), 0x15, 0);
}

/* An MTT key in use over [FR_IOVA, +4 KiB) of PD `pd`, every right. */
static uint32_t mr_of_pd(Harness *h, uint32_t pd)
{
    g_autoptr(HCmd) c = hcmd_new(OP_CREATE_MKEY, 0);
    uint32_t base = PRM_BYTE_OFF(create_mkey_in, klm_pas_mtt);
    uint8_t *mkc;

    hcmd_grow_in(c, base + 16);
    mkc = IN_PTR(c, create_mkey_in, memory_key_mkey_entry);
    PRM_SET(mkc, access_mode_1_0, mkc, MLX5_MKC_ACCESS_MODE_MTT);
    mkc_all_rights(mkc, pd);
    PRM_SET(mkc, qpn, mkc, 0xffffff);
    PRM_SET(mkc, mkey_7_0, mkc, 0x17);
    PRM_SET(mkc, start_addr, mkc, FR_IOVA);
    PRM_SET(mkc, len, mkc, 4096);
    PRM_SET(mkc, log_page_size, mkc, 12);
    PRM_SET(mkc, translations_octword_size, mkc, 1);
    IN_SET(c, create_mkey_in, translations_octword_actual_size, 1);
    prm_put_be64(c->in + base, B_BUF);
    prm_put_be64(c->in + base + 8, B_BUF + 0x1000);
    h_ok(h, c);
    return OUT_GET(c, create_mkey_out, mkey_index) << 8 | 0x17;
}

/* ibv_alloc_mw: mlx5_ib mr.c mlx5_ib_alloc_mw's CREATE_MKEY. */
static uint32_t alloc_mw(Harness *h, uint32_t pd, bool type2)
{
    g_autoptr(HCmd) c = hcmd_new(OP_CREATE_MKEY, 0);
    uint8_t *mkc = IN_PTR(c, create_mkey_in, memory_key_mkey_entry);

    PRM_SET(mkc, free, mkc, 1);
    PRM_SET(mkc, translations_octword_size, mkc, 4);
    PRM_SET(mkc, pd, mkc, pd);
    PRM_SET(mkc, umr_en, mkc, 1);
    PRM_SET(mkc, lr, mkc, 1);
    PRM_SET(mkc, access_mode_1_0, mkc, MLX5_MKC_ACCESS_MODE_KLMS);
    PRM_SET(mkc, en_rinval, mkc, type2);
    PRM_SET(mkc, qpn, mkc, 0xffffff);
    PRM_SET(mkc, mkey_7_0, mkc, 0x20);
    h_ok(h, c);
    return OUT_GET(c, create_mkey_out, mkey_index) << 8 | 0x20;
}

/* A bind (len > 0) or an invalidation (len 0) as libmlx5 qp.c set_bind_wr
 * writes it; rights: 1 RR, 2 RW, 4 A; qpn: the mkc's (type 2: the
 * binding QP's; 0xffffff: any).  `extra_mask`, `flags_xor` and
 * `inline_list` make bad ones.  Returns the window's new key. */
typedef struct MwBind {
    uint32_t mw, mr, qpn;
    uint64_t va, len, mr_va;
    unsigned rights;
    uint8_t key8, flags;        /* flags: besides INLINE | TRANSLATION_OFFSET_EN */
    uint64_t extra_mask;
    bool not_inline;
} MwBind;

static uint32_t mw_post(Harness *h, HRing *qp, const MwBind *b)
{
    uint8_t *w = h_sq_wqe(h, qp, MLX5_OPCODE_UMR, b->len ? 12 : 8, MLX5_WQE_CTRL_CQ_UPDATE);
    uint8_t *ctrl = w + WQE_UMR_CTRL, *mkc = w + WQE_UMR_MKC, *klm = w + WQE_UMR_XLT;
    uint64_t mask = MLX5_MKEY_MASK_FREE | MLX5_MKEY_MASK_KEY | MLX5_MKEY_MASK_QPN | b->extra_mask;

    prm_put_be32(w + WQE_CTRL_IMM, b->mw);
    ctrl[WQE_UMR_FLAGS] = (b->not_inline ? 0 : MLX5_UMR_INLINE) | MLX5_UMR_TRANSLATION_OFFSET_EN |
                          b->flags;
    if (b->len) {
        mask |= MLX5_MKEY_MASK_LEN | MLX5_MKEY_MASK_START_ADDR | MLX5_MKEY_MASK_LW |
                MLX5_MKEY_MASK_RR | MLX5_MKEY_MASK_RW | MLX5_MKEY_MASK_A;
        prm_put_be16(ctrl + WQE_UMR_XLT_OCTOWORDS, 4);
        PRM_SET(mkc, rr, mkc, !!(b->rights & 1));
        PRM_SET(mkc, rw, mkc, !!(b->rights & 2));
        PRM_SET(mkc, a, mkc, !!(b->rights & 4));
        PRM_SET(mkc, start_addr, mkc, b->va);
        PRM_SET(mkc, len, mkc, b->len);
        prm_put_be32(klm, (uint32_t)b->len);
        prm_put_be32(klm + 4, b->mr);
        prm_put_be64(klm + 8, b->mr_va);
    } else {
        PRM_SET(mkc, free, mkc, 1);
    }
    prm_put_be64(ctrl + WQE_UMR_MKEY_MASK, mask);
    PRM_SET(mkc, qpn, mkc, b->qpn);
    PRM_SET(mkc, mkey_7_0, mkc, b->key8);
    h_sq_ring(h, qp);
    return (b->mw & ~0xffu) | b->key8;
}

/* The next CQE on the send CQ: a requester's, syndrome 0 or the error. */
static void mw_expect(RcEnv *e, uint8_t syndrome)
{
    const uint8_t *cqe = h_cq_next(e->h, &e->scq);

    g_assert_nonnull(cqe);
    if (syndrome) {
        g_assert_cmphex(cqe[CQE_OP_OWN] >> 4, ==, MLX5_CQE_REQ_ERR);
        g_assert_cmphex(cqe[CQE_ERR_SYNDROME], ==, syndrome);
    } else {
        g_assert_cmphex(cqe[CQE_OP_OWN] >> 4, ==, MLX5_CQE_REQ);
    }
}

/* p WRITEs `len` bytes from A_BUF at `va` through `rkey` to u; the CQE. */
static void mw_write(MwEnv *m, uint64_t va, uint32_t len, uint32_t rkey, uint8_t syndrome)
{
    post_send_on(m->e->h, &m->p, m->e->key, MLX5_OPCODE_RDMA_WRITE, len, va, rkey);
    wire(m->e, false);
    mw_expect(m->e, syndrome);
}

static MwBind window_of(MwEnv *m, uint32_t mw, bool type2)
{
    return (MwBind) { .mw = mw, .mr = m->mr, .qpn = type2 ? m->u.num : 0xffffff,
                      .va = 0x5000, .len = 0x200, .mr_va = FR_IOVA + 0x100, .rights = 3,
                      .key8 = 0x21, .flags = type2 ? MLX5_UMR_CHECK_NOT_FREE : 0 };
}

/* Type 1 and 2: u binds a window over 512 bytes of its MR (a bind CQE);
 * p's WRITE through it lands where the MR maps them; one byte before or
 * past the window, or through the window's old key, is a remote access
 * error (each on a fresh pair: the error ends the requester). */
static void test_mw_bind_write(void)
{
    for (int type2 = 0; type2 <= 1; type2++) {
        for (int c = 0; c < 4; c++) {
            g_autoptr(RcEnv) e = env_new(10);
            MwEnv m;
            uint32_t mw, rkey;
            MwBind b;

            mw_env(&m, e);
            mw = alloc_mw(e->h, e->h->pd, type2);
            b = window_of(&m, mw, type2);
            h_trace_watch(e->h, "mlx5_mw_bind");
            rkey = mw_post(e->h, &m.u, &b);
            mw_expect(e, 0);
            g_assert_cmpuint(h_traced(e->h, "window"), ==, 1);
            fill(e, 0x200);
            memset(h_gpa(e->h, B_BUF), 0, 0x400);
            switch (c) {
            case 0:
                mw_write(&m, 0x5000, 0x200, rkey, 0);
                g_assert_cmpmem(h_gpa(e->h, B_BUF), 0x200, h_gpa(e->h, A_BUF), 0x200);
                break;
            case 1:
                mw_write(&m, 0x4fff, 0x10, rkey, MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
                break;
            case 2:
                mw_write(&m, 0x5000, 0x201, rkey, MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
                break;
            case 3:
                mw_write(&m, 0x5000, 0x10, mw, MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
                break;
            }
            if (c) {
                g_assert_cmphex(*(uint8_t *)h_gpa(e->h, B_BUF), ==, 0);
            }
        }
    }
}

/* What a window does not allow: READ through a window of write rights
 * only; a type-2 window through a QP it is not bound to (p's own window,
 * bound to p, named in a WRITE to u). */
static void test_mw_rights(void)
{
    for (int c = 0; c < 2; c++) {
        g_autoptr(RcEnv) e = env_new(10);
        MwEnv m;
        MwBind b;
        uint32_t rkey;

        mw_env(&m, e);
        b = window_of(&m, alloc_mw(e->h, e->h->pd, true), true);
        if (c == 0) {
            b.rights = 2;
            rkey = mw_post(e->h, &m.u, &b);
            mw_expect(e, 0);
            post_send_on(e->h, &m.p, e->key, MLX5_OPCODE_RDMA_READ, 0x10, 0x5000, rkey);
        } else {
            b.qpn = m.p.num;
            rkey = mw_post(e->h, &m.p, &b);
            mw_expect(e, 0);
            post_send_on(e->h, &m.p, e->key, MLX5_OPCODE_RDMA_WRITE, 0x10, 0x5000, rkey);
        }
        wire(e, false);
        mw_expect(e, MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
    }
}

/* Binds a process's QP may not make: each fails with its syndrome, takes
 * the QP to ERR and leaves the window free. */
static void test_mw_bad_binds(void)
{
    static const struct {
        const char *what;
        uint8_t syndrome;
    } cases[] = {
        { "beyond its region", MLX5_CQE_SYNDROME_MW_BIND_ERR },
        { "region of another PD", MLX5_CQE_SYNDROME_MW_BIND_ERR },
        { "on a PA key (all of RAM)", MLX5_CQE_SYNDROME_MW_BIND_ERR },
        { "on another window", MLX5_CQE_SYNDROME_MW_BIND_ERR },
        { "bound to another QP", MLX5_CQE_SYNDROME_MW_BIND_ERR },
        { "remote write, region without local write", MLX5_CQE_SYNDROME_MW_BIND_ERR },
        { "changes the PD", MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR },
        { "list not inline", MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR },
        { "an MTT key, not a window", MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR },
        { "window of another PD", MLX5_CQE_SYNDROME_LOCAL_PROT_ERR },
        { "type 2 already bound (CHECK_NOT_FREE)", MLX5_CQE_SYNDROME_LOCAL_PROT_ERR },
    };

    for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autoptr(RcEnv) e = env_new(10);
        MwEnv m;
        MwBind b;
        uint32_t other_pd = h_alloc_simple(e->h, OP_ALLOC_PD), mw;

        g_test_message("bind %s", cases[i].what);
        mw_env(&m, e);
        mw = alloc_mw(e->h, e->h->pd, true);
        b = window_of(&m, mw, true);
        switch (i) {
        case 0: b.len = 0x1000; break;
        case 1: b.mr = mr_of_pd(e->h, other_pd); break;
        case 2: b.mr = e->key; b.mr_va = B_BUF; break;
        case 3: {
            MwBind inner = window_of(&m, alloc_mw(e->h, e->h->pd, false), false);

            b.mr = mw_post(e->h, &m.u, &inner);
            mw_expect(e, 0);
            b.mr_va = inner.va;
            break;
        }
        case 4: b.qpn = m.p.num; break;
        case 5: {
            static const uint64_t pages[] = { B_BUF, B_BUF + 0x1000 };
            Umr u = { .flags = MLX5_UMR_CHECK_NOT_FREE | MLX5_UMR_INLINE, .mask = FRWR_MASK,
                      .iova = FR_IOVA, .len = 4096, .pages = pages, .npages = 2, .no_lw = true };

            u.key = free_mtt_key(e->h, e->h->pd, 8, true);
            post_umr(e->h, &e->a, &u, 0);
            b.mr = u.key;
            break;
        }
        case 6: b.extra_mask = MLX5_MKEY_MASK_PD; break;
        case 7: b.not_inline = true; break;
        case 8: b.mw = free_mtt_key(e->h, e->h->pd, 8, true); break;
        case 9: b.mw = mw = alloc_mw(e->h, other_pd, true); break;
        case 10:
            mw_post(e->h, &m.u, &b);
            mw_expect(e, 0);
            b.key8 = 0x22;
            break;
        }
        h_trace_watch(e->h, "mlx5_umr_err");
        mw_post(e->h, &m.u, &b);
        mw_expect(e, cases[i].syndrome);
        g_assert_cmpuint(h_traced(e->h, "qp="), ==, 1);
        g_assert_cmpuint(h_query_qp_state(e->h, m.u.num), ==, MLX5_QP_STATE_ERR);
        if (i != 10) {
            g_assert_true(key_is_free(e->h, b.mw));
        }
    }
}

/* Type 2 invalidation: by a QP it is not bound to - a bind error, the
 * window still works; by its own QP (LOCAL_INV: CHECK_QPN) - then a
 * WRITE is a remote access error; a type-2 window bound again after; a
 * SEND with invalidate from p to u frees it, one naming p's window from
 * p to u (bound to p) is refused. */
static void test_mw_invalidate(void)
{
    g_autoptr(RcEnv) e = env_new(10);
    MwEnv m;
    uint32_t mw, rkey;
    MwBind b, inv;

    mw_env(&m, e);
    mw = alloc_mw(e->h, e->h->pd, true);
    b = window_of(&m, mw, true);
    rkey = mw_post(e->h, &m.u, &b);
    mw_expect(e, 0);
    inv = (MwBind) { .mw = rkey, .qpn = 0xffffff, .flags = MLX5_UMR_CHECK_QPN };
    mw_post(e->h, &e->a, &inv);                 /* a has fre: a plain UMR, CHECK_QPN ignored */
    mw_expect(e, 0);
    g_assert_true(key_is_free(e->h, mw));
    b.key8 = 0x23;
    rkey = mw_post(e->h, &m.u, &b);
    mw_expect(e, 0);
    inv.mw = rkey;
    mw_post(e->h, &m.p, &inv);                  /* not bound to p */
    mw_expect(e, MLX5_CQE_SYNDROME_MW_BIND_ERR);
    g_assert_false(key_is_free(e->h, mw));
    mw_env(&m, e);                              /* a fresh pair; the window stays u's old QP's */
    b = window_of(&m, alloc_mw(e->h, e->h->pd, true), true);
    rkey = mw_post(e->h, &m.u, &b);
    mw_expect(e, 0);
    inv.mw = rkey;
    mw_post(e->h, &m.u, &inv);
    mw_expect(e, 0);
    g_assert_true(key_is_free(e->h, b.mw));
    mw_write(&m, 0x5000, 0x10, rkey, MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
}

/* SEND with invalidate of a type-2 window at the QP it is bound to frees
 * it; at another QP it is refused (remote invalid request). */
static void send_inv_window(bool bound_to_sender)
{
    g_autoptr(RcEnv) e = env_new(10);
    MwEnv m;
    MwBind b;
    const uint8_t *cqe;
    uint32_t rkey;
    uint8_t *w;

    mw_env(&m, e);
    b = window_of(&m, alloc_mw(e->h, e->h->pd, true), true);
    b.qpn = bound_to_sender ? m.p.num : m.u.num;
    rkey = mw_post(e->h, bound_to_sender ? &m.p : &m.u, &b);
    mw_expect(e, 0);
    post_recv_on(e->h, &m.u, &m.u_rq_pc, e->key, 0, 64);
    w = h_sq_wqe(e->h, &m.p, MLX5_OPCODE_SEND_INVAL, 2, MLX5_WQE_CTRL_CQ_UPDATE);
    prm_put_be32(w + WQE_CTRL_IMM, rkey);
    h_data_seg(w + MLX5_DS_BYTES, 64, e->key, A_BUF);
    h_sq_ring(e->h, &m.p);
    wire(e, false);
    cqe = h_cq_next(e->h, &e->rcq);
    g_assert_nonnull(cqe);
    g_assert_cmphex(cqe[CQE_OP_OWN] >> 4, ==,
                    bound_to_sender ? MLX5_CQE_RESP_ERR : MLX5_CQE_RESP_SEND_INV);
    mw_expect(e, bound_to_sender ? MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR : 0);
    g_assert_cmpint(key_is_free(e->h, b.mw), ==, !bound_to_sender);
}

static void test_mw_send_with_invalidate(void)
{
    send_inv_window(false);
    send_inv_window(true);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/umr/fast-reg", test_umr_fast_reg);
    g_test_add_func("/umr/local-inv", test_umr_local_inv);
    g_test_add_func("/umr/in-order", test_umr_in_order);
    g_test_add_func("/umr/send-with-invalidate", test_umr_send_with_invalidate);
    g_test_add_func("/umr/umr-qp", test_umr_qp);
    g_test_add_func("/umr/bad-inputs", test_umr_bad_inputs);
    g_test_add_func("/umr/on-ud", test_umr_on_ud);
    g_test_add_func("/umr/user-qp-refused", test_umr_user_qp_refused);
    g_test_add_func("/umr/mtt-presence-bits", test_mtt_presence_bits);
    g_test_add_func("/umr/indirect-write-spans-keys", test_indirect_write_spans_keys);
    g_test_add_func("/umr/indirect-refused", test_indirect_refused);
    g_test_add_func("/umr/indirect-create-refused", test_indirect_create_refused);
    g_test_add_func("/umr/indirect-umr-list", test_indirect_umr_list);
    g_test_add_func("/umr/mw-bind-write", test_mw_bind_write);
    g_test_add_func("/umr/mw-rights", test_mw_rights);
    g_test_add_func("/umr/mw-bad-binds", test_mw_bad_binds);
    g_test_add_func("/umr/mw-invalidate", test_mw_invalidate);
    g_test_add_func("/umr/mw-send-with-invalidate", test_mw_send_with_invalidate);
    return g_test_run();
}
