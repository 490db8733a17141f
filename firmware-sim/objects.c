/* Object tables: see objects.h. */
#include "objects.h"

void mlx5_table_init(Mlx5Table *t, const char *name, uint32_t min_id,
                     uint32_t max_id, GDestroyNotify destroy)
{
    t->name = name;
    t->objs = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, destroy);
    t->min_id = min_id;
    t->max_id = max_id;
    t->next = min_id;
    t->destroy = destroy;
}

void mlx5_table_fini(Mlx5Table *t)
{
    if (t->objs) {
        g_hash_table_destroy(t->objs);
        t->objs = NULL;
    }
}

bool mlx5_table_alloc(Mlx5Table *t, void *obj, uint32_t *id)
{
    uint64_t span = (uint64_t)t->max_id - t->min_id + 1;

    if (g_hash_table_size(t->objs) >= span) {
        return false;
    }
    for (uint64_t tries = 0; tries < span; tries++) {
        uint32_t cand = t->next;
        t->next = cand == t->max_id ? t->min_id : cand + 1;
        if (!g_hash_table_contains(t->objs, GUINT_TO_POINTER(cand))) {
            g_hash_table_insert(t->objs, GUINT_TO_POINTER(cand), obj);
            *id = cand;
            return true;
        }
    }
    return false;
}

bool mlx5_table_insert_at(Mlx5Table *t, uint32_t id, void *obj)
{
    if (id < t->min_id || id > t->max_id ||
        g_hash_table_contains(t->objs, GUINT_TO_POINTER(id))) {
        return false;
    }
    g_hash_table_insert(t->objs, GUINT_TO_POINTER(id), obj);
    return true;
}

void *mlx5_table_get(const Mlx5Table *t, uint32_t id)
{
    return g_hash_table_lookup(t->objs, GUINT_TO_POINTER(id));
}

bool mlx5_table_remove(Mlx5Table *t, uint32_t id)
{
    return g_hash_table_remove(t->objs, GUINT_TO_POINTER(id));
}

unsigned mlx5_table_count(const Mlx5Table *t)
{
    return g_hash_table_size(t->objs);
}

void mlx5_table_foreach(const Mlx5Table *t, void (*fn)(void *obj, void *user), void *user)
{
    GHashTableIter it;
    gpointer obj;

    g_hash_table_iter_init(&it, t->objs);
    while (g_hash_table_iter_next(&it, NULL, &obj)) {
        fn(obj, user);
    }
}

unsigned mlx5_table_clear(Mlx5Table *t)
{
    unsigned n = g_hash_table_size(t->objs);

    g_hash_table_remove_all(t->objs);
    t->next = t->min_id;
    return n;
}
