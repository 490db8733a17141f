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

typedef struct Mlx5Res { uint32_t id; } Mlx5Res;

static unsigned res_alloc(Mlx5Table *t, Mlx5Cmd *c, uint32_t *id)
{
    Mlx5Res *r = g_new0(Mlx5Res, 1);

    if (!mlx5_table_alloc(t, r, &r->id)) {
        g_free(r);
        return CMD_FAIL(c, NO_RES, NO_RESOURCE);
    }
    *id = c->obj = r->id;
    return MLX5_CMD_STAT_OK;
}

static unsigned res_free(Mlx5Table *t, Mlx5Cmd *c, uint32_t id, uint32_t synd)
{
    c->obj = id;
    if (!mlx5_table_remove(t, id)) {
        c->syndrome = synd;
        return MLX5_CMD_STAT_BAD_RES;
    }
    return MLX5_CMD_STAT_OK;
}

#define RES_ALLOC_CMD(fn, table, layout, field) \
unsigned fn(Mlx5Fw *fw, Mlx5Cmd *c) \
{ \
    uint32_t id; \
    unsigned st = res_alloc(&fw->table, c, &id); \
    if (st == MLX5_CMD_STAT_OK) { \
        PRM_SET(layout, field, c->out, id); \
    } \
    return st; \
}
#define RES_FREE_CMD(fn, table, layout, field, synd) \
unsigned fn(Mlx5Fw *fw, Mlx5Cmd *c) \
{ \
    return res_free(&fw->table, c, PRM_GET(layout, field, c->in), MLX5_SYND_##synd); \
}

RES_ALLOC_CMD(cmd_alloc_uar, uar, alloc_uar_out, uar)
RES_FREE_CMD(cmd_dealloc_uar, uar, dealloc_uar_in, uar, BAD_UAR)
RES_ALLOC_CMD(cmd_alloc_pd, pd, alloc_pd_out, pd)
RES_FREE_CMD(cmd_dealloc_pd, pd, dealloc_pd_in, pd, BAD_PD)
RES_ALLOC_CMD(cmd_alloc_transport_domain, td, alloc_transport_domain_out, transport_domain)
RES_FREE_CMD(cmd_dealloc_transport_domain, td, dealloc_transport_domain_in, transport_domain, BAD_TD)
RES_ALLOC_CMD(cmd_alloc_xrcd, xrcd, alloc_xrcd_out, xrcd)
RES_FREE_CMD(cmd_dealloc_xrcd, xrcd, dealloc_xrcd_in, xrcd, BAD_ID)

unsigned cmd_alloc_q_counter(Mlx5Fw *fw, Mlx5Cmd *c)
{
    Mlx5QCounter *q = g_new0(Mlx5QCounter, 1);
    uint32_t max = MLX5_CAP_GET(fw, MLX5_CAP_GENERAL, cmd_hca_cap, max_qp_cnt);

    if (mlx5_table_count(&fw->q_counter) >= max ||
        !mlx5_table_alloc(&fw->q_counter, q, &q->id)) {
        g_free(q);
        return CMD_FAIL(c, NO_RES, NO_RESOURCE);
    }
    c->obj = q->id;
    PRM_SET(alloc_q_counter_out, counter_set_id, c->out, q->id);
    return MLX5_CMD_STAT_OK;
}

RES_FREE_CMD(cmd_dealloc_q_counter, q_counter, dealloc_q_counter_in, counter_set_id, BAD_ID)

unsigned cmd_query_q_counter(Mlx5Fw *fw, Mlx5Cmd *c)
{
    uint32_t id = PRM_GET(query_q_counter_in, counter_set_id, c->in);
    Mlx5QCounter *q = mlx5_table_get(&fw->q_counter, id);

    c->obj = id;
    if (!q) {
        return CMD_FAIL(c, BAD_RES, BAD_ID);
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

/* What all keys' page lists may hold together: 2^25 entries (256 MiB of
 * host memory) maps 128 GiB of 4 KiB pages, far more than a guest has;
 * past it CREATE_MKEY and UMR fail instead of growing without bound. */
#define MLX5_MTT_BUDGET (1ull << 25)

void mlx5_mkey_destroy(gpointer p)
{
    Mlx5Mkey *mk = p;

    if (mk->mtt_account) {
        *mk->mtt_account -= mk->nmtt;
    }
    g_free(mk->mtt);
    g_free(mk);
}

bool mlx5_mkey_mtt_grow(Mlx5Mkey *mk, uint64_t n)
{
    if (n <= mk->nmtt) {
        return true;
    }
    if (n > mk->mtt_cap || *mk->mtt_account + (n - mk->nmtt) > MLX5_MTT_BUDGET) {
        return false;
    }
    mk->mtt = g_renew(uint64_t, mk->mtt, n);
    memset(mk->mtt + mk->nmtt, 0, (n - mk->nmtt) * sizeof(*mk->mtt));
    *mk->mtt_account += n - mk->nmtt;
    mk->nmtt = (uint32_t)n;
    return true;
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

/* An MTT key's page list (create_mkey_in.klm_pas_mtt, 8 bytes per page,
 * the low bits are access flags mlx5_ib sets: MLX5_IB_MTT_READ/WRITE).
 * It must cover [start_addr, +len) and lie inside the command.  A free
 * key gets its list from UMR later (hw-rdma/umr.c). */
static unsigned mkey_load_mtt(Mlx5Fw *fw, Mlx5Cmd *c, const uint8_t *mkc, Mlx5Mkey *mk)
{
    uint64_t avail = (c->inlen - PRM_BYTE_OFF(create_mkey_in, klm_pas_mtt)) / 8;
    uint64_t page = (uint64_t)1 << mk->log_page_size;
    uint64_t cap = mkey_mtt_capacity(mkc);
    uint64_t need;

    if (mk->log_page_size < 12 || mk->log_page_size > 30) {
        return CMD_FAIL(c, BAD_PARAM, BAD_PAGE_SIZE);
    }
    if (cap > MLX5_MTT_BUDGET) {
        return CMD_FAIL(c, BAD_PARAM, BAD_LIST_SIZE);
    }
    mk->mtt_cap = (uint32_t)cap;
    mk->mtt_account = &fw->mtt_entries;
    if (mk->free) {
        return MLX5_CMD_STAT_OK;
    }
    need = mk->length64 ? 0 : ((mk->start_addr & (page - 1)) + mk->len + page - 1) / page;
    if (mk->length64 || cap < need || need > avail) {
        return CMD_FAIL(c, BAD_PARAM, BAD_LIST_SIZE);
    }
    if (!mlx5_mkey_mtt_grow(mk, need)) {
        return CMD_FAIL(c, NO_RES, NO_RESOURCE);
    }
    for (uint64_t i = 0; i < need; i++) {
        mk->mtt[i] = prm_be64(PRM_PTR(create_mkey_in, klm_pas_mtt, c->in) + i * 8) & ~(page - 1);
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
     * MTT keys are user memory registrations (mlx5_ib mr.c reg_create). */
    if (mode != MLX5_MKC_ACCESS_MODE_PA && mode != MLX5_MKC_ACCESS_MODE_MTT) {
        return CMD_FAIL(c, BAD_PARAM, BAD_ACCESS_MODE);
    }
    if (PRM_GET(create_mkey_in, mkey_umem_valid, c->in)) {
        return CMD_FAIL(c, BAD_PARAM, NO_UMEM);
    }
    if (!mlx5_table_get(&fw->pd, PRM_GET(mkc, pd, mkc))) {
        return CMD_FAIL(c, BAD_PARAM, BAD_PD);
    }
    mk = g_new0(Mlx5Mkey, 1);
    mk->key8 = PRM_GET(mkc, mkey_7_0, mkc);
    mk->pd = PRM_GET(mkc, pd, mkc);
    mk->access_mode = mode;
    mk->free = PRM_GET(mkc, free, mkc);
    mk->umr_en = PRM_GET(mkc, umr_en, mkc);
    mk->en_rinval = PRM_GET(mkc, en_rinval, mkc);
    mk->lr = PRM_GET(mkc, lr, mkc);
    mk->lw = PRM_GET(mkc, lw, mkc);
    mk->rr = PRM_GET(mkc, rr, mkc);
    mk->rw = PRM_GET(mkc, rw, mkc);
    mk->a = PRM_GET(mkc, a, mkc);
    mk->length64 = PRM_GET(mkc, length64, mkc);
    mk->start_addr = PRM_GET(mkc, start_addr, mkc);
    mk->len = PRM_GET(mkc, len, mkc);
    mk->qpn = PRM_GET(mkc, qpn, mkc);
    mk->log_page_size = PRM_GET(mkc, log_page_size, mkc);
    if (mode == MLX5_MKC_ACCESS_MODE_MTT) {
        st = mkey_load_mtt(fw, c, mkc, mk);
    }
    if (st != MLX5_CMD_STAT_OK) {
        mlx5_mkey_destroy(mk);
        return st;
    }
    if (!mlx5_table_alloc(&fw->mkey, mk, &mk->index)) {
        mlx5_mkey_destroy(mk);
        return CMD_FAIL(c, NO_RES, NO_RESOURCE);
    }
    c->obj = mk->index << 8 | mk->key8;
    PRM_SET(create_mkey_out, mkey_index, c->out, mk->index);
    mlx5emu_trace_mkey_create(c->obj, mode, mk->pd, mk->start_addr, mk->len,
                              mk->length64);
    return MLX5_CMD_STAT_OK;
}

unsigned cmd_destroy_mkey(Mlx5Fw *fw, Mlx5Cmd *c)
{
    return res_free(&fw->mkey, c, PRM_GET(destroy_mkey_in, mkey_index, c->in),
                    MLX5_SYND_BAD_MKEY);
}

unsigned cmd_query_mkey(Mlx5Fw *fw, Mlx5Cmd *c)
{
    uint32_t idx = PRM_GET(query_mkey_in, mkey_index, c->in);
    Mlx5Mkey *mk = mlx5_table_get(&fw->mkey, idx);
    uint8_t *mkc = PRM_PTR(query_mkey_out, memory_key_mkey_entry, c->out);

    c->obj = idx;
    if (!mk) {
        return CMD_FAIL(c, BAD_RES, BAD_MKEY);
    }
    PRM_SET(mkc, free, mkc, mk->free);
    PRM_SET(mkc, umr_en, mkc, mk->umr_en);
    PRM_SET(mkc, en_rinval, mkc, mk->en_rinval);
    PRM_SET(mkc, log_page_size, mkc, mk->log_page_size);
    PRM_SET(mkc, translations_octword_size, mkc, mk->mtt_cap / 2);
    PRM_SET(mkc, access_mode_1_0, mkc, mk->access_mode & 3);
    PRM_SET(mkc, access_mode_4_2, mkc, mk->access_mode >> 2);
    PRM_SET(mkc, lr, mkc, mk->lr);
    PRM_SET(mkc, lw, mkc, mk->lw);
    PRM_SET(mkc, rr, mkc, mk->rr);
    PRM_SET(mkc, rw, mkc, mk->rw);
    PRM_SET(mkc, a, mkc, mk->a);
    PRM_SET(mkc, qpn, mkc, mk->qpn);
    PRM_SET(mkc, mkey_7_0, mkc, mk->key8);
    PRM_SET(mkc, length64, mkc, mk->length64);
    PRM_SET(mkc, pd, mkc, mk->pd);
    PRM_SET(mkc, start_addr, mkc, mk->start_addr);
    PRM_SET(mkc, len, mkc, mk->len);
    return MLX5_CMD_STAT_OK;
}
