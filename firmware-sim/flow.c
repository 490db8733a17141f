/*
 * NIC receive flow steering commands (PRM "Flow Table"): flow tables,
 * flow groups and flow table entries, the root table, and miss chaining.
 *
 * The driver builds a chain of tables (Linux fs_core.c / en_fs.c:
 * TC miss -> VLAN -> L2 -> TTC -> TIR) and connects them with miss tables
 * (MODIFY_FLOW_TABLE table_miss_id) and the root (SET_FLOW_TABLE_ROOT).
 * Only the NIC_RX table type is advertised (flow_table_nic_cap).  A table
 * owns its entries and keeps its groups in index order; groups live in one
 * device-wide table (their numbers) and are checked to belong to the
 * table they are used with.  How groups and entries are kept so that no
 * command or lookup costs more with a larger table: flow.h.
 *
 * What a guest may make the device hold is bounded device-wide: tables
 * by log_max_ft_num (the flow table's object limit, hca.c fw_limits),
 * entries by log_max_flow (both advertised, flow_table_prop_layout) and
 * groups by MLX5_FLOW_GROUP_BUDGET, each past its bound "limits exceeded"
 * (LIM_ERR / OBJECT_LIMIT) like every object limit; and tables, groups
 * and entries, with what they hold, are charged to the host-memory budget
 * (flow.h, docs/architecture.md "Host memory").
 */
#include <string.h>

#include "cmd.h"

/* What the NIC RX flow table properties advertise (caps.c). */
#define NIC_RX_CAP(fw, field) PRM_GET(flow_table_prop_layout, field, \
    PRM_PTR(flow_table_nic_cap, flow_table_properties_nic_receive, \
            MLX5_CAP_CUR(fw, MLX5_CAP_FLOW_TABLE)))

/* Every steering command starts alike (mlx5_ifc.h): other_vport,
 * table_type and table_id where DESTROY_FLOW_TABLE has them. */
#define FT_SAME_(L) MLX5_SAME_FIELD(destroy_flow_table_in, other_vport, L, other_vport) \
    MLX5_SAME_FIELD(destroy_flow_table_in, table_type, L, table_type)
#define FT_SAME_ID_(L) FT_SAME_(L) MLX5_SAME_FIELD(destroy_flow_table_in, table_id, L, table_id)
FT_SAME_(create_flow_table_in) FT_SAME_ID_(modify_flow_table_in)
FT_SAME_ID_(set_flow_table_root_in) FT_SAME_ID_(create_flow_group_in)
FT_SAME_ID_(destroy_flow_group_in) FT_SAME_ID_(set_fte_in) FT_SAME_ID_(delete_fte_in)

/* This function is its own and only vport (no eswitch): a command for
 * another one is refused (false, *st). */
static bool ft_own_vport(Mlx5Cmd *c, unsigned *st)
{
    *st = PRM_GET(destroy_flow_table_in, other_vport, c->in)
          ? CMD_FAIL(c, BAD_PARAM, BAD_PORT) : MLX5_CMD_STAT_OK;
    return *st == MLX5_CMD_STAT_OK;
}

/* The flow table a steering command names (c->obj), of the one type
 * advertised; NULL with *st when it names none. */
static Mlx5FlowTable *ft_cmd_table(Mlx5Fw *fw, Mlx5Cmd *c, unsigned *st)
{
    Mlx5FlowTable *ft;

    c->obj = PRM_GET(destroy_flow_table_in, table_id, c->in);
    if (!ft_own_vport(c, st)) {
        return NULL;
    }
    if (PRM_GET(destroy_flow_table_in, table_type, c->in) != MLX5_FLOW_TABLE_TYPE_NIC_RX) {
        *st = CMD_FAIL(c, BAD_PARAM, BAD_TABLE_TYPE);
        return NULL;
    }
    ft = mlx5_table_get(&fw->flow_table, c->obj);
    if (!ft) {
        *st = CMD_FAIL(c, BAD_PARAM, BAD_FLOW_TABLE);
    }
    return ft;
}

/* The count a capability field gives as log base 2. */
#define NIC_RX_CAP_COUNT(fw, field) (1ull << MIN(NIC_RX_CAP(fw, field), 32u))

/* A device-wide bound (see above): with `count` objects of kind `what`
 * already there, may one more be made?  If not, the command fails
 * LIM_ERR / OBJECT_LIMIT (*st), as at an object kind's limit (cmd.h
 * mlx5_cmd_table_fail). */
static bool ft_budget_ok(Mlx5Cmd *c, const char *what, uint64_t count, uint64_t max,
                         unsigned *st)
{
    if (count < max) {
        return true;
    }
    mlx5emu_trace_flow_budget_err(what, count, max);
    *st = CMD_FAIL(c, LIM_ERR, OBJECT_LIMIT);
    return false;
}

/* Forwarding goes to a higher level (PRM "Flow Table": a table may point,
 * by a flow-table destination or as its miss table, only to a table of a
 * higher level of the same table type; all tables here are NIC RX).
 * mlx5_core keeps to it: fs_core.c dest_is_valid refuses a destination
 * table whose level is not above the rule's table, and the miss tables it
 * sets (__mlx5_create_flow_table's next_ft, connect_prev_fts) and the
 * rules it re-points (connect_fwd_rules) name the first table of a later
 * priority or a table of the same priority at a higher level, and
 * set_prio_attrs gives later priorities higher levels.  It may lift the
 * rule per entry with set_fte_in
 * ignore_flow_level only when the ignore_flow_level capability is
 * advertised, and it is not here: the rule always holds, which is what
 * keeps a frame's walk from ever coming back to a table. */
static unsigned ft_level_check(Mlx5Cmd *c, uint32_t from, uint8_t level,
                               const Mlx5FlowTable *to)
{
    if (to->level > level) {
        return MLX5_CMD_STAT_OK;
    }
    mlx5emu_trace_flow_level_err(from, level, to->id, to->level);
    return CMD_FAIL(c, BAD_PARAM, FLOW_LEVEL);
}

/* table_miss_action 1: the miss table `miss` exists and is above `level`
 * (the table `from`, 0 while it is being created). */
static unsigned ft_miss_check(Mlx5Fw *fw, Mlx5Cmd *c, uint32_t from, uint8_t level,
                              uint8_t action, uint32_t miss)
{
    const Mlx5FlowTable *to = mlx5_table_get(&fw->flow_table, miss);

    if (action != MLX5_FLOW_TABLE_MISS_FWD) {
        return MLX5_CMD_STAT_OK;
    }
    return to ? ft_level_check(c, from, level, to) : CMD_FAIL(c, BAD_PARAM, BAD_FLOW_TABLE);
}

unsigned cmd_create_flow_table(Mlx5Fw *fw, Mlx5Cmd *c)
{
    const uint8_t *ctx = PRM_PTR(create_flow_table_in, flow_table_context, c->in);
    uint32_t log_size = PRM_GET(flow_table_context, log_size, ctx);
    uint8_t level = PRM_GET(flow_table_context, level, ctx);
    uint8_t miss_action = PRM_GET(flow_table_context, table_miss_action, ctx);
    uint32_t miss_id = PRM_GET(flow_table_context, table_miss_id, ctx);
    Mlx5FlowTable *ft;
    unsigned st;

    if (!ft_own_vport(c, &st)) {
        return st;
    }
    if (PRM_GET(create_flow_table_in, table_type, c->in) != MLX5_FLOW_TABLE_TYPE_NIC_RX) {
        return CMD_FAIL(c, BAD_PARAM, BAD_TABLE_TYPE);
    }
    /* The level orders tables for forwarding; the driver computes absolute
     * levels that may exceed max_ft_level (fs_core.c set_prio_attrs), so it
     * is not bounded here. */
    if (log_size > NIC_RX_CAP(fw, log_max_ft_size)) {
        return CMD_FAIL(c, BAD_PARAM, BAD_SIZE);
    }
    st = ft_miss_check(fw, c, 0, level, miss_action, miss_id);
    if (st != MLX5_CMD_STAT_OK) {
        return st;
    }
    ft = mlx5_flow_table_new(level, (uint8_t)log_size, &fw->host_mem);
    ft->miss_action = miss_action;
    ft->miss_id = miss_id;
    st = mlx5_cmd_add(c, &fw->flow_table, ft, &ft->id);
    if (st != MLX5_CMD_STAT_OK) {
        return st;
    }
    PRM_SET(create_flow_table_out, table_id, c->out, ft->id);
    mlx5emu_trace_flow_table_create(ft->id, ft->level, ft->log_size, ft->miss_action,
                                    ft->miss_id);
    return MLX5_CMD_STAT_OK;
}

/* Free the groups of `ft` (which holds no entry any more). */
static void ft_drop_groups(Mlx5Fw *fw, Mlx5FlowTable *ft)
{
    for (guint i = 0; i < ft->groups->len; i++) {
        const Mlx5FlowGroup *g = g_ptr_array_index(ft->groups, i);
        mlx5_table_remove(&fw->flow_group, g->id);
    }
    g_ptr_array_set_size(ft->groups, 0);
}

unsigned cmd_destroy_flow_table(Mlx5Fw *fw, Mlx5Cmd *c)
{
    unsigned st;
    Mlx5FlowTable *ft = ft_cmd_table(fw, c, &st);

    if (!ft) {
        return st;
    }
    /* Drivers without reset_root_to_default destroy the root table last
     * without disconnecting it first: the function is left with no root. */
    if (fw->flow_root_set[ft->type] && fw->flow_root[ft->type] == ft->id) {
        fw->flow_root_set[ft->type] = false;
        fw->flow_root[ft->type] = 0;
    }
    /* Its entries, then its groups: as many steps as there are of them,
     * whatever the table's size. */
    mlx5_table_clear(&ft->ftes);
    ft_drop_groups(fw, ft);
    return mlx5_cmd_remove(c, &fw->flow_table, ft->id, MLX5_SYND_BAD_FLOW_TABLE);
}

unsigned cmd_modify_flow_table(Mlx5Fw *fw, Mlx5Cmd *c)
{
    const uint8_t *ctx = PRM_PTR(modify_flow_table_in, flow_table_context, c->in);
    uint32_t sel = PRM_GET(modify_flow_table_in, modify_field_select, c->in);
    unsigned st;
    Mlx5FlowTable *ft = ft_cmd_table(fw, c, &st);

    if (ft && (sel & 0x1)) {                    /* MLX5_MODIFY_FLOW_TABLE_MISS_TABLE_ID */
        uint8_t action = PRM_GET(flow_table_context, table_miss_action, ctx);
        uint32_t miss = PRM_GET(flow_table_context, table_miss_id, ctx);
        st = ft_miss_check(fw, c, ft->id, ft->level, action, miss);
        if (st != MLX5_CMD_STAT_OK) {
            return st;
        }
        ft->miss_action = action;
        ft->miss_id = miss;
        mlx5emu_trace_flow_table_miss(ft->id, action, miss);
    }
    return st;
}

unsigned cmd_set_flow_table_root(Mlx5Fw *fw, Mlx5Cmd *c)
{
    unsigned st, type = PRM_GET(set_flow_table_root_in, table_type, c->in);
    Mlx5FlowTable *ft;

    if (c->op_mod == 1) {                       /* disconnect the root */
        c->obj = PRM_GET(set_flow_table_root_in, table_id, c->in);
        if (!ft_own_vport(c, &st)) {
            return st;
        }
        if (type != MLX5_FLOW_TABLE_TYPE_NIC_RX) {
            return CMD_FAIL(c, BAD_PARAM, BAD_TABLE_TYPE);
        }
        fw->flow_root_set[type] = false;
        fw->flow_root[type] = 0;
        return MLX5_CMD_STAT_OK;
    }
    ft = ft_cmd_table(fw, c, &st);
    if (!ft) {
        return st;
    }
    fw->flow_root[type] = ft->id;
    fw->flow_root_set[type] = true;
    mlx5emu_trace_flow_table_root(ft->id);
    return MLX5_CMD_STAT_OK;
}

unsigned cmd_create_flow_group(Mlx5Fw *fw, Mlx5Cmd *c)
{
    uint32_t start = PRM_GET(create_flow_group_in, start_flow_index, c->in);
    uint32_t end = PRM_GET(create_flow_group_in, end_flow_index, c->in);
    unsigned st;
    Mlx5FlowTable *ft = ft_cmd_table(fw, c, &st);
    Mlx5FlowGroup *g;
    guint slot;

    if (!ft) {
        return st;
    }
    if (start > end || end >= (1u << ft->log_size)) {
        return CMD_FAIL(c, BAD_PARAM, BAD_FLOW_INDEX);
    }
    slot = mlx5_flow_table_group_slot(ft, start);
    if (!mlx5_flow_table_range_free(ft, slot, start, end)) {
        return CMD_FAIL(c, BAD_PARAM, GROUP_OVERLAP);
    }
    if (!ft_budget_ok(c, "flow groups", mlx5_table_count(&fw->flow_group),
                      MLX5_FLOW_GROUP_BUDGET, &st)) {
        return st;
    }
    g = mlx5_flow_group_new(ft->id, start, end,
                            PRM_GET(create_flow_group_in, match_criteria_enable, c->in),
                            PRM_PTR(create_flow_group_in, match_criteria, c->in));
    st = mlx5_cmd_add(c, &fw->flow_group, g, &g->id);
    if (st != MLX5_CMD_STAT_OK) {
        return st;
    }
    g_ptr_array_insert(ft->groups, (gint)slot, g);
    PRM_SET(create_flow_group_out, group_id, c->out, g->id);
    mlx5emu_trace_flow_group_create(ft->id, g->id, start, end, g->criteria_enable,
                                    g->key_len);
    return MLX5_CMD_STAT_OK;
}

/* The group `gid` of table `ft`; NULL if there is none (or it is of
 * another table). */
static Mlx5FlowGroup *fg_get(Mlx5Fw *fw, const Mlx5FlowTable *ft, uint32_t gid)
{
    Mlx5FlowGroup *g = mlx5_table_get(&fw->flow_group, gid);

    return g && g->table_id == ft->id ? g : NULL;
}

unsigned cmd_destroy_flow_group(Mlx5Fw *fw, Mlx5Cmd *c)
{
    unsigned st;
    Mlx5FlowTable *ft = ft_cmd_table(fw, c, &st);
    uint32_t gid = PRM_GET(destroy_flow_group_in, group_id, c->in);
    Mlx5FlowGroup *g;

    if (!ft) {
        return st;
    }
    g = mlx5_cmd_find(c, fg_get(fw, ft, gid), gid, MLX5_SYND_BAD_FLOW_GROUP, &st);
    if (!g) {
        return st;
    }
    if (g_hash_table_size(g->by_key) != 0) {    /* it holds entries */
        return CMD_FAIL(c, BAD_RES_STATE, TABLE_IN_USE);
    }
    mlx5_flow_table_group_remove(ft, g);
    return mlx5_cmd_remove(c, &fw->flow_group, gid, MLX5_SYND_BAD_FLOW_GROUP);
}

/* A destination of an entry of table `ft`: a TIR, or a table above it. */
static unsigned fte_dest_check(Mlx5Fw *fw, Mlx5Cmd *c, const Mlx5FlowTable *ft,
                               const Mlx5FlowDest *d)
{
    const Mlx5FlowTable *to;

    switch (d->type) {
    case MLX5_FLOW_DEST_FLOW_TABLE:
        to = mlx5_table_get(&fw->flow_table, d->id);
        if (to) {
            return ft_level_check(c, ft->id, ft->level, to);
        }
        break;
    case MLX5_FLOW_DEST_TIR:
        if (mlx5_table_get(&fw->tir, d->id)) {
            return MLX5_CMD_STAT_OK;
        }
        break;
    default:
        break;
    }
    mlx5emu_trace_flow_dest_err(d->type, d->id);
    return CMD_FAIL(c, BAD_PARAM, BAD_DEST);
}

/* Parse the destination list of a flow context at byte `fc` of the input
 * into entry `e` of table `ft`. */
static unsigned fte_parse_dests(Mlx5Fw *fw, Mlx5Cmd *c, const Mlx5FlowTable *ft,
                                uint64_t fc, Mlx5Fte *e)
{
    const uint8_t *ctx = c->in + fc;
    uint32_t n = PRM_GET(flow_context, destination_list_size, ctx);
    uint64_t off = fc + PRM_BYTE_OFF(flow_context, destination);
    uint32_t max = 1u << NIC_RX_CAP(fw, log_max_destination);
    unsigned st;

    if (!(e->action & MLX5_FLOW_ACTION_FWD_DEST)) {
        return MLX5_CMD_STAT_OK;
    }
    if (n == 0 || n > max) {
        return CMD_FAIL(c, BAD_PARAM, BAD_DEST);
    }
    if (!mlx5_cmd_has(c, off, n, PRM_BYTES(dest_format_struct))) {
        return CMD_FAIL(c, BAD_INP_LEN, IN_TOO_SHORT);
    }
    e->dest = g_new0(Mlx5FlowDest, n);
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *d = c->in + off + i * PRM_BYTES(dest_format_struct);
        e->dest[i].type = PRM_GET(dest_format_struct, destination_type, d);
        e->dest[i].id = PRM_GET(dest_format_struct, destination_id, d);
        st = fte_dest_check(fw, c, ft, &e->dest[i]);
        if (st != MLX5_CMD_STAT_OK) {
            return st;
        }
    }
    e->ndest = n;
    return MLX5_CMD_STAT_OK;
}

/* SET_FTE: the group the entry goes in, and the entry it replaces (op_mod
 * 1 modifies an existing entry, 0 creates one); false with *st if the
 * command names no valid place. */
static bool fte_place(Mlx5Fw *fw, Mlx5Cmd *c, const Mlx5FlowTable *ft, Mlx5FlowGroup **g,
                      Mlx5Fte **old, unsigned *st)
{
    uint32_t index = PRM_GET(set_fte_in, flow_index, c->in);
    const uint8_t *ctx = PRM_PTR(set_fte_in, flow_context, c->in);

    c->obj = index;
    *g = fg_get(fw, ft, PRM_GET(flow_context, group_id, ctx));
    if (!*g) {
        *st = CMD_FAIL(c, BAD_PARAM, BAD_FLOW_GROUP);
    } else if (index < (*g)->start || index > (*g)->end) {
        *st = CMD_FAIL(c, BAD_PARAM, BAD_FLOW_INDEX);
    } else if (c->op_mod > 1) {
        *st = CMD_FAIL(c, BAD_PARAM, BAD_OP_MOD);
    } else if ((*old = mlx5_table_get(&ft->ftes, index)) != NULL && c->op_mod == 0) {
        *st = CMD_FAIL(c, BAD_PARAM, FTE_EXISTS);
    } else if (!*old && c->op_mod == 1) {
        *st = CMD_FAIL(c, BAD_PARAM, BAD_FLOW_INDEX);
    } else {
        *st = MLX5_CMD_STAT_OK;
    }
    return *st == MLX5_CMD_STAT_OK;
}

/* SET_FTE: entry `e` may take the place of `old` (NULL: a new entry) -
 * no other entry of its group has its key (flow.h: one probe per group
 * finds the lowest-index match) and the device holds fewer than
 * 2^log_max_flow entries. */
static unsigned fte_admit(Mlx5Fw *fw, Mlx5Cmd *c, uint32_t table, const Mlx5Fte *e,
                          const Mlx5Fte *old)
{
    const Mlx5Fte *same = mlx5_flow_group_find(e->group, &e->key);
    unsigned st = MLX5_CMD_STAT_OK;

    if (same && same != old) {
        mlx5emu_trace_flow_duplicate_err(table, e->group->id, e->index, same->index);
        return CMD_FAIL(c, BAD_PARAM, DUPLICATE_MATCH);
    }
    if (!old) {
        ft_budget_ok(c, "flow table entries", fw->flow_ftes,
                     NIC_RX_CAP_COUNT(fw, log_max_flow), &st);
    }
    return st;
}

unsigned cmd_set_fte(Mlx5Fw *fw, Mlx5Cmd *c)
{
    uint64_t fc = PRM_BYTE_OFF(set_fte_in, flow_context);
    const uint8_t *ctx = c->in + fc;
    unsigned st;
    Mlx5FlowTable *ft = ft_cmd_table(fw, c, &st);
    Mlx5FlowGroup *g;
    Mlx5Fte *e, *old = NULL;

    if (!ft || !fte_place(fw, c, ft, &g, &old, &st)) {
        return st;
    }
    e = mlx5_fte_new(g, PRM_GET(set_fte_in, flow_index, c->in),
                     PRM_PTR(flow_context, match_value, ctx));
    e->action = PRM_GET(flow_context, action, ctx);
    e->flow_tag = PRM_GET(flow_context, flow_tag, ctx);
    st = fte_parse_dests(fw, c, ft, fc, e);
    if (st == MLX5_CMD_STAT_OK) {
        st = fte_admit(fw, c, ft->id, e, old);
    }
    if (st != MLX5_CMD_STAT_OK) {
        mlx5_fte_free(e);
        return st;
    }
    st = mlx5_cmd_table_fail(c, mlx5_fte_insert(ft, e, &fw->flow_ftes));
    if (st != MLX5_CMD_STAT_OK) {               /* `old`, if any, stays */
        mlx5_fte_free(e);
        return st;
    }
    mlx5emu_trace_flow_fte_set(ft->id, e->index, e->action, e->ndest,
                               e->ndest ? e->dest[0].type : 0,
                               e->ndest ? e->dest[0].id : 0);
    return MLX5_CMD_STAT_OK;
}

unsigned cmd_delete_fte(Mlx5Fw *fw, Mlx5Cmd *c)
{
    unsigned st;
    Mlx5FlowTable *ft = ft_cmd_table(fw, c, &st);

    return ft ? mlx5_cmd_remove(c, &ft->ftes, PRM_GET(delete_fte_in, flow_index, c->in),
                                MLX5_SYND_BAD_FLOW_INDEX) : st;
}
