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

/* An RQT holds itself and a list of at most max_size RQs (MODIFY_RQT may
 * replace it with any list up to that: charged at its largest). */
static uint64_t rqt_bytes(const void *r)
{
    return sizeof(Mlx5Rqt) + (uint64_t)((const Mlx5Rqt *)r)->max_size * sizeof(uint32_t);
}
const Mlx5TableCost mlx5_rqt_cost = { 0, rqt_bytes, NULL };

/* The three kinds' commands place the object number and the modify
 * bitmask alike (mlx5_ifc.h), so the TIS layouts read all three. */
MLX5_SAME_FIELD(create_tis_out, tisn, create_tir_out, tirn)
MLX5_SAME_FIELD(create_tis_out, tisn, create_rqt_out, rqtn)
MLX5_SAME_FIELD(modify_tis_in, tisn, modify_tir_in, tirn)
MLX5_SAME_FIELD(modify_tis_in, tisn, modify_rqt_in, rqtn)

/* CREATE_TIS, CREATE_TIR, CREATE_RQT: the new object, whose building
 * answered `st`, gets its number (or is freed). */
static unsigned tr_add(Mlx5Cmd *c, unsigned st, Mlx5Table *t, void *obj, uint32_t *id)
{
    st = mlx5_cmd_add_built(c, st, t, obj, id);
    if (st == MLX5_CMD_STAT_OK) {
        PRM_SET(create_tis_out, tisn, c->out, *id);
    }
    return st;
}

/* MODIFY_TIS, MODIFY_TIR, MODIFY_RQT: the object of table `t` the command
 * names; NULL (*st: BAD_RES with `synd`) if there is none. */
static void *tr_modified(Mlx5Cmd *c, Mlx5Table *t, uint32_t synd, unsigned *st)
{
    uint32_t id = PRM_GET(modify_tis_in, tisn, c->in);

    return mlx5_cmd_find(c, mlx5_table_get(t, id), id, synd, st);
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
    return tr_add(c, MLX5_CMD_STAT_OK, &fw->tis, t, &t->tisn);
}

unsigned cmd_modify_tis(Mlx5Fw *fw, Mlx5Cmd *c)
{
    unsigned st;
    Mlx5Tis *t = tr_modified(c, &fw->tis, MLX5_SYND_BAD_TIS, &st);

    if (t && PRM_GET(modify_tis_bitmask, prio, PRM_PTR(modify_tis_in, bitmask, c->in))) {
        t->prio = PRM_GET(tisc, prio, PRM_PTR(modify_tis_in, ctx, c->in));
    }
    return st;
}

unsigned cmd_destroy_tis(Mlx5Fw *fw, Mlx5Cmd *c)
{
    return mlx5_cmd_remove(c, &fw->tis, PRM_GET(destroy_tis_in, tisn, c->in), MLX5_SYND_BAD_TIS);
}

/* --- TIR ------------------------------------------------------------ */

enum { MLX5_TIRC_DISP_TYPE_DIRECT = 0, MLX5_TIRC_DISP_TYPE_INDIRECT = 1 };

/* What CREATE_TIR sets and MODIFY_TIR may change: the RSS hash and the
 * self-loopback block. */
static void tir_apply(Mlx5Tir *t, const uint8_t *ctx, bool hash, bool self_lb)
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
}

/* A new TIR's transport domain and its destination: one RQ, or an RQT. */
static unsigned tir_check_refs(Mlx5Fw *fw, Mlx5Cmd *c, const uint8_t *ctx)
{
    uint8_t disp = PRM_GET(tirc, disp_type, ctx);

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
    return MLX5_CMD_STAT_OK;
}

unsigned cmd_create_tir(Mlx5Fw *fw, Mlx5Cmd *c)
{
    const uint8_t *ctx = PRM_PTR(create_tir_in, ctx, c->in);
    Mlx5Tir *t = g_new0(Mlx5Tir, 1);

    t->td = PRM_GET(tirc, transport_domain, ctx);
    t->disp_type = PRM_GET(tirc, disp_type, ctx);
    t->inline_rqn = PRM_GET(tirc, inline_rqn, ctx);
    t->indirect_table = PRM_GET(tirc, indirect_table, ctx);
    tir_apply(t, ctx, true, true);
    return tr_add(c, tir_check_refs(fw, c, ctx), &fw->tir, t, &t->tirn);
}

unsigned cmd_modify_tir(Mlx5Fw *fw, Mlx5Cmd *c)
{
    const uint8_t *mask = PRM_PTR(modify_tir_in, bitmask, c->in);
    unsigned st;
    Mlx5Tir *t = tr_modified(c, &fw->tir, MLX5_SYND_BAD_ID, &st);

    if (t) {
        tir_apply(t, PRM_PTR(modify_tir_in, ctx, c->in), PRM_GET(modify_tir_bitmask, hash, mask),
                  PRM_GET(modify_tir_bitmask, self_lb_en, mask));
    }
    return st;
}

unsigned cmd_destroy_tir(Mlx5Fw *fw, Mlx5Cmd *c)
{
    return mlx5_cmd_remove(c, &fw->tir, PRM_GET(destroy_tir_in, tirn, c->in), MLX5_SYND_BAD_ID);
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

    if (max == 0 || max > cap) {
        return CMD_FAIL(c, BAD_PARAM, BAD_RQT_SIZE);
    }
    r = g_new0(Mlx5Rqt, 1);
    r->max_size = max;
    return tr_add(c, rqt_read_list(fw, c, ctx, max, &r->rqn, &r->actual_size), &fw->rqt, r,
                  &r->rqtn);
}

unsigned cmd_modify_rqt(Mlx5Fw *fw, Mlx5Cmd *c)
{
    const uint8_t *mask = PRM_PTR(modify_rqt_in, bitmask, c->in);
    uint32_t *list, n;
    unsigned st;
    Mlx5Rqt *r = tr_modified(c, &fw->rqt, MLX5_SYND_BAD_RQT, &st);

    if (!r || !PRM_GET(rqt_bitmask, rqn_list, mask)) {
        return st;
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
    return mlx5_cmd_remove(c, &fw->rqt, PRM_GET(destroy_rqt_in, rqtn, c->in), MLX5_SYND_BAD_RQT);
}
