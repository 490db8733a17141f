/* Object tables and context fields: see objects.h. */
#include <limits.h>
#include <string.h>

#include "mlx5emu-trace.h"
#include "objects.h"
#include "prm.h"

bool mlx5_host_mem_charge(Mlx5HostMem *m, uint64_t bytes, const char *what)
{
    if (bytes > m->limit - MIN(m->used, m->limit)) {
        mlx5emu_trace_host_mem_err(what, bytes, m->used, m->limit);
        return false;
    }
    m->used += bytes;
    return true;
}

void mlx5_host_mem_refund(Mlx5HostMem *m, uint64_t bytes)
{
    m->used -= MIN(bytes, m->used);
}

void mlx5_table_init(Mlx5Table *t, const char *name, uint32_t min_id,
                     uint32_t max_id, GDestroyNotify destroy)
{
    memset(t, 0, sizeof(*t));
    t->name = name;
    t->objs = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, destroy);
    t->min_id = min_id;
    t->max_id = max_id;
    t->next = min_id;
    t->destroy = destroy;
    for (unsigned k = 0; k < MLX5_TABLE_KINDS; k++) {
        t->limit[k] = UINT32_MAX;
    }
}

void mlx5_table_account(Mlx5Table *t, Mlx5HostMem *mem, const Mlx5TableCost *cost)
{
    t->mem = mem;
    t->cost = cost;
}

void mlx5_table_fini(Mlx5Table *t)
{
    if (t->objs) {
        mlx5_table_clear(t);
        g_hash_table_destroy(t->objs);
        t->objs = NULL;
    }
    if (t->spare) {
        g_hash_table_destroy(t->spare);
        t->spare = NULL;
    }
}

static unsigned obj_kind(const Mlx5Table *t, const void *obj)
{
    unsigned k = t->cost && t->cost->kind ? t->cost->kind(obj) : 0;

    return MIN(k, MLX5_TABLE_KINDS - 1u);
}

static uint64_t obj_bytes(const Mlx5Table *t, const void *obj)
{
    if (!t->cost) {
        return 0;
    }
    return MLX5_TABLE_ENTRY_BYTES + (t->cost->bytes ? t->cost->bytes(obj) : t->cost->obj_bytes);
}

/* Room for `obj` beside what the table holds: its kind's limit, then the
 * budget, which is charged. */
static Mlx5TableStatus table_admit(Mlx5Table *t, const void *obj)
{
    unsigned k = obj_kind(t, obj);

    if (t->live[k] >= t->limit[k]) {
        mlx5emu_trace_obj_limit_err(t->name, k, t->live[k], t->limit[k]);
        return MLX5_TABLE_LIMIT;
    }
    if (t->mem && !mlx5_host_mem_charge(t->mem, obj_bytes(t, obj), t->name)) {
        return MLX5_TABLE_NO_MEM;
    }
    t->live[k]++;
    return MLX5_TABLE_OK;
}

/* `obj` stays in the table after all (it was released to make room for
 * one that did not fit): counted and charged again, whatever the limits. */
static void table_keep(Mlx5Table *t, const void *obj)
{
    t->live[obj_kind(t, obj)]++;
    if (t->mem) {
        t->mem->used += obj_bytes(t, obj);
    }
}

/* `obj` leaves the table (before it is freed): its kind's count and its
 * charge go back. */
static void table_release(Mlx5Table *t, const void *obj)
{
    t->live[obj_kind(t, obj)]--;
    if (t->mem) {
        mlx5_host_mem_refund(t->mem, obj_bytes(t, obj));
    }
}

/* The next free number from t->next on, round-robin; false if none. */
static bool table_next_id(Mlx5Table *t, uint32_t *id)
{
    uint64_t span = (uint64_t)t->max_id - t->min_id + 1;

    if (g_hash_table_size(t->objs) >= span) {
        return false;
    }
    for (uint64_t tries = 0; tries < span; tries++) {
        uint32_t cand = t->next;
        t->next = cand == t->max_id ? t->min_id : cand + 1;
        if (!g_hash_table_contains(t->objs, GUINT_TO_POINTER(cand))) {
            *id = cand;
            return true;
        }
    }
    return false;
}

Mlx5TableStatus mlx5_table_add(Mlx5Table *t, void *obj, uint32_t *id)
{
    uint32_t cand;
    Mlx5TableStatus st = table_admit(t, obj);

    if (st != MLX5_TABLE_OK) {
        return st;
    }
    if (!table_next_id(t, &cand)) {
        table_release(t, obj);
        return MLX5_TABLE_NO_ID;
    }
    g_hash_table_insert(t->objs, GUINT_TO_POINTER(cand), obj);
    *id = cand;
    return MLX5_TABLE_OK;
}

Mlx5TableStatus mlx5_table_put_at(Mlx5Table *t, uint32_t id, void *obj)
{
    void *old;
    Mlx5TableStatus st;

    if (id < t->min_id || id > t->max_id) {
        return MLX5_TABLE_NO_ID;
    }
    old = mlx5_table_get(t, id);
    if (old) {
        table_release(t, old);
    }
    st = table_admit(t, obj);
    if (st != MLX5_TABLE_OK) {
        if (old) {
            table_keep(t, old);
        }
        return st;
    }
    g_hash_table_insert(t->objs, GUINT_TO_POINTER(id), obj);
    return MLX5_TABLE_OK;
}

void *mlx5_table_get(const Mlx5Table *t, uint32_t id)
{
    return g_hash_table_lookup(t->objs, GUINT_TO_POINTER(id));
}

bool mlx5_table_remove(Mlx5Table *t, uint32_t id)
{
    void *obj = mlx5_table_get(t, id);

    if (!obj) {
        return false;
    }
    table_release(t, obj);
    return g_hash_table_remove(t->objs, GUINT_TO_POINTER(id));
}

void mlx5_table_remove_if(Mlx5Table *t, bool (*fn)(const void *obj, void *user), void *user)
{
    GHashTableIter it;
    gpointer obj;

    g_hash_table_iter_init(&it, t->objs);
    while (g_hash_table_iter_next(&it, NULL, &obj)) {
        if (fn(obj, user)) {
            table_release(t, obj);
            g_hash_table_iter_remove(&it);
        }
    }
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

static void table_release_one(void *obj, void *t)
{
    table_release(t, obj);
}

unsigned mlx5_table_clear(Mlx5Table *t)
{
    unsigned n = g_hash_table_size(t->objs);

    mlx5_table_foreach(t, table_release_one, t);
    g_hash_table_remove_all(t->objs);
    t->next = t->min_id;
    return n;
}

Mlx5RetiredTable *mlx5_table_retire(Mlx5Table *t, void (*before)(void *obj, void *user),
                                    void *user)
{
    Mlx5RetiredTable *r;

    if (!g_hash_table_size(t->objs)) {
        return NULL;
    }
    r = g_new0(Mlx5RetiredTable, 1);
    r->table = *t;                      /* its objects, counts and charges */
    r->table.spare = NULL;
    r->origin = t;
    r->before = before;
    r->user = user;
    g_hash_table_iter_init(&r->it, r->table.objs);
    t->objs = t->spare ? t->spare
                       : g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, t->destroy);
    t->spare = NULL;
    memset(t->live, 0, sizeof(t->live));
    t->next = t->min_id;
    return r;
}

unsigned mlx5_retired_reclaim(Mlx5RetiredTable *r, unsigned max)
{
    gpointer obj;
    unsigned n = 0;

    /* Only the iterator removes, so it has seen them all once the table
     * is empty (and GLib's iterator may not be asked again after its end). */
    while (n < max && g_hash_table_size(r->table.objs) &&
           g_hash_table_iter_next(&r->it, NULL, &obj)) {
        if (r->before) {
            r->before(obj, r->user);
        }
        table_release(&r->table, obj);
        g_hash_table_iter_remove(&r->it);
        n++;
    }
    return n;
}

unsigned mlx5_retired_count(const Mlx5RetiredTable *r)
{
    return mlx5_table_count(&r->table);
}

void mlx5_retired_free(Mlx5RetiredTable *r)
{
    mlx5_retired_reclaim(r, UINT_MAX);
    if (!r->origin->spare) {
        r->origin->spare = r->table.objs;
    } else {
        g_hash_table_destroy(r->table.objs);
    }
    g_free(r);
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
