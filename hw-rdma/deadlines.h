/*
 * Deadlines: a binary heap of (deadline, owner) entries, the soonest on
 * top, for the data path's timers - the RC ack and RNR timers (rc.c) and
 * the CQ events moderation holds (cq.c).
 *
 * Concepts.  A timer call takes the due entries from the top, a slice's
 * worth (sched.c), and asks the platform timer for the new top; nothing
 * scans the waiting entries.  Each owner is told its place whenever its
 * entry moves (`placed`: 1-based, 0 when it leaves), so moving or removing
 * one costs O(log n) and the next deadline O(1) however many wait - a
 * guest may hold 2^18 QPs and 2^16 CQs with a timer running.
 */
#ifndef MLX5EMU_DEADLINES_H
#define MLX5EMU_DEADLINES_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct Mlx5Deadline {
    uint64_t at;                /* clock_ns */
    void *owner;
    uint32_t count;             /* the owner's own (cq.c: CQEs since the event was held) */
} Mlx5Deadline;

/* `owner`'s entry is now at `place` (1-based; 0: it left). */
typedef void Mlx5DeadlinePlaced(void *owner, guint place, void *opaque);

typedef struct Mlx5Deadlines {
    GArray *heap;               /* Mlx5Deadline */
    Mlx5DeadlinePlaced *placed;
    void *opaque;               /* for `placed` */
} Mlx5Deadlines;

void mlx5_deadlines_init(Mlx5Deadlines *d, Mlx5DeadlinePlaced *placed, void *opaque);
/* For owners that cannot hold their place themselves: `placed` keeping
 * it in a GHashTable (opaque: owner -> place), and the place it keeps (0:
 * none). */
void mlx5_deadlines_index_placed(void *owner, guint place, void *index);
guint mlx5_deadlines_index_place(GHashTable *index, const void *owner);
void mlx5_deadlines_fini(Mlx5Deadlines *d);
/* Forget every entry without telling the owners (a reset retired them). */
void mlx5_deadlines_clear(Mlx5Deadlines *d);

static inline guint mlx5_deadlines_len(const Mlx5Deadlines *d)
{
    return d->heap->len;
}

/* The entry at `place` (1-based, as `placed` said); the soonest is at 1. */
static inline Mlx5Deadline *mlx5_deadlines_at(const Mlx5Deadlines *d, guint place)
{
    return &g_array_index(d->heap, Mlx5Deadline, place - 1);
}

/* The soonest deadline, UINT64_MAX if none. */
static inline uint64_t mlx5_deadlines_next(const Mlx5Deadlines *d)
{
    return d->heap->len ? mlx5_deadlines_at(d, 1)->at : UINT64_MAX;
}

/* A new entry for `owner` (place 0, count 0), or the entry at `place`
 * moved to `at`. */
void mlx5_deadlines_set(Mlx5Deadlines *d, guint place, void *owner, uint64_t at);
void mlx5_deadlines_remove(Mlx5Deadlines *d, guint place);

#endif
