/*
 * NIC receive flow steering objects (PRM "Flow Table"): flow tables,
 * flow groups and flow table entries, the root table, and miss chaining.
 *
 * The driver builds a chain of tables (Linux fs_core.c / en_fs.c:
 * TC miss -> VLAN -> L2 -> TTC -> TIR) and connects them with miss tables
 * (MODIFY_FLOW_TABLE table_miss_id) and the root (SET_FLOW_TABLE_ROOT).
 * Only the NIC_RX table type is advertised (flow_table_nic_cap).  A table
 * owns its entries; groups live in one device-wide table and are checked
 * to belong to the table they are used with.
 */
#include <string.h>

#include "cmd.h"


static void fte_free(gpointer p)
{
    Mlx5Fte *e = p;
    g_free(e->dest);
    g_free(e);
}

/* An entry holds itself and its destination list, charged to the
 * device's budget in the table's entry table. */
static uint64_t fte_bytes(const void *e)
{
    return sizeof(Mlx5Fte) + (uint64_t)((const Mlx5Fte *)e)->ndest * sizeof(Mlx5FlowDest);
}
static const Mlx5TableCost fte_cost = { 0, fte_bytes, NULL };

void mlx5_flow_table_destroy(gpointer p)
{
    Mlx5FlowTable *ft = p;
    mlx5_table_fini(&ft->ftes);
    g_free(ft);
}

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

unsigned cmd_create_flow_table(Mlx5Fw *fw, Mlx5Cmd *c)
{
    const uint8_t *ctx = PRM_PTR(create_flow_table_in, flow_table_context, c->in);
    const uint8_t *rx = PRM_PTR(flow_table_nic_cap, flow_table_properties_nic_receive,
                                fw->caps_cur[MLX5_CAP_FLOW_TABLE]);
    uint32_t log_size = PRM_GET(flow_table_context, log_size, ctx);
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
    if (log_size > PRM_GET(flow_table_prop_layout, log_max_ft_size, rx)) {
        return CMD_FAIL(c, BAD_PARAM, BAD_SIZE);
    }
    ft = g_new0(Mlx5FlowTable, 1);
    ft->type = MLX5_FLOW_TABLE_TYPE_NIC_RX;
    ft->level = PRM_GET(flow_table_context, level, ctx);
    ft->log_size = log_size;
    ft->miss_action = PRM_GET(flow_table_context, table_miss_action, ctx);
    ft->miss_id = PRM_GET(flow_table_context, table_miss_id, ctx);
    mlx5_table_init(&ft->ftes, "fte", 0, (1u << log_size) - 1, fte_free);
    mlx5_table_account(&ft->ftes, &fw->host_mem, &fte_cost);
    st = mlx5_cmd_add(c, &fw->flow_table, ft, &ft->id);
    if (st != MLX5_CMD_STAT_OK) {
        return st;
    }
    PRM_SET(create_flow_table_out, table_id, c->out, ft->id);
    mlx5emu_trace_flow_table_create(ft->id, ft->level, ft->log_size, ft->miss_action,
                                    ft->miss_id);
    return MLX5_CMD_STAT_OK;
}

static bool fg_of_table(const void *g, void *table_id)
{
    return ((const Mlx5FlowGroup *)g)->table_id == GPOINTER_TO_UINT(table_id);
}

static void ft_drop_groups(Mlx5Fw *fw, uint32_t table_id)
{
    mlx5_table_remove_if(&fw->flow_group, fg_of_table, GUINT_TO_POINTER(table_id));
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
    ft_drop_groups(fw, ft->id);
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
        if (action == 1 && !mlx5_table_get(&fw->flow_table, miss)) {
            return CMD_FAIL(c, BAD_PARAM, BAD_FLOW_TABLE);
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

static bool fg_overlaps(Mlx5Fw *fw, uint32_t table_id, uint32_t start, uint32_t end)
{
    GHashTableIter it;
    gpointer k, v;

    g_hash_table_iter_init(&it, fw->flow_group.objs);
    while (g_hash_table_iter_next(&it, &k, &v)) {
        Mlx5FlowGroup *g = v;
        if (g->table_id == table_id && start <= g->end && g->start <= end) {
            return true;
        }
    }
    return false;
}

unsigned cmd_create_flow_group(Mlx5Fw *fw, Mlx5Cmd *c)
{
    uint32_t start = PRM_GET(create_flow_group_in, start_flow_index, c->in);
    uint32_t end = PRM_GET(create_flow_group_in, end_flow_index, c->in);
    unsigned st;
    Mlx5FlowTable *ft = ft_cmd_table(fw, c, &st);
    Mlx5FlowGroup *g;

    if (!ft) {
        return st;
    }
    if (start > end || end >= (1u << ft->log_size)) {
        return CMD_FAIL(c, BAD_PARAM, BAD_FLOW_INDEX);
    }
    if (fg_overlaps(fw, ft->id, start, end)) {
        return CMD_FAIL(c, BAD_PARAM, GROUP_OVERLAP);
    }
    g = g_new0(Mlx5FlowGroup, 1);
    g->table_id = ft->id;
    g->start = start;
    g->end = end;
    g->criteria_enable = PRM_GET(create_flow_group_in, match_criteria_enable, c->in);
    memcpy(g->criteria, PRM_PTR(create_flow_group_in, match_criteria, c->in),
           MLX5_MATCH_PARAM_BYTES);
    st = mlx5_cmd_add(c, &fw->flow_group, g, &g->id);
    if (st == MLX5_CMD_STAT_OK) {
        PRM_SET(create_flow_group_out, group_id, c->out, g->id);
    }
    return st;
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
    for (uint32_t i = g->start; i <= g->end; i++) {
        if (mlx5_table_get(&ft->ftes, i)) {
            return CMD_FAIL(c, BAD_RES_STATE, TABLE_IN_USE);
        }
    }
    return mlx5_cmd_remove(c, &fw->flow_group, gid, MLX5_SYND_BAD_FLOW_GROUP);
}

static bool fte_dest_ok(Mlx5Fw *fw, const Mlx5FlowDest *d)
{
    switch (d->type) {
    case MLX5_FLOW_DEST_FLOW_TABLE:
        return mlx5_table_get(&fw->flow_table, d->id) != NULL;
    case MLX5_FLOW_DEST_TIR:
        return mlx5_table_get(&fw->tir, d->id) != NULL;
    default:
        return false;
    }
}

/* Parse the destination list of a flow context at byte `fc` of the input. */
static unsigned fte_parse_dests(Mlx5Fw *fw, Mlx5Cmd *c, uint64_t fc, Mlx5Fte *e)
{
    const uint8_t *ctx = c->in + fc;
    uint32_t n = PRM_GET(flow_context, destination_list_size, ctx);
    uint64_t off = fc + PRM_BYTE_OFF(flow_context, destination);
    uint32_t max = 1u << PRM_GET(flow_table_prop_layout, log_max_destination,
        PRM_PTR(flow_table_nic_cap, flow_table_properties_nic_receive,
                fw->caps_cur[MLX5_CAP_FLOW_TABLE]));

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
        if (!fte_dest_ok(fw, &e->dest[i])) {
            mlx5emu_trace_flow_dest_err(e->dest[i].type, e->dest[i].id);
            return CMD_FAIL(c, BAD_PARAM, BAD_DEST);
        }
    }
    e->ndest = n;
    return MLX5_CMD_STAT_OK;
}

unsigned cmd_set_fte(Mlx5Fw *fw, Mlx5Cmd *c)
{
    uint32_t index = PRM_GET(set_fte_in, flow_index, c->in);
    uint64_t fc = PRM_BYTE_OFF(set_fte_in, flow_context);
    const uint8_t *ctx = c->in + fc;
    unsigned st;
    Mlx5FlowTable *ft = ft_cmd_table(fw, c, &st);
    Mlx5FlowGroup *g;
    Mlx5Fte *e;

    if (!ft) {
        return st;
    }
    c->obj = index;
    g = fg_get(fw, ft, PRM_GET(flow_context, group_id, ctx));
    if (!g) {
        return CMD_FAIL(c, BAD_PARAM, BAD_FLOW_GROUP);
    }
    if (index < g->start || index > g->end) {
        return CMD_FAIL(c, BAD_PARAM, BAD_FLOW_INDEX);
    }
    /* op_mod 0 creates, 1 modifies an existing entry. */
    if (c->op_mod > 1) {
        return CMD_FAIL(c, BAD_PARAM, BAD_OP_MOD);
    }
    if ((c->op_mod == 0) == (mlx5_table_get(&ft->ftes, index) != NULL)) {
        return c->op_mod == 0 ? CMD_FAIL(c, BAD_PARAM, FTE_EXISTS)
                              : CMD_FAIL(c, BAD_PARAM, BAD_FLOW_INDEX);
    }
    e = g_new0(Mlx5Fte, 1);
    e->index = index;
    e->group_id = g->id;
    e->action = PRM_GET(flow_context, action, ctx);
    e->flow_tag = PRM_GET(flow_context, flow_tag, ctx);
    memcpy(e->match, PRM_PTR(flow_context, match_value, ctx), MLX5_MATCH_PARAM_BYTES);
    st = fte_parse_dests(fw, c, fc, e);
    if (st != MLX5_CMD_STAT_OK) {
        fte_free(e);
        return st;
    }
    st = mlx5_cmd_table_fail(c, mlx5_table_put_at(&ft->ftes, index, e));
    if (st != MLX5_CMD_STAT_OK) {
        fte_free(e);
        return st;
    }
    mlx5emu_trace_flow_fte_set(ft->id, index, e->action, e->ndest,
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
