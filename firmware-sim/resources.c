/*
 * Simple resources: UAR pages, protection domains, transport domains, XRC
 * domains, Q counters and memory keys.
 *
 * UAR index N is BAR0 page N (Linux uar.c uar2pfn); indices start above the
 * init segment and the MSI-X pages.  An MKey is index << 8 | key byte
 * (PRM "Memory Key"); the driver destroys it by index.
 */
#include <string.h>

#include "cmd.h"

#define RES_ALLOC_CMD(fn, table, layout, field) \
unsigned fn(Mlx5Fw *fw, Mlx5Cmd *c) \
{ \
    Mlx5Res *r = g_new0(Mlx5Res, 1); \
    unsigned st = mlx5_cmd_add(c, &fw->table, r, &r->id); \
    if (st == MLX5_CMD_STAT_OK) { \
        PRM_SET(layout, field, c->out, c->obj); \
    } \
    return st; \
}
#define RES_FREE_CMD(fn, table, layout, field, synd) \
unsigned fn(Mlx5Fw *fw, Mlx5Cmd *c) \
{ \
    return mlx5_cmd_remove(c, &fw->table, PRM_GET(layout, field, c->in), MLX5_SYND_##synd); \
}

RES_ALLOC_CMD(cmd_alloc_uar, uar, alloc_uar_out, uar)
RES_FREE_CMD(cmd_dealloc_uar, uar, dealloc_uar_in, uar, BAD_UAR)
RES_ALLOC_CMD(cmd_alloc_pd, pd, alloc_pd_out, pd)
RES_FREE_CMD(cmd_dealloc_pd, pd, dealloc_pd_in, pd, BAD_PD)
RES_ALLOC_CMD(cmd_alloc_transport_domain, td, alloc_transport_domain_out, transport_domain)
RES_FREE_CMD(cmd_dealloc_transport_domain, td, dealloc_transport_domain_in, transport_domain, BAD_TD)
RES_ALLOC_CMD(cmd_alloc_xrcd, xrcd, alloc_xrcd_out, xrcd)
RES_FREE_CMD(cmd_dealloc_xrcd, xrcd, dealloc_xrcd_in, xrcd, BAD_ID)

/* A doorbell for a queue counts only through the UAR page the queue was
 * created with (eqc/cqc/qpc/wq uar_page): the kernel maps a process only
 * its own UAR pages (mlx5_ib mmap), so a page is the process's identity -
 * another process's (or the kernel's) EQ, CQ or SQ does not move from it.
 * Hardware ignores such a doorbell. */
bool mlx5_uar_page_owns(Mlx5Fw *fw, const char *kind, uint32_t num, uint32_t owner,
                        uint32_t page)
{
    if (owner == page) {
        return true;
    }
    mlx5emu_trace_ub_uar_not_owner(page, kind, num, owner);
    mlx5_guest_error(fw, "doorbell for %s 0x%x on UAR page %u, created with page %u", kind, num,
                     page, owner);
    return false;
}

/* As many sets as max_qp_cnt allows (the table's limit, hca.c). */
unsigned cmd_alloc_q_counter(Mlx5Fw *fw, Mlx5Cmd *c)
{
    Mlx5QCounter *q = g_new0(Mlx5QCounter, 1);
    unsigned st = mlx5_cmd_add(c, &fw->q_counter, q, &q->id);

    if (st == MLX5_CMD_STAT_OK) {
        PRM_SET(alloc_q_counter_out, counter_set_id, c->out, q->id);
    }
    return st;
}

RES_FREE_CMD(cmd_dealloc_q_counter, q_counter, dealloc_q_counter_in, counter_set_id, BAD_ID)

unsigned cmd_query_q_counter(Mlx5Fw *fw, Mlx5Cmd *c)
{
    uint32_t id = PRM_GET(query_q_counter_in, counter_set_id, c->in);
    unsigned st;
    Mlx5QCounter *q = mlx5_cmd_find(c, mlx5_table_get(&fw->q_counter, id), id, MLX5_SYND_BAD_ID,
                                    &st);

    if (!q) {
        return st;
    }
#define QCNT_OUT(name) PRM_SET(query_q_counter_out, name, c->out, q->count[MLX5_QCNT_##name]);
    MLX5_Q_COUNTERS(QCNT_OUT)
#undef QCNT_OUT
    if (PRM_GET(query_q_counter_in, clear, c->in)) {
        memset(q->count, 0, sizeof(q->count));
    }
    return MLX5_CMD_STAT_OK;
}

void mlx5_q_counter_inc(Mlx5Fw *fw, uint32_t set_id, Mlx5QCnt which)
{
    Mlx5QCounter *q = set_id ? mlx5_table_get(&fw->q_counter, set_id) : NULL;

    if (q && which < MLX5_QCNT__COUNT) {
        q->count[which]++;
    }
}

/* mlx5_ib puts the port's set (or the one `rdma statistic` bound) into
 * every QP's context at RST2INIT, RTS2RTS may change it (counters.c). */
void mlx5_qp_count(Mlx5Fw *fw, const Mlx5Qp *qp, Mlx5QCnt which)
{
    if (qp) {
        mlx5_q_counter_inc(fw, PRM_GET(qpc, counter_set_id, qp->qpc), which);
    }
}

/* A key's page list is charged to the device's host-memory budget as it
 * is loaded (8 bytes an entry: 1 MiB maps 512 MiB of 4 KiB pages), not as
 * its capacity: mlx5_ib keeps a cache of free keys sized for large
 * registrations (mr.c mkey cache) that hold nothing until a UMR loads
 * them.  Past the budget CREATE_MKEY and UMR fail instead of growing
 * without bound. */
/* What a slot of the list costs: itself, and for an indirect key half of
 * a KLM's end offset (hw-rdma/mkey.c klm_ends). */
static uint64_t mkey_slot_bytes(const Mlx5Mkey *mk)
{
    return sizeof(*mk->mtt) + (mlx5_mkey_mode_indirect(mk->access_mode) ? 4 : 0);
}

void mlx5_mkey_destroy(gpointer p)
{
    Mlx5Mkey *mk = p;

    if (mk->mtt_mem) {
        mlx5_host_mem_refund(mk->mtt_mem, (uint64_t)mk->nmtt * mkey_slot_bytes(mk));
    }
    g_free(mk->mtt);
    g_free(mk->klm_end);
    g_free(mk);
}

bool mlx5_mkey_mtt_grow(Mlx5Mkey *mk, uint64_t n)
{
    if (n <= mk->nmtt) {
        return true;
    }
    if (n > mk->mtt_cap || !mk->mtt_mem ||
        !mlx5_host_mem_charge(mk->mtt_mem, (n - mk->nmtt) * mkey_slot_bytes(mk), "mkey MTT")) {
        return false;
    }
    mk->mtt = g_renew(uint64_t, mk->mtt, n);
    memset(mk->mtt + mk->nmtt, 0, (n - mk->nmtt) * sizeof(*mk->mtt));
    mk->nmtt = (uint32_t)n;
    mlx5_mkey_list_changed(mk);
    return true;
}

void mlx5_mkey_list_changed(Mlx5Mkey *mk)
{
    g_free(mk->klm_end);
    mk->klm_end = NULL;
}

/* The entries a key may hold: translations_octword_size 16-byte units of
 * two entries.  mlx5_ib sizes it to the pages (mr.c get_octo_len) but its
 * UMR writes lists padded to 64 bytes (umr.c mlx5r_umr_final_update_xlt:
 * MLX5_UMR_FLEX_ALIGNMENT), so the capacity is rounded up to 8 entries. */
static uint64_t mkey_mtt_capacity(const uint8_t *mkc)
{
    uint64_t n = (uint64_t)PRM_GET(mkc, translations_octword_size, mkc) * 2;

    return (n + 7) & ~7ull;
}

/* An MTT key's page list (create_mkey_in.klm_pas_mtt, 8 bytes per page).
 * It must cover [start_addr, +len) and lie inside the command.  Each
 * entry keeps its rd_en/wr_en bits when the command says they are meant
 * (pg_access: mlx5_ib sets it and the bits once the device pages, mr.c
 * reg_create); otherwise the page may be read and written.  A free key
 * gets its list from UMR later (hw-rdma/umr.c), bits as written. */
static unsigned mkey_load_mtt(Mlx5Fw *fw, Mlx5Cmd *c, const uint8_t *mkc, Mlx5Mkey *mk)
{
    uint64_t avail = (c->inlen - PRM_BYTE_OFF(create_mkey_in, klm_pas_mtt)) / 8;
    uint64_t page = (uint64_t)1 << mk->log_page_size;
    uint64_t cap = mkey_mtt_capacity(mkc);
    uint64_t need, bits;

    if (mk->log_page_size < 12 || mk->log_page_size > 30) {
        return CMD_FAIL(c, BAD_PARAM, BAD_PAGE_SIZE);
    }
    /* A list the whole budget could not hold is no list. */
    if (cap > fw->host_mem.limit / sizeof(*mk->mtt) || cap > UINT32_MAX) {
        return CMD_FAIL(c, BAD_PARAM, BAD_LIST_SIZE);
    }
    mk->mtt_cap = (uint32_t)cap;
    mk->mtt_mem = &fw->host_mem;
    if (mk->free) {
        return MLX5_CMD_STAT_OK;
    }
    need = mk->length64 ? 0 : ((mk->start_addr & (page - 1)) + mk->len + page - 1) / page;
    if (mk->length64 || cap < need || need > avail) {
        return CMD_FAIL(c, BAD_PARAM, BAD_LIST_SIZE);
    }
    if (!mlx5_mkey_mtt_grow(mk, need)) {
        return CMD_FAIL(c, LIM_ERR, HOST_MEMORY);
    }
    bits = PRM_GET(create_mkey_in, pg_access, c->in) ? MLX5_MTT_RD_EN | MLX5_MTT_WR_EN : 0;
    for (uint64_t i = 0; i < need; i++) {
        uint64_t e = prm_be64(PRM_PTR(create_mkey_in, klm_pas_mtt, c->in) + i * 8);

        mk->mtt[i] = (e & ~(page - 1)) | (bits ? e & bits : MLX5_MTT_RD_EN | MLX5_MTT_WR_EN);
    }
    return MLX5_CMD_STAT_OK;
}

/* An indirect key's list (KLMS or KSM, 16 bytes an entry, two slots),
 * when it is created in use; a free one gets it from UMR (mlx5_ib makes
 * them free: mr.c _mlx5_alloc_mkey_descs, mlx5_ib_alloc_mw).  KSM entries
 * are 2^log_page_size bytes each. */
static unsigned mkey_load_indirect(Mlx5Fw *fw, Mlx5Cmd *c, const uint8_t *mkc, Mlx5Mkey *mk)
{
    uint64_t avail = (c->inlen - PRM_BYTE_OFF(create_mkey_in, klm_pas_mtt)) / 8;
    uint64_t cap = mkey_mtt_capacity(mkc);
    uint64_t need = (uint64_t)PRM_GET(create_mkey_in, translations_octword_actual_size,
                                      c->in) * 2;

    if (mk->access_mode == MLX5_MKC_ACCESS_MODE_KSM && mk->log_page_size > 30) {
        return CMD_FAIL(c, BAD_PARAM, BAD_PAGE_SIZE);
    }
    if (cap > 2ull << MLX5_CAP_GET(fw, MLX5_CAP_GENERAL, cmd_hca_cap, log_max_klm_list_size)) {
        return CMD_FAIL(c, BAD_PARAM, BAD_LIST_SIZE);
    }
    mk->mtt_cap = (uint32_t)cap;
    mk->mtt_mem = &fw->host_mem;
    if (mk->free) {
        return MLX5_CMD_STAT_OK;
    }
    if (need > cap || need > avail) {
        return CMD_FAIL(c, BAD_PARAM, BAD_LIST_SIZE);
    }
    if (!mlx5_mkey_mtt_grow(mk, need)) {
        return CMD_FAIL(c, LIM_ERR, HOST_MEMORY);
    }
    for (uint64_t i = 0; i < need; i++) {
        mk->mtt[i] = prm_be64(PRM_PTR(create_mkey_in, klm_pas_mtt, c->in) + i * 8);
    }
    return MLX5_CMD_STAT_OK;
}

/* mkc's access mode, split in two fields, and the key's capacity in
 * 16-byte units of two entries. */
static uint64_t mkc_access_mode_1_0(const void *mk)
{
    return ((const Mlx5Mkey *)mk)->access_mode & 3;
}

static uint64_t mkc_access_mode_4_2(const void *mk)
{
    return ((const Mlx5Mkey *)mk)->access_mode >> 2;
}

static uint64_t mkc_translations_octword_size(const void *mk)
{
    return ((const Mlx5Mkey *)mk)->mtt_cap / 2;
}

/* What a key keeps of its mkc, and QUERY_MKEY reports. */
#define MKC_(f, m) MLX5_CTX_FIELD(PRM_OFF(mkc, f), PRM_W(mkc, f), Mlx5Mkey, m, 0, MLX5_CTX_INOUT)
#define MKC_STATE_(f) MLX5_CTX_STATE(PRM_OFF(mkc, f), PRM_W(mkc, f), mkc_##f)
static const Mlx5CtxField mkc_fields[] = {
    MKC_(mkey_7_0, key8), MKC_(pd, pd), MKC_(qpn, qpn),
    MKC_(free, free), MKC_(umr_en, umr_en), MKC_(en_rinval, en_rinval),
    MKC_(lr, lr), MKC_(lw, lw), MKC_(rr, rr), MKC_(rw, rw), MKC_(a, a),
    MKC_(length64, length64), MKC_(start_addr, start_addr), MKC_(len, len),
    MKC_(log_page_size, log_page_size),
    MKC_STATE_(access_mode_1_0), MKC_STATE_(access_mode_4_2),
    MKC_STATE_(translations_octword_size),
};

/* A device-memory key (mlx5_ib mr.c mlx5_ib_reg_dm_mr): start_addr is
 * the BAR0 offset of its first byte, which lies in an allocation
 * (ALLOC_MEMIC) with the whole key.  Its addresses are zero-based (the
 * data path's hw-rdma/mkey.c): libibverbs gives a DM MR address 0, as
 * the process never sees where the memory is (cmd_dm.c
 * ibv_cmd_reg_dm_mr).  A key of length 0 is a key over nothing (rdma-core's
 * DeviceMemoryAPITest.test_create_dm_mr registers one). */
static unsigned mkey_check_memic(Mlx5Fw *fw, Mlx5Cmd *c, const Mlx5Mkey *mk)
{
    uint64_t off = mk->start_addr - MLX5_MEMIC_BAR_OFFSET;

    if (mk->length64 || mk->start_addr < MLX5_MEMIC_BAR_OFFSET ||
        off > MLX5_MEMIC_BAR_BYTES || mk->len > MLX5_MEMIC_BAR_BYTES - off) {
        return CMD_FAIL(c, BAD_PARAM, MEMIC_RANGE);
    }
    if (!mlx5_memic_allocated(fw, off, mk->len)) {
        return CMD_FAIL(c, BAD_PARAM, MEMIC_NOT_ALLOCATED);
    }
    return MLX5_CMD_STAT_OK;
}

unsigned cmd_create_mkey(Mlx5Fw *fw, Mlx5Cmd *c)
{
    const uint8_t *mkc = PRM_PTR(create_mkey_in, memory_key_mkey_entry, c->in);
    uint8_t mode = PRM_GET(mkc, access_mode_1_0, mkc) |
                   PRM_GET(mkc, access_mode_4_2, mkc) << 2;
    Mlx5Mkey *mk;
    unsigned st = MLX5_CMD_STAT_OK;

    /* Physical-address keys are what mlx5e and the kernel's DMA MRs use;
     * MTT keys are user memory registrations (mlx5_ib mr.c reg_create);
     * indirect keys name other keys (memory windows, SG-gaps MRs); MEMIC
     * keys device memory.  SW_ICM (4) needs software steering. */
    if (mode > MLX5_MKC_ACCESS_MODE_KSM && mode != MLX5_MKC_ACCESS_MODE_MEMIC) {
        return CMD_FAIL(c, BAD_PARAM, BAD_ACCESS_MODE);
    }
    if (PRM_GET(create_mkey_in, mkey_umem_valid, c->in)) {
        return CMD_FAIL(c, BAD_PARAM, NO_UMEM);
    }
    if (!mlx5_table_get(&fw->pd, PRM_GET(mkc, pd, mkc))) {
        return CMD_FAIL(c, BAD_PARAM, BAD_PD);
    }
    mk = g_new0(Mlx5Mkey, 1);
    mk->access_mode = mode;
    mlx5_ctx_load(mk, mkc, MLX5_CTX_FIELDS(mkc_fields));
    if (mode == MLX5_MKC_ACCESS_MODE_MTT) {
        st = mkey_load_mtt(fw, c, mkc, mk);
    } else if (mlx5_mkey_mode_indirect(mode)) {
        st = mkey_load_indirect(fw, c, mkc, mk);
    } else if (mode == MLX5_MKC_ACCESS_MODE_MEMIC) {
        st = mkey_check_memic(fw, c, mk);
    }
    st = mlx5_cmd_add_built(c, st, &fw->mkey, mk, &mk->index);
    if (st != MLX5_CMD_STAT_OK) {
        return st;
    }
    c->obj = mk->index << 8 | mk->key8;
    PRM_SET(create_mkey_out, mkey_index, c->out, mk->index);
    mlx5emu_trace_mkey_create(c->obj, mode, mk->pd, mk->start_addr, mk->len,
                              mk->length64);
    return MLX5_CMD_STAT_OK;
}

unsigned cmd_destroy_mkey(Mlx5Fw *fw, Mlx5Cmd *c)
{
    return mlx5_cmd_remove(c, &fw->mkey, PRM_GET(destroy_mkey_in, mkey_index, c->in),
                           MLX5_SYND_BAD_MKEY);
}

unsigned cmd_query_mkey(Mlx5Fw *fw, Mlx5Cmd *c)
{
    uint32_t idx = PRM_GET(query_mkey_in, mkey_index, c->in);

    return mlx5_cmd_query(c, mlx5_table_get(&fw->mkey, idx), idx, MLX5_SYND_BAD_MKEY,
                          PRM_PTR(query_mkey_out, memory_key_mkey_entry, c->out),
                          MLX5_CTX_FIELDS(mkc_fields));
}
