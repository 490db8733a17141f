/*
 * UMR: memory keys changed from a send queue (PRM "User-Mode Memory
 * Registration"; send opcode 0x25).
 *
 * Concepts.  CREATE_MKEY makes a key through the command interface; a UMR
 * WQE changes one in the middle of a send queue's work, ordered with the
 * sends around it.  mlx5_ib uses it three ways:
 *   - IB_WR_REG_MR, fast registration (wr.c set_reg_wr), on the ULP's own
 *     QP: a free key made by ib_alloc_mr (CHECK_NOT_FREE) gets a page list,
 *     an address range, rights, a new key byte, and is enabled (mask FREE,
 *     free=0).  NVMe over RDMA registers every transfer this way.
 *   - IB_WR_LOCAL_INV (wr.c set_linv_wr): mask FREE, free=1: the key stops
 *     working until the next REG_MR.
 *   - the kernel's own UMR QP (QP type REG_UMR, umr.c): user memory
 *     registrations take a free key from mlx5_ib's mkey cache, load its
 *     page list in chunks (TRANSLATION_OFFSET_EN), enable it, and on
 *     deregistration revoke it (mask PD|FREE) for the cache.
 * The WQE: ctrl (imm = the key, by index: a REG_MR carries the new key
 * byte there), the UMR control segment (flags, the list's length and
 * offset in 16-byte units, the 64-bit mkey_mask), the mkey context
 * segment (mkc layout: the device takes only the fields whose mask bit is
 * set), then the list: inline (flag INLINE) or one data segment naming it
 * in memory through a local key.  A list entry is 8 bytes, big endian, the
 * page address plus flag bits (mkey.c).
 *
 * A process's QP (no qpc fre) may post one kind of UMR only: a memory
 * window bind or invalidation (libmlx5 qp.c set_bind_wr; IBA 10.6.7),
 * checked as such below (window_check) - it could otherwise point a key
 * at any page of the guest.
 *
 * The device applies a UMR when its send queue reaches it, before any
 * later WQE starts, which satisfies every fence mode mlx5_ib asks for
 * (the REG_MR before the SEND that advertises the key; the UMR QP's
 * INITIATOR_SMALL).  It is checked whole before anything changes: a bad
 * one fails with an error CQE and leaves the key as it was.
 */
#include "transport.h"


/* The page sizes a key may have: 4 KiB up to what the 5-bit
 * log_page_size holds (mlx5_ib picks the largest that fits a user MR). */
enum { UMR_MIN_LOG_PAGE = 12, UMR_MAX_LOG_PAGE = 31 };

typedef struct UmrWqe {
    bool fre;                   /* the QP may register memory (qpc fre, or the UMR QP) */
    uint32_t key;               /* ctrl imm: the key, by its index */
    uint8_t flags;
    uint64_t mask;
    const uint8_t *mkc;
    uint64_t xlt_first;         /* the first list entry written */
    uint32_t xlt_entries;       /* how many */
    const uint8_t *xlt;         /* the entries as the guest wrote them, 8 bytes BE each:
                                 * in the WQE, or read before anything changes */
    uint8_t *xlt_read;          /* the copy read through a data segment (freed) */
} UmrWqe;

/* The list's entries: inline after the mkey context, or read through the
 * data segment there (its key checked like any local gather). */
static uint8_t umr_read_xlt(Mlx5Fw *fw, const Mlx5Qp *qp, const uint8_t *wqe,
                            unsigned ds, UmrWqe *u, const char **why)
{
    uint32_t bytes = u->xlt_entries * 8;
    const uint8_t *seg = wqe + WQE_UMR_XLT;

    if (u->flags & MLX5_UMR_INLINE) {
        if (WQE_UMR_XLT + bytes > ds * MLX5_DS_BYTES) {
            *why = "inline list beyond the WQE";
            return MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR;
        }
        u->xlt = seg;
    } else {
        uint32_t lkey = prm_be32(seg + WQE_DATA_LKEY);
        Mlx5Mkey *lk = mlx5_table_get(&fw->mkey, lkey >> 8);
        /* The kernel UMR QP has no PD; its lists are read through its
         * own PD's key (umr.c mlx5r_umr_create_xlt: umrc.pd). */
        uint32_t pd = qp->st == MLX5_QP_ST_REG_UMR ? (lk ? lk->pd : 0) : qp->pd;

        if (WQE_UMR_XLT + MLX5_DS_BYTES > ds * MLX5_DS_BYTES ||
            prm_be32(seg + WQE_DATA_BYTE_COUNT) < bytes) {
            *why = "list pointer shorter than the list";
            return MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR;
        }
        u->xlt_read = g_malloc(bytes);
        if (mlx5_mkey_dma(fw, lkey, pd, prm_be64(seg + WQE_DATA_ADDR), u->xlt_read, bytes,
                          MLX5_MKEY_LOCAL_READ) != MLX5_MKEY_OK) {
            *why = "list pointer: bad lkey or address";
            return MLX5_CQE_SYNDROME_LOCAL_PROT_ERR;
        }
        u->xlt = u->xlt_read;
    }
    return 0;
}

/* MTT keys have a page list; indirect keys (KLMS, KSM) a list of keys
 * and addresses, 16 bytes an entry: either is written in 8-byte slots. */
static bool mk_has_list(const Mlx5Mkey *mk)
{
    return mk->access_mode == MLX5_MKC_ACCESS_MODE_MTT || mlx5_mkey_mode_indirect(mk->access_mode);
}

/* The mask bit, the key's member and the mkc field it takes. */
#define UMR_FIELDS(X) \
    X(MLX5_MKEY_MASK_PAGE_SIZE, log_page_size, log_page_size) \
    X(MLX5_MKEY_MASK_START_ADDR, start_addr, start_addr) \
    X(MLX5_MKEY_MASK_PD, pd, pd) \
    X(MLX5_MKEY_MASK_EN_RINVAL, en_rinval, en_rinval) \
    X(MLX5_MKEY_MASK_KEY, key8, mkey_7_0) \
    X(MLX5_MKEY_MASK_QPN, qpn, qpn) \
    X(MLX5_MKEY_MASK_LR, lr, lr) X(MLX5_MKEY_MASK_LW, lw, lw) \
    X(MLX5_MKEY_MASK_RR, rr, rr) X(MLX5_MKEY_MASK_RW, rw, rw) X(MLX5_MKEY_MASK_A, a, a) \
    X(MLX5_MKEY_MASK_FREE, free, free)

/* The masked fields of the mkey context segment become the key's. */
static void umr_apply(Mlx5Mkey *mk, const UmrWqe *u)
{
    if (u->mask & MLX5_MKEY_MASK_LEN) {
        mk->len = PRM_GET(mkc, len, u->mkc);
        mk->length64 = PRM_GET(mkc, length64, u->mkc);  /* umr.c sets it with LEN */
    }
#define UMR_TAKE_(bit, member, field) \
    if (u->mask & (bit)) { \
        mk->member = PRM_GET(mkc, field, u->mkc); \
    }
    UMR_FIELDS(UMR_TAKE_)
#undef UMR_TAKE_
}

/* --- memory windows ----------------------------------------------------------- */

/* What a window bind may change (libmlx5 set_umr_control_seg): its key
 * byte, the QP a type-2 window is bound to, range, rights, free. */
#define MW_BIND_MASK \
    (MLX5_MKEY_MASK_FREE | MLX5_MKEY_MASK_KEY | MLX5_MKEY_MASK_QPN | MLX5_MKEY_MASK_LEN | \
     MLX5_MKEY_MASK_START_ADDR | MLX5_MKEY_MASK_LR | MLX5_MKEY_MASK_LW | MLX5_MKEY_MASK_RR | \
     MLX5_MKEY_MASK_RW | MLX5_MKEY_MASK_A)
#define MW_ANY_QP 0xffffffu     /* mkc qpn of a key not bound to a QP */

/* A window's KLM entry i, from the list the WQE carries. */
static void mw_klm(const UmrWqe *u, uint32_t i, uint64_t *bytes, uint32_t *key, uint64_t *va)
{
    uint64_t w0 = prm_be64(u->xlt + 16 * i);

    *bytes = mlx5_klm_bytes((uint32_t)(w0 >> 32));
    *key = (uint32_t)w0;
    *va = prm_be64(u->xlt + 16 * i + 8);
}

/* The window as the bind leaves it must lie on memory regions the QP's
 * PD owns (IBA 10.6.7.2.1): its entries, as far as its length reaches,
 * each an MTT key of the PD, enabled, covering the entry's range, and
 * with local write if the window grants remote write or atomics (IBA
 * 10.6.7: a window gives no more than its region allows). */
static uint8_t mw_check_regions(Mlx5Fw *fw, const Mlx5Qp *qp, const Mlx5Mkey *after,
                                const UmrWqe *u, const char **why)
{
    uint64_t left = after->len;

    for (uint32_t i = 0; left; i++) {
        uint64_t bytes, va, n;
        uint32_t key;
        const Mlx5Mkey *mr;

        if (2 * (uint64_t)i + 1 >= u->xlt_entries) {
            *why = "window longer than its regions";
            return MLX5_CQE_SYNDROME_MW_BIND_ERR;
        }
        mw_klm(u, i, &bytes, &key, &va);
        n = MIN(bytes, left);
        mr = mlx5_mkey_usable(fw, key, qp->pd);
        if (!mr || mr->access_mode != MLX5_MKC_ACCESS_MODE_MTT || mr->length64) {
            *why = "window on a key that is not a memory region of the QP's PD";
            return MLX5_CQE_SYNDROME_MW_BIND_ERR;
        }
        if (va < mr->start_addr || n > mr->len || va - mr->start_addr > mr->len - n) {
            *why = "window beyond its memory region";
            return MLX5_CQE_SYNDROME_MW_BIND_ERR;
        }
        if ((after->rw || after->a) && !mr->lw) {
            *why = "remote write through a window on a region without local write";
            return MLX5_CQE_SYNDROME_MW_BIND_ERR;
        }
        left -= n;
    }
    return 0;
}

/* A UMR from a QP without fast registration has a window bind's shape:
 * on a window (a KLM key made by mlx5_ib_alloc_mw; umr_check has checked
 * it is of the QP's PD), changing nothing but what a bind may, its list
 * inline and from the start. */
static bool window_shaped(const Mlx5Mkey *mk, const UmrWqe *u)
{
    return mk->access_mode == MLX5_MKC_ACCESS_MODE_KLMS && !(u->mask & ~MW_BIND_MASK) &&
           (!u->xlt_entries || ((u->flags & MLX5_UMR_INLINE) && !u->xlt_first));
}

/* ... and is a bind or an invalidation a window allows: a type-2 window
 * is bound to the posting QP (mkc qpn) and only that QP invalidates it
 * (CHECK_QPN); a bound window lies on regions of the PD.  0 or the
 * syndrome. */
static uint8_t window_check(Mlx5Fw *fw, const Mlx5Qp *qp, const Mlx5Mkey *mk, const UmrWqe *u,
                            const char **why)
{
    Mlx5Mkey after = *mk;
    uint32_t qpn = PRM_GET(mkc, qpn, u->mkc);

    if ((u->flags & MLX5_UMR_CHECK_QPN) && mk->qpn != qp->num) {
        *why = "window bound to another QP";
        return MLX5_CQE_SYNDROME_MW_BIND_ERR;
    }
    if ((u->mask & MLX5_MKEY_MASK_QPN) && qpn != MW_ANY_QP && qpn != qp->num) {
        *why = "window bound to a QP other than the one binding it";
        return MLX5_CQE_SYNDROME_MW_BIND_ERR;
    }
    umr_apply(&after, u);
    if (after.free) {
        return 0;                       /* an invalidation */
    }
    return mw_check_regions(fw, qp, &after, u, why);
}

/* --- the WQE ------------------------------------------------------------------ */

/* Everything that can fail, before the key changes: 0 or the syndrome. */
static uint8_t umr_check(Mlx5Fw *fw, const Mlx5Qp *qp, const uint8_t *wqe, unsigned ds,
                         const Mlx5Mkey *mk, UmrWqe *u, const char **why)
{
    unsigned lps = PRM_GET(mkc, log_page_size, u->mkc);

    if (!mk || !mk->umr_en) {
        *why = !mk ? "no such key" : "key not created for UMR (umr_en 0)";
        return MLX5_CQE_SYNDROME_LOCAL_PROT_ERR;
    }
    /* REG_MR and LOCAL_INV work on keys of the QP's PD (IBA 10.6.3.5);
     * the UMR QP is the driver's and has none. */
    if (qp->st != MLX5_QP_ST_REG_UMR && mk->pd != qp->pd) {
        *why = "key of another PD";
        return MLX5_CQE_SYNDROME_LOCAL_PROT_ERR;
    }
    if (!u->fre && !window_shaped(mk, u)) {
        *why = "UMR on a QP without fast registration (qpc fre), not a window bind";
        return MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR;
    }
    if (((u->flags & MLX5_UMR_CHECK_NOT_FREE) && !mk->free) ||
        ((u->flags & MLX5_UMR_CHECK_FREE) && mk->free)) {
        *why = mk->free ? "key is free (CHECK_FREE)" : "key in use (CHECK_NOT_FREE)";
        return MLX5_CQE_SYNDROME_LOCAL_PROT_ERR;
    }
    if ((u->mask & MLX5_MKEY_MASK_PD) && !mlx5_table_get(&fw->pd, PRM_GET(mkc, pd, u->mkc))) {
        *why = "no such PD";
        return MLX5_CQE_SYNDROME_LOCAL_PROT_ERR;
    }
    /* A KLM key has no page size: mlx5_ib's REG_MR sets the mask bit with
     * log_page_size 0 for it (wr.c set_reg_mkey_seg). */
    if ((u->mask & MLX5_MKEY_MASK_PAGE_SIZE) && mk->access_mode != MLX5_MKC_ACCESS_MODE_KLMS &&
        (lps < UMR_MIN_LOG_PAGE || lps > UMR_MAX_LOG_PAGE)) {
        *why = "page size out of range";
        return MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR;
    }
    /* No signature offload (cap sho 0): a key cannot be made to check. */
    if (((u->mask & MLX5_MKEY_MASK_BSF_EN) && PRM_GET(mkc, bsf_en, u->mkc)) ||
        ((u->mask & MLX5_MKEY_MASK_EN_SIGERR) && PRM_GET(mkc, expected_sigerr_count, u->mkc))) {
        *why = "signature offload not supported";
        return MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR;
    }
    if (u->xlt_entries) {
        uint8_t syndrome;

        if (!mk_has_list(mk) || u->xlt_first + u->xlt_entries > mk->mtt_cap) {
            *why = !mk_has_list(mk) ? "list for a key without one"
                                    : "list beyond the key's capacity";
            return MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR;
        }
        syndrome = umr_read_xlt(fw, qp, wqe, ds, u, why);
        if (syndrome) {
            return syndrome;
        }
    }
    return u->fre ? 0 : window_check(fw, qp, mk, u, why);
}

uint8_t mlx5_umr_exec(Mlx5DataPath *dp, const Mlx5Qp *qp, const Mlx5SendWqe *w)
{
    Mlx5Fw *fw = dp->fw;
    const uint8_t *wqe = w->bytes;
    unsigned ds = w->ds;
    const uint8_t *ctrl = wqe + WQE_UMR_CTRL;
    UmrWqe u = { 0 };
    Mlx5Mkey *mk;
    const char *why = NULL;
    uint8_t syndrome;

    if (ds * MLX5_DS_BYTES < WQE_UMR_XLT) {
        why = "shorter than ctrl, UMR control and mkey context segments";
        syndrome = MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR;
        goto fail;
    }
    /* mlx5_ib sets qpc fre on its own QPs alone (qp.c create_kernel_qp) */
    u.fre = qp->st == MLX5_QP_ST_REG_UMR || PRM_GET(qpc, fre, qp->qpc);
    u.key = prm_be32(wqe + WQE_CTRL_IMM);
    u.flags = ctrl[WQE_UMR_FLAGS];
    u.mask = prm_be64(ctrl + WQE_UMR_MKEY_MASK);
    u.mkc = wqe + WQE_UMR_MKC;
    u.xlt_entries = prm_be16(ctrl + WQE_UMR_XLT_OCTOWORDS) * 2u;
    if (u.flags & MLX5_UMR_TRANSLATION_OFFSET_EN) {
        u.xlt_first = ((uint64_t)prm_be32(ctrl + WQE_UMR_XLT_OFFSET_47_16) << 16 |
                       prm_be16(ctrl + WQE_UMR_XLT_OFFSET)) * 2;
    }
    mk = mlx5_table_get(&fw->mkey, u.key >> 8);
    syndrome = umr_check(fw, qp, wqe, ds, mk, &u, &why);
    if (syndrome) {
        goto fail;
    }
    if (u.xlt_entries) {
        if (!mlx5_mkey_mtt_grow(mk, u.xlt_first + u.xlt_entries)) {
            why = "page lists exceed the device's memory";
            syndrome = MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR;
            goto fail;
        }
        for (uint32_t i = 0; i < u.xlt_entries; i++) {
            mk->mtt[u.xlt_first + i] = prm_be64(u.xlt + i * 8);
        }
        mlx5_mkey_list_changed(mk);
    }
    umr_apply(mk, &u);
    g_free(u.xlt_read);
    mlx5emu_trace_umr(qp->num, u.key, u.flags, u.mask, u.xlt_first, u.xlt_entries,
                      mk->index << 8 | mk->key8, mk->free);
    if (!u.fre) {
        mlx5emu_trace_mw_bind(qp->num, mk->index << 8 | mk->key8, mk->free, mk->start_addr,
                              mk->len, mk->nmtt ? (uint32_t)mk->mtt[0] : 0,
                              mk->rr | mk->rw << 1 | mk->a << 2, mk->qpn);
    }
    return 0;

fail:
    g_free(u.xlt_read);
    mlx5emu_trace_umr_err(qp->num, u.key, why);
    mlx5_guest_error(fw, "QP 0x%x UMR on key 0x%x: %s", qp->num, u.key, why);
    return syndrome;
}
