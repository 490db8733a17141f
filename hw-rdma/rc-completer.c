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

static Mlx5RcWqe *oldest(Mlx5QpTransport *t)
{
    return t->req.wqes.len ? mlx5_rc_wqe_at(&t->req.wqes, 0) : NULL;
}

/* The oldest WQE is done, and so are the local ones (UMRs) it held back. */
static void complete_oldest(Mlx5DataPath *dp, Mlx5QpTransport *t)
{
    Mlx5RcWqe *r;

    do {
        mlx5_rc_req_cqe(dp, t, oldest(t), 0);
        mlx5_rc_wqe_drop(t, 0);
    } while ((r = oldest(t)) && r->local);
}

void mlx5_rc_fail(Mlx5DataPath *dp, Mlx5QpTransport *t, guint i, uint8_t syndrome)
{
    Mlx5RcWqe *r = mlx5_rc_wqe_at(&t->req.wqes, i);

    mlx5emu_trace_rc_fail(t->qp->num, r->wqe_index, syndrome);
    mlx5_rc_req_cqe(dp, t, r, syndrome);
    mlx5_rc_wqe_drop(t, i);
    mlx5_rc_qp_error(dp, t);
}

/* The next PSN a READ expects a response for. */
static uint32_t read_next_psn(const Mlx5RcWqe *r, uint32_t mtu)
{
    return psn_add(r->first_psn, r->resp_off / mtu);
}

/* Forward progress: the retry budgets start over (IBA 9.7.6.1.3, C9-150)
 * and the ack timer runs again while anything is outstanding. */
static void progress(Mlx5DataPath *dp, Mlx5QpTransport *t)
{
    Mlx5Requester *req = &t->req;
    Mlx5RcWqe *r = oldest(t);

    req->retry_left = PRM_GET(qpc, retry_count, t->qp->qpc);
    req->rnr_left = PRM_GET(qpc, rnr_retry, t->qp->qpc);
    req->seq_nak_resent = false;
    req->timer = MLX5_RC_TIMER_OFF;
    if (r && r->started) {
        mlx5_rc_ack_timer_start(dp, t);
    }
    mlx5_rc_requester_run(dp, t);
}

/* Where a resend starts: the oldest WQE's first unacknowledged PSN. */
static uint32_t resend_psn(Mlx5QpTransport *t)
{
    Mlx5RcWqe *r = oldest(t);
    uint32_t una = t->req.una_psn;

    if (r->opcode == MLX5_OPCODE_RDMA_READ) {
        return read_next_psn(r, mlx5_rc_mtu(t->qp));
    }
    return psn_before(una, r->first_psn) || mlx5_rc_is_rd_atomic(r->opcode) ? r->first_psn : una;
}

/*
 * Everything up to `psn` is acknowledged - by an ACK, or implied by a NAK
 * or a response for a later PSN: SEND and WRITE WQEs ending there
 * complete.  A READ or atomic is completed only by its own responses; an
 * explicit ACK past its first PSN means they were lost (IBA 9.7.5.1.3),
 * and *lost is set.  False if `psn` was never sent (stale or bogus): not
 * merely taken by a WQE that started (sq_psn), but on a packet that went
 * out (sent_psn) - else an ACK forged or misdirected within a long
 * message's PSNs completed it with packets never sent (IBA 9.7.5.1.5: an
 * ACK beyond what was sent is a ghost and dropped).
 */
static bool ack_upto(Mlx5DataPath *dp, Mlx5QpTransport *t, uint32_t psn, bool *advanced,
                     bool *lost)
{
    Mlx5Requester *req = &t->req;
    Mlx5RcWqe *r;

    if (!psn_before(psn, req->sent_psn)) {
        return false;
    }
    if (!psn_before(psn, req->una_psn)) {
        req->una_psn = psn_add(psn, 1);
        *advanced = true;
    }
    while ((r = oldest(t)) && r->started && !psn_before(psn, r->first_psn)) {
        if (mlx5_rc_is_read_or_atomic(r->opcode)) {
            *lost = true;
            break;
        }
        if (psn_before(psn, r->last_psn)) {
            break;                              /* partly acknowledged */
        }
        complete_oldest(dp, t);
        *advanced = true;
    }
    return true;
}

static void retry(Mlx5DataPath *dp, Mlx5QpTransport *t, uint32_t from)
{
    Mlx5Requester *req = &t->req;

    if (req->retry_left == 0) {
        mlx5_qp_count(dp->fw, t->qp, MLX5_QCNT_req_transport_retries_exceeded);
        mlx5_rc_fail(dp, t, 0, MLX5_CQE_SYNDROME_TRANSPORT_RETRY_EXC_ERR);
        return;
    }
    req->retry_left--;
    mlx5_rc_requester_resend(dp, t, from);
}

/* An RNR NAK (IBA 9.7.5.2.8): wait the time it names and send again from
 * its PSN, rnr_retry times (7: for ever). */
static void on_rnr_nak(Mlx5DataPath *dp, Mlx5QpTransport *t, const Mlx5RocePkt *p)
{
    Mlx5Requester *req = &t->req;

    if (req->rnr_left == 0) {
        mlx5_qp_count(dp->fw, t->qp, MLX5_QCNT_req_rnr_retries_exceeded);
        mlx5_rc_fail(dp, t, 0, MLX5_CQE_SYNDROME_RNR_RETRY_EXC_ERR);
        return;
    }
    mlx5_qp_count(dp->fw, t->qp, MLX5_QCNT_rnr_nak_retry_err);
    if (req->rnr_left != 7) {
        req->rnr_left--;
    }
    req->rnr_psn = p->psn;
    mlx5_rc_timer_start(dp, t, MLX5_RC_TIMER_RNR,
                        rnr_timer_us[p->aeth.syndrome & 0x1f] * 1000ull);
}

/* A PSN sequence error, told by a NAK or implied by an ACK past a READ
 * still waiting for responses (IBA 9.7.5.1.6): resend from `psn`, counted
 * against the retry budget like a timeout (IBA 9.7.6.1.3) - two engines
 * that keep answering each other's resends must not go on for ever.  The
 * same error again before any progress (duplicated, or for packets already
 * on their way) finds the resend under way. */
static void seq_error(Mlx5DataPath *dp, Mlx5QpTransport *t, uint32_t psn, Mlx5QCnt counter)
{
    Mlx5Requester *req = &t->req;

    if (req->seq_nak_resent && req->seq_nak_psn == psn) {
        return;
    }
    req->seq_nak_resent = true;
    req->seq_nak_psn = psn;
    mlx5_qp_count(dp->fw, t->qp, counter);
    retry(dp, t, psn);
}

/* A NAK (IBA 9.7.5.2.4): a sequence error resends from its PSN; the
 * others fail the oldest WQE as the NAK code says (rc.c mlx5_rc_nak). */
static void on_nak(Mlx5DataPath *dp, Mlx5QpTransport *t, const Mlx5RocePkt *p)
{
    const Mlx5RcNak *nak = mlx5_rc_nak(p->aeth.syndrome);

    if (p->aeth.syndrome != AETH_NAK_PSN_SEQ) {
        mlx5_qp_count(dp->fw, t->qp, nak->req_counter);
        mlx5_rc_fail(dp, t, 0, nak->req_syndrome);
        return;
    }
    seq_error(dp, t, p->psn, nak->req_counter);
}

/* An ACKNOWLEDGE packet: ACK, RNR NAK or NAK (IBA 9.7.5.2).  A NAK also
 * acknowledges what precedes its PSN. */
static void on_acknowledge(Mlx5DataPath *dp, Mlx5QpTransport *t, const Mlx5RocePkt *p)
{
    uint8_t kind = p->aeth.syndrome & AETH_KIND_MASK;
    bool advanced = false, lost = false;
    uint32_t upto = kind == AETH_KIND_ACK ? p->psn : psn_add(p->psn, PSN_MASK);

    /* A NAK names the PSN it refuses, which is outstanding; one for a PSN
     * already acknowledged is a ghost (a duplicate from the past, or a
     * forgery) and must not fail the WQE outstanding now (IBA 9.7.5.1.3). */
    if (kind != AETH_KIND_ACK && psn_before(p->psn, t->req.una_psn)) {
        mlx5emu_trace_rc_rx_drop("NAK for a PSN already acknowledged");
        return;
    }
    if (kind != AETH_KIND_ACK && !psn_before(p->psn, t->req.sent_psn)) {
        mlx5emu_trace_rc_rx_drop("NAK for a PSN not sent");
        return;
    }
    if (!ack_upto(dp, t, upto, &advanced, &lost)) {
        mlx5emu_trace_rc_rx_drop("ACK for a PSN not sent");
        return;
    }
    if (kind != AETH_KIND_ACK) {
        mlx5emu_trace_rc_nak(t->qp->num, p->psn, p->aeth.syndrome);
    }
    if (advanced) {
        progress(dp, t);
    }
    /* progress() sends what the window now allows, and a gather that fails
     * there fails the QP: the flush took every WQE, nothing is left to
     * resend or to fail. */
    if (!oldest(t) || t->qp->state != MLX5_QP_STATE_RTS) {
        return;
    }
    if (kind == AETH_KIND_ACK) {
        if (lost) {
            seq_error(dp, t, resend_psn(t), MLX5_QCNT_implied_nak_seq_err);
        }
        return;
    }
    if (kind == AETH_KIND_RNR) {
        on_rnr_nak(dp, t, p);
    } else {
        on_nak(dp, t, p);
    }
}

/* The oldest WQE, if it is the READ or atomic that response `psn`
 * belongs to, after the SEND and WRITE WQEs before it completed (a
 * response implies the ACK of what precedes it, IBA 9.7.5.1.6).  A PSN no
 * request went out with implies nothing: a ghost READ response or atomic
 * ACK completed the WRITEs ahead of it, packets never sent included. */
static Mlx5RcWqe *response_wqe(Mlx5DataPath *dp, Mlx5QpTransport *t, uint32_t psn,
                               bool *advanced)
{
    Mlx5RcWqe *r;

    if (!psn_before(psn, t->req.sent_psn)) {
        return NULL;
    }
    while ((r = oldest(t)) && r->started && psn_before(r->last_psn, psn) &&
           !mlx5_rc_is_read_or_atomic(r->opcode)) {
        complete_oldest(dp, t);
        *advanced = true;
    }
    if (!r || !r->started || psn_before(psn, r->first_psn) || psn_before(r->last_psn, psn)) {
        return NULL;
    }
    return r;
}

/* RDMA READ response packets (IBA 9.7.5.1.6), in PSN order, into the
 * READ's scatter list. */
static void on_read_response(Mlx5DataPath *dp, Mlx5QpTransport *t, const Mlx5RocePkt *p,
                             const Mlx5RoceOpcode *op)
{
    uint32_t mtu = mlx5_rc_mtu(t->qp);
    bool advanced = false, last = op->flags & MLX5_ROCE_OPF_LAST;
    Mlx5RcWqe *r = response_wqe(dp, t, p->psn, &advanced);
    uint32_t n = (uint32_t)p->payload_len;
    Mlx5SglStatus st;

    if (!r || r->opcode != MLX5_OPCODE_RDMA_READ || p->psn != read_next_psn(r, mtu)) {
        mlx5emu_trace_rc_rx_drop("read response out of sequence");
        if (advanced) {
            progress(dp, t);
        }
        return;                     /* a gap is repaired by the ack timer */
    }
    /* FIRST (or ONLY) opens the responses to a READ and to each resent
     * READ, which asks for the rest only (IBA 9.4.4). */
    if ((!(op->flags & MLX5_ROCE_OPF_FIRST) && r->resp_off == 0) ||
        (!last && n != mtu) || n > r->len - r->resp_off ||
        (last && r->resp_off + n != r->len)) {
        mlx5_rc_fail(dp, t, 0, MLX5_CQE_SYNDROME_BAD_RESP_ERR);
        return;
    }
    st = n ? mlx5_rc_wqe_sgl(dp, t, r, r->resp_off, (uint8_t *)p->payload, n, true)
           : MLX5_SGL_OK;
    if (st != MLX5_SGL_OK) {
        mlx5_rc_fail(dp, t, 0, mlx5_sgl_syndrome(st));
        return;
    }
    r->resp_off += n;
    t->req.una_psn = psn_add(p->psn, 1);
    if (last) {
        complete_oldest(dp, t);
    }
    progress(dp, t);
}

/* ATOMIC ACKNOWLEDGE (IBA 9.7.5.1.7): the original value, in host byte
 * order, into the atomic's 8-byte data segment. */
static void on_atomic_ack(Mlx5DataPath *dp, Mlx5QpTransport *t, const Mlx5RocePkt *p)
{
    bool advanced = false;
    Mlx5RcWqe *r = response_wqe(dp, t, p->psn, &advanced);
    uint8_t orig[8];
    Mlx5SglStatus st;

    if (!r || !mlx5_rc_is_rd_atomic(r->opcode)) {
        mlx5emu_trace_rc_rx_drop("atomic acknowledge out of sequence");
        if (advanced) {
            progress(dp, t);
        }
        return;
    }
    prm_put_le64(orig, p->atomic_ack_orig);
    st = mlx5_rc_wqe_sgl(dp, t, r, 0, orig, 8, true);
    if (st != MLX5_SGL_OK) {
        mlx5_rc_fail(dp, t, 0, mlx5_sgl_syndrome(st));
        return;
    }
    t->req.una_psn = psn_add(p->psn, 1);
    complete_oldest(dp, t);
    progress(dp, t);
}

void mlx5_rc_completer(Mlx5DataPath *dp, Mlx5QpTransport *t, const Mlx5RocePkt *p,
                       const Mlx5RoceOpcode *op)
{
    switch (p->opcode & 0x1f) {
    case MLX5_ROCE_ACKNOWLEDGE:
        on_acknowledge(dp, t, p);
        break;
    case MLX5_ROCE_ATOMIC_ACKNOWLEDGE:
        on_atomic_ack(dp, t, p);
        break;
    default:
        on_read_response(dp, t, p, op);
        break;
    }
}

/* The ack timer ran out with WQEs outstanding (IBA 9.7.6.1.3). */
void mlx5_rc_completer_timeout(Mlx5DataPath *dp, Mlx5QpTransport *t)
{
    Mlx5RcWqe *r = oldest(t);

    if (r && r->started) {
        mlx5_qp_count(dp->fw, t->qp, MLX5_QCNT_local_ack_timeout_err);
        retry(dp, t, resend_psn(t));
    }
}

/* The RNR wait is over: send again from the PSN the RNR NAK named. */
void mlx5_rc_completer_rnr_timeout(Mlx5DataPath *dp, Mlx5QpTransport *t)
{
    if (oldest(t)) {
        mlx5_rc_requester_resend(dp, t, t->req.rnr_psn);
    }
}
