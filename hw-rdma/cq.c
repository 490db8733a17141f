/*
 * Completion queues: the CQE writer and CQ arming (PRM "Completion
 * Queues"; the driver side is Linux cq.h mlx5_cq_arm / en_txrx.c).
 *
 * A CQE is valid to software when the owner bit of op_own equals the wrap
 * parity of its index: entry pi carries owner = (pi >> log_size) & 1.  An
 * armed CQ posts one completion event (EQE type COMP, cqn at EQE_COMP_CQN)
 * to its EQ on the next CQE (or next solicited CQE) and disarms.
 *
 * Event moderation (cqc cq_period in microseconds, cq_max_count in CQEs;
 * mlx5e sets them at CREATE_CQ and retunes them with MODIFY_CQ from net
 * DIM, mlx5_core_modify_cq_moderation): the event of an armed CQ is held
 * until cq_max_count CQEs have been written since it was armed, or until
 * cq_period microseconds after the first of them, whichever comes first.
 * A period of 0 means no moderation; a count of 0 means the period alone.
 * cq_period_mode START_FROM_CQE restarts the period at every CQE (the
 * event waits for a pause in the traffic); START_FROM_EQE counts it from
 * the first CQE after arming.  Held CQs wait in dp->cq_moderated for the
 * platform timer (deadlines.h).
 */
#include <string.h>

#include "cqe.h"
#include "datapath.h"
#include "decode.h"

/* dp->cq_moderated (deadlines.h) holds each CQ's held event; the CQ's
 * place in it is one hash look, however many CQs a guest armed
 * (dp->cq_held_at). */
void mlx5_cq_moderation_init(Mlx5DataPath *dp)
{
    dp->cq_held_at = g_hash_table_new(g_direct_hash, g_direct_equal);
    mlx5_deadlines_init(&dp->cq_moderated, mlx5_deadlines_index_placed, dp->cq_held_at);
}

/* The CQ's place in dp->cq_moderated, 0 if it holds no event. */
static guint held_place(Mlx5DataPath *dp, const Mlx5Cq *cq)
{
    return mlx5_deadlines_index_place(dp->cq_held_at, cq);
}

void mlx5_cq_forget(Mlx5DataPath *dp, Mlx5Cq *cq)
{
    guint place = held_place(dp, cq);

    if (place) {
        mlx5_deadlines_remove(&dp->cq_moderated, place);
    }
}

static void cq_event(Mlx5DataPath *dp, Mlx5Cq *cq)
{
    Mlx5Eq *eq = mlx5_table_get(&dp->fw->eq, cq->eqn);
    uint8_t data[EQE_DATA_BYTES] = { 0 };

    cq->arm = 0;
    mlx5_cq_forget(dp, cq);
    if (!eq) {
        mlx5emu_trace_ub_cq_no_eq(cq->cqn, cq->eqn);
        return;
    }
    prm_put_be32(data + (EQE_COMP_CQN - EQE_DATA), cq->cqn & 0xffffff);
    mlx5emu_trace_cq_event(cq->cqn, eq->eqn);
    mlx5_eq_post(dp->fw, eq, MLX5_EVENT_COMP, 0, data);
}

/* An armed CQ got a CQE that may raise its event: now, or held. */
static void cq_event_moderated(Mlx5DataPath *dp, Mlx5Cq *cq)
{
    uint64_t period_end = mlx5_dp_now(dp) + cq->cq_period * 1000ull;
    guint place = cq->cq_period ? held_place(dp, cq) : 0;
    Mlx5Deadline *h = place ? mlx5_deadlines_at(&dp->cq_moderated, place) : NULL;
    unsigned cqes = (h ? h->count : 0) + 1;

    if (cq->cq_period == 0 || (cq->cq_max_count && cqes >= cq->cq_max_count)) {
        cq_event(dp, cq);
        return;
    }
    if (h) {
        h->count = cqes;
        if (cq->cq_period_mode == MLX5_CQ_PERIOD_MODE_START_FROM_CQE) {
            mlx5_deadlines_set(&dp->cq_moderated, place, cq, period_end);
        }
        return;
    }
    mlx5_deadlines_set(&dp->cq_moderated, 0, cq, period_end);
    mlx5_deadlines_at(&dp->cq_moderated, held_place(dp, cq))->count = cqes;
    mlx5emu_trace_cq_event_held(cq->cqn, cq->cq_period, cq->cq_max_count);
    mlx5_timer_request(dp, period_end);
}

/* The held events due, soonest first, a slice's worth (one unit each:
 * an EQE and perhaps an interrupt); the rest are still due next call. */
uint64_t mlx5_cq_moderation_expire(Mlx5DataPath *dp)
{
    Mlx5Deadlines *held = &dp->cq_moderated;
    uint64_t now = mlx5_dp_now(dp);

    while (mlx5_deadlines_next(held) <= now && mlx5_slice_left(dp)) {
        Mlx5Cq *cq = mlx5_deadlines_at(held, 1)->owner;

        mlx5_deadlines_remove(held, 1);
        mlx5_slice_take(dp, 1);
        if (cq->arm) {
            cq_event(dp, cq);
        }
    }
    return mlx5_deadlines_next(held);
}

static void cq_overrun(Mlx5DataPath *dp, Mlx5Cq *cq)
{
    uint8_t data[EQE_DATA_BYTES] = { 0 };

    /* PRM: CQ overrun -> CQ error event (type 0x04, syndrome 1). */
    cq->in_error = true;
    prm_put_be32(data + (EQE_CQ_ERR_CQN - EQE_DATA), cq->cqn & 0xffffff);
    data[EQE_CQ_ERR_SYNDROME - EQE_DATA] = 0x01;
    mlx5emu_trace_ub_cq_overrun(cq->cqn, cq->pi);
    mlx5_guest_error(dp->fw, "CQ 0x%x overrun", cq->cqn);
    mlx5_eq_post_async(dp->fw, MLX5_EVENT_CQ_ERROR, 0, data);
}

bool mlx5_cq_post(Mlx5DataPath *dp, Mlx5Cq *cq, uint8_t cqe[64], bool solicited)
{
    Mlx5Fw *fw = dp->fw;
    uint32_t ci;
    uint64_t addr;
    uint8_t dbr[4];

    if (cq->in_error) {
        return false;
    }
    mlx5_slice_take(dp, 1);
    /* The consumer index lives in the CQ doorbell record (set_ci, +0). */
    if (mlx5_dma_read(fw, cq->dbr_addr, dbr, 4) == 0) {
        ci = prm_be32(dbr) & 0xffffff;
        if (((cq->pi - ci) & 0xffffff) >= (1u << cq->ring.log_size)) {
            cq_overrun(dp, cq);
            return false;
        }
    }
    if (!mlx5_cqe_addr(&cq->ring, cq->pi, &addr)) {
        return false;
    }
    cqe[CQE_OP_OWN] = (cqe[CQE_OP_OWN] & 0xfe) | ((cq->pi >> cq->ring.log_size) & 1);
    /* A completion says when (free-running mode; libmlx5 reads it for
     * IBV_WC_EX_WITH_COMPLETION_TIMESTAMP); an error CQE has its
     * syndromes there (struct mlx5_err_cqe). */
    if (!mlx5_cqe_is_error(cqe)) {
        prm_put_be64(cqe + CQE_TIMESTAMP, mlx5_device_clock(fw));
    }
    /* Ordering point: the CQE body before the byte with the owner bit. */
    if (mlx5_dma_write(fw, addr, cqe, MLX5_CQE_BYTES - 1) ||
        mlx5_dma_write(fw, addr + MLX5_CQE_BYTES - 1, cqe + MLX5_CQE_BYTES - 1, 1)) {
        mlx5_guest_error(fw, "CQ 0x%x: ring not in guest memory", cq->cqn);
        return false;
    }
    mlx5emu_trace_cqe(cq->cqn, cq->pi, cqe[CQE_OP_OWN] >> 4,
                      prm_be16(cqe + CQE_WQE_COUNTER), prm_be32(cqe + CQE_BYTE_CNT));
    if (mlx5emu_trace_cqe_fields_enabled()) {
        g_autoptr(GString) text = g_string_new(NULL);

        mlx5_decode_cqe(text, cqe);
        mlx5emu_trace_cqe_fields(cq->cqn, cq->pi, text->str);
    }
    cq->pi++;
    if (cq->arm == 1 || (cq->arm == 2 && solicited)) {
        cq_event_moderated(dp, cq);
    }
    return true;
}

/* UAR + 0x20: dw0 = sn << 28 | cmd << 24 | ci (cmd 0: next, 1: solicited). */
void mlx5_cq_arm_doorbell(Mlx5DataPath *dp, uint32_t uar_page, uint32_t cqn, uint32_t dw0)
{
    Mlx5Cq *cq = mlx5_table_get(&dp->fw->cq, cqn & 0xffffff);
    uint32_t ci = dw0 & 0xffffff;
    unsigned cmd = (dw0 >> 24) & 0x3;

    if (!cq) {
        mlx5emu_trace_ub_cq_arm_unknown(cqn);
        mlx5_guest_error(dp->fw, "CQ arm doorbell for CQ 0x%x that does not exist", cqn);
        return;
    }
    if (!mlx5_uar_page_owns(dp->fw, "CQ", cq->cqn, cq->uar_page, uar_page)) {
        return;
    }
    if (cmd > 1) {
        mlx5emu_trace_ub_cq_arm_bad_cmd(cqn, cmd);
        return;
    }
    cq->arm_sn = (dw0 >> 28) & 3;
    cq->arm_ci = ci;
    cq->arm = cmd == 0 ? 1 : 2;
    mlx5emu_trace_cq_arm(cqn, ci, cmd, cq->pi & 0xffffff);
    /* CQEs already past the armed consumer index: notify at once. */
    if (((cq->pi - ci) & 0xffffff) != 0) {
        cq_event(dp, cq);
    }
}
