/*
 * Device memory: MEMIC (PRM "Device Memory"; ALLOC_MEMIC, DEALLOC_MEMIC).
 *
 * Concepts
 * --------
 * A ConnectX has on-chip memory that software reaches two ways: a
 * process writes and reads it through BAR0 (ibv_alloc_dm maps the
 * allocation's BAR pages, ibv_memcpy_to_dm/from_dm copy through them), and
 * the device reads and writes it in the data path through an MKey of
 * access mode MEMIC (ibv_reg_dm_mr), as the local buffer of a send or
 * receive or the target of a remote WRITE, READ or atomic.  Nothing in it
 * leaves the device, so a latency-critical counter or flag can live there.
 *
 * The driver picks the pages (mlx5_ib keeps a bitmap of the window's
 * pages: ib/dm.c mlx5_cmd_alloc_memic) and asks the device for memic_size
 * bytes inside [range_start_addr, +range_size), aligned to
 * 64 << log_memic_addr_alignment; the device answers the BAR0 offset it
 * chose, or NO_RES (the driver's -EAGAIN: it tries the next page).  The
 * window is the device's, not a process's: processes (and functions, on a
 * real board) share it, so the device keeps its own record of what is
 * allocated and a new allocation starts out cleared - no process reads
 * what another left.
 *
 * The capability page (caps.c) says where the window is
 * (memic_bar_start_addr, a BAR0 offset), how big (memic_bar_size) and the
 * largest allocation (max_memic_size, which ibv_query_device_ex reports
 * as max_dm_size).  MEMIC operations (atomic increment / test-and-set
 * addresses, MODIFY_MEMIC) are not offered: memic_operations is 0.
 */
#include <string.h>

#include "cmd.h"

/* The platform's bytes (Mlx5FwConfig.memic) or our own. */
void mlx5_memic_init(Mlx5Fw *fw)
{
    fw->memic.own = !fw->cfg.memic;
    if (fw->memic.own) {
        /* zero already, and left untouched until used: the fuzzers make
         * a device per input, and clearing 256 KiB each time was a tenth
         * of their time */
        fw->memic.bytes = g_malloc0(MLX5_MEMIC_BAR_BYTES);
    } else {
        fw->memic.bytes = fw->cfg.memic;
        memset(fw->memic.bytes, 0, MLX5_MEMIC_BAR_BYTES);
    }
}

void mlx5_memic_fini(Mlx5Fw *fw)
{
    if (fw->memic.own) {
        g_free(fw->memic.bytes);
    }
    fw->memic.bytes = NULL;
}

unsigned mlx5_memic_reset(Mlx5Fw *fw)
{
    unsigned n = fw->memic.allocations;

    memset(fw->memic.used, 0, sizeof(fw->memic.used));
    memset(fw->memic.head, 0, sizeof(fw->memic.head));
    fw->memic.allocations = 0;
    if (n) {
        memset(fw->memic.bytes, 0, MLX5_MEMIC_BAR_BYTES);
    }
    return n;
}

static bool bit_get(const uint64_t *map, uint32_t i)
{
    return map[i / 64] >> (i % 64) & 1;
}

static void bits_assign(uint64_t *map, uint32_t first, uint32_t n, bool v)
{
    for (uint32_t i = first; i < first + n; i++) {
        if (v) {
            map[i / 64] |= 1ull << (i % 64);
        } else {
            map[i / 64] &= ~(1ull << (i % 64));
        }
    }
}

/* The first granule in [first, +n) that is not `v` (allocated or free),
 * or UINT32_MAX; whole words at a time where the range covers them. */
static uint32_t bits_first_not(const uint64_t *map, uint32_t first, uint32_t n, bool v)
{
    uint32_t i = first, end = first + n;

    while (i < end) {
        if (i % 64 == 0 && end - i >= 64 && map[i / 64] == (v ? UINT64_MAX : 0)) {
            i += 64;
        } else if (bit_get(map, i) == v) {
            i++;
        } else {
            return i;
        }
    }
    return UINT32_MAX;
}

static bool bits_all(const uint64_t *map, uint32_t first, uint32_t n, bool v)
{
    return bits_first_not(map, first, n, v) == UINT32_MAX;
}

bool mlx5_memic_allocated(Mlx5Fw *fw, uint64_t off, uint64_t len)
{
    uint32_t first, last;

    if (off > MLX5_MEMIC_BAR_BYTES || len > MLX5_MEMIC_BAR_BYTES - off) {
        return false;
    }
    if (len == 0) {
        return true;
    }
    first = (uint32_t)(off / MLX5_MEMIC_GRANULE);
    last = (uint32_t)((off + len - 1) / MLX5_MEMIC_GRANULE);
    return bits_all(fw->memic.used, first, last - first + 1, true);
}

bool mlx5_memic_rw(Mlx5Fw *fw, uint64_t off, void *buf, uint64_t len, bool write)
{
    if (!mlx5_memic_allocated(fw, off, len)) {
        return false;
    }
    if (write) {
        memcpy(fw->memic.bytes + off, buf, len);
    } else {
        memcpy(buf, fw->memic.bytes + off, len);
    }
    return true;
}

/* [start, +size) as granules of the window, if it is inside it and on
 * granule boundaries. */
static bool memic_granules(uint64_t start, uint64_t size, uint32_t *first, uint32_t *n)
{
    uint64_t off = start - MLX5_MEMIC_BAR_OFFSET;

    if (start < MLX5_MEMIC_BAR_OFFSET || off > MLX5_MEMIC_BAR_BYTES ||
        size > MLX5_MEMIC_BAR_BYTES - off || off % MLX5_MEMIC_GRANULE ||
        size % MLX5_MEMIC_GRANULE) {
        return false;
    }
    *first = (uint32_t)(off / MLX5_MEMIC_GRANULE);
    *n = (uint32_t)(size / MLX5_MEMIC_GRANULE);
    return true;
}

static uint32_t align_up(uint32_t i, uint32_t step)
{
    return (i + step - 1) / step * step;
}

/* The first free run of `n` granules inside [first, +span) that starts on
 * a multiple of `step` granules; UINT32_MAX if none.  A candidate that
 * meets an allocated granule moves past it, so a search reads each
 * granule of the range about once, however the window is carved up. */
static uint32_t memic_find(const Mlx5Memic *m, uint32_t first, uint32_t span, uint32_t n,
                           uint32_t step)
{
    uint32_t at = align_up(first, step);

    while (at - first <= span && span - (at - first) >= n) {
        uint32_t used = bits_first_not(m->used, at, n, false);

        if (used == UINT32_MAX) {
            return at;
        }
        at = align_up(used + 1, step);
    }
    return UINT32_MAX;
}

unsigned cmd_alloc_memic(Mlx5Fw *fw, Mlx5Cmd *c)
{
    uint64_t range = PRM_GET(alloc_memic_in, range_start_addr, c->in);
    uint32_t range_size = PRM_GET(alloc_memic_in, range_size, c->in);
    uint32_t size = PRM_GET(alloc_memic_in, memic_size, c->in);
    unsigned align = PRM_GET(alloc_memic_in, log_memic_addr_alignment, c->in);
    uint32_t first, span, at;

    if (size == 0 || size % MLX5_MEMIC_GRANULE ||
        size > MLX5_CAP_GET(fw, MLX5_CAP_DEVICE_MEM, device_mem_cap, max_memic_size)) {
        return CMD_FAIL(c, BAD_PARAM, MEMIC_SIZE);
    }
    if (align > MLX5_CAP_GET(fw, MLX5_CAP_DEVICE_MEM, device_mem_cap,
                             log_max_memic_addr_alignment)) {
        return CMD_FAIL(c, BAD_PARAM, MEMIC_ALIGN);
    }
    if (!memic_granules(range, range_size, &first, &span)) {
        return CMD_FAIL(c, BAD_PARAM, MEMIC_RANGE);
    }
    /* The window starts on a multiple of its own size in BAR0, and BAR0
     * is naturally aligned: an offset aligned in the window is aligned on
     * the bus. */
    at = memic_find(&fw->memic, first, span, size / MLX5_MEMIC_GRANULE, 1u << align);
    if (at == UINT32_MAX) {
        mlx5emu_trace_memic_full(range, range_size, size, align);
        return CMD_FAIL(c, NO_RES, MEMIC_FULL);
    }
    bits_assign(fw->memic.used, at, size / MLX5_MEMIC_GRANULE, true);
    bits_assign(fw->memic.head, at, 1, true);
    fw->memic.allocations++;
    memset(fw->memic.bytes + (uint64_t)at * MLX5_MEMIC_GRANULE, 0, size);
    PRM_SET(alloc_memic_out, memic_start_addr, c->out,
            MLX5_MEMIC_BAR_OFFSET + (uint64_t)at * MLX5_MEMIC_GRANULE);
    mlx5emu_trace_memic_alloc(MLX5_MEMIC_BAR_OFFSET + (uint64_t)at * MLX5_MEMIC_GRANULE, size,
                              range, range_size, align);
    return MLX5_CMD_STAT_OK;
}

/* The start and size must be exactly one allocation: its first granule
 * starts it, every granule is allocated, and the next one is free or
 * starts another (mlx5_ib frees what it allocated, ib/dm.c
 * mlx5_cmd_dealloc_memic). */
unsigned cmd_dealloc_memic(Mlx5Fw *fw, Mlx5Cmd *c)
{
    uint64_t start = PRM_GET(dealloc_memic_in, memic_start_addr, c->in);
    uint32_t size = PRM_GET(dealloc_memic_in, memic_size, c->in);
    uint32_t first, n;
    Mlx5Memic *m = &fw->memic;

    if (size == 0 || !memic_granules(start, size, &first, &n)) {
        return CMD_FAIL(c, BAD_PARAM, MEMIC_RANGE);
    }
    if (!bit_get(m->head, first) || !bits_all(m->used, first, n, true) ||
        !bits_all(m->head, first + 1, n - 1, false) ||
        (first + n < MLX5_MEMIC_GRANULES && bit_get(m->used, first + n) &&
         !bit_get(m->head, first + n))) {
        return CMD_FAIL(c, BAD_PARAM, MEMIC_NOT_ALLOCATED);
    }
    bits_assign(m->used, first, n, false);
    bits_assign(m->head, first, 1, false);
    m->allocations--;
    mlx5emu_trace_memic_dealloc(start, size);
    return MLX5_CMD_STAT_OK;
}
