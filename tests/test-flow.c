/*
 * NIC receive flow steering objects: flow tables (levels, sizes, miss
 * tables, the root), flow groups (ranges, overlap, in use) and flow table
 * entries (create/modify, destinations, delete).
 */
#include "harness.h"

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

    h_ok_free(e->h, h_fte_cmd(0, e->ft, e->fg, 0, FT_ACTION_FWD, FT_DEST_FLOW_TABLE, next, 1));
    h_ok_free(e->h, h_fte_cmd(0, e->ft, e->fg, 1, FT_ACTION_FWD, FT_DEST_TIR, e->tir, 16));
    h_ok_free(e->h, h_fte_cmd(0, e->ft, e->fg, 2, FT_ACTION_ALLOW, 0, 0, 0));
    g_assert_cmpuint(((Mlx5Fte *)mlx5_table_get(&ft_of(e, e->ft)->ftes, 1))->ndest, ==, 16);
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
    return g_test_run();
}
