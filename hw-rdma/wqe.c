/*
 * The data segments of a send WQE (PRM "Send WQE Format"; IBA 10.7.2.1
 * scatter/gather lists), shared by the RC requester and UD sends: after
 * the segments an opcode puts first (ctrl, address vector, remote address,
 * atomic), either pointer segments {byte_count, lkey, address} or inline
 * data {0x80000000 | length, bytes...} padded to 16 bytes.  A byte count
 * of 0 is an empty segment.
 */
#include <string.h>

#include "rdma.h"
#include "cqe.h"
#include "wqe.h"

#define WQE_INLINE_SEG 0x80000000u

uint8_t mlx5_wqe_msg_len(const uint8_t *wqe, unsigned ds, unsigned first, bool inline_ok,
                         uint64_t *len)
{
    *len = 0;
    for (unsigned s = first; s < ds; s++) {
        const uint8_t *seg = wqe + s * MLX5_DS_BYTES;
        uint32_t bc = prm_be32(seg + WQE_DATA_BYTE_COUNT);

        if (bc & WQE_INLINE_SEG) {
            uint32_t n = bc & 0x3ff;
            if (!inline_ok || 4 + n > (ds - s) * MLX5_DS_BYTES) {
                return MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR;
            }
            *len += n;
            s += (4 + n - 1) / MLX5_DS_BYTES;
            continue;
        }
        *len += bc;
    }
    return 0;
}

bool mlx5_wqe_sgl(Mlx5Fw *fw, uint32_t pd, const uint8_t *wqe, unsigned ds, unsigned first,
                  uint32_t off, uint8_t *buf, uint32_t n, bool write)
{
    for (unsigned s = first; s < ds && n; s++) {
        const uint8_t *seg = wqe + s * MLX5_DS_BYTES;
        uint32_t bc = prm_be32(seg + WQE_DATA_BYTE_COUNT), k;

        if (bc & WQE_INLINE_SEG) {
            uint32_t il = bc & 0x3ff;
            if (off < il) {
                k = MIN(il - off, n);
                memcpy(buf, seg + 4 + off, k);
                buf += k;
                n -= k;
                off = 0;
            } else {
                off -= il;
            }
            s += (4 + il - 1) / MLX5_DS_BYTES;
            continue;
        }
        if (off >= bc) {
            off -= bc;
            continue;
        }
        k = MIN(bc - off, n);
        if (mlx5_mkey_dma(fw, prm_be32(seg + WQE_DATA_LKEY), pd,
                          prm_be64(seg + WQE_DATA_ADDR) + off, buf, k,
                          write ? MLX5_MKEY_LOCAL_WRITE : MLX5_MKEY_LOCAL_READ) != MLX5_MKEY_OK) {
            return false;
        }
        buf += k;
        n -= k;
        off = 0;
    }
    return n == 0;
}
