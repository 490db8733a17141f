/*
 * Event queues (PRM "Event Queues"): CREATE/DESTROY/QUERY_EQ, the EQE
 * writer, EQ doorbells and the interrupt each EQ raises.
 *
 * An EQE is valid to the driver when its owner bit equals the wrap parity
 * of the consumer counter (Linux eq.c next_eqe_sw), so entry pi is written
 * with owner = (pi >> log_size) & 1.  An armed EQ raises its MSI-X vector
 * on the next EQE and disarms; the driver re-arms through UAR+0x40 after
 * consuming (lib/eq.h eq_update_ci).  Ring geometry helpers live here too:
 * CQs and work queues use the same page-list scheme.
 */
#include <string.h>

#include "cmd.h"

bool mlx5_ring_init(Mlx5Ring *r, const uint8_t *pas, uint64_t avail_bytes,
                    uint8_t log_size, uint8_t log_stride,
                    uint8_t log_page_size, uint32_t page_offset)
{
    uint64_t bytes = ((uint64_t)1 << (log_size + log_stride)) + page_offset;
    uint64_t page = (uint64_t)1 << log_page_size;
    uint64_t npas = (bytes + page - 1) / page;

    memset(r, 0, sizeof(*r));
    if (npas * 8 > avail_bytes) {
        return false;           /* guest-supplied size beyond its page list */
    }
    r->pas = npas <= MLX5_RING_INLINE_PAS ? r->pas_inline
           : g_new(uint64_t, MAX(npas, MLX5_RING_HEAP_MIN_PAS));
    for (uint64_t i = 0; i < npas; i++) {
        r->pas[i] = prm_be64(pas + i * 8) & ~(page - 1);
    }
    r->npas = (uint32_t)npas;
    r->log_size = log_size;
    r->log_stride = log_stride;
    r->log_page_size = log_page_size;
    r->page_offset = page_offset;
    return true;
}

void mlx5_ring_fini(Mlx5Ring *r)
{
    if (r->pas != r->pas_inline) {
        g_free(r->pas);
    }
    r->pas = NULL;
    r->npas = 0;
}

void mlx5_ring_replace(Mlx5Ring *dst, Mlx5Ring *src)
{
    mlx5_ring_fini(dst);
    *dst = *src;
    if (src->pas == src->pas_inline) {
        dst->pas = dst->pas_inline;
    }
    src->pas = NULL;
    src->npas = 0;
}

bool mlx5_ring_entry_addr(const Mlx5Ring *r, uint32_t idx, uint64_t *addr)
{
    uint64_t off = ((uint64_t)(idx & ((1u << r->log_size) - 1)) << r->log_stride)
                   + r->page_offset;
    uint64_t page = off >> r->log_page_size;

    if (page >= r->npas) {
        return false;
    }
    *addr = r->pas[page] + (off & (((uint64_t)1 << r->log_page_size) - 1));
    return true;
}

bool mlx5_cqe_addr(const Mlx5Ring *r, uint32_t idx, uint64_t *addr)
{
    if (!mlx5_ring_entry_addr(r, idx, addr)) {
        return false;
    }
    *addr += (1u << r->log_stride) - MLX5_CQE_BYTES;
    return true;
}

/* eqc and cqc place the ring alike (mlx5_ifc.h): the eqc fields read both. */
MLX5_SAME_FIELD(eqc, log_eq_size, cqc, log_cq_size)
MLX5_SAME_FIELD(eqc, log_page_size, cqc, log_page_size)
MLX5_SAME_FIELD(eqc, page_offset, cqc, page_offset)
MLX5_SAME_FIELD(eqc, uar_page, cqc, uar_page)

unsigned mlx5_ring_ctx_check(Mlx5Cmd *c, const uint8_t *ctx, unsigned log_max, unsigned cqe_sz)
{
    if (PRM_GET(eqc, log_eq_size, ctx) > log_max) {
        return CMD_FAIL(c, BAD_PARAM, BAD_SIZE);
    }
    if (cqe_sz > MLX5_CQE_SIZE_128_PAD) {       /* 64, 128 or 128 padded */
        return CMD_FAIL(c, BAD_PARAM, BAD_STRIDE);
    }
    if (PRM_GET(eqc, log_page_size, ctx) > 18) {
        return CMD_FAIL(c, BAD_PARAM, BAD_PAGE_SIZE);
    }
    return MLX5_CMD_STAT_OK;
}

unsigned mlx5_ring_ctx_init(Mlx5Fw *fw, Mlx5Cmd *c, const uint8_t *ctx, Mlx5Ring *r,
                            uint32_t pas_off, unsigned cqe_sz)
{
    unsigned log_page = PRM_GET(eqc, log_page_size, ctx) + 12;

    if (!mlx5_table_get(&fw->uar, PRM_GET(eqc, uar_page, ctx))) {
        return CMD_FAIL(c, BAD_PARAM, BAD_UAR);
    }
    if (!mlx5_ring_init(r, c->in + pas_off, c->inlen - pas_off, PRM_GET(eqc, log_eq_size, ctx),
                        mlx5_cqe_log_stride(cqe_sz), log_page,
                        mlx5_page_offset_bytes(PRM_GET(eqc, page_offset, ctx), log_page))) {
        return CMD_FAIL(c, BAD_PARAM, PAS_TOO_SHORT);
    }
    return MLX5_CMD_STAT_OK;
}

void mlx5_eq_destroy(gpointer p)
{
    Mlx5Eq *eq = p;
    mlx5_ring_fini(&eq->ring);
    g_free(eq);
}

/* An EQ holds itself and its page list. */
static uint64_t eq_bytes(const void *eq)
{
    return sizeof(Mlx5Eq) + mlx5_ring_bytes(&((const Mlx5Eq *)eq)->ring);
}
const Mlx5TableCost mlx5_eq_cost = { 0, eq_bytes, NULL };

static bool eq_wants(const Mlx5Eq *eq, uint8_t type)
{
    return (eq->event_bitmask[type / 64] >> (type % 64)) & 1;
}

void mlx5_eq_post(Mlx5Fw *fw, Mlx5Eq *eq, uint8_t type, uint8_t sub_type,
                  const uint8_t data[EQE_DATA_BYTES])
{
    uint8_t eqe[MLX5_EQE_BYTES] = { 0 };
    uint32_t nent = 1u << eq->ring.log_size;
    uint64_t addr;

    if (eq->pi - eq->ci >= nent) {
        /* The driver did not consume: the EQ overruns (PRM: EQ overrun
         * is an error of the consumer); the event is lost. */
        eq->overflows++;
        mlx5emu_trace_ub_eq_overrun(eq->eqn, eq->pi, eq->ci);
        mlx5_guest_error(fw, "EQ 0x%x overrun (pi %u ci %u)", eq->eqn, eq->pi, eq->ci);
        return;
    }
    if (!mlx5_ring_entry_addr(&eq->ring, eq->pi, &addr)) {
        return;
    }
    eqe[EQE_TYPE] = type;
    eqe[EQE_SUB_TYPE] = sub_type;
    memcpy(eqe + EQE_DATA, data, EQE_DATA_BYTES);
    /* Ordering point: the body before the owner byte. */
    if (mlx5_dma_write(fw, addr, eqe, MLX5_EQE_BYTES - 1) == 0) {
        uint8_t owner = (eq->pi >> eq->ring.log_size) & 1;
        mlx5_dma_write(fw, addr + MLX5_EQE_BYTES - 1, &owner, 1);
    } else {
        mlx5_guest_error(fw, "EQ 0x%x: ring page not in guest memory", eq->eqn);
    }
    mlx5emu_trace_eqe(eq->eqn, type, sub_type, eq->pi);
    eq->pi++;
    if (eq->armed) {
        eq->armed = false;
        mlx5emu_trace_eq_interrupt(eq->eqn, eq->intr);
        fw->plat->msix_notify(fw->opaque, eq->intr);
    }
}

bool mlx5_eq_post_async(Mlx5Fw *fw, uint8_t type, uint8_t sub_type,
                        const uint8_t data[EQE_DATA_BYTES])
{
    GHashTableIter it;
    gpointer k, v;

    g_hash_table_iter_init(&it, fw->eq.objs);
    while (g_hash_table_iter_next(&it, &k, &v)) {
        Mlx5Eq *eq = v;
        if (eq_wants(eq, type)) {
            mlx5_eq_post(fw, eq, type, sub_type, data);
            return true;
        }
    }
    mlx5emu_trace_eq_no_subscriber(type, sub_type);
    return false;
}

void mlx5_eq_post_qp_srq(Mlx5Fw *fw, uint8_t type, uint32_t num, uint8_t queue_kind)
{
    uint8_t data[EQE_DATA_BYTES] = { 0 };

    data[EQE_QP_SRQ_TYPE - EQE_DATA] = queue_kind;
    prm_put_be32(data + (EQE_QP_SRQ_NUMBER - EQE_DATA), num & 0xffffff);
    mlx5emu_trace_qp_srq_event(type, num, queue_kind);
    mlx5_eq_post_async(fw, type, 0, data);
}

void mlx5_eq_doorbell(Mlx5Fw *fw, uint32_t uar_page, uint32_t val, bool arm)
{
    uint32_t eqn = val >> 24;
    uint32_t ci24 = val & 0xffffff;
    Mlx5Eq *eq = mlx5_table_get(&fw->eq, eqn);
    uint32_t ci;

    if (!eq) {
        mlx5emu_trace_ub_eq_doorbell_unknown(eqn);
        mlx5_guest_error(fw, "EQ doorbell for EQ 0x%x that does not exist", eqn);
        return;
    }
    if (!mlx5_uar_page_owns(fw, "EQ", eqn, eq->uar_page, uar_page)) {
        return;
    }
    /* The doorbell carries 24 bits of the consumer counter. */
    ci = (eq->pi & ~0xffffffu) | ci24;
    if ((int32_t)(ci - eq->pi) > 0) {
        ci -= 1u << 24;
    }
    if ((int32_t)(eq->pi - ci) < 0 || eq->pi - ci > (1u << eq->ring.log_size)) {
        mlx5emu_trace_ub_eq_bad_ci(eqn, ci24, eq->pi);
        mlx5_guest_error(fw, "EQ 0x%x doorbell ci 0x%x beyond pi 0x%x", eqn, ci24, eq->pi);
        return;
    }
    eq->ci = ci;
    mlx5emu_trace_eq_doorbell(eqn, ci, arm);
    if (!arm) {
        return;
    }
    if (eq->pi != eq->ci) {
        /* EQEs the driver has not seen yet: interrupt at once. */
        mlx5emu_trace_eq_interrupt(eq->eqn, eq->intr);
        fw->plat->msix_notify(fw->opaque, eq->intr);
    } else {
        eq->armed = true;
    }
}

/* eqc.st: armed (9) or fired (0xa). */
static uint64_t eqc_st(const void *eq)
{
    return ((const Mlx5Eq *)eq)->armed ? 0x9 : 0xa;
}

/* What an EQ keeps of its context, and QUERY_EQ reports. */
#define EQC_(f, m, bias, dir) \
    MLX5_CTX_FIELD(PRM_OFF(eqc, f), PRM_W(eqc, f), Mlx5Eq, m, bias, MLX5_CTX_##dir)
static const Mlx5CtxField eqc_fields[] = {
    EQC_(uar_page, uar_page, 0, INOUT), EQC_(intr, intr, 0, INOUT),
    EQC_(log_eq_size, ring.log_size, 0, OUT), EQC_(log_page_size, ring.log_page_size, 12, OUT),
    EQC_(consumer_counter, ci, 0, OUT), EQC_(producer_counter, pi, 0, OUT),
    MLX5_CTX_STATE(PRM_OFF(eqc, st), PRM_W(eqc, st), eqc_st),
};

unsigned cmd_create_eq(Mlx5Fw *fw, Mlx5Cmd *c)
{
    const uint8_t *eqc = PRM_PTR(create_eq_in, eq_context_entry, c->in);
    const uint8_t *mask = PRM_PTR(create_eq_in, event_bitmask, c->in);
    unsigned st = mlx5_ring_ctx_check(c, eqc, MLX5_CAP_GET(fw, MLX5_CAP_GENERAL, cmd_hca_cap,
                                                           log_max_eq_sz), 0);
    Mlx5Eq *eq;

    if (st != MLX5_CMD_STAT_OK) {
        return st;
    }
    if (PRM_GET(eqc, intr, eqc) >= fw->cfg.msix_vectors) {
        return CMD_FAIL(c, BAD_PARAM, BAD_VECTOR);
    }
    eq = g_new0(Mlx5Eq, 1);
    st = mlx5_ring_ctx_init(fw, c, eqc, &eq->ring, PRM_BYTE_OFF(create_eq_in, pas), 0);
    for (int i = 0; i < 4; i++) {
        eq->event_bitmask[i] = prm_be64(mask + 8 * i);
    }
    mlx5_ctx_load(eq, eqc, MLX5_CTX_FIELDS(eqc_fields));
    st = mlx5_cmd_add_built(c, st, &fw->eq, eq, &eq->eqn);
    if (st != MLX5_CMD_STAT_OK) {
        return st;
    }
    if (eq_wants(eq, MLX5_EVENT_CMD) && !fw->have_cmd_eq) {
        fw->have_cmd_eq = true;
        fw->cmd_eqn = eq->eqn;
    }
    PRM_SET(create_eq_out, eq_number, c->out, eq->eqn);
    mlx5emu_trace_eq_create(eq->eqn, eq->ring.log_size, eq->intr, eq->event_bitmask[0]);
    return MLX5_CMD_STAT_OK;
}

unsigned cmd_destroy_eq(Mlx5Fw *fw, Mlx5Cmd *c)
{
    uint32_t eqn = PRM_GET(destroy_eq_in, eq_number, c->in);

    if (mlx5_table_get(&fw->eq, eqn) && fw->have_cmd_eq && fw->cmd_eqn == eqn) {
        fw->have_cmd_eq = false;
    }
    return mlx5_cmd_remove(c, &fw->eq, eqn, MLX5_SYND_BAD_EQ);
}

unsigned cmd_query_eq(Mlx5Fw *fw, Mlx5Cmd *c)
{
    uint32_t eqn = PRM_GET(query_eq_in, eq_number, c->in);
    Mlx5Eq *eq = mlx5_table_get(&fw->eq, eqn);

    if (eq) {                   /* the first 64 event types, beside the context */
        prm_put_be64(PRM_PTR(query_eq_out, event_bitmask, c->out), eq->event_bitmask[0]);
    }
    return mlx5_cmd_query(c, eq, eqn, MLX5_SYND_BAD_EQ,
                          PRM_PTR(query_eq_out, eq_context_entry, c->out),
                          MLX5_CTX_FIELDS(eqc_fields));
}
