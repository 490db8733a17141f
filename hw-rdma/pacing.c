/*
 * Packet pacing, the data path's side (PRM "Packet Pacing"; the rate
 * table and an SQ's index into it: firmware-sim/qos.c).
 *
 * Concepts
 * --------
 * An Ethernet SQ that names a rate sends no faster than it: a frame of L
 * bytes on the wire takes L * 8 / rate of the queue's time, and the queue
 * keeps `pace_at`, the time its frames so far have used up.  Frames may
 * leave back to back while that lies no more than the rate's burst
 * (burst_upper_bound bytes, 0: one frame) ahead of now - a token bucket
 * of that depth.  A queue further ahead stops before its next WQE and
 * waits in dp->sq_paced (deadlines.h) until it may go on; the others go
 * on meanwhile.  Frames count as the wire sees them (an LSO WQE as its
 * segments, eth-tx.c eth_put).
 *
 * The check is made before each WQE: a WQE that starts is sent whole (an
 * LSO of up to 64 KiB), and its bytes push the next WQE out - the average
 * rate holds, a burst may exceed the bound by one WQE.  (CHOICE: hardware
 * paces packet by packet.)
 *
 * A queue waits by its number, not a pointer (as sched.c's notes): one
 * destroyed meanwhile is not found when its time comes.
 */
#include "transport.h"

void mlx5_pacing_init(Mlx5DataPath *dp)
{
    dp->sq_paced_at = g_hash_table_new(g_direct_hash, g_direct_equal);
    mlx5_deadlines_init(&dp->sq_paced, mlx5_deadlines_index_placed, dp->sq_paced_at);
}

void mlx5_pacing_fini(Mlx5DataPath *dp)
{
    mlx5_deadlines_fini(&dp->sq_paced);
    g_hash_table_destroy(dp->sq_paced_at);
}

void mlx5_pacing_reset(Mlx5DataPath *dp)
{
    mlx5_deadlines_clear(&dp->sq_paced);
    g_hash_table_remove_all(dp->sq_paced_at);
}

/* The rate an SQ sends at; NULL: unlimited (a QP's send queue, index 0,
 * or an entry cleared under it). */
static const Mlx5PpRate *sq_rate(Mlx5DataPath *dp, const Mlx5SendQueue *sq)
{
    return sq->qp ? NULL : mlx5_pp_rate(dp->fw, sq->rate_index);
}

/* Nanoseconds `bytes` take at `kbps` kbit/s (bytes <= 2^32, kbps >= 1:
 * no overflow). */
static uint64_t wire_ns(uint64_t bytes, uint32_t kbps)
{
    return bytes * 8000000ull / kbps;
}

bool mlx5_sq_pace_hold(Mlx5DataPath *dp, Mlx5SendQueue *sq)
{
    const Mlx5PpRate *r = sq_rate(dp, sq);
    uint64_t now = mlx5_dp_now(dp), at;
    gpointer key = GUINT_TO_POINTER(sq->num);
    guint place;

    if (!r) {
        return false;
    }
    at = sq->pace_at - MIN(sq->pace_at, wire_ns(r->burst_bytes, r->rate_kbps));
    if (at <= now) {
        return false;
    }
    place = mlx5_deadlines_index_place(dp->sq_paced_at, key);
    mlx5_deadlines_set(&dp->sq_paced, place, key, at);
    mlx5emu_trace_sq_paced(sq->num, at - now, r->rate_kbps);
    mlx5_timer_request(dp, at);
    return true;
}

void mlx5_sq_pace_sent(Mlx5DataPath *dp, Mlx5SendQueue *sq, uint64_t bytes)
{
    const Mlx5PpRate *r = sq_rate(dp, sq);

    if (r) {
        sq->pace_at = MAX(sq->pace_at, mlx5_dp_now(dp)) + wire_ns(bytes, r->rate_kbps);
    }
}

uint64_t mlx5_pacing_expire(Mlx5DataPath *dp)
{
    Mlx5Deadlines *paced = &dp->sq_paced;
    uint64_t now = mlx5_dp_now(dp);

    while (mlx5_deadlines_next(paced) <= now && mlx5_slice_left(dp)) {
        uint32_t sqn = GPOINTER_TO_UINT(mlx5_deadlines_at(paced, 1)->owner);

        mlx5_deadlines_remove(paced, 1);
        mlx5_slice_take(dp, 1);
        mlx5_sq_resume(dp, sqn);
    }
    return mlx5_deadlines_next(paced);
}
