/*
 * Device memory (firmware-sim/memic.c, hw-rdma/mkey.c): the capability
 * page, ALLOC_MEMIC and DEALLOC_MEMIC with good and bad input, BAR0
 * access to the window, MEMIC keys at CREATE_MKEY, and the data path
 * through them - a WRITE, READ and atomics into device memory, a send
 * gathered from and a receive scattered into it, an access past the key
 * or after the memory was freed.
 */
#include <string.h>

#include "rc-env.h"
#include "wqe.h"

#define WIN MLX5_MEMIC_BAR_OFFSET
#define PAGE_4K 4096u

static HCmd *alloc_cmd(uint64_t range, uint32_t range_size, uint32_t size, unsigned align)
{
    HCmd *c = hcmd_new(OP_ALLOC_MEMIC, 0);

    IN_SET(c, alloc_memic_in, range_start_addr, range);
    IN_SET(c, alloc_memic_in, range_size, range_size);
    IN_SET(c, alloc_memic_in, memic_size, size);
    IN_SET(c, alloc_memic_in, log_memic_addr_alignment, align);
    return c;
}

/* ALLOC_MEMIC as mlx5_ib sends it: its BAR0 offset. */
static uint64_t memic_alloc(Harness *h, uint64_t range, uint32_t range_size, uint32_t size,
                            unsigned align)
{
    g_autoptr(HCmd) c = alloc_cmd(range, range_size, size, align);

    h_ok(h, c);
    return OUT_GET(c, alloc_memic_out, memic_start_addr);
}

static HCmd *dealloc_cmd(uint64_t start, uint32_t size)
{
    HCmd *c = hcmd_new(OP_DEALLOC_MEMIC, 0);

    IN_SET(c, dealloc_memic_in, memic_start_addr, start);
    IN_SET(c, dealloc_memic_in, memic_size, size);
    return c;
}

static void memic_free(Harness *h, uint64_t start, uint32_t size)
{
    h_ok_free(h, dealloc_cmd(start, size));
}

static void fail_free(Harness *h, HCmd *c, unsigned status, uint32_t synd)
{
    h_fail(h, c, status, synd);
    hcmd_free(c);
}

/* A MEMIC key over [start, +len) of BAR0 (mlx5_ib mr.c mlx5_ib_get_dm_mr). */
static HCmd *memic_mkey_cmd(Harness *h, uint64_t start, uint64_t len)
{
    HCmd *c = hcmd_new(OP_CREATE_MKEY, 0);
    uint8_t *mkc = IN_PTR(c, create_mkey_in, memory_key_mkey_entry);

    mkc_all_rights(mkc, h->pd);
    PRM_SET(mkc, access_mode_1_0, mkc, MLX5_MKC_ACCESS_MODE_MEMIC & 3);
    PRM_SET(mkc, access_mode_4_2, mkc, MLX5_MKC_ACCESS_MODE_MEMIC >> 2);
    PRM_SET(mkc, start_addr, mkc, start);
    PRM_SET(mkc, len, mkc, len);
    PRM_SET(mkc, mkey_7_0, mkc, 0x5d);
    return c;
}

static uint32_t memic_mkey(Harness *h, uint64_t start, uint64_t len)
{
    g_autoptr(HCmd) c = memic_mkey_cmd(h, start, len);

    h_ok(h, c);
    return OUT_GET(c, create_mkey_out, mkey_index) << 8 | 0x5d;
}

/* The device's bytes of the window, as the data path sees them. */
static uint8_t *memic_at(Harness *h, uint64_t bar_off)
{
    return h->fw->memic.bytes + (bar_off - WIN);
}

/* The page mlx5_core reads when device_memory is set, and what mlx5_ib
 * makes of it (max_dm_size = max_memic_size; a bitmap of at most 256
 * pages for the window). */
static void test_memic_caps(void)
{
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) gen = hcmd_new(OP_QUERY_HCA_CAP, MLX5_CAP_GENERAL << 1 | 1);
    g_autoptr(HCmd) dm = hcmd_new(OP_QUERY_HCA_CAP, MLX5_CAP_DEVICE_MEM << 1 | 1);
    const uint8_t *cap;

    h_enable(h);
    h_ok(h, gen);
    g_assert_cmpuint(PRM_GET(cmd_hca_cap, device_memory,
                             OUT_PTR(gen, query_hca_cap_out, capability)), ==, 1);
    h_ok(h, dm);
    cap = OUT_PTR(dm, query_hca_cap_out, capability);
    g_assert_cmpuint(PRM_GET(device_mem_cap, memic, cap), ==, 1);
    g_assert_cmphex(PRM_GET(device_mem_cap, memic_bar_start_addr, cap), ==, WIN);
    g_assert_cmpuint(PRM_GET(device_mem_cap, memic_bar_size, cap), ==, MLX5_MEMIC_BAR_BYTES);
    g_assert_cmpuint(PRM_GET(device_mem_cap, memic_bar_size, cap) / PAGE_4K, <=, 256);
    g_assert_cmpuint(PRM_GET(device_mem_cap, max_memic_size, cap), ==, MLX5_MEMIC_BAR_BYTES);
    g_assert_cmpuint(PRM_GET(device_mem_cap, memic_operations, cap), ==, 0);
    g_assert_cmpuint(WIN + MLX5_MEMIC_BAR_BYTES, ==, MLX5_BAR0_SIZE);
    g_assert_cmpuint(MLX5_MAX_UAR_INDEX, <, WIN / PAGE_4K);
}

/* Allocations land where the range and alignment say; a full range is
 * NO_RES (mlx5_ib's -EAGAIN: it tries the next page); a freed one is
 * found again, cleared. */
static void test_memic_alloc(void)
{
    g_autoptr(Harness) h = h_new_device();
    uint64_t a, b, c;

    h_bringup(h);
    h_trace_watch(h, "mlx5_memic*");
    a = memic_alloc(h, WIN, PAGE_4K, 64, 0);
    g_assert_cmphex(a, ==, WIN);
    b = memic_alloc(h, WIN, 2 * PAGE_4K, 64, 6);            /* 4 KiB aligned */
    g_assert_cmphex(b, ==, WIN + PAGE_4K);
    c = memic_alloc(h, WIN, PAGE_4K, 128, 0);               /* after a */
    g_assert_cmphex(c, ==, WIN + 64);
    fail_free(h, alloc_cmd(WIN + PAGE_4K, PAGE_4K, PAGE_4K, 0), MLX5_CMD_STAT_NO_RES,
              MLX5_SYND_MEMIC_FULL);
    memset(memic_at(h, c), 0xab, 128);
    memic_free(h, c, 128);
    g_assert_cmphex(memic_alloc(h, WIN, PAGE_4K, 64, 0), ==, c);
    g_assert_cmphex(*memic_at(h, c), ==, 0);                /* cleared */
    c = memic_alloc(h, WIN + 8 * PAGE_4K, 16 * PAGE_4K, 16 * PAGE_4K, 0);
    g_assert_cmphex(c, ==, WIN + 8 * PAGE_4K);
    /* a hole too small is passed over: granules 0, 1 and 4 are taken,
     * three go to 5-7 */
    g_assert_cmphex(memic_alloc(h, WIN + 4 * 64, 64, 64, 0), ==, WIN + 4 * 64);
    g_assert_cmphex(memic_alloc(h, WIN, PAGE_4K, 192, 0), ==, WIN + 5 * 64);
    g_assert_cmpuint(h->fw->memic.allocations, ==, 6);
    g_assert_cmpuint(h_traced(h, "mlx5_memic_alloc"), ==, 7);
    g_assert_cmpuint(h_traced(h, "NO_RES"), ==, 1);
    g_assert_cmpuint(mlx5_dev_reset(h->dev, "test"), >=, 6);
    g_assert_cmpuint(h->fw->memic.allocations, ==, 0);
}

/* What ALLOC_MEMIC and DEALLOC_MEMIC refuse: sizes of 0, not of 64-byte
 * granules or above max_memic_size; alignments above the capability;
 * ranges outside the window (below, across its end, wrapping); freeing
 * what is not exactly one allocation - a part, its middle, two at once,
 * twice. */
static void test_memic_bad_input(void)
{
    g_autoptr(Harness) h = h_new_device();
    uint64_t a, b;

    h_bringup(h);
    fail_free(h, alloc_cmd(WIN, PAGE_4K, 0, 0), MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_MEMIC_SIZE);
    fail_free(h, alloc_cmd(WIN, PAGE_4K, 100, 0), MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_MEMIC_SIZE);
    fail_free(h, alloc_cmd(WIN, MLX5_MEMIC_BAR_BYTES, MLX5_MEMIC_BAR_BYTES + 64, 0),
              MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_MEMIC_SIZE);
    fail_free(h, alloc_cmd(WIN, PAGE_4K, 64, 13), MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_MEMIC_ALIGN);
    fail_free(h, alloc_cmd(WIN - PAGE_4K, PAGE_4K, 64, 0), MLX5_CMD_STAT_BAD_PARAM,
              MLX5_SYND_MEMIC_RANGE);
    fail_free(h, alloc_cmd(MLX5_BAR0_SIZE - PAGE_4K, 2 * PAGE_4K, 64, 0),
              MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_MEMIC_RANGE);
    fail_free(h, alloc_cmd(UINT64_MAX - 63, 128, 64, 0), MLX5_CMD_STAT_BAD_PARAM,
              MLX5_SYND_MEMIC_RANGE);
    fail_free(h, alloc_cmd(WIN + 32, PAGE_4K, 64, 0), MLX5_CMD_STAT_BAD_PARAM,
              MLX5_SYND_MEMIC_RANGE);
    fail_free(h, alloc_cmd(WIN, PAGE_4K, 2 * PAGE_4K, 0), MLX5_CMD_STAT_NO_RES,
              MLX5_SYND_MEMIC_FULL);
    a = memic_alloc(h, WIN, PAGE_4K, 256, 0);
    b = memic_alloc(h, WIN, PAGE_4K, 256, 0);
    g_assert_cmphex(b, ==, a + 256);
    fail_free(h, dealloc_cmd(a, 128), MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_MEMIC_NOT_ALLOCATED);
    fail_free(h, dealloc_cmd(a + 64, 192), MLX5_CMD_STAT_BAD_PARAM,
              MLX5_SYND_MEMIC_NOT_ALLOCATED);
    fail_free(h, dealloc_cmd(a, 512), MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_MEMIC_NOT_ALLOCATED);
    fail_free(h, dealloc_cmd(a, 320), MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_MEMIC_NOT_ALLOCATED);
    fail_free(h, dealloc_cmd(a, 0), MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_MEMIC_RANGE);
    fail_free(h, dealloc_cmd(UINT64_MAX - 63, 64), MLX5_CMD_STAT_BAD_PARAM,
              MLX5_SYND_MEMIC_RANGE);
    memic_free(h, a, 256);
    fail_free(h, dealloc_cmd(a, 256), MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_MEMIC_NOT_ALLOCATED);
    memic_free(h, b, 256);
    g_assert_cmpuint(h->fw->memic.allocations, ==, 0);
}

/* BAR0 reaches the window's allocated bytes (big-endian values, as every
 * BAR0 access); what is not allocated reads 0 and keeps nothing. */
static void test_memic_bar0(void)
{
    g_autoptr(Harness) h = h_new_device();
    uint64_t a;

    h_bringup(h);
    a = memic_alloc(h, WIN + PAGE_4K, PAGE_4K, 64, 0);
    mlx5_dev_mmio_write(h->dev, a, 0x0102030405060708ull, 8);
    mlx5_dev_mmio_write(h->dev, a + 8, 0xa1b2, 2);
    g_assert_cmphex(memic_at(h, a)[0], ==, 0x01);
    g_assert_cmphex(memic_at(h, a)[7], ==, 0x08);
    g_assert_cmphex(memic_at(h, a)[8], ==, 0xa1);
    g_assert_cmphex(mlx5_dev_mmio_read(h->dev, a + 4, 4), ==, 0x05060708);
    h_trace_watch(h, "mlx5_ub_memic*");
    mlx5_dev_mmio_write(h->dev, a + 64, 0xffffffff, 4);       /* past it */
    g_assert_cmphex(*memic_at(h, a + 64), ==, 0);
    g_assert_cmphex(mlx5_dev_mmio_read(h->dev, WIN, 8), ==, 0);
    mlx5_dev_mmio_write(h->dev, a + 60, 0x1122334455667788ull, 8);  /* across its end */
    g_assert_cmphex(memic_at(h, a)[60], ==, 0);
    g_assert_cmpuint(h_traced(h, "not allocated"), ==, 3);
}

/* A MEMIC key must lie inside an allocation of the window, and is not
 * length64; one of length 0 is allowed (it grants nothing). */
static void test_memic_mkey_bad(void)
{
    g_autoptr(Harness) h = h_new_device();
    uint64_t a;
    HCmd *c;

    h_bringup(h);
    a = memic_alloc(h, WIN, PAGE_4K, 1024, 0);
    memic_mkey(h, a, 1024);
    memic_mkey(h, a + 512, 512);
    fail_free(h, memic_mkey_cmd(h, a, 1025), MLX5_CMD_STAT_BAD_PARAM,
              MLX5_SYND_MEMIC_NOT_ALLOCATED);
    fail_free(h, memic_mkey_cmd(h, a + PAGE_4K, 64), MLX5_CMD_STAT_BAD_PARAM,
              MLX5_SYND_MEMIC_NOT_ALLOCATED);
    fail_free(h, memic_mkey_cmd(h, WIN - 64, 128), MLX5_CMD_STAT_BAD_PARAM,
              MLX5_SYND_MEMIC_RANGE);
    fail_free(h, memic_mkey_cmd(h, MLX5_BAR0_SIZE - 64, 128), MLX5_CMD_STAT_BAD_PARAM,
              MLX5_SYND_MEMIC_RANGE);
    memic_mkey(h, a + 1024, 0);                               /* over nothing */
    c = memic_mkey_cmd(h, a, 1024);
    PRM_SET(mkc, length64, IN_PTR(c, create_mkey_in, memory_key_mkey_entry), 1);
    fail_free(h, c, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_MEMIC_RANGE);
    c = memic_mkey_cmd(h, a, 1024);                           /* 4: SW_ICM */
    PRM_SET(mkc, access_mode_1_0, IN_PTR(c, create_mkey_in, memory_key_mkey_entry), 0);
    fail_free(h, c, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_ACCESS_MODE);
}

/* A WQE on a's SQ: opcode, a remote address (if `remote`), one data
 * segment of `len` bytes at `laddr` through `lkey`. */
static void post_wqe(RcEnv *e, uint8_t opcode, bool remote, uint64_t raddr, uint32_t rkey,
                     uint32_t lkey, uint64_t laddr, uint32_t len)
{
    unsigned ds = remote ? 3 : 2;
    uint8_t *w = h_sq_wqe(e->h, &e->a, opcode, ds, MLX5_WQE_CTRL_CQ_UPDATE);

    if (remote) {
        prm_put_be64(w + MLX5_DS_BYTES + WQE_RADDR_VA, raddr);
        prm_put_be32(w + MLX5_DS_BYTES + WQE_RADDR_RKEY, rkey);
    }
    h_data_seg(w + (ds - 1) * MLX5_DS_BYTES, len, lkey, laddr);
    h_sq_ring(e->h, &e->a);
    wire(e, false);
}

/* The device memory of one environment: 4 KiB and a key over it. */
typedef struct DmEnv {
    uint64_t bar;
    uint32_t key;
} DmEnv;

static DmEnv dm_env(RcEnv *e)
{
    DmEnv d;

    d.bar = memic_alloc(e->h, WIN + 4 * PAGE_4K, PAGE_4K, PAGE_4K, 0);
    d.key = memic_mkey(e->h, d.bar, PAGE_4K);
    return d;
}

/* The peer WRITEs into device memory through the key's zero-based
 * addresses and READs it back; atomics on it; a send gathers from it
 * and a receive scatters into it. */
static void test_memic_rdma(void)
{
    g_autoptr(RcEnv) e = env_new(10);
    DmEnv d = dm_env(e);
    uint8_t *a = h_gpa(e->h, A_BUF);

    h_trace_watch(e->h, "mlx5_mkey_memic");
    fill(e, 0x800);
    post_wqe(e, MLX5_OPCODE_RDMA_WRITE, true, 0x100, d.key, e->key, A_BUF, 0x800);
    expect_req(e, MLX5_OPCODE_RDMA_WRITE, 0);
    g_assert_cmpmem(memic_at(e->h, d.bar + 0x100), 0x800, a, 0x800);
    memset(a, 0, 0x800);
    post_wqe(e, MLX5_OPCODE_RDMA_READ, true, 0x100, d.key, e->key, A_BUF, 0x800);
    expect_req(e, MLX5_OPCODE_RDMA_READ, 0);
    g_assert_cmpmem(memic_at(e->h, d.bar + 0x100), 0x800, a, 0x800);

    /* a SEND from device memory into device memory */
    memset(memic_at(e->h, d.bar), 0x3c, 0x40);
    post_recv_on(e->h, &e->b, &e->b_rq_pc, e->key, 0, 0x100);
    {
        uint64_t rq = e->b.gpa - (uint64_t)H_QP_RQ_STRIDE * 16;
        uint64_t wqe = rq + (uint64_t)((e->b_rq_pc - 1) % 16) * H_QP_RQ_STRIDE;

        h_data_seg(h_gpa(e->h, wqe), 0x40, d.key, 0x800);
    }
    post_wqe(e, MLX5_OPCODE_SEND, false, 0, 0, d.key, 0, 0x40);
    expect_req(e, MLX5_OPCODE_SEND, 0);
    g_assert_cmpmem(memic_at(e->h, d.bar + 0x800), 0x40, memic_at(e->h, d.bar), 0x40);
    g_assert_cmpuint(h_traced(e->h, "ok=1"), >=, 4);
    g_assert_cmpuint(h_traced(e->h, "ok=0"), ==, 0);
}

/* An atomic WQE on a's SQ at `raddr` through `rkey`; the value found
 * there comes back to A_BUF. */
static void post_atomic_rkey(RcEnv *e, uint8_t opcode, uint64_t raddr, uint32_t rkey,
                             uint64_t swap_add, uint64_t cmp)
{
    uint8_t *w = h_sq_wqe(e->h, &e->a, opcode, 4, MLX5_WQE_CTRL_CQ_UPDATE);

    prm_put_be64(w + MLX5_DS_BYTES + WQE_RADDR_VA, raddr);
    prm_put_be32(w + MLX5_DS_BYTES + WQE_RADDR_RKEY, rkey);
    prm_put_be64(w + 2 * MLX5_DS_BYTES + WQE_ATOMIC_SWAP_ADD, swap_add);
    prm_put_be64(w + 2 * MLX5_DS_BYTES + WQE_ATOMIC_COMPARE, cmp);
    h_data_seg(w + 3 * MLX5_DS_BYTES, 8, e->key, A_BUF);
    h_sq_ring(e->h, &e->a);
    wire(e, false);
}

/* Fetch-and-add and compare-and-swap on device memory, in the host's
 * byte order as on any key (mlx5_mkey_atomic). */
static void test_memic_atomics(void)
{
    g_autoptr(RcEnv) e = env_new(10);
    DmEnv d = dm_env(e);
    uint64_t v = 40;

    memcpy(memic_at(e->h, d.bar + 0xff8), &v, 8);
    post_atomic_rkey(e, MLX5_OPCODE_ATOMIC_FA, 0xff8, d.key, 2, 0);
    expect_req(e, MLX5_OPCODE_ATOMIC_FA, 0);
    memcpy(&v, h_gpa(e->h, A_BUF), 8);
    g_assert_cmpuint(v, ==, 40);
    post_atomic_rkey(e, MLX5_OPCODE_ATOMIC_CS, 0xff8, d.key, 0x77, 42);
    expect_req(e, MLX5_OPCODE_ATOMIC_CS, 0);
    memcpy(&v, memic_at(e->h, d.bar + 0xff8), 8);
    g_assert_cmphex(v, ==, 0x77);
    post_atomic_rkey(e, MLX5_OPCODE_ATOMIC_CS, 0xff8, d.key, 0x99, 42);   /* no match */
    expect_req(e, MLX5_OPCODE_ATOMIC_CS, 0);
    memcpy(&v, memic_at(e->h, d.bar + 0xff8), 8);
    g_assert_cmphex(v, ==, 0x77);
}

/* Past the key's end, or after the memory was freed (the key outlives
 * it): a remote access error, nothing written - each on a fresh pair
 * (the error ends the requester). */
static void test_memic_refused(void)
{
    for (int c = 0; c < 3; c++) {
        g_autoptr(RcEnv) e = env_new(10);
        DmEnv d = dm_env(e);

        fill(e, 0x40);
        h_trace_watch(e->h, "mlx5_mkey_memic");
        if (c == 0) {
            post_wqe(e, MLX5_OPCODE_RDMA_WRITE, true, PAGE_4K - 0x20, d.key, e->key, A_BUF,
                     0x40);
        } else if (c == 1) {
            post_wqe(e, MLX5_OPCODE_RDMA_READ, true, PAGE_4K, d.key, e->key, A_BUF, 8);
        } else {
            memic_free(e->h, d.bar, PAGE_4K);
            post_wqe(e, MLX5_OPCODE_RDMA_WRITE, true, 0, d.key, e->key, A_BUF, 0x40);
            g_assert_cmpuint(h_traced(e->h, "ok=0"), ==, 1);
        }
        expect_req(e, c == 1 ? MLX5_OPCODE_RDMA_READ : MLX5_OPCODE_RDMA_WRITE,
                   MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
        g_assert_cmphex(*memic_at(e->h, d.bar + PAGE_4K - 0x20), ==, 0);
        g_assert_cmphex(*memic_at(e->h, d.bar), ==, 0);
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/memic/caps", test_memic_caps);
    g_test_add_func("/memic/alloc", test_memic_alloc);
    g_test_add_func("/memic/bad-input", test_memic_bad_input);
    g_test_add_func("/memic/bar0", test_memic_bar0);
    g_test_add_func("/memic/mkey-bad", test_memic_mkey_bad);
    g_test_add_func("/memic/rdma", test_memic_rdma);
    g_test_add_func("/memic/atomics", test_memic_atomics);
    g_test_add_func("/memic/refused", test_memic_refused);
    return g_test_run();
}
