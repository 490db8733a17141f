/*
 * RC completer (see rc.c): responses complete, retry or fail send WQEs.
 */
#include <string.h>

#include "rc.h"

/* RNR NAK timer field -> microseconds (IBA 9.7.5.2.8, Table 45). */
static const uint32_t rnr_timer_us[32] = {
    655360, 10, 20, 30, 40, 60, 80, 120, 160, 240, 320, 480, 640, 960, 1280, 1920,
    2560, 3840, 5120, 7680, 10240, 15360, 20480, 30720, 40960, 61440, 81920,
    122880, 163840, 245760, 327680, 491520,
};

static Mlx5RcWqe *oldest(Mlx5Wq *w)
{
    GArray *wqes = w->qp->rc.wqes;

    return wqes->len ? &g_array_index(wqes, Mlx5RcWqe, 0) : NULL;
}

/* The oldest WQE is done, and so are the local ones (UMRs) it held back. */
static void complete_oldest(Mlx5Fw *fw, Mlx5Wq *w)
{
    Mlx5RcWqe *r;

    do {
        mlx5_rc_req_cqe(fw, w, oldest(w), 0);
        g_array_remove_index(w->qp->rc.wqes, 0);
    } while ((r = oldest(w)) && r->local);
}

void mlx5_rc_fail(Mlx5Fw *fw, Mlx5Wq *w, guint i, uint8_t syndrome)
{
    GArray *wqes = w->qp->rc.wqes;

    mlx5emu_trace_rc_fail(w->num, g_array_index(wqes, Mlx5RcWqe, i).wqe_index, syndrome);
    mlx5_rc_req_cqe(fw, w, &g_array_index(wqes, Mlx5RcWqe, i), syndrome);
    g_array_remove_index(wqes, i);
    mlx5_rc_qp_error(fw, w);
}

/* The next PSN a READ expects a response for. */
static uint32_t read_next_psn(const Mlx5RcWqe *r, uint32_t mtu)
{
    return psn_add(r->first_psn, r->resp_off / mtu);
}

/* Forward progress: the retry budgets start over (IBA 9.7.6.1.3, C9-150)
 * and the ack timer runs again while anything is outstanding. */
static void progress(Mlx5Fw *fw, Mlx5Wq *w)
{
    Mlx5RcState *rc = &w->qp->rc;
    Mlx5RcWqe *r = oldest(w);

    rc->retry_left = PRM_GET(qpc, retry_count, w->qp->qpc);
    rc->rnr_left = PRM_GET(qpc, rnr_retry, w->qp->qpc);
    rc->seq_nak_resent = false;
    rc->timer = MLX5_RC_TIMER_OFF;
    if (r && r->started) {
        mlx5_rc_ack_timer_start(fw, w);
    }
    mlx5_rc_requester_run(fw, w);
}

/* Where a resend starts: the oldest WQE's first unacknowledged PSN. */
static uint32_t resend_psn(Mlx5Wq *w)
{
    Mlx5RcWqe *r = oldest(w);
    uint32_t una = w->qp->rc.una_psn;

    if (r->opcode == MLX5_OPCODE_RDMA_READ) {
        return read_next_psn(r, mlx5_rc_mtu(w));
    }
    return psn_before(una, r->first_psn) || mlx5_rc_is_rd_atomic(r->opcode) ? r->first_psn : una;
}

/*
 * Everything up to `psn` is acknowledged - by an ACK, or implied by a NAK
 * or a response for a later PSN: SEND and WRITE WQEs ending there
 * complete.  A READ or atomic is completed only by its own responses; an
 * explicit ACK past its first PSN means they were lost (IBA 9.7.5.1.3),
 * and *lost is set.  False if `psn` was never sent (stale or bogus).
 */
static bool ack_upto(Mlx5Fw *fw, Mlx5Wq *w, uint32_t psn, bool *advanced, bool *lost)
{
    Mlx5RcState *rc = &w->qp->rc;
    Mlx5RcWqe *r;

    if (!psn_before(psn, rc->sq_psn)) {
        return false;
    }
    if (!psn_before(psn, rc->una_psn)) {
        rc->una_psn = psn_add(psn, 1);
        *advanced = true;
    }
    while ((r = oldest(w)) && r->started && !psn_before(psn, r->first_psn)) {
        if (r->opcode == MLX5_OPCODE_RDMA_READ || mlx5_rc_is_rd_atomic(r->opcode)) {
            *lost = true;
            break;
        }
        if (psn_before(psn, r->last_psn)) {
            break;                              /* partly acknowledged */
        }
        complete_oldest(fw, w);
        *advanced = true;
    }
    return true;
}

static void retry(Mlx5Fw *fw, Mlx5Wq *w, uint32_t from)
{
    Mlx5RcState *rc = &w->qp->rc;

    if (rc->retry_left == 0) {
        mlx5_qp_count(fw, w, MLX5_QCNT_req_transport_retries_exceeded);
        mlx5_rc_fail(fw, w, 0, MLX5_CQE_SYNDROME_TRANSPORT_RETRY_EXC_ERR);
        return;
    }
    rc->retry_left--;
    mlx5_rc_requester_resend(fw, w, from);
}

/* An ACKNOWLEDGE packet: ACK, RNR NAK or NAK (IBA 9.7.5.2). */
static void on_acknowledge(Mlx5Fw *fw, Mlx5Wq *w, const Mlx5RocePkt *p)
{
    Mlx5RcState *rc = &w->qp->rc;
    uint8_t aeth = p->aeth.syndrome;
    bool advanced = false, lost = false;
    uint32_t upto = (aeth & AETH_KIND_MASK) == AETH_KIND_ACK ? p->psn : psn_add(p->psn, PSN_MASK);

    if (!ack_upto(fw, w, upto, &advanced, &lost)) {
        mlx5emu_trace_rc_rx_drop("ACK for a PSN not sent");
        return;
    }
    if (advanced) {
        progress(fw, w);            /* a NAK acknowledges what precedes it too */
    }
    switch (aeth & AETH_KIND_MASK) {
    case AETH_KIND_ACK:
        if (lost) {
            mlx5_qp_count(fw, w, MLX5_QCNT_implied_nak_seq_err);
            mlx5_rc_requester_resend(fw, w, resend_psn(w));
        }
        return;
    case AETH_KIND_RNR:
        mlx5emu_trace_rc_nak(w->num, p->psn, aeth);
        if (!oldest(w)) {
            return;
        }
        if (rc->rnr_left == 0) {
            mlx5_qp_count(fw, w, MLX5_QCNT_req_rnr_retries_exceeded);
            mlx5_rc_fail(fw, w, 0, MLX5_CQE_SYNDROME_RNR_RETRY_EXC_ERR);
            return;
        }
        mlx5_qp_count(fw, w, MLX5_QCNT_rnr_nak_retry_err);
        if (rc->rnr_left != 7) {                /* 7: retry for ever (IBA 9.7.5.2.8) */
            rc->rnr_left--;
        }
        rc->rnr_psn = p->psn;
        mlx5_rc_timer_start(fw, w, MLX5_RC_TIMER_RNR, rnr_timer_us[aeth & 0x1f] * 1000ull);
        return;
    default:
        mlx5emu_trace_rc_nak(w->num, p->psn, aeth);
        if (!oldest(w)) {
            return;
        }
        if (aeth == AETH_NAK_PSN_SEQ) {
            /* The same NAK again (duplicated, or for packets that were
             * already on their way): the resend is under way. */
            if (!(rc->seq_nak_resent && rc->seq_nak_psn == p->psn)) {
                rc->seq_nak_resent = true;
                rc->seq_nak_psn = p->psn;
                mlx5_qp_count(fw, w, MLX5_QCNT_packet_seq_err);
                retry(fw, w, p->psn);
            }
            return;
        }
        if (aeth == AETH_NAK_REMOTE_ACCESS || aeth == AETH_NAK_INVALID_REQ) {
            mlx5_qp_count(fw, w, aeth == AETH_NAK_REMOTE_ACCESS
                                 ? MLX5_QCNT_req_remote_access_errors
                                 : MLX5_QCNT_req_remote_invalid_request);
        }
        mlx5_rc_fail(fw, w, 0, aeth == AETH_NAK_REMOTE_ACCESS ? MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR
                             : aeth == AETH_NAK_INVALID_REQ ? MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR
                             : MLX5_CQE_SYNDROME_REMOTE_OP_ERR);
    }
}

/* The oldest WQE, if it is the READ or atomic that response `psn`
 * belongs to, after the SEND and WRITE WQEs before it completed. */
static Mlx5RcWqe *response_wqe(Mlx5Fw *fw, Mlx5Wq *w, uint32_t psn, bool *advanced)
{
    Mlx5RcWqe *r;

    while ((r = oldest(w)) && r->started && psn_before(r->last_psn, psn) &&
           r->opcode != MLX5_OPCODE_RDMA_READ && !mlx5_rc_is_rd_atomic(r->opcode)) {
        complete_oldest(fw, w);
        *advanced = true;
    }
    if (!r || !r->started || psn_before(psn, r->first_psn) || psn_before(r->last_psn, psn)) {
        return NULL;
    }
    return r;
}

/* RDMA READ response packets (IBA 9.7.5.1.6), in PSN order, into the
 * READ's scatter list. */
static void on_read_response(Mlx5Fw *fw, Mlx5Wq *w, const Mlx5RocePkt *p,
                             const Mlx5RoceOpcode *op)
{
    uint32_t mtu = mlx5_rc_mtu(w);
    bool advanced = false, last = op->flags & MLX5_ROCE_OPF_LAST;
    Mlx5RcWqe *r = response_wqe(fw, w, p->psn, &advanced);
    uint32_t n = (uint32_t)p->payload_len;

    if (!r || r->opcode != MLX5_OPCODE_RDMA_READ || p->psn != read_next_psn(r, mtu)) {
        mlx5emu_trace_rc_rx_drop("read response out of sequence");
        if (advanced) {
            progress(fw, w);
        }
        return;                     /* a gap is repaired by the ack timer */
    }
    /* FIRST (or ONLY) opens the responses to a READ and to each resent
     * READ, which asks for the rest only (IBA 9.4.4). */
    if ((!(op->flags & MLX5_ROCE_OPF_FIRST) && r->resp_off == 0) ||
        (!last && n != mtu) || n > r->len - r->resp_off ||
        (last && r->resp_off + n != r->len)) {
        mlx5_rc_fail(fw, w, 0, MLX5_CQE_SYNDROME_BAD_RESP_ERR);
        return;
    }
    if (n && !mlx5_rc_wqe_sgl(r, r->resp_off, (uint8_t *)p->payload, n, fw, w, true)) {
        mlx5_rc_fail(fw, w, 0, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR);
        return;
    }
    r->resp_off += n;
    w->qp->rc.una_psn = psn_add(p->psn, 1);
    if (last) {
        complete_oldest(fw, w);
    }
    progress(fw, w);
}

/* ATOMIC ACKNOWLEDGE (IBA 9.7.5.1.7): the original value, in host byte
 * order, into the atomic's 8-byte data segment. */
static void on_atomic_ack(Mlx5Fw *fw, Mlx5Wq *w, const Mlx5RocePkt *p)
{
    bool advanced = false;
    Mlx5RcWqe *r = response_wqe(fw, w, p->psn, &advanced);
    uint8_t orig[8];

    if (!r || !mlx5_rc_is_rd_atomic(r->opcode)) {
        mlx5emu_trace_rc_rx_drop("atomic acknowledge out of sequence");
        if (advanced) {
            progress(fw, w);
        }
        return;
    }
    prm_put_le64(orig, p->atomic_ack_orig);
    if (!mlx5_rc_wqe_sgl(r, 0, orig, 8, fw, w, true)) {
        mlx5_rc_fail(fw, w, 0, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR);
        return;
    }
    w->qp->rc.una_psn = psn_add(p->psn, 1);
    complete_oldest(fw, w);
    progress(fw, w);
}

void mlx5_rc_completer(Mlx5Fw *fw, Mlx5Wq *w, const Mlx5RocePkt *p, const Mlx5RoceOpcode *op)
{
    switch (p->opcode & 0x1f) {
    case MLX5_ROCE_ACKNOWLEDGE:
        on_acknowledge(fw, w, p);
        break;
    case MLX5_ROCE_ATOMIC_ACKNOWLEDGE:
        on_atomic_ack(fw, w, p);
        break;
    default:
        on_read_response(fw, w, p, op);
        break;
    }
}

/* The ack timer ran out with WQEs outstanding (IBA 9.7.6.1.3). */
void mlx5_rc_completer_timeout(Mlx5Fw *fw, Mlx5Wq *w)
{
    Mlx5RcWqe *r = oldest(w);

    if (r && r->started) {
        mlx5_qp_count(fw, w, MLX5_QCNT_local_ack_timeout_err);
        retry(fw, w, resend_psn(w));
    }
}

/* The RNR wait is over: send again from the PSN the RNR NAK named. */
void mlx5_rc_completer_rnr_timeout(Mlx5Fw *fw, Mlx5Wq *w)
{
    if (oldest(w)) {
        mlx5_rc_requester_resend(fw, w, w->qp->rc.rnr_psn);
    }
}
