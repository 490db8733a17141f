/*
 * NIC receive flow steering objects (PRM "Flow Table"): what the steering
 * commands (flow.c) build and the data path's lookup (hw-rdma/steering.c)
 * reads.
 *
 * Concepts
 * --------
 * A flow table is an index space of 2^log_size entries.  Flow groups cut
 * it into ranges [start, end] that do not overlap; each has match
 * criteria: a mask over the 512-byte fte_match_param, by 64-byte section
 * (match_criteria_enable).  A flow table entry (FTE) sits at one index of
 * one group with a match value, an action and destinations.  A frame takes
 * the matching entry with the lowest index; with none, the table's miss
 * action.
 *
 * Nothing here grows with a table's size, only with what the driver put in
 * it, and no lookup grows with the number of entries:
 *  - a table keeps its groups sorted by start index (ft->groups), so the
 *    overlap check of CREATE_FLOW_GROUP is a binary search and destroying
 *    a table visits its groups and its entries, not its index space;
 *  - a group indexes its entries by match key - the bytes of the match
 *    value its criteria select, masked (Mlx5FlowKey) - in a hash table
 *    keyed per group with SipHash (siphash.h), so a guest cannot pick
 *    entries that all land in one bucket; finding a frame's entry in a
 *    group is one probe, and the group knows how many entries it holds;
 *  - a table's entries are a map from index to entry (ft->ftes).
 * A lookup in a table is one probe per non-empty group, groups in index
 * order, as hardware looks up one group's hash after another
 * (mlx5_flow_table_match).
 *
 * Why that finds the lowest-index match: groups do not overlap, so the
 * first group (by start) that holds a match holds the table's lowest one;
 * inside a group at most one entry has a given key (SET_FTE refuses a
 * second: DUPLICATE_MATCH), so one probe finds the group's only candidate.
 * The driver relies on the first both ways: fs_ttc.c and en_arfs.c put
 * their catch-all ("any", empty criteria) group after the specific ones,
 * so it takes only what they miss, while en_fs.c puts the L2 table's
 * promiscuous group first, so that its entry, once set, takes every frame
 * before the MAC groups.  It never needs the second: fs_core.c keeps one
 * FTE per match value in each group (the
 * group's rhashtable of FTEs keyed by match value, insert_fte) and adds
 * destinations to that FTE (SET_FTE op_mod 1) rather than sending a second
 * one, and its check_valid_spec refuses match values with bits outside the
 * criteria, so its "same value" and our "same key" agree.
 *
 * Forwarding goes up: a table forwards (an FTE's flow-table destination,
 * its miss table) only to a table of a higher level (flow.c
 * ft_level_check), so a frame visits tables in rising level order and
 * cannot loop.
 */
#ifndef MLX5EMU_FLOW_H
#define MLX5EMU_FLOW_H

#include <glib.h>
#include <stdint.h>

#include "objects.h"

/* Flow table types, destinations and FTE actions (PRM "Flow Table"). */
enum { MLX5_FLOW_TABLE_TYPE_NIC_RX = 0 };
enum { MLX5_FLOW_TABLE_MISS_FWD = 1 };  /* table_miss_action: go to table_miss_id */
enum {
    MLX5_FLOW_DEST_VPORT = 0x0, MLX5_FLOW_DEST_FLOW_TABLE = 0x1,
    MLX5_FLOW_DEST_TIR = 0x2, MLX5_FLOW_DEST_COUNTER = 0x100,
};
enum {
    MLX5_FLOW_ACTION_ALLOW = 0x1, MLX5_FLOW_ACTION_DROP = 0x2,
    MLX5_FLOW_ACTION_FWD_DEST = 0x4, MLX5_FLOW_ACTION_COUNT = 0x8,
};

/* Groups the device keeps at most, over all tables (one more is LIM_ERR /
 * OBJECT_LIMIT): each costs host memory (its key layout and index: 2 KiB
 * at most, 32 MiB for all, charged to the budget like every object) and
 * a probe in the lookups of its table, which no budget of bytes bounds;
 * a frame visits a table at most once (levels rise), so it makes at most
 * this many probes.  mlx5_core makes a few per table (autogrouped
 * tables: fs_core.c max_num_groups; mlx5e's tables at most tens), mlx5_ib
 * one per match mask of a table; tables are bounded by log_max_ft_num and
 * entries by log_max_flow (caps.c). */
enum { MLX5_FLOW_GROUP_BUDGET = 1 << 14 };

#define MLX5_MATCH_PARAM_BYTES 512

/* Host memory (objects.h Mlx5HostMem, charged to Mlx5Fw.host_mem): the
 * steering objects are charged by the tables that hold them at what they
 * hold (mlx5_flow_table_cost, mlx5_flow_group_cost, mlx5_fte_cost, beside
 * the MLX5_TABLE_ENTRY_BYTES of their own slot), refunded whichever way
 * they go.  What they hold beyond their structs are hash indexes: an empty
 * one (a GHashTable's header and the 8 slots it starts with, rounded up)
 * costs MLX5_FLOW_INDEX_BYTES, each entry in one MLX5_TABLE_ENTRY_BYTES. */
#define MLX5_FLOW_INDEX_BYTES 256u

/* An entry's match value (or a frame's match parameters) under a group's
 * criteria: the selected bytes, masked, and their hash under the group's
 * key. */
typedef struct Mlx5FlowKey {
    guint hash;
    uint16_t len;
    const uint8_t *bytes;
} Mlx5FlowKey;

typedef struct Mlx5FlowGroup {
    uint32_t id, table_id;
    uint32_t start, end;
    uint8_t criteria_enable;
    uint16_t key_len;           /* bytes of fte_match_param the criteria select */
    uint16_t *key_off;          /* their offsets */
    uint8_t *key_mask;          /* and the criteria bits of each */
    uint8_t hash_key[16];       /* SipHash key, random per group */
    GHashTable *by_key;         /* Mlx5FlowKey -> Mlx5Fte: its entries, one per key */
} Mlx5FlowGroup;

typedef struct Mlx5FlowDest { uint8_t type; uint32_t id; } Mlx5FlowDest;

typedef struct Mlx5Fte {
    uint32_t index;
    Mlx5FlowGroup *group;
    uint16_t action;
    uint32_t flow_tag;
    uint32_t ndest;
    Mlx5FlowDest *dest;
    uint32_t *account;          /* set while in its table: the device's entry count */
    Mlx5FlowKey key;            /* its bytes are key_bytes */
    uint8_t key_bytes[];
} Mlx5Fte;

typedef struct Mlx5FlowTable {
    uint32_t id;
    uint8_t type, level, log_size, miss_action;
    uint32_t miss_id;
    GPtrArray *groups;          /* its groups by start index (fw->flow_group owns them) */
    Mlx5Table ftes;             /* index -> Mlx5Fte */
} Mlx5FlowTable;

/* What a table (with its empty entry map and group array), a group (its
 * key layout, its empty index, its slot in its table's group array) and
 * an entry (its key, its destinations, its slot in its group's index)
 * hold; a table charges its entries at mlx5_fte_cost itself. */
extern const Mlx5TableCost mlx5_flow_table_cost, mlx5_flow_group_cost, mlx5_fte_cost;

/* A group over [start, end] of table `table_id` matching the bits of
 * `criteria` in the sections `criteria_enable` selects. */
Mlx5FlowGroup *mlx5_flow_group_new(uint32_t table_id, uint32_t start, uint32_t end,
                                   uint8_t criteria_enable, const uint8_t *criteria);
void mlx5_flow_group_destroy(gpointer g);
/* The key of match parameters `param` in group `g`; its g->key_len bytes
 * are written to `bytes`. */
void mlx5_flow_key_of(const Mlx5FlowGroup *g, const uint8_t *param, uint8_t *bytes,
                      Mlx5FlowKey *k);

/* An entry of group `g` at `index` with match value `match` (an
 * fte_match_param), in no table yet. */
Mlx5Fte *mlx5_fte_new(Mlx5FlowGroup *g, uint32_t index, const uint8_t *match);
/* Free an entry; one in its table leaves its group's index and the count
 * it was added to. */
void mlx5_fte_free(gpointer e);
/* The entry of `g` with key `k`, or NULL. */
Mlx5Fte *mlx5_flow_group_find(const Mlx5FlowGroup *g, const Mlx5FlowKey *k);
/* Put `e` in table `ft` at e->index, in place of the entry there (which
 * is freed), and in its group's index (no other entry has its key), and
 * count it in *account.  When the table refuses it (the host-memory
 * budget: mlx5_table_put_at) nothing changes and `e` is still the
 * caller's. */
Mlx5TableStatus mlx5_fte_insert(Mlx5FlowTable *ft, Mlx5Fte *e, uint32_t *account);

/* An empty table whose entries are charged to `mem`. */
Mlx5FlowTable *mlx5_flow_table_new(uint8_t level, uint8_t log_size, Mlx5HostMem *mem);
void mlx5_flow_table_destroy(gpointer ft);
/* The position in ft->groups of the first group that starts at or after
 * `index`. */
guint mlx5_flow_table_group_slot(const Mlx5FlowTable *ft, uint32_t index);
/* No group of `ft` has an index in [start, end]; `slot` is
 * mlx5_flow_table_group_slot(ft, start). */
bool mlx5_flow_table_range_free(const Mlx5FlowTable *ft, guint slot, uint32_t start,
                                uint32_t end);
void mlx5_flow_table_group_remove(Mlx5FlowTable *ft, const Mlx5FlowGroup *g);
/* The entry of `ft` with the lowest index that match parameters `param`
 * match, or NULL. */
const Mlx5Fte *mlx5_flow_table_match(const Mlx5FlowTable *ft, const uint8_t *param);

#endif
