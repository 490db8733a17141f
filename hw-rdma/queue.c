/*
 * Doorbell records (PRM "Doorbell Record"): how the driver tells the device
 * what it posted.
 *
 * Each work queue (SQ, RQ, a QP's two queues, SRQ, RMP) has a record in
 * guest memory the driver writes its producer counter to: a receive
 * queue's at +0, a send queue's at +4 (Linux MLX5_RCV_DBR, MLX5_SND_DBR),
 * 16 bits of it counting WQEs (SQ: basic blocks).  Posting a receive rings
 * no doorbell; the device reads the record when it needs a WQE.  The read
 * is the ordering point: the record first, the WQEs it covers after
 * (the driver writes them before the record, Linux mlx5_ib post_recv).
 */
#include "datapath.h"

bool mlx5_dbr_posted(Mlx5DataPath *dp, uint64_t dbr, uint32_t hw_counter,
                     const Mlx5Ring *ring, uint32_t num, uint32_t *posted)
{
    uint8_t rec[4];
    uint16_t pc, n;

    if (mlx5_dma_read(dp->fw, dbr, rec, sizeof(rec))) {
        mlx5emu_trace_ub_dbr_not_in_memory(num, dbr);
        mlx5_guest_error(dp->fw, "queue 0x%x: doorbell record not in guest memory", num);
        return false;
    }
    pc = (uint16_t)prm_be32(rec);
    n = (uint16_t)(pc - hw_counter);
    if (n > (1u << ring->log_size)) {
        mlx5emu_trace_ub_dbr_beyond_ring(num, pc, hw_counter & 0xffff);
        mlx5_guest_error(dp->fw, "queue 0x%x: producer counter %u beyond the ring", num, pc);
        return false;
    }
    mlx5emu_trace_dbr_read(num, dbr, pc, hw_counter & 0xffff, n);
    *posted = n;
    return true;
}
