/*
 * Send queues (PRM "Send Queue"): the doorbell, WQE fetch, execution and
 * requester CQEs, for Ethernet SQs and for the send queues of QPs.
 *
 * The driver writes WQEs into the ring, then the doorbell record (dbr + 4,
 * the producer counter), then the first 8 bytes of the last WQE to a
 * BlueFlame register (Linux en/txrx.h mlx5e_notify_hw, libmlx5 qp.c
 * post_send_db).  The device reads the doorbell record first (ordering
 * point, queue.c), then executes WQEs from its own counter up to it.  An
 * Ethernet SQ sends frames (eth-tx.c); a QP's send queue hands each WQE to
 * its transport: the RC requester (rc-requester.c), a datagram (ud.c), a
 * memory-key change (umr.c).  A WQE that asks for it (fm_ce_se CQ_UPDATE)
 * completes with a CQE carrying its index (mlx5e_poll_tx_cq and
 * mlx5_ib's poll_one retire everything up to wqe_counter).  A malformed
 * WQE completes with an error CQE and stops the queue: an Ethernet SQ goes
 * to ERR, a QP as its state machine says (PRM "Error Handling"; qp.c
 * mlx5_qp_send_error).
 */
#include <string.h>

#include "cqe.h"
#include "decode.h"
#include "transport.h"

void mlx5_sq_complete(Mlx5DataPath *dp, const Mlx5SendQueue *sq, const Mlx5SendCompletion *c)
{
    Mlx5Cq *cq = mlx5_table_get(&dp->fw->cq, sq->cqn);
    uint8_t cqe[MLX5_CQE_BYTES] = { 0 };

    if (!c->syndrome && !c->signaled) {
        return;
    }
    if (!cq) {
        mlx5emu_trace_ub_sq_no_cq(sq->num, sq->cqn);
        return;
    }
    prm_put_be16(cqe + CQE_WQE_COUNTER, c->wqe_counter);
    prm_put_be32(cqe + CQE_SOP_DROP_QPN, (uint32_t)c->opcode << 24 | (sq->num & 0xffffff));
    prm_put_be32(cqe + CQE_SRQN, sq->user_index);
    prm_put_be32(cqe + CQE_BYTE_CNT, c->byte_cnt);
    cqe[CQE_OP_OWN] = (c->syndrome ? MLX5_CQE_REQ_ERR : MLX5_CQE_REQ) << 4;
    cqe[CQE_ERR_SYNDROME] = c->syndrome;
    if (sq->qp) {
        mlx5_count_cqe_error(dp, sq->qp, c->syndrome, true);
    }
    mlx5emu_trace_sq_cqe(sq->num, c->wqe_counter, c->opcode, c->syndrome);
    mlx5_cq_post(dp, cq, cqe, c->solicited);
}

/* The completion a fetched WQE asks for, with `syndrome`. */
static void sq_complete_wqe(Mlx5DataPath *dp, const Mlx5SendQueue *sq, const Mlx5SendWqe *w,
                            uint8_t syndrome)
{
    Mlx5SendCompletion c = {
        .wqe_counter = w->index, .opcode = w->opcode, .syndrome = syndrome,
        .signaled = w->fm_ce_se & MLX5_WQE_CTRL_CQ_UPDATE,
        .solicited = w->fm_ce_se & MLX5_WQE_CTRL_SOLICITED,
    };

    mlx5_sq_complete(dp, sq, &c);
}

static void sq_flush_posted(Mlx5DataPath *dp, Mlx5SendQueue *sq);

static void sq_error(Mlx5DataPath *dp, Mlx5SendQueue *sq, const Mlx5SendWqe *w,
                     uint8_t syndrome, const char *why)
{
    mlx5emu_trace_sq_wqe_err(sq->num, w->index, w->opcode, why);
    mlx5_guest_error(dp->fw, "SQ 0x%x WQE %u: %s", sq->num, w->index, why);
    sq_complete_wqe(dp, sq, w, syndrome);
    sq->state = MLX5_RQC_STATE_ERR;
    if (sq->qp) {
        mlx5_qp_send_error(dp->fw, sq->qp);
    } else {
        sq_flush_posted(dp, sq);
    }
}

/* The WQE at `index`, block by block (a multi-block WQE may wrap). */
static bool sq_fetch(Mlx5DataPath *dp, const Mlx5SendQueue *sq, uint16_t index, Mlx5SendWqe *w)
{
    uint64_t addr;
    unsigned nbb;

    if (!mlx5_ring_entry_addr(&sq->ring, index, &addr) ||
        mlx5_dma_read(dp->fw, addr, w->bytes, MLX5_WQEBB_BYTES)) {
        return false;
    }
    w->index = index;
    w->opcode = prm_be32(w->bytes + WQE_CTRL_OPMOD_IDX_OPCODE) & 0xff;
    w->ds = prm_be32(w->bytes + WQE_CTRL_QPN_DS) & 0x3f;
    w->fm_ce_se = w->bytes[WQE_CTRL_FM_CE_SE];
    nbb = MIN(mlx5_wqe_blocks(w->ds), sizeof(w->bytes) / MLX5_WQEBB_BYTES);
    for (unsigned i = 1; i < nbb; i++) {
        if (!mlx5_ring_entry_addr(&sq->ring, (uint16_t)(index + i), &addr) ||
            mlx5_dma_read(dp->fw, addr, w->bytes + i * MLX5_WQEBB_BYTES, MLX5_WQEBB_BYTES)) {
            return false;
        }
    }
    return true;
}

/* A UMR WQE (umr.c), on an RC or XRC QP (REG_MR, LOCAL_INV) or the
 * kernel's UMR QP: applied now, completed in send-queue order. */
static bool sq_exec_umr(Mlx5DataPath *dp, Mlx5SendQueue *sq, const Mlx5SendWqe *w)
{
    Mlx5Qp *qp = sq->qp;
    bool rc = mlx5_qp_st_is_connected(qp->st);
    uint8_t syndrome;

    if (!rc && qp->st != MLX5_QP_ST_REG_UMR) {
        sq_error(dp, sq, w, MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR, "UMR on a QP type without it");
        return false;
    }
    /* A UMR rewrites any key of the PD, down to the pages it maps: a QP
     * without fast registration (qpc fre, a process's) may only bind
     * memory windows (umr.c window_check). */
    syndrome = mlx5_umr_exec(dp, qp, w);
    if (syndrome) {
        sq_error(dp, sq, w, syndrome, "UMR WQE failed");
        return false;
    }
    if (rc) {
        mlx5_rc_post_local(dp, mlx5_qp_transport(qp), w);
    } else {
        sq_complete_wqe(dp, sq, w, 0);
    }
    return true;
}

/* What became of a WQE sq_exec ran. */
typedef enum { SQ_WQE_DONE, SQ_WQE_FAILED, SQ_WQE_UNFINISHED, SQ_WQE_STALLED } SqWqeRun;

/* While the device pages, a WQE whose list names a page that is not
 * present is not started: a page fault stalls the queue at it (odp.c).
 * Without an EQ to report the fault to, it fails as a protection error. */
static SqWqeRun sq_page_fault(Mlx5DataPath *dp, Mlx5SendQueue *sq, const Mlx5SendWqe *w,
                              Mlx5QpTransport *t)
{
    uint8_t type = MLX5_PF_TYPE_REQ_SEND_OR_WRITE;
    bool absent = mlx5_qp_st_is_ud(sq->qp->st) ? mlx5_ud_wqe_absent(dp, t, w)
                                               : mlx5_rc_wqe_absent(dp, t, w, &type);

    if (!absent) {
        return SQ_WQE_DONE;
    }
    if (!mlx5_odp_sq_fault(dp, sq, w->index, type)) {
        sq_error(dp, sq, w, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR,
                 "page not present and no EQ takes page faults");
        return SQ_WQE_FAILED;
    }
    return SQ_WQE_STALLED;
}

/* A WQE on a QP's send queue: its transport's. */
static SqWqeRun sq_exec_qp(Mlx5DataPath *dp, Mlx5SendQueue *sq, const Mlx5SendWqe *w)
{
    Mlx5QpTransport *t = mlx5_qp_transport(sq->qp);
    uint8_t syndrome;
    SqWqeRun fault;

    if (w->opcode == MLX5_OPCODE_UMR) {
        return sq_exec_umr(dp, sq, w) ? SQ_WQE_DONE : SQ_WQE_FAILED;
    }
    if (!mlx5_qp_st_is_ud(sq->qp->st) && !mlx5_qp_st_is_connected(sq->qp->st)) {
        sq_error(dp, sq, w, MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR,
                 "opcode not supported on this QP type");
        return SQ_WQE_FAILED;
    }
    fault = mlx5_odp_pages(dp) ? sq_page_fault(dp, sq, w, t) : SQ_WQE_DONE;
    if (fault != SQ_WQE_DONE) {
        return fault;
    }
    if (mlx5_qp_st_is_ud(sq->qp->st)) {
        syndrome = mlx5_ud_post(dp, t, w);
        if (syndrome) {
            sq_error(dp, sq, w, syndrome, "UD send WQE failed");
            return SQ_WQE_FAILED;
        }
        sq_complete_wqe(dp, sq, w, 0);      /* a datagram is done once sent */
        return SQ_WQE_DONE;
    }
    syndrome = mlx5_rc_post(dp, t, w);
    if (syndrome) {
        sq_error(dp, sq, w, syndrome, "RC send WQE failed");
        return SQ_WQE_FAILED;
    }
    return SQ_WQE_DONE;                     /* the completer writes its CQE */
}

static SqWqeRun sq_exec_eth(Mlx5DataPath *dp, Mlx5SendQueue *sq, const Mlx5SendWqe *w)
{
    const char *why = NULL;
    uint8_t syndrome;
    bool done;

    if (w->opcode != MLX5_OPCODE_SEND && w->opcode != MLX5_OPCODE_LSO) {
        sq_error(dp, sq, w, MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR, "opcode not supported");
        return SQ_WQE_FAILED;
    }
    syndrome = mlx5_eth_send(dp, sq, w, &why, &done);
    if (syndrome) {
        sq_error(dp, sq, w, syndrome, why);
        return SQ_WQE_FAILED;
    }
    if (!done) {
        return SQ_WQE_UNFINISHED;
    }
    sq_complete_wqe(dp, sq, w, 0);
    return SQ_WQE_DONE;
}

/* The WQE field by field, for whoever traces mlx5_sq_wqe_fields. */
static void sq_trace_fields(const Mlx5SendQueue *sq, const Mlx5SendWqe *w)
{
    Mlx5WqeLayout layout = !sq->qp ? MLX5_WQE_LAYOUT_ETH
                         : mlx5_qp_st_is_ud(sq->qp->st) ? MLX5_WQE_LAYOUT_UD
                         : sq->qp->st == MLX5_QP_ST_XRC ? MLX5_WQE_LAYOUT_XRC
                         : MLX5_WQE_LAYOUT_RC;
    g_autoptr(GString) text = g_string_new(NULL);

    mlx5_decode_send_wqe(text, w->bytes, sizeof(w->bytes), w->ds, layout);
    mlx5emu_trace_sq_wqe_fields(sq->num, w->index, text->str);
}

static SqWqeRun sq_exec(Mlx5DataPath *dp, Mlx5SendQueue *sq, const Mlx5SendWqe *w)
{
    mlx5emu_trace_sq_wqe(sq->num, w->index, w->opcode, w->ds, w->fm_ce_se);
    if (mlx5emu_trace_sq_wqe_fields_enabled()) {
        sq_trace_fields(sq, w);
    }
    if (w->ds == 0 || w->ds * MLX5_DS_BYTES > MLX5_MAX_WQE_BYTES) {
        sq_error(dp, sq, w, MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR, "bad ds count");
        return SQ_WQE_FAILED;
    }
    if (w->opcode == MLX5_OPCODE_NOP) {
        sq_complete_wqe(dp, sq, w, 0);
        return SQ_WQE_DONE;
    }
    if (sq->qp) {
        return sq_exec_qp(dp, sq, w);
    }
    return sq_exec_eth(dp, sq, w);
}

/* The send queue a doorbell names: an Ethernet SQ's or a QP's. */
static Mlx5SendQueue *sq_lookup(Mlx5Fw *fw, uint32_t num)
{
    Mlx5Sq *sq = mlx5_sq_get(fw, num);
    Mlx5Qp *qp = mlx5_qp_get(fw, num);

    return sq ? &sq->sq : qp ? &qp->sq : NULL;
}

/* Execute from the device's counter up to the `posted` WQE blocks past it,
 * while the queue is ready and the slice lasts (sched.c: the rest goes on
 * from the timer, reading the doorbell record again). */
static void sq_run(Mlx5DataPath *dp, Mlx5SendQueue *sq, uint32_t posted)
{
    uint16_t pc = (uint16_t)(sq->hw_counter + posted);

    while ((uint16_t)sq->hw_counter != pc && sq->state == MLX5_RQC_STATE_RDY &&
           !sq->pf.pending) {
        Mlx5SendWqe w;
        SqWqeRun run;

        if (mlx5_sq_pace_hold(dp, sq)) {
            return;                         /* pacing.c resumes it at its time */
        }
        if (!mlx5_slice_left(dp)) {
            mlx5_defer(dp, MLX5_DEFER_SQ, sq->num);
            return;
        }
        mlx5_slice_take(dp, 1);
        if (!sq_fetch(dp, sq, (uint16_t)sq->hw_counter, &w)) {
            mlx5_guest_error(dp->fw, "SQ 0x%x: WQE not in guest memory", sq->num);
            sq->state = MLX5_RQC_STATE_ERR;
            return;
        }
        /* A WQE may not extend past what the driver has posted: what was
         * posted is consumed, and the flush that follows starts there. */
        if (mlx5_wqe_blocks(w.ds) > (uint16_t)(pc - sq->hw_counter)) {
            sq->hw_counter = pc;
            sq_error(dp, sq, &w, MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR,
                     "WQE extends past the producer counter");
            return;
        }
        /* Fetched, the WQE is the device's: its completion, error or not,
         * is the only one it gets, and a flush its failure causes (the QP
         * to ERR, here or later in its transport) starts after it.  One
         * that did not finish in this slice (a large LSO, eth-tx.c) is
         * still the next: the counter stays on it until it does, and a
         * flush meanwhile flushes it. */
        sq->hw_counter = (uint16_t)(sq->hw_counter + mlx5_wqe_blocks(w.ds));
        run = sq_exec(dp, sq, &w);
        if (run == SQ_WQE_UNFINISHED || run == SQ_WQE_STALLED) {
            sq->hw_counter = w.index;       /* the resume (odp.c) goes on from it */
            if (run == SQ_WQE_UNFINISHED) {
                mlx5_defer(dp, MLX5_DEFER_SQ, sq->num);
            }
            return;
        }
        sq->lso_sent = 0;
        if (run == SQ_WQE_FAILED) {
            return;
        }
    }
}

void mlx5_sq_fail_stalled(Mlx5DataPath *dp, Mlx5SendQueue *sq, uint8_t syndrome,
                          const char *why)
{
    Mlx5SendWqe w;

    if (sq->state != MLX5_RQC_STATE_RDY || !sq_fetch(dp, sq, (uint16_t)sq->hw_counter, &w)) {
        return;
    }
    sq->hw_counter = (uint16_t)(sq->hw_counter + mlx5_wqe_blocks(w.ds));
    sq_error(dp, sq, &w, syndrome, why);
}

void mlx5_sq_resume(Mlx5DataPath *dp, uint32_t sqn)
{
    Mlx5SendQueue *sq = sq_lookup(dp->fw, sqn);
    uint32_t posted;

    if (sq && sq->state == MLX5_RQC_STATE_RDY &&
        mlx5_dbr_posted(dp, sq->dbr_addr + 4, sq->hw_counter, &sq->ring, sq->num, &posted)) {
        sq_run(dp, sq, posted);
    }
}

void mlx5_sq_doorbell(Mlx5DataPath *dp, uint32_t uar_page, uint32_t sqn, uint16_t wqe_counter)
{
    Mlx5SendQueue *sq = sq_lookup(dp->fw, sqn);
    uint32_t posted;

    if (!sq) {
        mlx5emu_trace_ub_sq_doorbell_unknown(sqn);
        mlx5_guest_error(dp->fw, "doorbell for SQ 0x%x that does not exist", sqn);
        return;
    }
    if (!mlx5_uar_page_owns(dp->fw, "SQ", sqn, sq->uar_page, uar_page)) {
        return;
    }
    mlx5emu_trace_sq_doorbell(sqn, wqe_counter, sq->state);
    if (sq->state == MLX5_RQC_STATE_ERR) {
        sq_flush_posted(dp, sq);        /* posted to a queue in ERR: flushed */
        return;
    }
    if (sq->state != MLX5_RQC_STATE_RDY) {
        return;                         /* RST and ERR queues do not execute */
    }
    if (mlx5_dbr_posted(dp, sq->dbr_addr + 4, sq->hw_counter, &sq->ring, sq->num, &posted)) {
        sq_run(dp, sq, posted);
    }
}

/* A queue in ERR completes what is posted with WR_FLUSH_ERR: a QP's send
 * queue once the QP is in ERR (IBA 10.3.1; in SQE it keeps them for the
 * driver's recovery), an SQ as soon as it is in ERR (mlx5e's
 * mlx5e_tx_reporter_err_cqe_recover waits in mlx5e_wait_for_sq_flush until
 * every posted WQE has completed before it moves the SQ ERR -> RST -> RDY). */
unsigned mlx5_sq_flush(Mlx5DataPath *dp, Mlx5SendQueue *sq)
{
    bool in_err = sq->qp ? sq->qp->state == MLX5_QP_STATE_ERR : sq->state == MLX5_RQC_STATE_ERR;
    uint32_t posted;
    unsigned n = 0;

    if (!in_err || !sq->ring.npas ||
        !mlx5_dbr_posted(dp, sq->dbr_addr + 4, sq->hw_counter, &sq->ring, sq->num, &posted)) {
        return 0;
    }
    while (posted && mlx5_slice_left(dp)) {
        Mlx5SendWqe w;
        unsigned nbb;

        if (!sq_fetch(dp, sq, (uint16_t)sq->hw_counter, &w)) {
            break;
        }
        sq_complete_wqe(dp, sq, &w, MLX5_CQE_SYNDROME_WR_FLUSH_ERR);
        nbb = MIN(mlx5_wqe_blocks(w.ds), posted);
        sq->hw_counter = (uint16_t)(sq->hw_counter + nbb);
        sq->lso_sent = 0;
        posted -= nbb;
        n++;
    }
    return n;
}

/* A send queue in ERR: flush what is posted, and go on from the timer if
 * the slice ends first (a QP's flush also takes its RQ and RC state along,
 * transport.c mlx5_qp_flush_resume). */
static void sq_flush_posted(Mlx5DataPath *dp, Mlx5SendQueue *sq)
{
    unsigned n = mlx5_sq_flush(dp, sq);

    mlx5emu_trace_sq_flush(sq->num, n);
    if (!mlx5_slice_left(dp)) {
        mlx5_defer(dp, sq->qp ? MLX5_DEFER_QP_FLUSH : MLX5_DEFER_SQ_FLUSH, sq->num);
    }
}

void mlx5_sq_flush_resume(Mlx5DataPath *dp, uint32_t sqn)
{
    Mlx5Sq *q = mlx5_sq_get(dp->fw, sqn);

    if (q && q->sq.state == MLX5_RQC_STATE_ERR) {
        sq_flush_posted(dp, &q->sq);
    }
}
