/*
 * Transport interface objects (PRM "Transport Interface"): TIS (what an
 * Ethernet SQ sends through), TIR (where steering delivers received
 * frames: one RQ, or an RQ table hashed over by RSS) and RQ tables.
 */
#include <string.h>

#include "cmd.h"

void mlx5_rqt_destroy(gpointer p)
{
    Mlx5Rqt *rqt = p;
    g_free(rqt->rqn);
    g_free(rqt);
}

/* --- TIS ------------------------------------------------------------ */

unsigned cmd_create_tis(Mlx5Fw *fw, Mlx5Cmd *c)
{
    const uint8_t *ctx = PRM_PTR(create_tis_in, ctx, c->in);
    Mlx5Tis *t;

    if (!mlx5_table_get(&fw->td, PRM_GET(tisc, transport_domain, ctx))) {
        return CMD_FAIL(c, BAD_PARAM, BAD_TD);
    }
    t = g_new0(Mlx5Tis, 1);
    t->td = PRM_GET(tisc, transport_domain, ctx);
    t->prio = PRM_GET(tisc, prio, ctx);
    if (!mlx5_table_alloc(&fw->tis, t, &t->tisn)) {
        g_free(t);
        return CMD_FAIL(c, NO_RES, NO_RESOURCE);
    }
    c->obj = t->tisn;
    PRM_SET(create_tis_out, tisn, c->out, t->tisn);
    return MLX5_CMD_STAT_OK;
}

unsigned cmd_modify_tis(Mlx5Fw *fw, Mlx5Cmd *c)
{
    Mlx5Tis *t = mlx5_table_get(&fw->tis, PRM_GET(modify_tis_in, tisn, c->in));
    const uint8_t *ctx = PRM_PTR(modify_tis_in, ctx, c->in);
    const uint8_t *mask = PRM_PTR(modify_tis_in, bitmask, c->in);

    c->obj = PRM_GET(modify_tis_in, tisn, c->in);
    if (!t) {
        return CMD_FAIL(c, BAD_RES, BAD_TIS);
    }
    if (PRM_GET(modify_tis_bitmask, prio, mask)) {
        t->prio = PRM_GET(tisc, prio, ctx);
    }
    return MLX5_CMD_STAT_OK;
}

unsigned cmd_destroy_tis(Mlx5Fw *fw, Mlx5Cmd *c)
{
    c->obj = PRM_GET(destroy_tis_in, tisn, c->in);
    if (!mlx5_table_remove(&fw->tis, c->obj)) {
        return CMD_FAIL(c, BAD_RES, BAD_TIS);
    }
    return MLX5_CMD_STAT_OK;
}

/* --- TIR ------------------------------------------------------------ */

enum { MLX5_TIRC_DISP_TYPE_DIRECT = 0, MLX5_TIRC_DISP_TYPE_INDIRECT = 1 };

static unsigned tir_apply(Mlx5Fw *fw, Mlx5Cmd *c, Mlx5Tir *t, const uint8_t *ctx,
                          bool hash, bool self_lb)
{
    if (hash) {
        t->rx_hash_fn = PRM_GET(tirc, rx_hash_fn, ctx);
        t->rx_hash_symmetric = PRM_GET(tirc, rx_hash_symmetric, ctx);
        memcpy(t->toeplitz_key, PRM_PTR(tirc, rx_hash_toeplitz_key, ctx),
               sizeof(t->toeplitz_key));
        t->hash_sel_outer = prm_be32(PRM_PTR(tirc, rx_hash_field_selector_outer, ctx));
    }
    if (self_lb) {
        t->self_lb_block = PRM_GET(tirc, self_lb_block, ctx);
    }
    (void)fw; (void)c;
    return MLX5_CMD_STAT_OK;
}

unsigned cmd_create_tir(Mlx5Fw *fw, Mlx5Cmd *c)
{
    const uint8_t *ctx = PRM_PTR(create_tir_in, ctx, c->in);
    uint8_t disp = PRM_GET(tirc, disp_type, ctx);
    Mlx5Tir *t;

    if (!mlx5_table_get(&fw->td, PRM_GET(tirc, transport_domain, ctx))) {
        return CMD_FAIL(c, BAD_PARAM, BAD_TD);
    }
    if (disp == MLX5_TIRC_DISP_TYPE_DIRECT) {
        if (!mlx5_rq_get(fw, PRM_GET(tirc, inline_rqn, ctx))) {
            return CMD_FAIL(c, BAD_PARAM, BAD_RQ);
        }
    } else if (disp == MLX5_TIRC_DISP_TYPE_INDIRECT) {
        if (!mlx5_table_get(&fw->rqt, PRM_GET(tirc, indirect_table, ctx))) {
            return CMD_FAIL(c, BAD_PARAM, BAD_RQT);
        }
    } else {
        return CMD_FAIL(c, BAD_PARAM, BAD_DEST);
    }
    t = g_new0(Mlx5Tir, 1);
    t->td = PRM_GET(tirc, transport_domain, ctx);
    t->disp_type = disp;
    t->inline_rqn = PRM_GET(tirc, inline_rqn, ctx);
    t->indirect_table = PRM_GET(tirc, indirect_table, ctx);
    tir_apply(fw, c, t, ctx, true, true);
    if (!mlx5_table_alloc(&fw->tir, t, &t->tirn)) {
        g_free(t);
        return CMD_FAIL(c, NO_RES, NO_RESOURCE);
    }
    c->obj = t->tirn;
    PRM_SET(create_tir_out, tirn, c->out, t->tirn);
    return MLX5_CMD_STAT_OK;
}

unsigned cmd_modify_tir(Mlx5Fw *fw, Mlx5Cmd *c)
{
    Mlx5Tir *t = mlx5_table_get(&fw->tir, PRM_GET(modify_tir_in, tirn, c->in));
    const uint8_t *mask = PRM_PTR(modify_tir_in, bitmask, c->in);

    c->obj = PRM_GET(modify_tir_in, tirn, c->in);
    if (!t) {
        return CMD_FAIL(c, BAD_RES, BAD_ID);
    }
    return tir_apply(fw, c, t, PRM_PTR(modify_tir_in, ctx, c->in),
                     PRM_GET(modify_tir_bitmask, hash, mask),
                     PRM_GET(modify_tir_bitmask, self_lb_en, mask));
}

unsigned cmd_destroy_tir(Mlx5Fw *fw, Mlx5Cmd *c)
{
    c->obj = PRM_GET(destroy_tir_in, tirn, c->in);
    if (!mlx5_table_remove(&fw->tir, c->obj)) {
        return CMD_FAIL(c, BAD_RES, BAD_ID);
    }
    return MLX5_CMD_STAT_OK;
}

/* --- RQT ------------------------------------------------------------ */

/* Read the RQ list of an rqtc that starts at `ctx` inside the command. */
static unsigned rqt_read_list(Mlx5Fw *fw, Mlx5Cmd *c, const uint8_t *ctx,
                              uint32_t max, uint32_t **list, uint32_t *n)
{
    uint32_t actual = PRM_GET(rqtc, rqt_actual_size, ctx);
    uint64_t off = (uint64_t)(ctx - c->in) + PRM_BYTE_OFF(rqtc, rq_num);

    if (actual == 0 || actual > max) {
        return CMD_FAIL(c, BAD_PARAM, BAD_RQT_SIZE);
    }
    if (!mlx5_cmd_has(c, off, actual, 4)) {
        return CMD_FAIL(c, BAD_INP_LEN, IN_TOO_SHORT);
    }
    *list = g_new(uint32_t, actual);
    for (uint32_t i = 0; i < actual; i++) {
        (*list)[i] = prm_be32(c->in + off + 4 * i) & 0xffffff;
        if (!mlx5_rq_get(fw, (*list)[i])) {
            g_free(*list);
            *list = NULL;
            return CMD_FAIL(c, BAD_PARAM, BAD_RQ);
        }
    }
    *n = actual;
    return MLX5_CMD_STAT_OK;
}

unsigned cmd_create_rqt(Mlx5Fw *fw, Mlx5Cmd *c)
{
    const uint8_t *ctx = PRM_PTR(create_rqt_in, rqt_context, c->in);
    uint32_t max = PRM_GET(rqtc, rqt_max_size, ctx);
    uint32_t cap = 1u << MLX5_CAP_GET(fw, MLX5_CAP_GENERAL, cmd_hca_cap, log_max_rqt_size);
    Mlx5Rqt *r;
    unsigned st;

    if (max == 0 || max > cap) {
        return CMD_FAIL(c, BAD_PARAM, BAD_RQT_SIZE);
    }
    r = g_new0(Mlx5Rqt, 1);
    r->max_size = max;
    st = rqt_read_list(fw, c, ctx, max, &r->rqn, &r->actual_size);
    if (st != MLX5_CMD_STAT_OK) {
        g_free(r);
        return st;
    }
    if (!mlx5_table_alloc(&fw->rqt, r, &r->rqtn)) {
        mlx5_rqt_destroy(r);
        return CMD_FAIL(c, NO_RES, NO_RESOURCE);
    }
    c->obj = r->rqtn;
    PRM_SET(create_rqt_out, rqtn, c->out, r->rqtn);
    return MLX5_CMD_STAT_OK;
}

unsigned cmd_modify_rqt(Mlx5Fw *fw, Mlx5Cmd *c)
{
    Mlx5Rqt *r = mlx5_table_get(&fw->rqt, PRM_GET(modify_rqt_in, rqtn, c->in));
    const uint8_t *mask = PRM_PTR(modify_rqt_in, bitmask, c->in);
    uint32_t *list, n;
    unsigned st;

    c->obj = PRM_GET(modify_rqt_in, rqtn, c->in);
    if (!r) {
        return CMD_FAIL(c, BAD_RES, BAD_RQT);
    }
    if (!PRM_GET(rqt_bitmask, rqn_list, mask)) {
        return MLX5_CMD_STAT_OK;
    }
    st = rqt_read_list(fw, c, PRM_PTR(modify_rqt_in, ctx, c->in), r->max_size, &list, &n);
    if (st == MLX5_CMD_STAT_OK) {
        g_free(r->rqn);
        r->rqn = list;
        r->actual_size = n;
    }
    return st;
}

unsigned cmd_destroy_rqt(Mlx5Fw *fw, Mlx5Cmd *c)
{
    c->obj = PRM_GET(destroy_rqt_in, rqtn, c->in);
    if (!mlx5_table_remove(&fw->rqt, c->obj)) {
        return CMD_FAIL(c, BAD_RES, BAD_RQT);
    }
    return MLX5_CMD_STAT_OK;
}
