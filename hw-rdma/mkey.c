/*
 * Memory keys in the data path (PRM "Memory Keys"; IBA 10.6).
 *
 * A WQE data segment names guest memory as (key, address, length).  The
 * key must exist, its variant byte (key & 0xff) must match, it must belong
 * to the queue's PD and grant the access (local read for send gathers,
 * local write for receive scatters), be enabled (a "free" key waits for
 * UMR), and the range must lie inside it unless it spans all memory
 * (length64).  Then the address is translated: a physical-address (PA) key
 * maps an address to itself; an MTT key maps start_addr + i through its
 * page list; an indirect key (KLMS, KSM) maps it into other keys, each a
 * range of some key at some address, which translate in turn - up to
 * max_indirection keys deep (caps.c), under the rights of the first key
 * alone (an SG-gaps MR's entries name its PD's local DMA key; a memory
 * window's, the MR it is bound to); an entry naming the null mkey is a
 * page not present.  A device-memory (MEMIC) key maps into the device's
 * own memory (firmware-sim/memic.c), zero-based: its address 0 is its
 * start_addr's byte of the window.  The translation is
 * done once per segment, page by page or entry by entry.
 */
#include "datapath.h"

static bool mkey_grants(const Mlx5Mkey *mk, Mlx5MkeyAccess acc)
{
    switch (acc) {
    case MLX5_MKEY_LOCAL_READ:   return mk->lr;
    case MLX5_MKEY_LOCAL_WRITE:  return mk->lw;
    case MLX5_MKEY_REMOTE_READ:  return mk->rr;
    case MLX5_MKEY_REMOTE_WRITE: return mk->rw;
    case MLX5_MKEY_REMOTE_READ_ATOMIC:
    case MLX5_MKEY_REMOTE_WRITE_ATOMIC: return mk->a;
    case MLX5_MKEY_INNER_READ:
    case MLX5_MKEY_INNER_WRITE: return true;
    }
    return false;
}

Mlx5Mkey *mlx5_mkey_usable(Mlx5Fw *fw, uint32_t key, uint32_t pd)
{
    Mlx5Mkey *mk = mlx5_table_get(&fw->mkey, key >> 8);

    return mk && mk->key8 == (key & 0xff) && mk->pd == pd && !mk->free ? mk : NULL;
}

/* The address of a key's first byte: a MEMIC key's are zero-based, as
 * libibverbs registers every DM MR (cmd_dm.c ibv_cmd_reg_dm_mr). */
static uint64_t mkey_va_start(const Mlx5Mkey *mk)
{
    return mk->access_mode == MLX5_MKC_ACCESS_MODE_MEMIC ? 0 : mk->start_addr;
}

static Mlx5Mkey *mkey_check(Mlx5Fw *fw, uint32_t key, uint32_t pd, uint64_t addr,
                            uint64_t len, Mlx5MkeyAccess acc)
{
    Mlx5Mkey *mk = mlx5_mkey_usable(fw, key, pd);
    uint64_t start;

    if (!mk || !mkey_grants(mk, acc)) {
        return NULL;
    }
    start = mkey_va_start(mk);
    if (!mk->length64 && !(addr >= start && len <= mk->len && addr - start <= mk->len - len)) {
        return NULL;
    }
    return mk;
}

/* A type-2 window answers the QP it is bound to alone (IBA 10.6.7.2: its
 * QP number is part of the binding; mkc qpn, 0xffffff for any QP).  Only
 * windows are held to it: mlx5_ib gives every other key qpn 0xffffff, and
 * a key a driver left at 0 would otherwise answer no QP. */
bool mlx5_mkey_bound_elsewhere(Mlx5Fw *fw, uint32_t key, uint32_t qpn)
{
    const Mlx5Mkey *mk = mlx5_table_get(&fw->mkey, key >> 8);

    return mk && mk->access_mode == MLX5_MKC_ACCESS_MODE_KLMS && mk->qpn != 0xffffff &&
           mk->qpn != qpn;
}

bool mlx5_mkey_allows(Mlx5Fw *fw, uint32_t key, uint32_t pd, uint64_t addr, uint64_t len,
                      Mlx5MkeyAccess acc)
{
    return mkey_check(fw, key, pd, addr, len, acc) != NULL;
}

/* Guest-physical address of `addr` in an MTT key, and how many bytes of
 * that page follow it.  An entry's bits below the page size are flags
 * (rd_en, wr_en), not address.  While the device pages (pg) they say
 * whether the page is there for a read, a write: one that is not is no
 * translation - an entry zapped to 0 never reaches guest address 0.
 * (Until page faults exist, pg is 0 and a missing page cannot occur.) */
static Mlx5MkeyStatus mtt_translate(Mlx5Fw *fw, const Mlx5Mkey *mk, uint64_t addr, bool write,
                                    uint64_t *pa, uint64_t *room)
{
    uint64_t page = (uint64_t)1 << mk->log_page_size;
    uint64_t off = (mk->start_addr & (page - 1)) + (addr - mk->start_addr);
    uint64_t i = off >> mk->log_page_size;

    if (i >= mk->nmtt) {
        return MLX5_MKEY_PROT;
    }
    *room = page - (off & (page - 1));
    if (MLX5_CAP_GET(fw, MLX5_CAP_GENERAL, cmd_hca_cap, pg) &&
        !(mk->mtt[i] & (write ? MLX5_MTT_WR_EN : MLX5_MTT_RD_EN))) {
        return MLX5_MKEY_ABSENT;
    }
    *pa = (mk->mtt[i] & ~(page - 1)) + (off & (page - 1));
    return MLX5_MKEY_OK;
}

/* Indirect keys: entry i's key and address (the list's two slots). */
static uint32_t klm_key(const Mlx5Mkey *mk, uint64_t i)
{
    return (uint32_t)mk->mtt[2 * i];
}

/* Entry i's byte count (mlx5_klm_bytes: 0 is 2 GiB). */
static uint64_t klm_bytes(const Mlx5Mkey *mk, uint64_t i)
{
    return mlx5_klm_bytes((uint32_t)(mk->mtt[2 * i] >> 32));
}

/* Where each KLM ends in the key, computed once per list a UMR or
 * CREATE_MKEY loads, so that an access finds its entry by bisection, not
 * by walking up to 2^16 entries per packet. */
static const uint64_t *klm_ends(Mlx5Mkey *mk)
{
    uint64_t end = 0, n = mk->nmtt / 2;

    if (!mk->klm_end) {
        mk->klm_end = g_new(uint64_t, MAX(n, 1));
        for (uint64_t i = 0; i < n; i++) {
            end += klm_bytes(mk, i);
            mk->klm_end[i] = end;
        }
    }
    return mk->klm_end;
}

/* The entry offset `off` of an indirect key lies in, the offset in it and
 * the bytes of it from there; false past the list. */
static bool indirect_entry(Mlx5Mkey *mk, uint64_t off, uint64_t *i, uint64_t *in, uint64_t *room)
{
    uint64_t n = mk->nmtt / 2, lo = 0, hi = n;
    const uint64_t *end;

    if (mk->access_mode == MLX5_MKC_ACCESS_MODE_KSM) {
        *i = off >> mk->log_page_size;
        *in = off & ((1ull << mk->log_page_size) - 1);
        *room = (1ull << mk->log_page_size) - *in;
        return *i < n;
    }
    end = klm_ends(mk);
    while (lo < hi) {                   /* the first entry ending after off */
        uint64_t mid = lo + (hi - lo) / 2;

        if (end[mid] > off) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    if (lo == n) {
        return false;
    }
    *i = lo;
    *in = off - (end[lo] - klm_bytes(mk, lo));
    *room = end[lo] - off;
    return true;
}

/* An entry naming the null mkey (fw.h MLX5_NULL_MKEY) has no memory yet:
 * while the device pages that is a page fault, which mlx5_ib answers by
 * mapping the slot and writing its key there (odp.c
 * pagefault_implicit_mr); otherwise nothing is there to reach. */
static Mlx5MkeyStatus null_entry(Mlx5Fw *fw, const Mlx5Mkey *mk, uint64_t off, uint64_t i,
                                 bool write)
{
    mlx5emu_trace_mkey_null(mk->index, off, i, write);
    return MLX5_CAP_GET(fw, MLX5_CAP_GENERAL, cmd_hca_cap, pg) ? MLX5_MKEY_ABSENT
                                                               : MLX5_MKEY_PROT;
}

static Mlx5MkeyStatus mkey_dma_at(Mlx5Fw *fw, uint32_t key, uint32_t pd, uint64_t addr,
                                  uint8_t *p, uint32_t len, Mlx5MkeyAccess acc, unsigned depth);

/* [addr, +len) of indirect key mk through the keys its entries name. */
static Mlx5MkeyStatus indirect_dma(Mlx5Fw *fw, Mlx5Mkey *mk, uint64_t addr, uint8_t *p,
                                   uint32_t len, bool write, unsigned depth)
{
    uint64_t off = addr - mk->start_addr;

    if (depth + 1 >= MLX5_CAP_GET(fw, MLX5_CAP_GENERAL, cmd_hca_cap, max_indirection)) {
        return MLX5_MKEY_PROT;
    }
    while (len) {
        uint64_t i, in, room;
        uint32_t n;
        Mlx5MkeyStatus st;

        if (!indirect_entry(mk, off, &i, &in, &room)) {
            return MLX5_MKEY_PROT;
        }
        if (klm_key(mk, i) == MLX5_NULL_MKEY) {
            return null_entry(fw, mk, off, i, write);
        }
        n = (uint32_t)MIN((uint64_t)len, room);
        mlx5emu_trace_mkey_indirect(mk->index, off, i, klm_key(mk, i), mk->mtt[2 * i + 1] + in, n,
                                    depth);
        st = mkey_dma_at(fw, klm_key(mk, i), mk->pd, mk->mtt[2 * i + 1] + in, p, n,
                         write ? MLX5_MKEY_INNER_WRITE : MLX5_MKEY_INNER_READ, depth + 1);
        if (st != MLX5_MKEY_OK) {
            return st;
        }
        off += n;
        p = p ? p + n : NULL;
        len -= n;
    }
    return MLX5_MKEY_OK;
}

/* A MEMIC key's bytes of device memory, already inside the key: they
 * must still be allocated (a key outliving its DEALLOC_MEMIC reaches
 * nothing, whoever has the memory now). */
static Mlx5MkeyStatus memic_dma(Mlx5Fw *fw, const Mlx5Mkey *mk, uint64_t addr, uint8_t *p,
                                uint32_t len, bool write)
{
    uint64_t off = mk->start_addr - MLX5_MEMIC_BAR_OFFSET + addr;
    bool ok = p ? mlx5_memic_rw(fw, off, p, len, write) : mlx5_memic_allocated(fw, off, len);

    if (p) {                                /* a probe moves nothing: no trace */
        mlx5emu_trace_mkey_memic(mk->index, addr, off, len, write, ok);
    }
    return ok ? MLX5_MKEY_OK : MLX5_MKEY_PROT;
}

/* An MTT key's pages, or a PA key's own addresses; with no buffer (p
 * NULL: mlx5_mkey_probe) the translation alone. */
static Mlx5MkeyStatus direct_dma(Mlx5Fw *fw, const Mlx5Mkey *mk, uint64_t addr, uint8_t *p,
                                 uint32_t len, bool write)
{
    if (mk->access_mode == MLX5_MKC_ACCESS_MODE_MEMIC) {
        return memic_dma(fw, mk, addr, p, len, write);
    }
    if (mk->access_mode != MLX5_MKC_ACCESS_MODE_MTT) {     /* PA */
        int r = !p ? 0 : write ? mlx5_dma_write(fw, addr, p, len)
                               : mlx5_dma_read(fw, addr, p, len);
        return r ? MLX5_MKEY_NO_MEM : MLX5_MKEY_OK;
    }
    while (len) {
        uint64_t pa, room;
        uint32_t n;
        Mlx5MkeyStatus st = mtt_translate(fw, mk, addr, write, &pa, &room);

        if (st != MLX5_MKEY_OK) {
            return st;
        }
        n = (uint32_t)MIN((uint64_t)len, room);
        if (p) {                            /* a probe moves nothing: no trace */
            mlx5emu_trace_mkey_mtt(mk->index, addr, pa, n, write);
            if (write ? mlx5_dma_write(fw, pa, p, n) : mlx5_dma_read(fw, pa, p, n)) {
                return MLX5_MKEY_NO_MEM;
            }
        }
        addr += n;
        p = p ? p + n : NULL;
        len -= n;
    }
    return MLX5_MKEY_OK;
}

static Mlx5MkeyStatus mkey_dma_at(Mlx5Fw *fw, uint32_t key, uint32_t pd, uint64_t addr,
                                  uint8_t *p, uint32_t len, Mlx5MkeyAccess acc, unsigned depth)
{
    Mlx5Mkey *mk = mkey_check(fw, key, pd, addr, len, acc);
    bool write = acc == MLX5_MKEY_LOCAL_WRITE || acc == MLX5_MKEY_REMOTE_WRITE ||
                 acc == MLX5_MKEY_REMOTE_WRITE_ATOMIC || acc == MLX5_MKEY_INNER_WRITE;

    if (!mk) {
        return MLX5_MKEY_PROT;
    }
    if (mlx5_mkey_mode_indirect(mk->access_mode)) {
        return indirect_dma(fw, mk, addr, p, len, write, depth);
    }
    return direct_dma(fw, mk, addr, p, len, write);
}

Mlx5MkeyStatus mlx5_mkey_dma(Mlx5Fw *fw, uint32_t key, uint32_t pd, uint64_t addr,
                             void *buf, uint32_t len, Mlx5MkeyAccess acc)
{
    return mkey_dma_at(fw, key, pd, addr, buf, len, acc, 0);
}

Mlx5MkeyStatus mlx5_mkey_probe(Mlx5Fw *fw, uint32_t key, uint32_t pd, uint64_t addr,
                               uint32_t len, Mlx5MkeyAccess acc)
{
    return mkey_dma_at(fw, key, pd, addr, NULL, len, acc, 0);
}

/* IBA 9.4.5: the 8-byte target of an atomic is naturally aligned and the
 * key grants remote atomic access; it is read, changed and written back
 * in the host's byte order (atomic_req_8B_endianness_mode 1, caps.c; the
 * guests are little endian).  Nothing else runs in between: the data path
 * is one thread. */
Mlx5MkeyStatus mlx5_mkey_atomic(Mlx5Fw *fw, uint32_t key, uint32_t pd, uint64_t va,
                                bool cmp_swap, uint64_t swap_add, uint64_t compare,
                                uint64_t *orig)
{
    Mlx5Mkey *mk = mlx5_table_get(&fw->mkey, key >> 8);
    uint8_t b[8];
    uint64_t v;
    Mlx5MkeyStatus st;

    if (!mk || !mk->a || (va & 7)) {
        return MLX5_MKEY_PROT;
    }
    st = mlx5_mkey_dma(fw, key, pd, va, b, 8, MLX5_MKEY_REMOTE_READ_ATOMIC);
    if (st != MLX5_MKEY_OK) {
        return st;
    }
    v = prm_le64(b);
    *orig = v;
    v = cmp_swap ? (v == compare ? swap_add : v) : v + swap_add;
    prm_put_le64(b, v);
    return mlx5_mkey_dma(fw, key, pd, va, b, 8, MLX5_MKEY_REMOTE_WRITE_ATOMIC);
}
