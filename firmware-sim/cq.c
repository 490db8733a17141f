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

/* A CQ holds itself and its page list. */
static uint64_t cq_bytes(const void *cq)
{
    return sizeof(Mlx5Cq) + mlx5_ring_bytes(&((const Mlx5Cq *)cq)->ring);
}
const Mlx5TableCost mlx5_cq_cost = { 0, cq_bytes, NULL };

/* cqc.status: CQ overflow once the data path found the CQ full. */
static uint64_t cqc_status(const void *cq)
{
    return ((const Mlx5Cq *)cq)->in_error ? 0x9 : 0;
}

/* cqc.st: armed (6), armed for solicited events (9), fired (0xa). */
static uint64_t cqc_st(const void *obj)
{
    const Mlx5Cq *cq = obj;

    return cq->arm == 1 ? 0x6 : cq->arm == 2 ? 0x9 : 0xa;
}

/* What a CQ keeps of its context, and QUERY_CQ reports. */
#define CQC_(f, m, bias, dir) \
    MLX5_CTX_FIELD(PRM_OFF(cqc, f), PRM_W(cqc, f), Mlx5Cq, m, bias, MLX5_CTX_##dir)
static const Mlx5CtxField cqc_fields[] = {
    CQC_(c_eqn_or_apu_element, eqn, 0, INOUT), CQC_(uar_page, uar_page, 0, INOUT),
    CQC_(dbr_addr, dbr_addr, 0, INOUT),
    CQC_(cq_period, cq_period, 0, INOUT), CQC_(cq_max_count, cq_max_count, 0, INOUT),
    CQC_(cq_period_mode, cq_period_mode, 0, INOUT),
    CQC_(log_cq_size, ring.log_size, 0, OUT), CQC_(cqe_sz, cqe_sz, 0, INOUT),
    CQC_(cqe_comp_en, cqe_comp_en, 0, INOUT), CQC_(mini_cqe_res_format, mini_cqe_res_format, 0, INOUT),
    CQC_(log_page_size, ring.log_page_size, 12, OUT), CQC_(producer_counter, pi, 0, OUT),
    MLX5_CTX_STATE(PRM_OFF(cqc, status), PRM_W(cqc, status), cqc_status),
    MLX5_CTX_STATE(PRM_OFF(cqc, st), PRM_W(cqc, st), cqc_st),
};

unsigned cmd_create_cq(Mlx5Fw *fw, Mlx5Cmd *c)
{
    const uint8_t *cqc = PRM_PTR(create_cq_in, cq_context, c->in);
    uint32_t cqe_sz = PRM_GET(cqc, cqe_sz, cqc);
    unsigned st = mlx5_ring_ctx_check(c, cqc, MLX5_CAP_GET(fw, MLX5_CAP_GENERAL, cmd_hca_cap,
                                                           log_max_cq_sz), cqe_sz);
    Mlx5Cq *cq;

    if (st != MLX5_CMD_STAT_OK) {
        return st;
    }
    if (!mlx5_table_get(&fw->eq, PRM_GET(cqc, c_eqn_or_apu_element, cqc))) {
        return CMD_FAIL(c, BAD_PARAM, BAD_EQ);
    }
    cq = g_new0(Mlx5Cq, 1);
    st = mlx5_ring_ctx_init(fw, c, cqc, &cq->ring, PRM_BYTE_OFF(create_cq_in, pas), cqe_sz);
    mlx5_ctx_load(cq, cqc, MLX5_CTX_FIELDS(cqc_fields));
    st = mlx5_cmd_add_built(c, st, &fw->cq, cq, &cq->cqn);
    if (st != MLX5_CMD_STAT_OK) {
        return st;
    }
    PRM_SET(create_cq_out, cqn, c->out, cq->cqn);
    mlx5emu_trace_cq_create(cq->cqn, cq->ring.log_size, 1u << cq->ring.log_stride, cq->eqn);
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

    return mlx5_cmd_query(c, mlx5_table_get(&fw->cq, cqn), cqn, MLX5_SYND_BAD_CQ,
                          PRM_PTR(query_cq_out, cq_context, c->out), MLX5_CTX_FIELDS(cqc_fields));
}

/* MODIFY_CQ op_mod 1: resize (Linux mlx5_ib_resize_cq, libmlx5
 * mlx5_resize_cq).  The CQ moves to the ring its new page list describes:
 * the device writes a RESIZE CQE in the old ring where its next CQE would
 * have gone and goes on in the new ring after it (producer counter + 1),
 * while software copies the CQEs it has not polled into the new ring up
 * to that CQE (libmlx5 mlx5_cq_resize_copy_cqes, mlx5_ib
 * copy_resize_cqes) - so they must fit there: CQES_OUTSTANDING if not.
 * mlx5_ib selects log size, page offset and page size (0x7); the CQE size
 * stays. */
enum { MLX5_CQ_OPMOD_RESIZE = 1 };
enum {
    CQ_RESIZE_LOG_SIZE = 0x1, CQ_RESIZE_PAGE_OFFSET = 0x2, CQ_RESIZE_LOG_PAGE_SIZE = 0x4,
    CQ_RESIZE_FIELDS = 0x7,
};
#define MLX5_CQE_RESIZE_CQ 0x5          /* op_own >> 4 (Linux device.h) */

/* The ring `cqc` asks for (its selected fields, the others as they are). */
static unsigned cq_resize_ring(Mlx5Fw *fw, Mlx5Cmd *c, const Mlx5Cq *cq, uint32_t sel,
                               const uint8_t *cqc, Mlx5Ring *r)
{
    unsigned log = sel & CQ_RESIZE_LOG_SIZE ? PRM_GET(cqc, log_cq_size, cqc) : cq->ring.log_size;
    unsigned log_page = sel & CQ_RESIZE_LOG_PAGE_SIZE ? PRM_GET(cqc, log_page_size, cqc) + 12
                                                      : cq->ring.log_page_size;
    uint32_t offset = sel & CQ_RESIZE_PAGE_OFFSET
        ? mlx5_page_offset_bytes(PRM_GET(cqc, page_offset, cqc), log_page) : cq->ring.page_offset;
    uint32_t pas = PRM_BYTE_OFF(modify_cq_in, pas);

    if (sel & ~(uint32_t)CQ_RESIZE_FIELDS) {
        return CMD_FAIL(c, BAD_PARAM, BAD_OP_MOD);  /* bit 3: a umem (DEVX) */
    }
    if (PRM_GET(cqc, cqe_sz, cqc) != cq->cqe_sz) {
        return CMD_FAIL(c, BAD_PARAM, BAD_STRIDE);
    }
    if (log > MLX5_CAP_GET(fw, MLX5_CAP_GENERAL, cmd_hca_cap, log_max_cq_sz)) {
        return CMD_FAIL(c, BAD_PARAM, BAD_SIZE);
    }
    if (log_page > 30) {
        return CMD_FAIL(c, BAD_PARAM, BAD_PAGE_SIZE);
    }
    if (c->inlen < pas || !mlx5_ring_init(r, c->in + pas, c->inlen - pas, (uint8_t)log,
                                          cq->ring.log_stride, (uint8_t)log_page, offset)) {
        return CMD_FAIL(c, BAD_PARAM, PAS_TOO_SHORT);
    }
    return MLX5_CMD_STAT_OK;
}

/* The RESIZE CQE, in the old ring at the producer counter, valid for it. */
static void cq_resize_cqe(Mlx5Fw *fw, const Mlx5Cq *cq)
{
    uint8_t cqe[MLX5_CQE_BYTES] = { 0 };
    uint64_t addr;

    cqe[MLX5_CQE_BYTES - 1] = MLX5_CQE_RESIZE_CQ << 4 | ((cq->pi >> cq->ring.log_size) & 1);
    if (!mlx5_cqe_addr(&cq->ring, cq->pi, &addr) || mlx5_dma_write(fw, addr, cqe, sizeof(cqe))) {
        mlx5_guest_error(fw, "CQ 0x%x: ring not in guest memory (RESIZE CQE)", cq->cqn);
    }
}

static unsigned cq_resize(Mlx5Fw *fw, Mlx5Cmd *c, Mlx5Cq *cq, uint32_t sel, const uint8_t *cqc)
{
    Mlx5Ring r;
    uint8_t dbr[4];
    uint32_t unpolled;
    uint64_t before = mlx5_ring_bytes(&cq->ring);
    unsigned st = cq_resize_ring(fw, c, cq, sel, cqc, &r);

    if (st != MLX5_CMD_STAT_OK) {
        return st;
    }
    unpolled = mlx5_dma_read(fw, cq->dbr_addr, dbr, 4) ? 0
                                                       : (cq->pi - prm_be32(dbr)) & 0xffffff;
    if (cq->in_error || unpolled >= (1u << r.log_size)) {
        mlx5_ring_fini(&r);
        return CMD_FAIL(c, BAD_SIZE_OUTS_CQES, CQES_OUTSTANDING);
    }
    if (mlx5_ring_bytes(&r) > before &&
        !mlx5_host_mem_charge(&fw->host_mem, mlx5_ring_bytes(&r) - before, "cq")) {
        mlx5_ring_fini(&r);
        return CMD_FAIL(c, NO_RES, HOST_MEMORY);
    }
    mlx5_host_mem_refund(&fw->host_mem, before - MIN(before, mlx5_ring_bytes(&r)));
    cq_resize_cqe(fw, cq);
    mlx5emu_trace_cq_resize(cq->cqn, cq->ring.log_size, r.log_size, cq->pi, unpolled);
    cq->pi++;
    mlx5_ring_replace(&cq->ring, &r);
    return MLX5_CMD_STAT_OK;
}

/* MODIFY_CQ op_mod 0: modify moderation (modify_field_select bit 0 =
 * cq_period, bit 1 = cq_max_count, bit 4 = cq_period_mode; Linux
 * mlx5_core_modify_cq_moderation, mlx5e_modify_cq_moderation); op_mod 1:
 * resize. */
unsigned cmd_modify_cq(Mlx5Fw *fw, Mlx5Cmd *c)
{
    uint32_t cqn = PRM_GET(modify_cq_in, cqn, c->in);
    uint32_t sel = PRM_GET(modify_cq_in, modify_field_select_resize_field_select, c->in);
    const uint8_t *cqc = PRM_PTR(modify_cq_in, cq_context, c->in);
    unsigned st;
    Mlx5Cq *cq = mlx5_cmd_find(c, mlx5_table_get(&fw->cq, cqn), cqn, MLX5_SYND_BAD_CQ, &st);

    if (!cq) {
        return st;
    }
    if (c->op_mod == MLX5_CQ_OPMOD_RESIZE) {
        return cq_resize(fw, c, cq, sel, cqc);
    }
    if (c->op_mod != 0) {
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
