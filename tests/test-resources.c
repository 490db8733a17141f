/*
 * Simple resources (UAR, PD, transport domain, XRC domain, Q counter),
 * memory keys, event queues and completion queues: create/query/modify/
 * destroy with good input, and the PRM answer to bad, stale and
 * out-of-range ids, double destroys, bad sizes and short page lists.
 */
#include <string.h>

#include "harness.h"

/* --- simple resources ------------------------------------------------- */

typedef struct SimpleRes {
    const char *name;
    uint16_t alloc, dealloc;
    uint32_t bad_syndrome;
    uint32_t max_id;
} SimpleRes;

static const SimpleRes simple[] = {
    { "uar", OP_ALLOC_UAR, OP_DEALLOC_UAR, MLX5_SYND_BAD_UAR, 0xffffff },
    { "pd", OP_ALLOC_PD, OP_DEALLOC_PD, MLX5_SYND_BAD_PD, 0xffffff },
    { "transport-domain", OP_ALLOC_TRANSPORT_DOMAIN, OP_DEALLOC_TRANSPORT_DOMAIN,
      MLX5_SYND_BAD_TD, 0xffffff },
    { "xrcd", OP_ALLOC_XRCD, OP_DEALLOC_XRCD, MLX5_SYND_BAD_ID, 0xffffff },
    { "q-counter", OP_ALLOC_Q_COUNTER, OP_DEALLOC_Q_COUNTER, MLX5_SYND_BAD_ID, 0xff },
};

static void test_simple_alloc_free(gconstpointer p)
{
    const SimpleRes *r = p;
    g_autoptr(Harness) h = h_new();
    uint32_t a, b;
    unsigned n;

    h_init(h);
    a = h_alloc_simple(h, r->alloc);
    b = h_alloc_simple(h, r->alloc);
    g_assert_cmpuint(a, !=, b);
    g_assert_cmpuint(a, !=, 0);
    g_assert_cmpuint(b, !=, 0);
    n = mlx5_fw_object_count(h->fw);
    h_destroy(h, r->dealloc, a);
    g_assert_cmpuint(mlx5_fw_object_count(h->fw), ==, n - 1);
    h_destroy(h, r->dealloc, b);
}

static void test_simple_double_free(gconstpointer p)
{
    const SimpleRes *r = p;
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) again = NULL;
    uint32_t id;

    h_init(h);
    id = h_alloc_simple(h, r->alloc);
    h_destroy(h, r->dealloc, id);
    again = h_destroy_cmd(r->dealloc, id);
    h_fail(h, again, MLX5_CMD_STAT_BAD_RES, r->bad_syndrome);
}

static void test_simple_never_allocated(gconstpointer p)
{
    const SimpleRes *r = p;
    const uint32_t ids[] = { 0, 1, r->max_id };
    g_autoptr(Harness) h = h_new();

    h_init(h);
    for (size_t i = 0; i < G_N_ELEMENTS(ids); i++) {
        g_autoptr(HCmd) c = h_destroy_cmd(r->dealloc, ids[i]);
        h_fail(h, c, MLX5_CMD_STAT_BAD_RES, r->bad_syndrome);
    }
}

/* A number just freed is not handed out again at once. */
static void test_simple_fresh_ids(gconstpointer p)
{
    const SimpleRes *r = p;
    g_autoptr(Harness) h = h_new();
    uint32_t a, b;

    h_init(h);
    a = h_alloc_simple(h, r->alloc);
    h_destroy(h, r->dealloc, a);
    b = h_alloc_simple(h, r->alloc);
    g_assert_cmpuint(a, !=, b);
}

static void test_uar_index_above_init_segment(void)
{
    g_autoptr(Harness) h = h_new();

    h_init(h);
    for (int i = 0; i < 4; i++) {
        uint32_t uar = h_alloc_simple(h, OP_ALLOC_UAR);
        g_assert_cmpuint(uar, >=, MLX5_FIRST_UAR_INDEX);
        g_assert_cmpuint(uar, <=, MLX5_MAX_UAR_INDEX);
    }
}

static void test_q_counter_limit(void)
{
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) over = hcmd_new(OP_ALLOC_Q_COUNTER, 0);
    uint32_t first = 0;

    h_init(h);
    for (unsigned i = 0; i < 16; i++) {                 /* max_qp_cnt */
        uint32_t id = h_alloc_simple(h, OP_ALLOC_Q_COUNTER);
        first = first ? first : id;
    }
    h_fail(h, over, MLX5_CMD_STAT_LIM_ERR, MLX5_SYND_OBJECT_LIMIT);
    h_destroy(h, OP_DEALLOC_Q_COUNTER, first);
    h_alloc_simple(h, OP_ALLOC_Q_COUNTER);
}

static void test_query_q_counter(void)
{
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) c = hcmd_new(OP_QUERY_Q_COUNTER, 0);
    g_autoptr(HCmd) stale = hcmd_new(OP_QUERY_Q_COUNTER, 0);
    uint32_t id;

    h_init(h);
    id = h_alloc_simple(h, OP_ALLOC_Q_COUNTER);
    IN_SET(c, query_q_counter_in, counter_set_id, id);
    IN_SET(c, query_q_counter_in, clear, 1);
    h_ok(h, c);
    g_assert_cmpuint(OUT_GET(c, query_q_counter_out, out_of_buffer), ==, 0);
    h_destroy(h, OP_DEALLOC_Q_COUNTER, id);
    IN_SET(stale, query_q_counter_in, counter_set_id, id);
    h_fail(h, stale, MLX5_CMD_STAT_BAD_RES, MLX5_SYND_BAD_ID);
}

/* Capabilities bound the tables: 2^log_max_pd PDs, not the 2^24 ids the
 * table could hand out (each one costs host memory); one more is "limits
 * exceeded". */
static void test_pd_count_limited_by_log_max_pd(void)
{
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) over = hcmd_new(OP_ALLOC_PD, 0);
    unsigned max;

    h_init(h);
    max = 1u << MLX5_CAP_GET(h->fw, MLX5_CAP_GENERAL, cmd_hca_cap, log_max_pd);
    for (unsigned i = 0; i < max; i++) {
        g_autoptr(HCmd) c = hcmd_new(OP_ALLOC_PD, 0);
        g_assert_cmphex(mlx5_fw_exec(h->fw, c->in, c->inlen, c->out, c->outlen), ==, 0);
    }
    h_fail(h, over, MLX5_CMD_STAT_LIM_ERR, MLX5_SYND_OBJECT_LIMIT);
}

/* --- memory keys ------------------------------------------------------ */

static HCmd *mkey_cmd(Harness *h)
{
    HCmd *c = hcmd_new(OP_CREATE_MKEY, 0);
    uint8_t *mkc = IN_PTR(c, create_mkey_in, memory_key_mkey_entry);

    PRM_SET(mkc, pd, mkc, h->pd);
    PRM_SET(mkc, lr, mkc, 1);
    return c;
}

static void test_mkey_create_query(void)
{
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) q = hcmd_new(OP_QUERY_MKEY, 0);
    uint32_t key;
    uint8_t *mkc;

    h_bringup(h);
    key = h_create_mkey(h, GUEST_BASE + PAGE, 3 * PAGE, true);
    g_assert_cmphex(key & 0xff, ==, 0x42);
    IN_SET(q, query_mkey_in, mkey_index, key >> 8);
    h_ok(h, q);
    mkc = OUT_PTR(q, query_mkey_out, memory_key_mkey_entry);
    g_assert_cmphex(PRM_GET(mkc, mkey_7_0, mkc), ==, 0x42);
    g_assert_cmphex(PRM_GET(mkc, pd, mkc), ==, h->pd);
    g_assert_cmphex(PRM_GET(mkc, start_addr, mkc), ==, GUEST_BASE + PAGE);
    g_assert_cmphex(PRM_GET(mkc, len, mkc), ==, 3 * PAGE);
    g_assert_cmphex(PRM_GET(mkc, qpn, mkc), ==, 0xffffff);
    g_assert_cmpuint(PRM_GET(mkc, lr, mkc), ==, 1);
    g_assert_cmpuint(PRM_GET(mkc, lw, mkc), ==, 1);
    g_assert_cmpuint(PRM_GET(mkc, rr, mkc), ==, 0);
    g_assert_cmpuint(PRM_GET(mkc, access_mode_1_0, mkc), ==, 0);
}

static void test_mkey_length64(void)
{
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) c = NULL;
    uint8_t *mkc;

    h_bringup(h);
    c = mkey_cmd(h);
    mkc = IN_PTR(c, create_mkey_in, memory_key_mkey_entry);
    PRM_SET(mkc, length64, mkc, 1);
    h_ok(h, c);
    g_assert_true(((Mlx5Mkey *)mlx5_table_get(&h->fw->mkey,
                   OUT_GET(c, create_mkey_out, mkey_index)))->length64);
}

static void test_mkey_bad_access_mode(void)
{
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) mtt = NULL;
    g_autoptr(HCmd) high = NULL;
    uint8_t *mkc;

    h_bringup(h);
    mtt = mkey_cmd(h);
    mkc = IN_PTR(mtt, create_mkey_in, memory_key_mkey_entry);
    PRM_SET(mkc, access_mode_1_0, mkc, 0);                 /* 4: SW_ICM */
    PRM_SET(mkc, access_mode_4_2, mkc, 1);
    h_fail(h, mtt, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_ACCESS_MODE);
    high = mkey_cmd(h);
    mkc = IN_PTR(high, create_mkey_in, memory_key_mkey_entry);
    PRM_SET(mkc, access_mode_4_2, mkc, 7);                 /* 28: none */
    h_fail(h, high, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_ACCESS_MODE);
}

static void test_mkey_bad_pd(void)
{
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) never = NULL;
    g_autoptr(HCmd) stale = NULL;
    uint32_t pd;

    h_bringup(h);
    never = mkey_cmd(h);
    PRM_SET(mkc, pd, IN_PTR(never, create_mkey_in, memory_key_mkey_entry), 0xfffff0);
    h_fail(h, never, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_PD);
    pd = h_alloc_simple(h, OP_ALLOC_PD);
    h_destroy(h, OP_DEALLOC_PD, pd);
    stale = mkey_cmd(h);
    PRM_SET(mkc, pd, IN_PTR(stale, create_mkey_in, memory_key_mkey_entry), pd);
    h_fail(h, stale, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_PD);
}

static void test_mkey_stale(void)
{
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) again = NULL;
    g_autoptr(HCmd) q = hcmd_new(OP_QUERY_MKEY, 0);
    uint32_t key;

    h_bringup(h);
    key = h_create_mkey(h, GUEST_BASE, PAGE, true);
    h_destroy(h, OP_DESTROY_MKEY, key >> 8);
    again = h_destroy_cmd(OP_DESTROY_MKEY, key >> 8);
    h_fail(h, again, MLX5_CMD_STAT_BAD_RES, MLX5_SYND_BAD_MKEY);
    IN_SET(q, query_mkey_in, mkey_index, key >> 8);
    h_fail(h, q, MLX5_CMD_STAT_BAD_RES, MLX5_SYND_BAD_MKEY);
}

/* --- event queues ----------------------------------------------------- */

static HCmd *query_eq(Harness *h, uint32_t eqn)
{
    HCmd *c = hcmd_new(OP_QUERY_EQ, 0);
    IN_SET(c, query_eq_in, eq_number, eqn);
    return h_ok(h, c);
}

static void test_eq_create_query(void)
{
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) q = NULL;
    HRing eq;
    uint8_t *eqc;

    h_bringup(h);
    eq = h_create_eq(h, 5, 3, 1ull << MLX5_EVENT_PORT_CHANGE);
    q = query_eq(h, eq.num);
    eqc = OUT_PTR(q, query_eq_out, eq_context_entry);
    g_assert_cmpuint(PRM_GET(eqc, log_eq_size, eqc), ==, 5);
    g_assert_cmpuint(PRM_GET(eqc, intr, eqc), ==, 3);
    g_assert_cmpuint(PRM_GET(eqc, uar_page, eqc), ==, h->uar);
    g_assert_cmpuint(PRM_GET(eqc, log_page_size, eqc), ==, 0);
    g_assert_cmpuint(PRM_GET(eqc, producer_counter, eqc), ==, 0);
    g_assert_cmphex(prm_be64(OUT_PTR(q, query_eq_out, event_bitmask)), ==,
                    1ull << MLX5_EVENT_PORT_CHANGE);
}

static void test_eq_state_follows_doorbell(void)
{
    g_autoptr(Harness) h = h_new();
    HRing eq;

    h_bringup(h);
    eq = h_create_eq(h, 2, 3, 0);
    {
        g_autoptr(HCmd) q = query_eq(h, eq.num);
        uint8_t *eqc = OUT_PTR(q, query_eq_out, eq_context_entry);
        g_assert_cmphex(PRM_GET(eqc, st, eqc), ==, 0xa);           /* fired */
    }
    h_eq_arm(h, &eq);
    {
        g_autoptr(HCmd) q = query_eq(h, eq.num);
        uint8_t *eqc = OUT_PTR(q, query_eq_out, eq_context_entry);
        g_assert_cmphex(PRM_GET(eqc, st, eqc), ==, 0x9);           /* armed */
    }
}

static void test_eq_bad_input(void)
{
    g_autoptr(Harness) h = h_new();
    HRing r;
    uint8_t *eqc;

    h_bringup(h);
    {
        g_autoptr(HCmd) c = h_create_eq_cmd(h, &r, 14, 0, 0);
        h_fail(h, c, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_SIZE);
    }
    {
        g_autoptr(HCmd) c = h_create_eq_cmd(h, &r, 2, 0, 0);
        eqc = IN_PTR(c, create_eq_in, eq_context_entry);
        PRM_SET(eqc, log_page_size, eqc, 19);
        h_fail(h, c, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_PAGE_SIZE);
    }
    {
        g_autoptr(HCmd) c = h_create_eq_cmd(h, &r, 2, H_MSIX_VECTORS, 0);
        h_fail(h, c, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_VECTOR);
    }
    {
        g_autoptr(HCmd) c = h_create_eq_cmd(h, &r, 2, 0xfff, 0);
        h_fail(h, c, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_VECTOR);
    }
    {
        g_autoptr(HCmd) c = h_create_eq_cmd(h, &r, 2, 0, 0);
        eqc = IN_PTR(c, create_eq_in, eq_context_entry);
        PRM_SET(eqc, uar_page, eqc, 3);                 /* init segment page */
        h_fail(h, c, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_UAR);
    }
}

/* A page list in the ring (up to MLX5_RING_INLINE_PAS pages) and on the
 * heap (in blocks of MLX5_RING_HEAP_MIN_PAS at least): each entry at the
 * page the list names, the cost the table is charged, freed once (ASan). */
static void test_ring_page_list_inline_and_heap(void)
{
    /* in the ring, its last inline slot, a minimum heap block, more */
    static const unsigned log_pages[] = { 0, 2, 3, 6 };

    for (size_t k = 0; k < G_N_ELEMENTS(log_pages); k++) {
        unsigned n = 1u << log_pages[k];
        g_autofree uint8_t *pas = g_malloc(n * 8);
        Mlx5Ring r;
        uint64_t a;

        for (unsigned i = 0; i < n; i++) {
            prm_put_be64(pas + i * 8, 0x100000ull * (i + 1) + 0xfff);   /* low bits ignored */
        }
        /* 64 entries of 64 bytes per 4 KiB page; one page short fails */
        g_assert_false(mlx5_ring_init(&r, pas, n * 8 - 8, (uint8_t)(log_pages[k] + 6), 6, 12, 0));
        g_assert_true(mlx5_ring_init(&r, pas, n * 8, (uint8_t)(log_pages[k] + 6), 6, 12, 0));
        g_assert_cmpuint(r.npas, ==, n);
        for (unsigned i = 0; i < n; i++) {
            g_assert_true(mlx5_ring_entry_addr(&r, i * 64 + 63, &a));
            g_assert_cmphex(a, ==, 0x100000ull * (i + 1) + 63 * 64);
        }
        g_assert_cmpuint(mlx5_ring_bytes(&r), ==,
                         n <= MLX5_RING_INLINE_PAS ? 0 : MAX(n, MLX5_RING_HEAP_MIN_PAS) * 8);
        mlx5_ring_fini(&r);
        g_assert_null(r.pas);
    }
}

static void test_eq_page_list_shorter_than_queue(void)
{
    g_autoptr(Harness) h = h_new();
    HRing r;

    h_bringup(h);
    {
        g_autoptr(HCmd) c = h_create_eq_cmd(h, &r, 7, 0, 0);    /* 8 KiB: 2 pages */
        c->inlen -= 8;
        h_fail(h, c, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_PAS_TOO_SHORT);
    }
    {
        g_autoptr(HCmd) c = h_create_eq_cmd(h, &r, 0, 0, 0);
        c->inlen = PRM_BYTES(create_eq_in);                      /* no page at all */
        h_fail(h, c, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_PAS_TOO_SHORT);
    }
    {
        /* page_offset pushes the ring into a second page. */
        g_autoptr(HCmd) c = h_create_eq_cmd(h, &r, 6, 0, 0);
        uint8_t *eqc = IN_PTR(c, create_eq_in, eq_context_entry);
        PRM_SET(eqc, page_offset, eqc, 1);
        h_fail(h, c, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_PAS_TOO_SHORT);
    }
}

static void test_eq_stale_and_double_destroy(void)
{
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) again = NULL;
    g_autoptr(HCmd) q = hcmd_new(OP_QUERY_EQ, 0);
    g_autoptr(HCmd) never = h_destroy_cmd(OP_DESTROY_EQ, 255);
    HRing eq;

    h_bringup(h);
    eq = h_create_eq(h, 2, 0, 0);
    h_destroy(h, OP_DESTROY_EQ, eq.num);
    again = h_destroy_cmd(OP_DESTROY_EQ, eq.num);
    h_fail(h, again, MLX5_CMD_STAT_BAD_RES, MLX5_SYND_BAD_EQ);
    IN_SET(q, query_eq_in, eq_number, eq.num);
    h_fail(h, q, MLX5_CMD_STAT_BAD_RES, MLX5_SYND_BAD_EQ);
    h_fail(h, never, MLX5_CMD_STAT_BAD_RES, MLX5_SYND_BAD_EQ);
}

static void test_eq_table_full(void)
{
    g_autoptr(Harness) h = h_new();
    HRing r;
    g_autoptr(HCmd) over = NULL;

    h_bringup(h);
    /* As many EQs as the capability advertises (1 << log_max_eq). */
    while (mlx5_table_count(&h->fw->eq) <
           1u << MLX5_CAP_GET(h->fw, MLX5_CAP_GENERAL, cmd_hca_cap, log_max_eq)) {
        h_create_eq(h, 0, 0, 0);
    }
    over = h_create_eq_cmd(h, &r, 0, 0, 0);
    h_fail(h, over, MLX5_CMD_STAT_LIM_ERR, MLX5_SYND_OBJECT_LIMIT);
}

/* --- completion queues ------------------------------------------------ */

static HCmd *query_cq(Harness *h, uint32_t cqn)
{
    HCmd *c = hcmd_new(OP_QUERY_CQ, 0);
    IN_SET(c, query_cq_in, cqn, cqn);
    return h_ok(h, c);
}

static void test_cq_create_query(void)
{
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) q = NULL;
    HRing cq;
    uint8_t *cqc;

    h_bringup(h);
    cq = h_create_cq(h, h->comp_eq.num, 7);
    q = query_cq(h, cq.num);
    cqc = OUT_PTR(q, query_cq_out, cq_context);
    g_assert_cmpuint(PRM_GET(cqc, log_cq_size, cqc), ==, 7);
    g_assert_cmpuint(PRM_GET(cqc, cqe_sz, cqc), ==, 0);
    g_assert_cmpuint(PRM_GET(cqc, c_eqn_or_apu_element, cqc), ==, h->comp_eq.num);
    g_assert_cmpuint(PRM_GET(cqc, uar_page, cqc), ==, h->uar);
    g_assert_cmphex(PRM_GET(cqc, dbr_addr, cqc), ==, cq.dbr);
    g_assert_cmpuint(PRM_GET(cqc, status, cqc), ==, 0);
    g_assert_cmpuint(PRM_GET(cqc, producer_counter, cqc), ==, 0);
}

/* 128-byte CQEs, plain (cqe_sz 1) and "padded" (2, cap cqe_128_always):
 * a 128-byte stride, the size reported back; compression asked for is
 * kept and reported, though no CQE is ever compressed. */
static void test_cq_128_byte_cqes(void)
{
    g_autoptr(Harness) h = h_new();

    h_bringup(h);
    g_assert_cmpuint(MLX5_CAP_GET(h->fw, MLX5_CAP_GENERAL, cmd_hca_cap, cqe_128_always), ==, 1);
    g_assert_cmpuint(MLX5_CAP_GET(h->fw, MLX5_CAP_GENERAL, cmd_hca_cap, cqe_compression), ==, 1);
    for (unsigned sz = 1; sz <= 2; sz++) {
        g_autoptr(HCmd) c = NULL;
        g_autoptr(HCmd) q = NULL;
        HRing cq;
        uint8_t *cqc;

        c = h_create_cq_cmd(h, &cq, h->comp_eq.num, 5);   /* 2 KiB: one page holds 128 B x 32 */
        cqc = IN_PTR(c, create_cq_in, cq_context);
        PRM_SET(cqc, cqe_sz, cqc, sz);
        PRM_SET(cqc, cqe_comp_en, cqc, sz == 2);
        PRM_SET(cqc, mini_cqe_res_format, cqc, sz == 2);
        h_ok(h, c);
        g_assert_cmpuint(((Mlx5Cq *)mlx5_table_get(&h->fw->cq, OUT_GET(c, create_cq_out, cqn)))
                         ->ring.log_stride, ==, 7);
        q = query_cq(h, OUT_GET(c, create_cq_out, cqn));
        cqc = OUT_PTR(q, query_cq_out, cq_context);
        g_assert_cmpuint(PRM_GET(cqc, cqe_sz, cqc), ==, sz);
        g_assert_cmpuint(PRM_GET(cqc, cqe_comp_en, cqc), ==, sz == 2);
        g_assert_cmpuint(PRM_GET(cqc, mini_cqe_res_format, cqc), ==, sz == 2);
    }
}

static void test_cq_bad_input(void)
{
    g_autoptr(Harness) h = h_new();
    HRing r;
    uint8_t *cqc;

    h_bringup(h);
    {
        g_autoptr(HCmd) c = h_create_cq_cmd(h, &r, h->comp_eq.num, 2);
        cqc = IN_PTR(c, create_cq_in, cq_context);
        PRM_SET(cqc, log_cq_size, cqc, 23);
        h_fail(h, c, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_SIZE);
    }
    {
        g_autoptr(HCmd) c = h_create_cq_cmd(h, &r, h->comp_eq.num, 2);
        cqc = IN_PTR(c, create_cq_in, cq_context);
        PRM_SET(cqc, cqe_sz, cqc, 3);                   /* 64, 128, 128 padded: no more */
        h_fail(h, c, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_STRIDE);
    }
    {
        g_autoptr(HCmd) c = h_create_cq_cmd(h, &r, h->comp_eq.num, 2);
        cqc = IN_PTR(c, create_cq_in, cq_context);
        PRM_SET(cqc, log_page_size, cqc, 19);
        h_fail(h, c, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_PAGE_SIZE);
    }
    {
        g_autoptr(HCmd) c = h_create_cq_cmd(h, &r, 200, 2);
        h_fail(h, c, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_EQ);
    }
    {
        g_autoptr(HCmd) c = h_create_cq_cmd(h, &r, h->comp_eq.num, 2);
        cqc = IN_PTR(c, create_cq_in, cq_context);
        PRM_SET(cqc, uar_page, cqc, h->uar + 1);
        h_fail(h, c, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_UAR);
    }
    {
        g_autoptr(HCmd) c = h_create_cq_cmd(h, &r, h->comp_eq.num, 8);  /* 4 pages */
        c->inlen -= 8;
        h_fail(h, c, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_PAS_TOO_SHORT);
    }
    {
        /* 128-byte CQEs need twice the pages. */
        g_autoptr(HCmd) c = h_create_cq_cmd(h, &r, h->comp_eq.num, 6);
        cqc = IN_PTR(c, create_cq_in, cq_context);
        PRM_SET(cqc, cqe_sz, cqc, 1);
        h_fail(h, c, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_PAS_TOO_SHORT);
    }
}

static void test_cq_modify_moderation(void)
{
    g_autoptr(Harness) h = h_new();
    HRing cq;

    h_bringup(h);
    cq = h_create_cq(h, h->comp_eq.num, 2);
    for (uint32_t sel = 0; sel < 4; sel++) {
        g_autoptr(HCmd) c = hcmd_new(OP_MODIFY_CQ, 0);
        g_autoptr(HCmd) q = NULL;
        uint8_t *cqc = IN_PTR(c, modify_cq_in, cq_context);

        IN_SET(c, modify_cq_in, cqn, cq.num);
        IN_SET(c, modify_cq_in, modify_field_select_resize_field_select, sel);
        PRM_SET(cqc, cq_period, cqc, 10 + sel);
        PRM_SET(cqc, cq_max_count, cqc, 20 + sel);
        h_ok(h, c);
        q = query_cq(h, cq.num);
        cqc = OUT_PTR(q, query_cq_out, cq_context);
        if (sel & 1) {
            g_assert_cmpuint(PRM_GET(cqc, cq_period, cqc), ==, 10 + sel);
        }
        if (sel & 2) {
            g_assert_cmpuint(PRM_GET(cqc, cq_max_count, cqc), ==, 20 + sel);
        }
        if (sel == 0) {
            g_assert_cmpuint(PRM_GET(cqc, cq_period, cqc), ==, 0);
        }
    }
}

static void test_cq_modify_bad_input(void)
{
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) resize = hcmd_new(OP_MODIFY_CQ, 1);
    g_autoptr(HCmd) other = hcmd_new(OP_MODIFY_CQ, 2);
    g_autoptr(HCmd) stale = hcmd_new(OP_MODIFY_CQ, 0);
    HRing cq;

    h_bringup(h);
    cq = h_create_cq(h, h->comp_eq.num, 2);
    IN_SET(resize, modify_cq_in, cqn, cq.num);          /* a resize without its page list */
    h_fail(h, resize, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_PAS_TOO_SHORT);
    IN_SET(other, modify_cq_in, cqn, cq.num);
    h_fail(h, other, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_OP_MOD);
    IN_SET(stale, modify_cq_in, cqn, cq.num + 1);
    h_fail(h, stale, MLX5_CMD_STAT_BAD_RES, MLX5_SYND_BAD_CQ);
}

static void test_cq_stale_and_double_destroy(void)
{
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) again = NULL;
    g_autoptr(HCmd) q = hcmd_new(OP_QUERY_CQ, 0);
    HRing cq;

    h_bringup(h);
    cq = h_create_cq(h, h->comp_eq.num, 2);
    h_destroy(h, OP_DESTROY_CQ, cq.num);
    again = h_destroy_cmd(OP_DESTROY_CQ, cq.num);
    h_fail(h, again, MLX5_CMD_STAT_BAD_RES, MLX5_SYND_BAD_CQ);
    IN_SET(q, query_cq_in, cqn, cq.num);
    h_fail(h, q, MLX5_CMD_STAT_BAD_RES, MLX5_SYND_BAD_CQ);
}

/* A CQ on a destroyed EQ: no new CQ may name that EQ. */
static void test_cq_on_destroyed_eq(void)
{
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) c = NULL;
    HRing eq, r;

    h_bringup(h);
    eq = h_create_eq(h, 2, 0, 0);
    h_destroy(h, OP_DESTROY_EQ, eq.num);
    c = h_create_cq_cmd(h, &r, eq.num, 2);
    h_fail(h, c, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_EQ);
}

static void add_simple(const char *what, GTestDataFunc fn)
{
    for (size_t i = 0; i < G_N_ELEMENTS(simple); i++) {
        g_autofree char *path = g_strdup_printf("/resources/%s/%s", simple[i].name, what);
        g_test_add_data_func(path, &simple[i], fn);
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    add_simple("alloc-free", test_simple_alloc_free);
    add_simple("double-free", test_simple_double_free);
    add_simple("never-allocated", test_simple_never_allocated);
    add_simple("fresh-ids", test_simple_fresh_ids);
    g_test_add_func("/resources/uar/index-above-init-segment", test_uar_index_above_init_segment);
    g_test_add_func("/resources/q-counter/limit", test_q_counter_limit);
    g_test_add_func("/resources/q-counter/query", test_query_q_counter);
    h_add_isolated("/resources/pd/count-limited-by-log-max-pd",
                   test_pd_count_limited_by_log_max_pd, 60);
    g_test_add_func("/resources/mkey/create-query", test_mkey_create_query);
    g_test_add_func("/resources/mkey/length64", test_mkey_length64);
    g_test_add_func("/resources/mkey/bad-access-mode", test_mkey_bad_access_mode);
    g_test_add_func("/resources/mkey/bad-pd", test_mkey_bad_pd);
    g_test_add_func("/resources/mkey/stale", test_mkey_stale);
    g_test_add_func("/resources/eq/create-query", test_eq_create_query);
    g_test_add_func("/resources/eq/state-follows-doorbell", test_eq_state_follows_doorbell);
    g_test_add_func("/resources/eq/bad-input", test_eq_bad_input);
    g_test_add_func("/resources/eq/page-list-shorter-than-queue",
                    test_eq_page_list_shorter_than_queue);
    g_test_add_func("/resources/ring-page-list-inline-and-heap",
                    test_ring_page_list_inline_and_heap);
    g_test_add_func("/resources/eq/stale-and-double-destroy", test_eq_stale_and_double_destroy);
    g_test_add_func("/resources/eq/table-full", test_eq_table_full);
    g_test_add_func("/resources/cq/create-query", test_cq_create_query);
    g_test_add_func("/resources/cq/128-byte-cqes", test_cq_128_byte_cqes);
    g_test_add_func("/resources/cq/bad-input", test_cq_bad_input);
    g_test_add_func("/resources/cq/modify-moderation", test_cq_modify_moderation);
    g_test_add_func("/resources/cq/modify-bad-input", test_cq_modify_bad_input);
    g_test_add_func("/resources/cq/stale-and-double-destroy", test_cq_stale_and_double_destroy);
    g_test_add_func("/resources/cq/on-destroyed-eq", test_cq_on_destroyed_eq);
    return g_test_run();
}
