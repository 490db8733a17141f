/* Deadlines: see deadlines.h. */
#include "deadlines.h"

static void put(Mlx5Deadlines *d, guint i, const Mlx5Deadline *e)
{
    g_array_index(d->heap, Mlx5Deadline, i) = *e;
    d->placed(e->owner, i + 1, d->opaque);
}

static bool before(const Mlx5Deadlines *d, guint i, guint j)
{
    return g_array_index(d->heap, Mlx5Deadline, i).at <
           g_array_index(d->heap, Mlx5Deadline, j).at;
}

static void swap(Mlx5Deadlines *d, guint i, guint j)
{
    Mlx5Deadline e = g_array_index(d->heap, Mlx5Deadline, i);

    put(d, i, &g_array_index(d->heap, Mlx5Deadline, j));
    put(d, j, &e);
}

/* Entry i changed (a new deadline, or the last entry put in a hole): up
 * or down to its place. */
static void fix(Mlx5Deadlines *d, guint i)
{
    guint n = d->heap->len;

    while (i > 0 && before(d, i, (i - 1) / 2)) {
        swap(d, i, (i - 1) / 2);
        i = (i - 1) / 2;
    }
    for (;;) {
        guint l = 2 * i + 1, m = i;

        if (l < n && before(d, l, m)) {
            m = l;
        }
        if (l + 1 < n && before(d, l + 1, m)) {
            m = l + 1;
        }
        if (m == i) {
            return;
        }
        swap(d, i, m);
        i = m;
    }
}

void mlx5_deadlines_init(Mlx5Deadlines *d, Mlx5DeadlinePlaced *placed, void *opaque)
{
    d->heap = g_array_new(false, false, sizeof(Mlx5Deadline));
    d->placed = placed;
    d->opaque = opaque;
}

void mlx5_deadlines_index_placed(void *owner, guint place, void *index)
{
    if (place) {
        g_hash_table_insert(index, owner, GUINT_TO_POINTER(place));
    } else {
        g_hash_table_remove(index, owner);
    }
}

guint mlx5_deadlines_index_place(GHashTable *index, const void *owner)
{
    return GPOINTER_TO_UINT(g_hash_table_lookup(index, owner));
}

void mlx5_deadlines_fini(Mlx5Deadlines *d)
{
    g_array_free(d->heap, true);
    d->heap = NULL;
}

void mlx5_deadlines_clear(Mlx5Deadlines *d)
{
    g_array_set_size(d->heap, 0);
}

void mlx5_deadlines_set(Mlx5Deadlines *d, guint place, void *owner, uint64_t at)
{
    if (!place) {
        Mlx5Deadline e = { at, owner, 0 };

        g_array_append_val(d->heap, e);
        place = d->heap->len;
        d->placed(owner, place, d->opaque);
    } else {
        mlx5_deadlines_at(d, place)->at = at;
    }
    fix(d, place - 1);
}

void mlx5_deadlines_remove(Mlx5Deadlines *d, guint place)
{
    guint i = place - 1, last = d->heap->len - 1;

    d->placed(mlx5_deadlines_at(d, place)->owner, 0, d->opaque);
    if (i != last) {
        put(d, i, &g_array_index(d->heap, Mlx5Deadline, last));
    }
    g_array_set_size(d->heap, last);
    if (i < last) {
        fix(d, i);
    }
}
