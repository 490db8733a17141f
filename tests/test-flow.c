/*
 * NIC receive flow steering objects: flow tables (levels, sizes, miss
 * tables, the root, forwarding only upwards), flow groups (ranges,
 * overlap, in use, ranges of millions of entries) and flow table entries
 * (create/modify, destinations, one per match value in a group, delete),
 * the device-wide bounds, and the lowest-index match over many groups and
 * entries (mlx5_flow_table_match: the table lookup the data path makes).
 */
#include <string.h>

#include "harness.h"
#include "siphash.h"

typedef struct FlowEnv {
    Harness *h;
    uint32_t tir, ft, fg;       /* table of 16 entries, group 0..7 */
} FlowEnv;

static FlowEnv *env_new(void)
{
    FlowEnv *e = g_new0(FlowEnv, 1);
    HRing cq, rq;

    e->h = h_new();
    h_bringup(e->h);
    cq = h_create_cq(e->h, e->h->comp_eq.num, 4);
    rq = h_create_rq(e->h, cq.num, 4);
    e->tir = h_create_tir_direct(e->h, rq.num);
    e->ft = h_create_flow_table(e->h, 4, 1);
    e->fg = h_create_flow_group(e->h, e->ft, 0, 7);
    return e;
}

static void env_free(FlowEnv *e)
{
    h_free(e->h);
    g_free(e);
}
G_DEFINE_AUTOPTR_CLEANUP_FUNC(FlowEnv, env_free)

static Mlx5FlowTable *ft_of(FlowEnv *e, uint32_t id)
{
    return mlx5_table_get(&e->h->fw->flow_table, id);
}

static HCmd *ft_create_cmd(unsigned log_size)
{
    HCmd *c = hcmd_new(OP_CREATE_FLOW_TABLE, 0);
    PRM_SET(flow_table_context, log_size, IN_PTR(c, create_flow_table_in, flow_table_context),
            log_size);
    return c;
}

static HCmd *fg_cmd(uint32_t ft, uint32_t start, uint32_t end)
{
    HCmd *c = hcmd_new(OP_CREATE_FLOW_GROUP, 0);

    IN_SET(c, create_flow_group_in, table_id, ft);
    IN_SET(c, create_flow_group_in, start_flow_index, start);
    IN_SET(c, create_flow_group_in, end_flow_index, end);
    return c;
}

static HCmd *fte_to_tir(FlowEnv *e, unsigned op_mod, uint32_t index)
{
    return h_fte_cmd(op_mod, e->ft, e->fg, index, FT_ACTION_FWD, FT_DEST_TIR, e->tir, 1);
}

static HCmd *delete_cmd(uint32_t ft, uint32_t index)
{
    HCmd *c = hcmd_new(OP_DELETE_FLOW_TABLE_ENTRY, 0);

    IN_SET(c, delete_fte_in, table_id, ft);
    IN_SET(c, delete_fte_in, flow_index, index);
    return c;
}

/* --- tables ----------------------------------------------------------- */

static void test_table_create(void)
{
    g_autoptr(FlowEnv) e = env_new();
    Mlx5FlowTable *ft = ft_of(e, e->ft);
    g_autoptr(HCmd) big = ft_create_cmd(22);

    g_assert_cmpuint(ft->level, ==, 1);
    g_assert_cmpuint(ft->log_size, ==, 4);
    h_ok(e->h, big);
    g_assert_cmpuint(OUT_GET(big, create_flow_table_out, table_id), !=, e->ft);
}

static void test_table_bad_input(void)
{
    g_autoptr(FlowEnv) e = env_new();
    g_autoptr(HCmd) size = ft_create_cmd(23);
    g_autoptr(HCmd) type = ft_create_cmd(2);
    g_autoptr(HCmd) vport = ft_create_cmd(2);

    h_fail(e->h, size, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_SIZE);
    IN_SET(type, create_flow_table_in, table_type, 1);          /* NIC TX */
    h_fail(e->h, type, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_TABLE_TYPE);
    IN_SET(vport, create_flow_table_in, other_vport, 1);
    h_fail(e->h, vport, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_PORT);
}

static HCmd *ft_destroy_cmd(uint32_t ft)
{
    HCmd *c = hcmd_new(OP_DESTROY_FLOW_TABLE, 0);
    IN_SET(c, destroy_flow_table_in, table_id, ft);
    return c;
}

static void test_table_destroy_drops_groups_and_entries(void)
{
    g_autoptr(FlowEnv) e = env_new();
    g_autoptr(HCmd) again = ft_destroy_cmd(e->ft);

    h_ok_free(e->h, fte_to_tir(e, 0, 3));
    h_ok_free(e->h, ft_destroy_cmd(e->ft));
    g_assert_null(mlx5_table_get(&e->h->fw->flow_group, e->fg));
    h_fail(e->h, again, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_FLOW_TABLE);
}

static HCmd *root_cmd(unsigned op_mod, uint32_t ft)
{
    HCmd *c = hcmd_new(OP_SET_FLOW_TABLE_ROOT, op_mod);
    IN_SET(c, set_flow_table_root_in, table_id, ft);
    return c;
}

static void test_root_set_and_disconnect(void)
{
    g_autoptr(FlowEnv) e = env_new();

    h_ok_free(e->h, root_cmd(0, e->ft));
    g_assert_true(e->h->fw->flow_root_set[0]);
    g_assert_cmpuint(e->h->fw->flow_root[0], ==, e->ft);
    h_ok_free(e->h, root_cmd(1, 0));
    g_assert_false(e->h->fw->flow_root_set[0]);
}

static void test_root_destroyed_table_is_no_root(void)
{
    g_autoptr(FlowEnv) e = env_new();

    h_ok_free(e->h, root_cmd(0, e->ft));
    h_ok_free(e->h, ft_destroy_cmd(e->ft));
    g_assert_false(e->h->fw->flow_root_set[0]);
}

static void test_root_bad_input(void)
{
    g_autoptr(FlowEnv) e = env_new();
    g_autoptr(HCmd) missing = root_cmd(0, e->ft + 50);
    g_autoptr(HCmd) type = root_cmd(0, e->ft);
    g_autoptr(HCmd) type_disconnect = root_cmd(1, 0);
    g_autoptr(HCmd) vport = root_cmd(0, e->ft);

    h_fail(e->h, missing, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_FLOW_TABLE);
    IN_SET(type, set_flow_table_root_in, table_type, 1);
    h_fail(e->h, type, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_TABLE_TYPE);
    IN_SET(type_disconnect, set_flow_table_root_in, table_type, 4);
    h_fail(e->h, type_disconnect, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_TABLE_TYPE);
    IN_SET(vport, set_flow_table_root_in, other_vport, 1);
    h_fail(e->h, vport, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_PORT);
    g_assert_false(e->h->fw->flow_root_set[0]);
}

static HCmd *miss_cmd(uint32_t ft, uint32_t sel, unsigned action, uint32_t miss)
{
    HCmd *c = hcmd_new(OP_MODIFY_FLOW_TABLE, 0);
    uint8_t *ctx = IN_PTR(c, modify_flow_table_in, flow_table_context);

    IN_SET(c, modify_flow_table_in, table_id, ft);
    IN_SET(c, modify_flow_table_in, modify_field_select, sel);
    PRM_SET(flow_table_context, table_miss_action, ctx, action);
    PRM_SET(flow_table_context, table_miss_id, ctx, miss);
    return c;
}

static void test_modify_miss_table(void)
{
    g_autoptr(FlowEnv) e = env_new();
    uint32_t next = h_create_flow_table(e->h, 2, 2);

    h_ok_free(e->h, miss_cmd(e->ft, 0, 1, next));              /* nothing selected */
    g_assert_cmpuint(ft_of(e, e->ft)->miss_action, ==, 0);
    h_ok_free(e->h, miss_cmd(e->ft, 1, 1, next));
    g_assert_cmpuint(ft_of(e, e->ft)->miss_action, ==, 1);
    g_assert_cmpuint(ft_of(e, e->ft)->miss_id, ==, next);
    h_ok_free(e->h, miss_cmd(e->ft, 1, 0, 0));                 /* back to default */
    g_assert_cmpuint(ft_of(e, e->ft)->miss_action, ==, 0);
}

static void test_modify_bad_input(void)
{
    g_autoptr(FlowEnv) e = env_new();
    g_autoptr(HCmd) missing_miss = miss_cmd(e->ft, 1, 1, e->ft + 9);
    g_autoptr(HCmd) missing_table = miss_cmd(e->ft + 9, 1, 0, 0);

    h_fail(e->h, missing_miss, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_FLOW_TABLE);
    g_assert_cmpuint(ft_of(e, e->ft)->miss_action, ==, 0);
    h_fail(e->h, missing_table, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_FLOW_TABLE);
}

/* --- groups ----------------------------------------------------------- */

static void test_group_ranges(void)
{
    static const struct { uint32_t start, end; uint32_t synd; } cases[] = {
        { 8, 15, 0 },                                   /* adjacent: fine */
        { 9, 9, MLX5_SYND_GROUP_OVERLAP },
        { 7, 8, MLX5_SYND_GROUP_OVERLAP },
        { 5, 4, MLX5_SYND_BAD_FLOW_INDEX },
        { 16, 16, MLX5_SYND_BAD_FLOW_INDEX },           /* table has 16 entries */
        { 0, 0xffffffff, MLX5_SYND_BAD_FLOW_INDEX },
    };
    g_autoptr(FlowEnv) e = env_new();

    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autoptr(HCmd) c = fg_cmd(e->ft, cases[i].start, cases[i].end);
        if (cases[i].synd) {
            h_fail(e->h, c, MLX5_CMD_STAT_BAD_PARAM, cases[i].synd);
        } else {
            h_ok(e->h, c);
        }
    }
}

static void test_group_bad_table(void)
{
    g_autoptr(FlowEnv) e = env_new();
    g_autoptr(HCmd) missing = fg_cmd(e->ft + 5, 0, 0);
    g_autoptr(HCmd) type = fg_cmd(e->ft, 8, 8);

    h_fail(e->h, missing, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_FLOW_TABLE);
    IN_SET(type, create_flow_group_in, table_type, 1);
    h_fail(e->h, type, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_TABLE_TYPE);
}

static HCmd *fg_destroy_cmd(uint32_t ft, uint32_t fg)
{
    HCmd *c = hcmd_new(OP_DESTROY_FLOW_GROUP, 0);

    IN_SET(c, destroy_flow_group_in, table_id, ft);
    IN_SET(c, destroy_flow_group_in, group_id, fg);
    return c;
}

static void test_group_destroy_in_use(void)
{
    g_autoptr(FlowEnv) e = env_new();
    g_autoptr(HCmd) busy = fg_destroy_cmd(e->ft, e->fg);
    g_autoptr(HCmd) again = fg_destroy_cmd(e->ft, e->fg);

    h_ok_free(e->h, fte_to_tir(e, 0, 7));
    h_fail(e->h, busy, MLX5_CMD_STAT_BAD_RES_STATE, MLX5_SYND_TABLE_IN_USE);
    h_ok_free(e->h, delete_cmd(e->ft, 7));
    h_ok_free(e->h, fg_destroy_cmd(e->ft, e->fg));
    h_fail(e->h, again, MLX5_CMD_STAT_BAD_RES, MLX5_SYND_BAD_FLOW_GROUP);
}

static void test_group_of_another_table(void)
{
    g_autoptr(FlowEnv) e = env_new();
    uint32_t other = h_create_flow_table(e->h, 2, 3);
    g_autoptr(HCmd) c = fg_destroy_cmd(other, e->fg);

    h_fail(e->h, c, MLX5_CMD_STAT_BAD_RES, MLX5_SYND_BAD_FLOW_GROUP);
}

/* --- entries ---------------------------------------------------------- */

static void test_fte_create_and_modify(void)
{
    g_autoptr(FlowEnv) e = env_new();
    g_autoptr(HCmd) exists = fte_to_tir(e, 0, 2);
    g_autoptr(HCmd) modify_empty = fte_to_tir(e, 1, 3);
    g_autoptr(HCmd) op = fte_to_tir(e, 2, 2);
    Mlx5Fte *f;

    h_ok_free(e->h, fte_to_tir(e, 0, 2));
    f = mlx5_table_get(&ft_of(e, e->ft)->ftes, 2);
    g_assert_cmpuint(f->ndest, ==, 1);
    g_assert_cmpuint(f->dest[0].type, ==, FT_DEST_TIR);
    g_assert_cmpuint(f->dest[0].id, ==, e->tir);
    g_assert_cmphex(f->flow_tag, ==, 0xabc);
    h_fail(e->h, exists, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_FTE_EXISTS);
    h_ok_free(e->h, h_fte_cmd(1, e->ft, e->fg, 2, FT_ACTION_DROP, 0, 0, 0));
    f = mlx5_table_get(&ft_of(e, e->ft)->ftes, 2);
    g_assert_cmphex(f->action, ==, FT_ACTION_DROP);
    h_fail(e->h, modify_empty, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_FLOW_INDEX);
    h_fail(e->h, op, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_OP_MOD);
}

static void test_fte_failed_modify_keeps_entry(void)
{
    g_autoptr(FlowEnv) e = env_new();
    g_autoptr(HCmd) bad = h_fte_cmd(1, e->ft, e->fg, 4, FT_ACTION_FWD, FT_DEST_TIR,
                                    e->tir + 40, 1);
    Mlx5Fte *f;

    h_ok_free(e->h, fte_to_tir(e, 0, 4));
    h_fail(e->h, bad, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_DEST);
    f = mlx5_table_get(&ft_of(e, e->ft)->ftes, 4);
    g_assert_nonnull(f);
    g_assert_cmpuint(f->dest[0].id, ==, e->tir);
}

static void test_fte_bad_group_or_index(void)
{
    g_autoptr(FlowEnv) e = env_new();
    uint32_t other_ft = h_create_flow_table(e->h, 2, 2);
    uint32_t other_fg = h_create_flow_group(e->h, other_ft, 0, 3);
    g_autoptr(HCmd) outside = fte_to_tir(e, 0, 8);
    g_autoptr(HCmd) foreign = h_fte_cmd(0, e->ft, other_fg, 0, FT_ACTION_DROP, 0, 0, 0);
    g_autoptr(HCmd) nogroup = h_fte_cmd(0, e->ft, 0xdead, 0, FT_ACTION_DROP, 0, 0, 0);
    g_autoptr(HCmd) notable = h_fte_cmd(0, e->ft + 77, e->fg, 0, FT_ACTION_DROP, 0, 0, 0);
    g_autoptr(HCmd) vport = fte_to_tir(e, 0, 0);

    h_fail(e->h, outside, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_FLOW_INDEX);
    h_fail(e->h, foreign, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_FLOW_GROUP);
    h_fail(e->h, nogroup, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_FLOW_GROUP);
    h_fail(e->h, notable, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_FLOW_TABLE);
    IN_SET(vport, set_fte_in, other_vport, 1);
    h_fail(e->h, vport, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_PORT);
}

static void test_fte_destinations(void)
{
    g_autoptr(FlowEnv) e = env_new();
    uint32_t next = h_create_flow_table(e->h, 2, 2);

    uint32_t fg1 = h_create_flow_group(e->h, e->ft, 8, 8);
    uint32_t fg2 = h_create_flow_group(e->h, e->ft, 9, 9);

    /* e->fg and the two others match everything: one entry each */
    h_ok_free(e->h, h_fte_cmd(0, e->ft, e->fg, 0, FT_ACTION_FWD, FT_DEST_FLOW_TABLE, next, 1));
    h_ok_free(e->h, h_fte_cmd(0, e->ft, fg1, 8, FT_ACTION_FWD, FT_DEST_TIR, e->tir, 16));
    h_ok_free(e->h, h_fte_cmd(0, e->ft, fg2, 9, FT_ACTION_ALLOW, 0, 0, 0));
    g_assert_cmpuint(((Mlx5Fte *)mlx5_table_get(&ft_of(e, e->ft)->ftes, 8))->ndest, ==, 16);
}

static void test_fte_bad_destinations(void)
{
    static const struct { uint8_t type; int id_delta; uint32_t n; } bad[] = {
        { FT_DEST_VPORT, 0, 1 },            /* no eswitch */
        { FT_DEST_TIR, 100, 1 },            /* TIR not created */
        { FT_DEST_FLOW_TABLE, 100, 1 },
        { FT_DEST_TIR, 0, 0 },              /* forward to nowhere */
        { FT_DEST_TIR, 0, 17 },             /* > 1 << log_max_destination */
        { 0x7f, 0, 1 },
    };
    g_autoptr(FlowEnv) e = env_new();

    for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
        g_autoptr(HCmd) c = h_fte_cmd(0, e->ft, e->fg, 0, FT_ACTION_FWD, bad[i].type,
                                      (bad[i].type == FT_DEST_TIR ? e->tir : e->ft) +
                                      bad[i].id_delta, bad[i].n);
        h_fail(e->h, c, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_DEST);
    }
    g_assert_cmpuint(mlx5_table_count(&ft_of(e, e->ft)->ftes), ==, 0);
}

static void test_fte_destination_list_beyond_inlen(void)
{
    g_autoptr(FlowEnv) e = env_new();
    g_autoptr(HCmd) c = fte_to_tir(e, 0, 0);

    PRM_SET(flow_context, destination_list_size,
            IN_PTR(c, set_fte_in, flow_context), 4);
    h_fail(e->h, c, MLX5_CMD_STAT_BAD_INP_LEN, MLX5_SYND_IN_TOO_SHORT);
}

static void test_fte_delete(void)
{
    g_autoptr(FlowEnv) e = env_new();
    g_autoptr(HCmd) again = delete_cmd(e->ft, 5);
    g_autoptr(HCmd) table = delete_cmd(e->ft + 3, 5);

    h_ok_free(e->h, fte_to_tir(e, 0, 5));
    h_ok_free(e->h, delete_cmd(e->ft, 5));
    h_fail(e->h, again, MLX5_CMD_STAT_BAD_RES, MLX5_SYND_BAD_FLOW_INDEX);
    h_fail(e->h, table, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_FLOW_TABLE);
    h_ok_free(e->h, fte_to_tir(e, 0, 5));                      /* the index is free */
}

/* --- forwarding goes up ------------------------------------------------ */

/* e->ft is of level 1: an entry may forward to a table of level 2, not to
 * itself, nor to a table of level 1 or 0 (fs_core.c dest_is_valid). */
static void test_level_entry_forwards_upwards_only(void)
{
    g_autoptr(FlowEnv) e = env_new();
    uint32_t lower = h_create_flow_table(e->h, 2, 0), same = h_create_flow_table(e->h, 2, 1);
    uint32_t higher = h_create_flow_table(e->h, 2, 2);
    const uint32_t refused[] = { e->ft, lower, same };
    g_autoptr(HCmd) modify = h_fte_cmd(1, e->ft, e->fg, 0, FT_ACTION_FWD, FT_DEST_FLOW_TABLE,
                                       lower, 1);
    Mlx5Fte *f;

    for (size_t i = 0; i < G_N_ELEMENTS(refused); i++) {
        g_autoptr(HCmd) c = h_fte_cmd(0, e->ft, e->fg, 0, FT_ACTION_FWD, FT_DEST_FLOW_TABLE,
                                      refused[i], 1);
        h_fail(e->h, c, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_FLOW_LEVEL);
    }
    g_assert_cmpuint(mlx5_table_count(&ft_of(e, e->ft)->ftes), ==, 0);
    h_ok_free(e->h, h_fte_cmd(0, e->ft, e->fg, 0, FT_ACTION_FWD, FT_DEST_FLOW_TABLE, higher, 1));
    h_fail(e->h, modify, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_FLOW_LEVEL);
    f = mlx5_table_get(&ft_of(e, e->ft)->ftes, 0);
    g_assert_cmpuint(f->dest[0].id, ==, higher);
}

static void test_level_miss_upwards_only(void)
{
    g_autoptr(FlowEnv) e = env_new();
    uint32_t lower = h_create_flow_table(e->h, 2, 0), same = h_create_flow_table(e->h, 2, 1);
    uint32_t higher = h_create_flow_table(e->h, 2, 2);
    const uint32_t refused[] = { e->ft, lower, same };

    for (size_t i = 0; i < G_N_ELEMENTS(refused); i++) {
        g_autoptr(HCmd) c = miss_cmd(e->ft, 1, 1, refused[i]);
        h_fail(e->h, c, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_FLOW_LEVEL);
        g_assert_cmpuint(ft_of(e, e->ft)->miss_action, ==, 0);
    }
    h_ok_free(e->h, miss_cmd(e->ft, 1, 1, higher));
    g_assert_cmpuint(ft_of(e, e->ft)->miss_id, ==, higher);
}

static HCmd *ft_create_miss_cmd(unsigned level, uint32_t miss)
{
    HCmd *c = ft_create_cmd(2);
    uint8_t *ctx = IN_PTR(c, create_flow_table_in, flow_table_context);

    PRM_SET(flow_table_context, level, ctx, level);
    PRM_SET(flow_table_context, table_miss_action, ctx, 1);
    PRM_SET(flow_table_context, table_miss_id, ctx, miss);
    return c;
}

/* A table created with a miss table (fs_cmd.c mlx5_cmd_create_flow_table
 * with next_ft): it must exist and be above the new table. */
static void test_level_create_with_miss(void)
{
    g_autoptr(FlowEnv) e = env_new();
    g_autoptr(HCmd) same = ft_create_miss_cmd(1, e->ft);
    g_autoptr(HCmd) above = ft_create_miss_cmd(2, e->ft);
    g_autoptr(HCmd) missing = ft_create_miss_cmd(0, e->ft + 50);
    g_autoptr(HCmd) ok = ft_create_miss_cmd(0, e->ft);

    h_fail(e->h, same, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_FLOW_LEVEL);
    h_fail(e->h, above, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_FLOW_LEVEL);
    h_fail(e->h, missing, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_FLOW_TABLE);
    h_ok(e->h, ok);
    g_assert_cmpuint(ft_of(e, OUT_GET(ok, create_flow_table_out, table_id))->miss_id, ==, e->ft);
}

/* --- match keys --------------------------------------------------------- */

/* Two entries of a group with one match value under its criteria: the
 * second is refused (flow.h: fs_core.c never sends one). */
static void test_fte_one_per_match_value(void)
{
    g_autoptr(FlowEnv) e = env_new();
    uint32_t ft = h_create_flow_table(e->h, 6, 2);
    uint32_t fg = h_create_flow_group_ports(e->h, ft, 0, 15, H_ON_DPORT), fg2 = h_create_flow_group_ports(e->h, ft, 16, 31, H_ON_DPORT);
    g_autoptr(HCmd) dup = h_fte_ports_cmd(0, ft, fg, 1, 80, 0, e->tir, 2);
    g_autoptr(HCmd) dup_outside = h_fte_ports_cmd(0, ft, fg, 1, 80, 7, e->tir, 2);
    Mlx5Fte *f;

    h_ok_free(e->h, h_fte_ports_cmd(0, ft, fg, 0, 80, 0, e->tir, 1));
    h_fail(e->h, dup, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_DUPLICATE_MATCH);
    /* bits the criteria do not select make no other value */
    h_fail(e->h, dup_outside, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_DUPLICATE_MATCH);
    g_assert_cmpuint(mlx5_table_count(&ft_of(e, ft)->ftes), ==, 1);
    /* the entry itself is modified in place (fs_core.c update_fte) */
    h_ok_free(e->h, h_fte_ports_cmd(1, ft, fg, 0, 80, 0, e->tir, 3));
    f = mlx5_table_get(&ft_of(e, ft)->ftes, 0);
    g_assert_cmphex(f->flow_tag, ==, 3);
    /* another group with the same criteria may hold the value */
    h_ok_free(e->h, h_fte_ports_cmd(0, ft, fg2, 16, 80, 0, e->tir, 4));
    /* and once the entry is deleted, so may its own group */
    h_ok_free(e->h, delete_cmd(ft, 0));
    h_ok_free(e->h, h_fte_ports_cmd(0, ft, fg, 1, 80, 0, e->tir, 5));
    g_assert_cmpuint(e->h->fw->flow_ftes, ==, 2);
}

static const Mlx5Fte *match_ports(FlowEnv *e, uint32_t ft, uint16_t dport, uint16_t sport)
{
    uint8_t p[MLX5_MATCH_PARAM_BYTES] = { 0 };

    h_match_ports(p, H_ON_DPORT | H_ON_SPORT, dport, sport);
    return mlx5_flow_table_match(ft_of(e, ft), p);
}

static uint32_t tag_of(const Mlx5Fte *f)
{
    return f ? f->flow_tag : 0xdead;
}

enum { BIG_ENTRIES = 50000, SMALL_GROUPS = 1000, SPORT_TAG = 0x100000 };

/* One group of 50000 entries (dport 0..49999 at indices 0..49999, tag =
 * dport), then 1000 one-entry groups (sport j at 50000 + j). */
static uint32_t many_entries_table(FlowEnv *e)
{
    uint32_t ft = h_create_flow_table(e->h, 17, 2);
    uint32_t big = h_create_flow_group_ports(e->h, ft, 0, BIG_ENTRIES - 1, H_ON_DPORT);

    for (uint32_t i = 0; i < BIG_ENTRIES; i++) {
        h_ok_free(e->h, h_fte_ports_cmd(0, ft, big, i, (uint16_t)i, 0, e->tir, i));
    }
    for (uint32_t j = 0; j < SMALL_GROUPS; j++) {
        uint32_t fg = h_create_flow_group_ports(e->h, ft, BIG_ENTRIES + j, BIG_ENTRIES + j, H_ON_SPORT);
        h_ok_free(e->h, h_fte_ports_cmd(0, ft, fg, BIG_ENTRIES + j, 0, (uint16_t)j, e->tir,
                                      SPORT_TAG + j));
    }
    return ft;
}

/* Many entries and groups: a frame still takes the matching entry with
 * the lowest index; with none, the table's miss action is the data path's
 * (MLX5_STEER_MISS or the miss table: test-rx.c). */
static void test_many_entries_lowest_index_wins(void)
{
    g_autoptr(FlowEnv) e = env_new();
    uint32_t ft = many_entries_table(e), any;

    g_assert_cmpuint(mlx5_table_count(&ft_of(e, ft)->ftes), ==, BIG_ENTRIES + SMALL_GROUPS);
    g_assert_cmpuint(e->h->fw->flow_ftes, ==, BIG_ENTRIES + SMALL_GROUPS);
    g_assert_cmpuint(ft_of(e, ft)->groups->len, ==, 1 + SMALL_GROUPS);
    for (uint32_t v = 0; v < BIG_ENTRIES; v += 4999) {
        g_assert_cmphex(tag_of(match_ports(e, ft, (uint16_t)v, 60000)), ==, v);
    }
    /* dport 12345 and sport 7 match entries 12345 and 50007: the first wins */
    g_assert_cmphex(tag_of(match_ports(e, ft, 12345, 7)), ==, 12345);
    g_assert_cmphex(tag_of(match_ports(e, ft, 60000, 999)), ==, SPORT_TAG + 999);
    g_assert_null(match_ports(e, ft, 60000, 1000));                 /* no entry: a miss */
    /* a catch-all group after the others takes what they miss */
    any = h_create_flow_group_ports(e->h, ft, BIG_ENTRIES + SMALL_GROUPS, BIG_ENTRIES + SMALL_GROUPS, 0);
    h_ok_free(e->h, h_fte_ports_cmd(0, ft, any, BIG_ENTRIES + SMALL_GROUPS, 0, 0, e->tir, 0xfff));
    g_assert_cmphex(tag_of(match_ports(e, ft, 60000, 1000)), ==, 0xfff);
    /* entry 12345 gone, the next match is entry 50007 */
    h_ok_free(e->h, delete_cmd(ft, 12345));
    g_assert_cmphex(tag_of(match_ports(e, ft, 12345, 7)), ==, SPORT_TAG + 7);
    h_ok_free(e->h, ft_destroy_cmd(ft));
    g_assert_cmpuint(e->h->fw->flow_ftes, ==, 0);
    g_assert_cmpuint(mlx5_table_count(&e->h->fw->flow_group), ==, 1);    /* e->fg */
}

/* A group over nearly all of a table of 2^log_max_ft_size entries:
 * created, checked for overlap at both ends, busy while it holds entries,
 * destroyed; as are groups next to it. */
static void test_group_spanning_millions(void)
{
    g_autoptr(FlowEnv) e = env_new();
    uint32_t ft = h_create_flow_table(e->h, 22, 2), last = (1u << 22) - 1;
    uint32_t first = h_create_flow_group(e->h, ft, 0, 0);
    uint32_t big = h_create_flow_group_ports(e->h, ft, 1, last - 1, H_ON_DPORT);
    uint32_t end = h_create_flow_group(e->h, ft, last, last);
    const uint32_t overlap[][2] = { { 0, 1 }, { last - 1, last }, { 1 << 20, 1 << 20 },
                                    { 0, last } };
    g_autoptr(HCmd) busy = fg_destroy_cmd(ft, big);
    GPtrArray *groups = ft_of(e, ft)->groups;

    for (size_t i = 0; i < G_N_ELEMENTS(overlap); i++) {
        g_autoptr(HCmd) c = fg_cmd(ft, overlap[i][0], overlap[i][1]);
        h_fail(e->h, c, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_GROUP_OVERLAP);
    }
    g_assert_cmpuint(groups->len, ==, 3);
    g_assert_cmpuint(((Mlx5FlowGroup *)g_ptr_array_index(groups, 0))->id, ==, first);
    g_assert_cmpuint(((Mlx5FlowGroup *)g_ptr_array_index(groups, 1))->id, ==, big);
    g_assert_cmpuint(((Mlx5FlowGroup *)g_ptr_array_index(groups, 2))->id, ==, end);
    h_ok_free(e->h, h_fte_ports_cmd(0, ft, big, 1, 1, 0, e->tir, 1));
    h_ok_free(e->h, h_fte_ports_cmd(0, ft, big, last - 1, 2, 0, e->tir, 2));
    g_assert_cmphex(tag_of(match_ports(e, ft, 2, 0)), ==, 2);
    h_ok_free(e->h, delete_cmd(ft, 1));
    h_fail(e->h, busy, MLX5_CMD_STAT_BAD_RES_STATE, MLX5_SYND_TABLE_IN_USE);
    h_ok_free(e->h, delete_cmd(ft, last - 1));
    h_ok_free(e->h, fg_destroy_cmd(ft, big));
    g_assert_cmpuint(groups->len, ==, 2);
    big = h_create_flow_group_ports(e->h, ft, 1, last - 1, H_ON_DPORT);           /* the range is free again */
    h_ok_free(e->h, h_fte_ports_cmd(0, ft, big, 1 << 21, 3, 0, e->tir, 3));
    h_ok_free(e->h, ft_destroy_cmd(ft));
    g_assert_null(mlx5_table_get(&e->h->fw->flow_group, big));
    g_assert_null(mlx5_table_get(&e->h->fw->flow_group, end));
    g_assert_cmpuint(e->h->fw->flow_ftes, ==, 0);
}

/* --- device-wide bounds ------------------------------------------------- */

#define NIC_RX_CAPS(h) PRM_PTR(flow_table_nic_cap, flow_table_properties_nic_receive, \
                               MLX5_CAP_CUR((h)->fw, MLX5_CAP_FLOW_TABLE))

/* At most 2^log_max_flow entries in all tables together. */
static void test_bound_entries(void)
{
    g_autoptr(FlowEnv) e = env_new();
    uint32_t ft2 = h_create_flow_table(e->h, 4, 2);
    uint32_t fg = h_create_flow_group_ports(e->h, e->ft, 8, 15, H_ON_DPORT), fg2 = h_create_flow_group_ports(e->h, ft2, 0, 7, H_ON_DPORT);
    g_autoptr(HCmd) full = h_fte_ports_cmd(0, ft2, fg2, 1, 5, 0, e->tir, 5);

    PRM_SET(flow_table_prop_layout, log_max_flow, NIC_RX_CAPS(e->h), 2);
    for (uint16_t i = 0; i < 3; i++) {
        h_ok_free(e->h, h_fte_ports_cmd(0, e->ft, fg, 8 + i, i, 0, e->tir, i));
    }
    h_ok_free(e->h, h_fte_ports_cmd(0, ft2, fg2, 0, 4, 0, e->tir, 4));
    h_fail(e->h, full, MLX5_CMD_STAT_LIM_ERR, MLX5_SYND_OBJECT_LIMIT);
    h_ok_free(e->h, h_fte_ports_cmd(1, e->ft, fg, 8, 0, 0, e->tir, 9));      /* modify: no more */
    h_ok_free(e->h, delete_cmd(e->ft, 9));
    h_ok_free(e->h, h_fte_ports_cmd(0, ft2, fg2, 1, 5, 0, e->tir, 5));
    h_ok_free(e->h, ft_destroy_cmd(e->ft));
    g_assert_cmpuint(e->h->fw->flow_ftes, ==, 2);
    h_ok_free(e->h, h_fte_ports_cmd(0, ft2, fg2, 2, 6, 0, e->tir, 6));
}

/* At most 2^log_max_ft_num tables, each as large as log_max_ft_size
 * allows: a table costs nothing per entry it could hold. */
static void test_bound_tables(void)
{
    g_autoptr(FlowEnv) e = env_new();
    g_autoptr(HCmd) full = ft_create_cmd(22);
    uint32_t last = 0;

    PRM_SET(flow_table_prop_layout, log_max_ft_num, NIC_RX_CAPS(e->h), 3);
    mlx5_fw_limits_update(e->h->fw);            /* as SET_HCA_CAP would */
    for (unsigned i = 1; i < 8; i++) {                          /* e->ft is one */
        last = h_create_flow_table(e->h, 22, 2);
        h_create_flow_group(e->h, last, 0, (1u << 22) - 1);
    }
    h_fail(e->h, full, MLX5_CMD_STAT_LIM_ERR, MLX5_SYND_OBJECT_LIMIT);
    h_ok_free(e->h, ft_destroy_cmd(last));
    h_create_flow_table(e->h, 22, 2);
}

/* At most MLX5_FLOW_GROUP_BUDGET groups in all tables together. */
static void test_bound_groups(void)
{
    g_autoptr(FlowEnv) e = env_new();
    uint32_t ft = h_create_flow_table(e->h, 14, 2);
    g_autoptr(HCmd) full = fg_cmd(ft, MLX5_FLOW_GROUP_BUDGET - 1, MLX5_FLOW_GROUP_BUDGET - 1);

    for (uint32_t i = 0; i < MLX5_FLOW_GROUP_BUDGET - 1; i++) {  /* e->fg is one */
        g_autoptr(HCmd) c = fg_cmd(ft, i, i);
        h_ok(e->h, c);
    }
    h_fail(e->h, full, MLX5_CMD_STAT_LIM_ERR, MLX5_SYND_OBJECT_LIMIT);
    h_ok_free(e->h, ft_destroy_cmd(ft));
    g_assert_cmpuint(mlx5_table_count(&e->h->fw->flow_group), ==, 1);
}

/* The keyed hash of the groups' indexes gives the reference values of
 * its paper (Aumasson and Bernstein 2012, appendix A: key 00..0f, message
 * 00..0e; and the empty message of the same key). */
static void test_siphash_reference(void)
{
    uint8_t key[16], msg[15];

    for (unsigned i = 0; i < sizeof(key); i++) {
        key[i] = (uint8_t)i;
    }
    memcpy(msg, key, sizeof(msg));
    g_assert_cmphex(mlx5_siphash(key, msg, sizeof(msg)), ==, 0xa129ca6149be45e5ull);
    g_assert_cmphex(mlx5_siphash(key, msg, 0), ==, 0x726fdb47dd0e0e31ull);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/flow/table/create", test_table_create);
    g_test_add_func("/flow/table/bad-input", test_table_bad_input);
    g_test_add_func("/flow/table/destroy-drops-groups-and-entries",
                    test_table_destroy_drops_groups_and_entries);
    g_test_add_func("/flow/root/set-and-disconnect", test_root_set_and_disconnect);
    g_test_add_func("/flow/root/destroyed-table-is-no-root", test_root_destroyed_table_is_no_root);
    g_test_add_func("/flow/root/bad-input", test_root_bad_input);
    g_test_add_func("/flow/modify/miss-table", test_modify_miss_table);
    g_test_add_func("/flow/modify/bad-input", test_modify_bad_input);
    g_test_add_func("/flow/group/ranges", test_group_ranges);
    g_test_add_func("/flow/group/bad-table", test_group_bad_table);
    g_test_add_func("/flow/group/destroy-in-use", test_group_destroy_in_use);
    g_test_add_func("/flow/group/of-another-table", test_group_of_another_table);
    g_test_add_func("/flow/fte/create-and-modify", test_fte_create_and_modify);
    g_test_add_func("/flow/fte/failed-modify-keeps-entry", test_fte_failed_modify_keeps_entry);
    g_test_add_func("/flow/fte/bad-group-or-index", test_fte_bad_group_or_index);
    g_test_add_func("/flow/fte/destinations", test_fte_destinations);
    g_test_add_func("/flow/fte/bad-destinations", test_fte_bad_destinations);
    g_test_add_func("/flow/fte/destination-list-beyond-inlen",
                    test_fte_destination_list_beyond_inlen);
    g_test_add_func("/flow/fte/delete", test_fte_delete);
    g_test_add_func("/flow/fte/one-per-match-value", test_fte_one_per_match_value);
    g_test_add_func("/flow/level/entry-forwards-upwards-only",
                    test_level_entry_forwards_upwards_only);
    g_test_add_func("/flow/level/miss-upwards-only", test_level_miss_upwards_only);
    g_test_add_func("/flow/level/create-with-miss", test_level_create_with_miss);
    g_test_add_func("/flow/match/many-entries-lowest-index-wins",
                    test_many_entries_lowest_index_wins);
    g_test_add_func("/flow/group/spanning-millions", test_group_spanning_millions);
    g_test_add_func("/flow/bound/entries", test_bound_entries);
    g_test_add_func("/flow/bound/tables", test_bound_tables);
    g_test_add_func("/flow/bound/groups", test_bound_groups);
    g_test_add_func("/flow/siphash/reference", test_siphash_reference);
    return g_test_run();
}
