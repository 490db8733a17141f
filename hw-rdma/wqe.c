/*
 * The data segments of WQEs (PRM "Send WQE Format", "Receive WQE
 * Format"; IBA 10.7.2.1 scatter/gather lists).
 *
 * Send WQEs, shared by Ethernet sends, the RC requester and UD sends:
 * after the segments an opcode puts first (ctrl, Ethernet segment,
 * address vector, remote address, atomic), either pointer segments
 * {byte_count, lkey, address} or inline data {0x80000000 | length,
 * bytes...} padded to 16 bytes.  A byte count of 0 is an empty segment.
 *
 * Receive WQEs, shared by Ethernet RQs, QP receive queues and SRQs: a
 * run of pointer segments filling the WQE's stride; an lkey of
 * MLX5_INVALID_LKEY or a byte count of 0 ends it.  Bit 31 of a receive
 * byte count is MLX5_HW_START_PADDING (mlx5e sets it on every segment):
 * a flag, not part of the length.
 */
#include <string.h>

#include "cqe.h"
#include "datapath.h"

#define RECV_BYTE_COUNT_MASK 0x7fffffffu

const char *mlx5_sgl_status_name(Mlx5SglStatus st)
{
    static const char *const names[] = {
        [MLX5_SGL_OK] = "ok",
        [MLX5_SGL_BAD_KEY] = "bad lkey",
        [MLX5_SGL_NO_MEM] = "data address outside guest memory",
        [MLX5_SGL_TOO_LONG] = "more data than the list holds",
        [MLX5_SGL_BAD_INLINE] = "inline data beyond the WQE",
        [MLX5_SGL_ABSENT] = "a page not present",
    };
    return st < G_N_ELEMENTS(names) ? names[st] : "?";
}

uint8_t mlx5_sgl_syndrome(Mlx5SglStatus st)
{
    switch (st) {
    case MLX5_SGL_OK:
        return 0;
    case MLX5_SGL_BAD_KEY:
    case MLX5_SGL_ABSENT:
        return MLX5_CQE_SYNDROME_LOCAL_PROT_ERR;
    default:
        return MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR;
    }
}

Mlx5SglStatus mlx5_sge_dma(Mlx5Fw *fw, uint32_t pd, uint32_t lkey, uint64_t addr,
                           uint8_t *buf, uint32_t len, bool write)
{
    switch (mlx5_mkey_dma(fw, lkey, pd, addr, buf, len,
                          write ? MLX5_MKEY_LOCAL_WRITE : MLX5_MKEY_LOCAL_READ)) {
    case MLX5_MKEY_OK:
        return MLX5_SGL_OK;
    case MLX5_MKEY_PROT:
        return MLX5_SGL_BAD_KEY;
    case MLX5_MKEY_ABSENT:
        return MLX5_SGL_ABSENT;
    default:
        return MLX5_SGL_NO_MEM;
    }
}


uint8_t mlx5_wqe_msg_len(const uint8_t *wqe, unsigned ds, unsigned first, bool inline_ok,
                         uint64_t *len)
{
    *len = 0;
    for (unsigned s = first; s < ds; s++) {
        const uint8_t *seg = wqe + s * MLX5_DS_BYTES;
        uint32_t bc = prm_be32(seg + WQE_DATA_BYTE_COUNT);

        if (bc & WQE_INLINE_SEG) {
            uint32_t n = mlx5_wqe_inline_len(bc);
            if (!inline_ok || 4 + n > (ds - s) * MLX5_DS_BYTES) {
                return MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR;
            }
            *len += n;
            s += mlx5_wqe_inline_extra_segs(n);
            continue;
        }
        *len += bc;
    }
    return 0;
}

bool mlx5_wqe_sgl_absent(Mlx5Fw *fw, uint32_t pd, const uint8_t *wqe, unsigned ds,
                         unsigned first, bool write)
{
    for (unsigned s = first; s < ds; s++) {
        const uint8_t *seg = wqe + s * MLX5_DS_BYTES;
        uint32_t bc = prm_be32(seg + WQE_DATA_BYTE_COUNT);

        if (bc & WQE_INLINE_SEG) {
            s += mlx5_wqe_inline_extra_segs(mlx5_wqe_inline_len(bc));
        } else if (bc && mlx5_mkey_probe(fw, prm_be32(seg + WQE_DATA_LKEY), pd,
                                         prm_be64(seg + WQE_DATA_ADDR), bc,
                                         write ? MLX5_MKEY_LOCAL_WRITE : MLX5_MKEY_LOCAL_READ) ==
                              MLX5_MKEY_ABSENT) {
            return true;
        }
    }
    return false;
}

/* The message bytes [*off, *off + n) meet a segment of `bc` bytes: how
 * many of them it holds from byte *off of it on.  0: none, and *off moves
 * past the segment; otherwise *off is where in the segment they start. */
static uint32_t sgl_take(uint32_t bc, uint32_t *off, uint32_t n)
{
    if (*off >= bc) {
        *off -= bc;
        return 0;
    }
    return MIN(bc - *off, n);
}

Mlx5SglStatus mlx5_wqe_sgl(Mlx5Fw *fw, uint32_t pd, const uint8_t *wqe, unsigned ds,
                           unsigned first, uint32_t off, uint8_t *buf, uint32_t n, bool write)
{
    for (unsigned s = first; s < ds && n; s++) {
        const uint8_t *seg = wqe + s * MLX5_DS_BYTES;
        uint32_t bc = prm_be32(seg + WQE_DATA_BYTE_COUNT), k;

        if (bc & WQE_INLINE_SEG) {
            if (4 + mlx5_wqe_inline_len(bc) > (ds - s) * MLX5_DS_BYTES) {
                return MLX5_SGL_BAD_INLINE;
            }
            k = sgl_take(mlx5_wqe_inline_len(bc), &off, n);
            if (k) {
                memcpy(buf, seg + 4 + off, k);
            }
            s += mlx5_wqe_inline_extra_segs(mlx5_wqe_inline_len(bc));
        } else {
            k = sgl_take(bc, &off, n);
            if (k) {
                Mlx5SglStatus st = mlx5_sge_dma(fw, pd, prm_be32(seg + WQE_DATA_LKEY),
                                                prm_be64(seg + WQE_DATA_ADDR) + off, buf, k,
                                                write);
                if (st != MLX5_SGL_OK) {
                    return st;
                }
            }
        }
        if (k) {
            buf += k;
            n -= k;
            off = 0;
        }
    }
    return n == 0 ? MLX5_SGL_OK : MLX5_SGL_TOO_LONG;
}

/* Receive segment i of the WQE at `addr`: false at the end of its list
 * (or if it is not in guest memory: *st says which). */
static bool recv_seg(Mlx5Fw *fw, uint64_t addr, unsigned i, uint32_t *bc, uint32_t *lkey,
                     uint64_t *buf, Mlx5SglStatus *st)
{
    uint8_t seg[MLX5_DS_BYTES];

    if (mlx5_dma_read(fw, addr + MLX5_DS_BYTES * i, seg, sizeof(seg))) {
        *st = MLX5_SGL_NO_MEM;
        return false;
    }
    *bc = prm_be32(seg + WQE_DATA_BYTE_COUNT) & RECV_BYTE_COUNT_MASK;
    *lkey = prm_be32(seg + WQE_DATA_LKEY);
    *buf = prm_be64(seg + WQE_DATA_ADDR);
    return *lkey != MLX5_INVALID_LKEY && *bc != 0;
}

Mlx5SglStatus mlx5_recv_scatter(Mlx5Fw *fw, uint32_t pd, uint64_t addr, unsigned nseg,
                                uint32_t off, const uint8_t *data, size_t len)
{
    Mlx5SglStatus st = MLX5_SGL_OK;
    uint32_t bc, lkey, k;
    uint64_t buf;

    for (unsigned i = 0; i < nseg && len; i++) {
        if (!recv_seg(fw, addr, i, &bc, &lkey, &buf, &st)) {
            break;
        }
        k = sgl_take(bc, &off, (uint32_t)MIN(len, UINT32_MAX));
        if (!k) {
            continue;
        }
        st = mlx5_sge_dma(fw, pd, lkey, buf + off, (uint8_t *)data, k, true);
        if (st != MLX5_SGL_OK) {
            return st;
        }
        data += k;
        len -= k;
        off = 0;
    }
    return st != MLX5_SGL_OK ? st : len == 0 ? MLX5_SGL_OK : MLX5_SGL_TOO_LONG;
}

bool mlx5_recv_absent(Mlx5Fw *fw, uint32_t pd, uint64_t addr, unsigned nseg)
{
    Mlx5SglStatus st;
    uint32_t bc, lkey;
    uint64_t buf;

    for (unsigned i = 0; i < nseg && recv_seg(fw, addr, i, &bc, &lkey, &buf, &st); i++) {
        if (bc && mlx5_mkey_probe(fw, lkey, pd, buf, bc, MLX5_MKEY_LOCAL_WRITE) ==
                      MLX5_MKEY_ABSENT) {
            return true;
        }
    }
    return false;
}

uint32_t mlx5_recv_capacity(Mlx5Fw *fw, uint64_t addr, unsigned nseg)
{
    Mlx5SglStatus st;
    uint64_t total = 0, buf;
    uint32_t bc, lkey;

    for (unsigned i = 0; i < nseg && recv_seg(fw, addr, i, &bc, &lkey, &buf, &st); i++) {
        total += bc;
    }
    return (uint32_t)MIN(total, UINT32_MAX);
}
