/* Object tables and context fields: see objects.h. */
#include <string.h>

#include "objects.h"
#include "prm.h"

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

/* A row's member, as wide as the object holds it. */
static uint64_t member_get(const void *obj, const Mlx5CtxField *f)
{
    const uint8_t *p = (const uint8_t *)obj + f->member;
    uint8_t v8;
    uint16_t v16;
    uint32_t v32;
    uint64_t v64;

    switch (f->size) {
    case 1: memcpy(&v8, p, 1); return v8;
    case 2: memcpy(&v16, p, 2); return v16;
    case 4: memcpy(&v32, p, 4); return v32;
    default: memcpy(&v64, p, 8); return v64;
    }
}

static void member_set(void *obj, const Mlx5CtxField *f, uint64_t v)
{
    uint8_t *p = (uint8_t *)obj + f->member;
    uint8_t v8 = (uint8_t)v;
    uint16_t v16 = (uint16_t)v;
    uint32_t v32 = (uint32_t)v;

    switch (f->size) {
    case 1: memcpy(p, &v8, 1); break;
    case 2: memcpy(p, &v16, 2); break;
    case 4: memcpy(p, &v32, 4); break;
    default: memcpy(p, &v, 8); break;
    }
}

void mlx5_ctx_load(void *obj, const uint8_t *ctx, const Mlx5CtxField *f, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (f[i].dir & MLX5_CTX_IN) {
            member_set(obj, &f[i], prm_get_bits(ctx, f[i].off, f[i].width) + f[i].bias);
        }
    }
}

void mlx5_ctx_store(uint8_t *ctx, const void *obj, const Mlx5CtxField *f, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (f[i].dir & MLX5_CTX_OUT) {
            uint64_t v = f[i].get ? f[i].get(obj) : member_get(obj, &f[i]) - f[i].bias;
            prm_set_bits(ctx, f[i].off, f[i].width, v);
        }
    }
}
