/*
 * Completion queue objects (PRM "Completion Queues"): CREATE/DESTROY/
 * QUERY/MODIFY_CQ.  The CQE writer, arming and event moderation are the
 * data path's (hw-rdma/cq.c); it updates the producer counter and the arm
 * state kept here, which QUERY_CQ reports as the PRM's cqc does.
 */
#include "cmd.h"

void mlx5_cq_destroy(gpointer p)
{
    Mlx5Cq *cq = p;
    mlx5_ring_fini(&cq->ring);
    g_free(cq);
}

unsigned cmd_create_cq(Mlx5Fw *fw, Mlx5Cmd *c)
{
    const uint8_t *cqc = PRM_PTR(create_cq_in, cq_context, c->in);
    uint32_t log_size = PRM_GET(cqc, log_cq_size, cqc);
    uint32_t log_page = PRM_GET(cqc, log_page_size, cqc);
    uint32_t cqe_sz = PRM_GET(cqc, cqe_sz, cqc);
    uint32_t eqn = PRM_GET(cqc, c_eqn_or_apu_element, cqc);
    uint32_t uar = PRM_GET(cqc, uar_page, cqc);
    uint32_t pas_off = PRM_BYTE_OFF(create_cq_in, pas);
    Mlx5Cq *cq;
    unsigned st;

    if (log_size > MLX5_CAP_GET(fw, MLX5_CAP_GENERAL, cmd_hca_cap, log_max_cq_sz)) {
        return CMD_FAIL(c, BAD_PARAM, BAD_SIZE);
    }
    if (cqe_sz > 1) {                           /* 64 or 128 bytes */
        return CMD_FAIL(c, BAD_PARAM, BAD_STRIDE);
    }
    if (log_page > 18) {
        return CMD_FAIL(c, BAD_PARAM, BAD_PAGE_SIZE);
    }
    if (!mlx5_table_get(&fw->eq, eqn)) {
        return CMD_FAIL(c, BAD_PARAM, BAD_EQ);
    }
    if (!mlx5_table_get(&fw->uar, uar)) {
        return CMD_FAIL(c, BAD_PARAM, BAD_UAR);
    }
    cq = g_new0(Mlx5Cq, 1);
    if (!mlx5_ring_init(&cq->ring, c->in + pas_off, c->inlen - pas_off, log_size,
                        6 + cqe_sz, log_page + 12,
                        mlx5_page_offset_bytes(PRM_GET(cqc, page_offset, cqc), log_page + 12))) {
        g_free(cq);
        return CMD_FAIL(c, BAD_PARAM, PAS_TOO_SHORT);
    }
    cq->eqn = eqn;
    cq->uar_page = uar;
    cq->dbr_addr = PRM_GET(cqc, dbr_addr, cqc);
    cq->cq_period = PRM_GET(cqc, cq_period, cqc);
    cq->cq_max_count = PRM_GET(cqc, cq_max_count, cqc);
    cq->cq_period_mode = PRM_GET(cqc, cq_period_mode, cqc);
    st = mlx5_cmd_add(c, &fw->cq, cq, &cq->cqn);
    if (st != MLX5_CMD_STAT_OK) {
        return st;
    }
    PRM_SET(create_cq_out, cqn, c->out, cq->cqn);
    mlx5emu_trace_cq_create(cq->cqn, log_size, 64u << cqe_sz, eqn);
    return MLX5_CMD_STAT_OK;
}

unsigned cmd_destroy_cq(Mlx5Fw *fw, Mlx5Cmd *c)
{
    uint32_t cqn = PRM_GET(destroy_cq_in, cqn, c->in);
    Mlx5Cq *cq = mlx5_table_get(&fw->cq, cqn);

    if (cq && fw->dp_ops) {
        fw->dp_ops->cq_destroyed(fw->dp, cq);
    }
    return mlx5_cmd_remove(c, &fw->cq, cqn, MLX5_SYND_BAD_CQ);
}

unsigned cmd_query_cq(Mlx5Fw *fw, Mlx5Cmd *c)
{
    uint32_t cqn = PRM_GET(query_cq_in, cqn, c->in);
    Mlx5Cq *cq = mlx5_table_get(&fw->cq, cqn);
    uint8_t *cqc = PRM_PTR(query_cq_out, cq_context, c->out);

    c->obj = cqn;
    if (!cq) {
        return CMD_FAIL(c, BAD_RES, BAD_CQ);
    }
    PRM_SET(cqc, status, cqc, cq->in_error ? 0x9 : 0);   /* CQ overflow */
    PRM_SET(cqc, cqe_sz, cqc, cq->ring.log_stride - 6);
    PRM_SET(cqc, st, cqc, cq->arm == 1 ? 0x6 : cq->arm == 2 ? 0x9 : 0xa);
    PRM_SET(cqc, log_cq_size, cqc, cq->ring.log_size);
    PRM_SET(cqc, uar_page, cqc, cq->uar_page);
    PRM_SET(cqc, cq_period, cqc, cq->cq_period);
    PRM_SET(cqc, cq_max_count, cqc, cq->cq_max_count);
    PRM_SET(cqc, cq_period_mode, cqc, cq->cq_period_mode);
    PRM_SET(cqc, c_eqn_or_apu_element, cqc, cq->eqn);
    PRM_SET(cqc, log_page_size, cqc, cq->ring.log_page_size - 12);
    PRM_SET(cqc, producer_counter, cqc, cq->pi & 0xffffff);
    PRM_SET(cqc, dbr_addr, cqc, cq->dbr_addr);
    return MLX5_CMD_STAT_OK;
}

/* MODIFY_CQ op_mod 0: modify moderation (modify_field_select bit 0 =
 * cq_period, bit 1 = cq_max_count, bit 4 = cq_period_mode; Linux
 * mlx5_core_modify_cq_moderation, mlx5e_modify_cq_moderation). */
unsigned cmd_modify_cq(Mlx5Fw *fw, Mlx5Cmd *c)
{
    uint32_t cqn = PRM_GET(modify_cq_in, cqn, c->in);
    uint32_t sel = PRM_GET(modify_cq_in, modify_field_select_resize_field_select, c->in);
    const uint8_t *cqc = PRM_PTR(modify_cq_in, cq_context, c->in);
    Mlx5Cq *cq = mlx5_table_get(&fw->cq, cqn);

    c->obj = cqn;
    if (!cq) {
        return CMD_FAIL(c, BAD_RES, BAD_CQ);
    }
    if (c->op_mod != 0) {                       /* resize is not supported */
        return CMD_FAIL(c, BAD_PARAM, BAD_OP_MOD);
    }
    if (sel & 1) {
        cq->cq_period = PRM_GET(cqc, cq_period, cqc);
    }
    if (sel & 2) {
        cq->cq_max_count = PRM_GET(cqc, cq_max_count, cqc);
    }
    if (sel & 0x10) {
        cq->cq_period_mode = PRM_GET(cqc, cq_period_mode, cqc);
    }
    return MLX5_CMD_STAT_OK;
}
