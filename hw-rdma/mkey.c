/*
 * Memory key checks for local access (PRM "Memory Keys"): the key exists,
 * its variant byte matches, it belongs to the queue's PD, it grants the
 * access (local read for send gathers, local write for receive scatters),
 * and the range lies inside it unless it spans all memory (length64).
 * Physical-address keys translate an address to itself.
 */
#include "rdma.h"

bool mlx5_mkey_local_ok(Mlx5Fw *fw, uint32_t lkey, uint32_t pd, uint64_t addr,
                        uint32_t len, bool write)
{
    Mlx5Mkey *mk = mlx5_table_get(&fw->mkey, lkey >> 8);

    if (!mk || mk->key8 != (lkey & 0xff) || mk->pd != pd || !(write ? mk->lw : mk->lr)) {
        return false;
    }
    return mk->length64 || (addr >= mk->start_addr && len <= mk->len &&
                            addr - mk->start_addr <= mk->len - len);
}
