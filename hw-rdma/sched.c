/*
 * Work in bounded slices.
 *
 * Concepts
 * --------
 * Hardware does its work at the link's pace: a doorbell for 65,535 WQEs,
 * an RDMA READ of a GiB or a flush of 32k receive WQEs does not run to the
 * end inside the one MMIO write or the one received frame that started it,
 * and other queues get their turn meanwhile.  Here every entry point of
 * the device (device.c dev_enter) opens a slice of MLX5_SLICE_UNITS units
 * of work - a WQE executed, a frame sent or received from the loopback
 * queue, a CQE written, a queue looked at - and an engine that finds the
 * slice used up leaves a note of where to go on: mlx5_defer(kind, number).
 * A note names an object by number, never by pointer, so a note for an
 * object destroyed meanwhile finds nothing (or the next object of that
 * number, which has nothing to do).  The platform timer, asked for "now",
 * runs the notes oldest first, one slice per timer call, each note at most
 * once per call.
 *
 * So the device's time per call under the platform's lock is bounded
 * whatever a guest posted or a peer asked for (bench/ measures it), and a
 * guest that posts a ring full of WQEs cannot starve the others.
 *
 * Outside an entry point - a unit test driving an engine directly - the
 * slice is unbounded, so such a test sees the whole of the work at once.
 */
#include "transport.h"

/* A note: what to go on with, and on which object. */
typedef struct Mlx5Deferred {
    Mlx5DeferKind kind;
    uint32_t num;
} Mlx5Deferred;

/* What each kind of note is, and what goes on with it. */
static const struct {
    const char *name;
    void (*resume)(Mlx5DataPath *dp, uint32_t num);
} defer_kind[MLX5_DEFER__COUNT] = {
    [MLX5_DEFER_SQ] = { "send queue", mlx5_sq_resume },
    [MLX5_DEFER_RC_SEND] = { "RC requester", mlx5_rc_send_resume },
    [MLX5_DEFER_RC_RESPOND] = { "RC responder", mlx5_rc_respond_resume },
    [MLX5_DEFER_QP_FLUSH] = { "QP flush", mlx5_qp_flush_resume },
    [MLX5_DEFER_SQ_FLUSH] = { "SQ flush", mlx5_sq_flush_resume },
    [MLX5_DEFER_RECLAIM] = { "reclaim", mlx5_reclaim_resume },
};

static guint defer_key(Mlx5DeferKind kind, uint32_t num)
{
    return (guint)kind << 24 | (num & 0xffffff);
}

void mlx5_slice_open(Mlx5DataPath *dp)
{
    dp->slice_left = MLX5_SLICE_UNITS;
}

void mlx5_slice_close(Mlx5DataPath *dp)
{
    dp->slice_left = UINT32_MAX;
}

bool mlx5_slice_left(const Mlx5DataPath *dp)
{
    return dp->slice_left > 0;
}

void mlx5_slice_take(Mlx5DataPath *dp, uint32_t units)
{
    if (dp->slice_left != UINT32_MAX) {
        dp->slice_left -= MIN(units, dp->slice_left);
    }
}

void mlx5_defer(Mlx5DataPath *dp, Mlx5DeferKind kind, uint32_t num)
{
    Mlx5Deferred *d;

    if (!g_hash_table_add(dp->deferred_set, GUINT_TO_POINTER(defer_key(kind, num)))) {
        return;                         /* already noted */
    }
    d = g_new(Mlx5Deferred, 1);
    *d = (Mlx5Deferred) { kind, num };
    g_queue_push_tail(dp->deferred, d);
    mlx5emu_trace_slice_defer(defer_kind[kind].name, num);
    mlx5_timer_request(dp, mlx5_dp_now(dp));
}

static void deferred_run_one(Mlx5DataPath *dp, const Mlx5Deferred *d)
{
    mlx5emu_trace_slice_resume(defer_kind[d->kind].name, d->num);
    defer_kind[d->kind].resume(dp, d->num);
}

uint64_t mlx5_deferred_run(Mlx5DataPath *dp)
{
    guint n = g_queue_get_length(dp->deferred);

    /* Each note once per call: one that defers itself again goes to the
     * back and waits for the next call. */
    while (n-- && mlx5_slice_left(dp)) {
        g_autofree Mlx5Deferred *d = g_queue_pop_head(dp->deferred);

        g_hash_table_remove(dp->deferred_set, GUINT_TO_POINTER(defer_key(d->kind, d->num)));
        deferred_run_one(dp, d);
    }
    return g_queue_is_empty(dp->deferred) ? UINT64_MAX : mlx5_dp_now(dp);
}

void mlx5_deferred_init(Mlx5DataPath *dp)
{
    dp->deferred = g_queue_new();
    dp->deferred_set = g_hash_table_new(g_direct_hash, g_direct_equal);
    dp->slice_left = UINT32_MAX;
}

void mlx5_deferred_clear(Mlx5DataPath *dp)
{
    g_queue_clear_full(dp->deferred, g_free);
    g_hash_table_remove_all(dp->deferred_set);
}

void mlx5_deferred_fini(Mlx5DataPath *dp)
{
    mlx5_deferred_clear(dp);
    g_queue_free(dp->deferred);
    g_hash_table_destroy(dp->deferred_set);
}
