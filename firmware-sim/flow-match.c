/* Flow groups' match keys and indexes, a table's groups in index order,
 * and the lookup of a table's matching entry: see flow.h. */
#include <string.h>

#include "flow.h"
#include "siphash.h"

static guint key_hash(gconstpointer p)
{
    return ((const Mlx5FlowKey *)p)->hash;
}

static gboolean key_equal(gconstpointer a, gconstpointer b)
{
    const Mlx5FlowKey *x = a, *y = b;

    return x->len == y->len && memcmp(x->bytes, y->bytes, x->len) == 0;
}

/* The bytes the criteria select: the non-zero ones of each 64-byte
 * section match_criteria_enable turns on (bit i: section i - outer
 * headers, misc, inner headers, misc2 ... misc5). */
static uint16_t criteria_bytes(uint8_t enable, const uint8_t *criteria, uint16_t *off,
                               uint8_t *mask)
{
    uint16_t n = 0;

    for (unsigned i = 0; i < MLX5_MATCH_PARAM_BYTES; i++) {
        if ((enable & (1u << (i / 64))) && criteria[i]) {
            if (off) {
                off[n] = (uint16_t)i;
                mask[n] = criteria[i];
            }
            n++;
        }
    }
    return n;
}

Mlx5FlowGroup *mlx5_flow_group_new(uint32_t table_id, uint32_t start, uint32_t end,
                                   uint8_t criteria_enable, const uint8_t *criteria)
{
    Mlx5FlowGroup *g = g_new0(Mlx5FlowGroup, 1);

    g->table_id = table_id;
    g->start = start;
    g->end = end;
    g->criteria_enable = criteria_enable;
    g->key_len = criteria_bytes(criteria_enable, criteria, NULL, NULL);
    g->key_off = g_new(uint16_t, g->key_len);
    g->key_mask = g_new(uint8_t, g->key_len);
    criteria_bytes(criteria_enable, criteria, g->key_off, g->key_mask);
    for (size_t i = 0; i < sizeof(g->hash_key); i += 4) {
        guint32 r = g_random_int();
        memcpy(g->hash_key + i, &r, 4);
    }
    g->by_key = g_hash_table_new(key_hash, key_equal);
    return g;
}

void mlx5_flow_group_destroy(gpointer p)
{
    Mlx5FlowGroup *g = p;

    g_hash_table_destroy(g->by_key);
    g_free(g->key_off);
    g_free(g->key_mask);
    g_free(g);
}

void mlx5_flow_key_of(const Mlx5FlowGroup *g, const uint8_t *param, uint8_t *bytes,
                      Mlx5FlowKey *k)
{
    for (uint16_t i = 0; i < g->key_len; i++) {
        bytes[i] = param[g->key_off[i]] & g->key_mask[i];
    }
    k->len = g->key_len;
    k->bytes = bytes;
    k->hash = (guint)mlx5_siphash(g->hash_key, bytes, g->key_len);
}

Mlx5Fte *mlx5_fte_new(Mlx5FlowGroup *g, uint32_t index, const uint8_t *match)
{
    Mlx5Fte *e = g_malloc0(sizeof(Mlx5Fte) + g->key_len);

    e->index = index;
    e->group = g;
    mlx5_flow_key_of(g, match, e->key_bytes, &e->key);
    return e;
}

void mlx5_fte_free(gpointer p)
{
    Mlx5Fte *e = p;

    if (e->account) {
        g_hash_table_remove(e->group->by_key, &e->key);
        (*e->account)--;
    }
    g_free(e->dest);
    g_free(e);
}

Mlx5Fte *mlx5_flow_group_find(const Mlx5FlowGroup *g, const Mlx5FlowKey *k)
{
    return g_hash_table_lookup(g->by_key, k);
}

Mlx5TableStatus mlx5_fte_insert(Mlx5FlowTable *ft, Mlx5Fte *e, uint32_t *account)
{
    /* The entry it replaces leaves the group's index as it is freed here,
     * before `e` (which may have its key) goes in. */
    Mlx5TableStatus ts = mlx5_table_put_at(&ft->ftes, e->index, e);

    if (ts != MLX5_TABLE_OK) {
        return ts;
    }
    g_hash_table_insert(e->group->by_key, &e->key, e);
    e->account = account;
    (*account)++;
    return MLX5_TABLE_OK;
}

/* An entry: itself with its key bytes, its destination list, and its slot
 * in its group's index (flow.h). */
static uint64_t fte_bytes(const void *p)
{
    const Mlx5Fte *e = p;

    return sizeof(*e) + e->key.len + (uint64_t)e->ndest * sizeof(Mlx5FlowDest) +
           MLX5_TABLE_ENTRY_BYTES;
}
const Mlx5TableCost mlx5_fte_cost = { 0, fte_bytes, NULL };

/* A group: itself, its key layout (an offset and a mask a byte), its empty
 * index, and its slot in its table's group array (which may be twice as
 * long as it is full). */
static uint64_t flow_group_bytes(const void *p)
{
    const Mlx5FlowGroup *g = p;

    return sizeof(*g) + (uint64_t)g->key_len * (sizeof(*g->key_off) + sizeof(*g->key_mask)) +
           MLX5_FLOW_INDEX_BYTES + 2 * sizeof(gpointer);
}
const Mlx5TableCost mlx5_flow_group_cost = { 0, flow_group_bytes, NULL };

/* A table: itself, its empty entry map, and its group array's header (the
 * slots are its groups'). */
const Mlx5TableCost mlx5_flow_table_cost = {
    sizeof(Mlx5FlowTable) + MLX5_FLOW_INDEX_BYTES + MLX5_TABLE_ENTRY_BYTES, NULL, NULL
};

Mlx5FlowTable *mlx5_flow_table_new(uint8_t level, uint8_t log_size, Mlx5HostMem *mem)
{
    Mlx5FlowTable *ft = g_new0(Mlx5FlowTable, 1);

    ft->type = MLX5_FLOW_TABLE_TYPE_NIC_RX;
    ft->level = level;
    ft->log_size = log_size;
    ft->groups = g_ptr_array_new();
    /* A map of the entries set, nothing per index: a table of
     * 2^log_max_ft_size entries costs what an empty one does. */
    mlx5_table_init(&ft->ftes, "fte", 0, (uint32_t)((1ull << log_size) - 1), mlx5_fte_free);
    mlx5_table_account(&ft->ftes, mem, &mlx5_fte_cost);
    return ft;
}

void mlx5_flow_table_destroy(gpointer p)
{
    Mlx5FlowTable *ft = p;

    /* Freeing an entry takes it out of its group's index: the groups go
     * after the tables (DESTROY_FLOW_TABLE frees them itself; a reset
     * clears fw->flow_table before fw->flow_group, MLX5_OBJ_TABLES). */
    mlx5_table_fini(&ft->ftes);
    g_ptr_array_free(ft->groups, TRUE);
    g_free(ft);
}

guint mlx5_flow_table_group_slot(const Mlx5FlowTable *ft, uint32_t index)
{
    guint lo = 0, hi = ft->groups->len;

    while (lo < hi) {
        guint mid = lo + (hi - lo) / 2;
        const Mlx5FlowGroup *g = g_ptr_array_index(ft->groups, mid);
        if (g->start < index) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

bool mlx5_flow_table_range_free(const Mlx5FlowTable *ft, guint slot, uint32_t start,
                                uint32_t end)
{
    const Mlx5FlowGroup *next = slot < ft->groups->len ?
                                g_ptr_array_index(ft->groups, slot) : NULL;
    const Mlx5FlowGroup *prev = slot > 0 ? g_ptr_array_index(ft->groups, slot - 1) : NULL;

    return !(next && next->start <= end) && !(prev && prev->end >= start);
}

void mlx5_flow_table_group_remove(Mlx5FlowTable *ft, const Mlx5FlowGroup *g)
{
    guint slot = mlx5_flow_table_group_slot(ft, g->start);

    if (slot < ft->groups->len && g_ptr_array_index(ft->groups, slot) == g) {
        g_ptr_array_remove_index(ft->groups, slot);
    }
}

const Mlx5Fte *mlx5_flow_table_match(const Mlx5FlowTable *ft, const uint8_t *param)
{
    uint8_t bytes[MLX5_MATCH_PARAM_BYTES];

    for (guint i = 0; i < ft->groups->len; i++) {
        const Mlx5FlowGroup *g = g_ptr_array_index(ft->groups, i);
        const Mlx5Fte *e;
        Mlx5FlowKey k;

        if (g_hash_table_size(g->by_key) == 0) {
            continue;
        }
        mlx5_flow_key_of(g, param, bytes, &k);
        e = mlx5_flow_group_find(g, &k);
        if (e) {
            return e;
        }
    }
    return NULL;
}
