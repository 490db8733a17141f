/*
 * RC requester (see rc.c): send WQEs become request packets.
 */
#include <string.h>

#include "rc.h"

/* The IBTA's ack timer is 4.096 us * 2^ack_timeout (IBA 9.7.6.1.3; 0:
 * infinite).  A TCG guest stalls for milliseconds, so shorter timers would
 * only resend what is on its way: the device waits at least this long. */
#define RC_MIN_ACK_TIMEOUT_NS (8 * 1000 * 1000ull)

/* Packets sent and not yet acknowledged, at most: a resend after a loss
 * (go back N) repeats no more than this.  An ACK is requested every
 * RC_ACKREQ_EVERY PSNs so the window keeps moving within long messages. */
#define RC_WINDOW 512
#define RC_ACKREQ_EVERY 64

/* Segments before the data segments: ctrl, then the remote address for
 * RDMA, then the atomic segment. */
static unsigned first_data_seg(uint8_t opcode)
{
    switch (opcode) {
    case MLX5_OPCODE_SEND:
    case MLX5_OPCODE_SEND_IMM:
    case MLX5_OPCODE_SEND_INVAL:
        return 1;
    case MLX5_OPCODE_RDMA_WRITE:
    case MLX5_OPCODE_RDMA_WRITE_IMM:
    case MLX5_OPCODE_RDMA_READ:
        return 2;
    case MLX5_OPCODE_ATOMIC_CS:
    case MLX5_OPCODE_ATOMIC_FA:
        return 3;
    default:
        return 0;                       /* not an RC operation we execute */
    }
}

unsigned mlx5_rc_npkts(const Mlx5RcWqe *r, uint32_t mtu)
{
    if (mlx5_rc_is_rd_atomic(r->opcode) || r->len == 0) {
        return 1;
    }
    return (r->len + mtu - 1) / mtu;
}

static uint8_t wqe_msg_len(const Mlx5RcWqe *r, uint64_t *len)
{
    return mlx5_wqe_msg_len(r->wqe, r->ds, first_data_seg(r->opcode),
                            !mlx5_rc_is_read_or_atomic(r->opcode), len);
}

Mlx5SglStatus mlx5_rc_wqe_sgl(Mlx5DataPath *dp, const Mlx5QpTransport *t, const Mlx5RcWqe *r,
                              uint32_t off, uint8_t *buf, uint32_t n, bool write)
{
    return mlx5_wqe_sgl(dp->fw, t->qp->pd, r->wqe, r->ds, first_data_seg(r->opcode), off, buf,
                        n, write);
}

/* BTH opcodes for the packets of a message: FIRST, MIDDLE, LAST or ONLY;
 * a SEND with invalidate carries the IETH on its last (IBA 9.4.1.1). */
static uint8_t pkt_opcode(uint8_t wqe_op, bool first, bool last)
{
    bool imm = wqe_op == MLX5_OPCODE_SEND_IMM || wqe_op == MLX5_OPCODE_RDMA_WRITE_IMM;

    if (wqe_op == MLX5_OPCODE_SEND_INVAL) {
        return first && last ? MLX5_ROCE_SEND_ONLY_WITH_INVALIDATE
             : first ? MLX5_ROCE_SEND_FIRST
             : last ? MLX5_ROCE_SEND_LAST_WITH_INVALIDATE : MLX5_ROCE_SEND_MIDDLE;
    }
    if (wqe_op == MLX5_OPCODE_SEND || wqe_op == MLX5_OPCODE_SEND_IMM) {
        return first && last ? (imm ? MLX5_ROCE_SEND_ONLY_WITH_IMMEDIATE : MLX5_ROCE_SEND_ONLY)
             : first ? MLX5_ROCE_SEND_FIRST
             : last ? (imm ? MLX5_ROCE_SEND_LAST_WITH_IMMEDIATE : MLX5_ROCE_SEND_LAST)
             : MLX5_ROCE_SEND_MIDDLE;
    }
    return first && last ? (imm ? MLX5_ROCE_RDMA_WRITE_ONLY_WITH_IMMEDIATE
                                : MLX5_ROCE_RDMA_WRITE_ONLY)
         : first ? MLX5_ROCE_RDMA_WRITE_FIRST
         : last ? (imm ? MLX5_ROCE_RDMA_WRITE_LAST_WITH_IMMEDIATE : MLX5_ROCE_RDMA_WRITE_LAST)
         : MLX5_ROCE_RDMA_WRITE_MIDDLE;
}

/* A packet went out with `last` (a READ request: the last PSN its responses
 * take); ACKs and NAKs may name no later PSN (rc-completer.c ack_upto). */
static void note_sent(Mlx5Requester *req, uint32_t last)
{
    if (!psn_before(last, req->sent_psn)) {
        req->sent_psn = psn_add(last, 1);
    }
}

/* RC and XRC send at most RC_WINDOW packets past the oldest one not
 * acknowledged; UC waits for nothing. */
static bool window_full(const Mlx5QpTransport *t, const Mlx5RcWqe *r)
{
    return mlx5_rc_reliable(t->qp) && psn_diff(r->next_psn, t->req.una_psn) >= RC_WINDOW;
}

/* SEND / RDMA WRITE packets from r->next_psn on, while the window has
 * room and the slice lasts (sched.c: the rest goes on from the timer).  An
 * ACK is asked for on the last packet and on every RC_ACKREQ_EVERY-th, so
 * that a long message is acknowledged as it goes and the window moves.
 * Not OK: the gather of a packet failed. */
static Mlx5SglStatus send_message(Mlx5DataPath *dp, Mlx5QpTransport *t, Mlx5RcWqe *r,
                                  Mlx5RocePkt *p, uint32_t mtu)
{
    const uint8_t *raddr = r->wqe + MLX5_DS_BYTES;
    bool rdma = r->opcode == MLX5_OPCODE_RDMA_WRITE || r->opcode == MLX5_OPCODE_RDMA_WRITE_IMM;
    unsigned n = mlx5_rc_npkts(r, mtu);
    uint8_t buf[4096];
    Mlx5SglStatus st;

    for (unsigned i = (unsigned)psn_diff(r->next_psn, r->first_psn); i < n; i++) {
        uint32_t off = i * mtu, len = MIN(mtu, r->len - off);
        bool first = i == 0, last = i == n - 1;

        if (window_full(t, r)) {
            return MLX5_SGL_OK;
        }
        if (!mlx5_slice_left(dp)) {
            mlx5_defer(dp, MLX5_DEFER_RC_SEND, t->qp->num);
            return MLX5_SGL_OK;
        }
        st = mlx5_rc_wqe_sgl(dp, t, r, off, buf, len, false);
        if (st != MLX5_SGL_OK) {
            return st;
        }
        p->opcode = mlx5_rc_transport(t->qp) | pkt_opcode(r->opcode, first, last);
        p->xrc_srqn = r->xrc_srqn;
        p->psn = r->next_psn;
        p->ackreq = mlx5_rc_reliable(t->qp) &&
                    (last || (p->psn % RC_ACKREQ_EVERY) == RC_ACKREQ_EVERY - 1);
        p->se = last && r->solicited;
        p->imm_data = prm_be32(r->wqe + WQE_CTRL_IMM);
        p->ieth_rkey = p->imm_data;     /* the same field (Linux wr.c send_ieth) */
        if (rdma && first) {
            p->reth.va = prm_be64(raddr + WQE_RADDR_VA);
            p->reth.rkey = prm_be32(raddr + WQE_RADDR_RKEY);
            p->reth.dma_len = r->len;
        }
        mlx5_roce_send_frame(dp, t, p, buf, len);
        note_sent(&t->req, r->next_psn);
        r->next_psn = psn_add(r->next_psn, 1);
    }
    return MLX5_SGL_OK;
}

/* A READ request for the responses from r->next_psn on (IBA 9.4.4: a
 * resent READ asks for the rest of the data only), or an atomic request. */
static void send_rd_atomic(Mlx5DataPath *dp, Mlx5QpTransport *t, Mlx5RcWqe *r,
                           Mlx5RocePkt *p, uint32_t mtu)
{
    const uint8_t *raddr = r->wqe + MLX5_DS_BYTES;
    const uint8_t *aseg = r->wqe + 2 * MLX5_DS_BYTES;
    uint32_t skip = (uint32_t)psn_diff(r->next_psn, r->first_psn) * mtu;

    p->psn = r->next_psn;
    p->ackreq = true;
    p->xrc_srqn = r->xrc_srqn;
    if (r->opcode == MLX5_OPCODE_RDMA_READ) {
        p->opcode = mlx5_rc_transport(t->qp) | MLX5_ROCE_RDMA_READ_REQUEST;
        p->reth.va = prm_be64(raddr + WQE_RADDR_VA) + skip;
        p->reth.rkey = prm_be32(raddr + WQE_RADDR_RKEY);
        p->reth.dma_len = r->len - MIN(skip, r->len);
    } else {
        p->opcode = mlx5_rc_transport(t->qp) | (r->opcode == MLX5_OPCODE_ATOMIC_CS
                                            ? MLX5_ROCE_COMPARE_SWAP : MLX5_ROCE_FETCH_ADD);
        p->atomic_eth.va = prm_be64(raddr + WQE_RADDR_VA);
        p->atomic_eth.rkey = prm_be32(raddr + WQE_RADDR_RKEY);
        p->atomic_eth.swap_add = prm_be64(aseg + WQE_ATOMIC_SWAP_ADD);
        p->atomic_eth.compare = prm_be64(aseg + WQE_ATOMIC_COMPARE);
    }
    mlx5_roce_send_frame(dp, t, p, NULL, 0);
    note_sent(&t->req, r->last_psn);
    r->next_psn = psn_add(r->last_psn, 1);
}

/* Send what the window allows of WQE i from its next_psn; false if its
 * gather failed (it has then been failed, and the QP is in ERR). */
static bool transmit(Mlx5DataPath *dp, Mlx5QpTransport *t, guint i)
{
    Mlx5RcWqe *r = mlx5_rc_wqe_at(&t->req.wqes, i);
    uint32_t mtu = mlx5_rc_mtu(t->qp);
    Mlx5SglStatus st;
    Mlx5RocePkt p;

    if (!mlx5_rc_pkt_init(dp->fw, t->qp, &p)) {
        mlx5_guest_error(dp->fw, "QP 0x%x: address path names no valid GID", t->qp->num);
        mlx5_rc_fail(dp, t, i, MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR);
        return false;
    }
    r->started = true;
    if (mlx5_rc_is_read_or_atomic(r->opcode)) {
        send_rd_atomic(dp, t, r, &p, mtu);
        return true;
    }
    st = send_message(dp, t, r, &p, mtu);
    if (st != MLX5_SGL_OK) {
        mlx5_rc_fail(dp, t, i, mlx5_sgl_syndrome(st));
        return false;
    }
    return true;
}

void mlx5_rc_ack_timer_start(Mlx5DataPath *dp, Mlx5QpTransport *t)
{
    unsigned tmo = PRM_GET(ads, ack_timeout, PRM_PTR(qpc, primary_address_path, t->qp->qpc));

    if (tmo) {
        mlx5_rc_timer_start(dp, t, MLX5_RC_TIMER_ACK,
                            MAX(4096ull << tmo, RC_MIN_ACK_TIMEOUT_NS));
    }
}

static bool all_sent(const Mlx5RcWqe *r)
{
    return r->next_psn == psn_add(r->last_psn, 1);
}

/* UC: no acknowledgement comes (IBA 9.8.3.1); a WQE is done once its last
 * packet has gone, a local one once it is the oldest, in order. */
static void uc_complete_sent(Mlx5DataPath *dp, Mlx5QpTransport *t)
{
    Mlx5RcWqe *r;

    while (t->req.wqes.len && all_sent(r = mlx5_rc_wqe_at(&t->req.wqes, 0))) {
        t->req.una_psn = r->next_psn;
        mlx5_rc_req_cqe(dp, t, r, 0);
        mlx5_rc_wqe_drop(t, 0);
    }
}

/* Send, in order, what has not gone out yet, as far as the window reaches;
 * a READ or atomic waits while 2^log_sra_max of them are outstanding (the
 * responder keeps no more). */
void mlx5_rc_requester_run(Mlx5DataPath *dp, Mlx5QpTransport *t)
{
    const Mlx5RcWqes *wqes = &t->req.wqes;
    unsigned limit = MIN(1u << PRM_GET(qpc, log_sra_max, t->qp->qpc), MLX5_RC_MAX_RD_ATOMIC);
    unsigned rd_atomic = 0;
    bool sent = false;

    for (guint i = 0; i < wqes->len && t->qp->state == MLX5_QP_STATE_RTS; i++) {
        Mlx5RcWqe *r = mlx5_rc_wqe_at(wqes, i);
        bool ra = mlx5_rc_is_read_or_atomic(r->opcode);

        if (!all_sent(r)) {
            if ((ra && !r->started && rd_atomic >= limit) || window_full(t, r)) {
                break;
            }
            if (!mlx5_slice_left(dp)) {
                mlx5_defer(dp, MLX5_DEFER_RC_SEND, t->qp->num);
                break;
            }
            if (!transmit(dp, t, i)) {
                return;
            }
            sent = true;
            if (!all_sent(r)) {
                break;                  /* the window is full */
            }
        }
        rd_atomic += ra;
    }
    if (!mlx5_rc_reliable(t->qp)) {
        uc_complete_sent(dp, t);
    } else if (sent && t->req.timer == MLX5_RC_TIMER_OFF) {
        mlx5_rc_ack_timer_start(dp, t);
    }
}

void mlx5_rc_send_resume(Mlx5DataPath *dp, uint32_t qpn)
{
    Mlx5Qp *qp = mlx5_qp_get(dp->fw, qpn);

    if (qp && mlx5_qp_st_is_connected(qp->st) && qp->state == MLX5_QP_STATE_RTS && qp->dp) {
        mlx5_rc_requester_run(dp, mlx5_qp_transport(qp));
    }
}

/* Go back N (IBA 9.7.4.1.4): everything sent from PSN `from` on goes
 * again, as the window allows. */
void mlx5_rc_requester_resend(Mlx5DataPath *dp, Mlx5QpTransport *t, uint32_t from)
{
    const Mlx5RcWqes *wqes = &t->req.wqes;

    mlx5emu_trace_rc_retransmit(t->qp->num, from);
    for (guint i = 0; i < wqes->len; i++) {
        Mlx5RcWqe *r = mlx5_rc_wqe_at(wqes, i);

        if (!r->started) {
            break;
        }
        if (!psn_before(r->last_psn, from) && psn_before(from, r->next_psn)) {
            r->next_psn = psn_before(from, r->first_psn) ? r->first_psn : from;
        }
    }
    mlx5_rc_ack_timer_start(dp, t);
    mlx5_rc_requester_run(dp, t);
}

/* The checks of a send WQE before it is taken: an operation the RC
 * transport executes, its segments there, its length; 0 or the syndrome. */
static uint8_t rc_post_checks(Mlx5DataPath *dp, const Mlx5QpTransport *t, Mlx5RcWqe *r,
                              uint32_t mtu)
{
    uint64_t len;
    uint8_t syndrome;

    if (!first_data_seg(r->opcode) || !mtu || r->ds < first_data_seg(r->opcode)) {
        return MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR;
    }
    /* UC carries SENDs and WRITEs only (IBA 9.8.3: no READ, atomics or
     * SEND with invalidate opcodes); libmlx5 lets a process post them. */
    if (!mlx5_rc_reliable(t->qp) &&
        (mlx5_rc_is_read_or_atomic(r->opcode) || r->opcode == MLX5_OPCODE_SEND_INVAL)) {
        return MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR;
    }
    syndrome = wqe_msg_len(r, &len);
    if (syndrome) {
        return syndrome;
    }
    if (len > mlx5_rc_max_msg(dp->fw, t->qp) || (mlx5_rc_is_rd_atomic(r->opcode) && len != 8)) {
        return MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR;
    }
    r->len = (uint32_t)len;
    return 0;
}

/* An XRC initiator's WQE has an XRC segment (the remote XRC SRQ) after
 * ctrl (libmlx5 qp.c _mlx5_post_send): the copy leaves it out, and the
 * rest is an RC WQE. */
static uint8_t *xrc_wqe_copy(const uint8_t *wqe, unsigned ds, Mlx5RcWqe *r)
{
    uint8_t *copy = g_malloc((ds - 1) * MLX5_DS_BYTES);

    r->xrc_srqn = prm_be32(wqe + MLX5_DS_BYTES) & 0xffffff;
    memcpy(copy, wqe, MLX5_DS_BYTES);
    memcpy(copy + MLX5_DS_BYTES, wqe + 2 * MLX5_DS_BYTES, (ds - 2) * MLX5_DS_BYTES);
    r->ds = (uint8_t)(ds - 1);
    return copy;
}

bool mlx5_rc_wqe_absent(Mlx5DataPath *dp, const Mlx5QpTransport *t, const Mlx5SendWqe *w,
                        uint8_t *type)
{
    unsigned first = first_data_seg(w->opcode);
    bool scatter = mlx5_rc_is_read_or_atomic(w->opcode);

    if (!first) {
        return false;
    }
    first += t->qp->st == MLX5_QP_ST_XRC;       /* the XRC segment after ctrl */
    *type = scatter ? MLX5_PF_TYPE_REQ_READ_OR_ATOMIC : MLX5_PF_TYPE_REQ_SEND_OR_WRITE;
    return mlx5_wqe_sgl_absent(dp->fw, t->qp->pd, w->bytes, w->ds, first, scatter);
}

/* More WQEs outstanding than the send queue has slots, or more bytes of
 * them than it holds: the driver reused a slot it was never given back
 * (undefined); the oldest go, so a guest cannot grow this past what the
 * QP was charged for (mlx5_rc_copies_max). */
static void rc_append(Mlx5DataPath *dp, Mlx5QpTransport *t, const Mlx5RcWqe *r)
{
    Mlx5Requester *req = &t->req;
    uint32_t bytes = r->ds * MLX5_DS_BYTES;

    while (req->wqes.len && (req->wqes.len >= (1u << t->qp->sq.ring.log_size) ||
                              req->copied + bytes > mlx5_rc_copies_max(t->qp))) {
        mlx5emu_trace_ub_rc_sq_overcommit(t->qp->num, req->wqes.len, req->copied);
        mlx5_guest_error(dp->fw, "QP 0x%x: more sends outstanding than its send queue holds",
                         t->qp->num);
        mlx5_rc_wqe_drop(t, 0);
    }
    mlx5_rc_wqe_push(&req->wqes, r);
    req->copied += bytes;
}

/* A local WQE takes no PSN: it sits between its neighbours' ranges with
 * everything "sent" (next = first = last + 1), and the completer retires
 * it as soon as it is the oldest (rc-completer.c complete_oldest). */
void mlx5_rc_post_local(Mlx5DataPath *dp, Mlx5QpTransport *t, const Mlx5SendWqe *w)
{
    Mlx5Requester *req = &t->req;
    Mlx5RcWqe r = {
        .opcode = w->opcode, .wqe_index = w->index, .local = true, .started = true,
        .signaled = w->fm_ce_se & MLX5_WQE_CTRL_CQ_UPDATE,
        .solicited = w->fm_ce_se & MLX5_WQE_CTRL_SOLICITED,
        .first_psn = req->sq_psn, .next_psn = req->sq_psn,
        .last_psn = psn_add(req->sq_psn, PSN_MASK),
    };

    if (req->wqes.len == 0) {
        mlx5_rc_req_cqe(dp, t, &r, 0);
        return;
    }
    rc_append(dp, t, &r);
}

/* A send WQE of an RC or XRC QP (sq.c): checked, copied, given its PSNs
 * and started when its turn comes.  0, or the syndrome it fails with now
 * (sq.c writes that CQE; nothing of it has gone out). */
uint8_t mlx5_rc_post(Mlx5DataPath *dp, Mlx5QpTransport *t, const Mlx5SendWqe *w)
{
    Mlx5Requester *req = &t->req;
    uint32_t mtu = mlx5_rc_mtu(t->qp);
    uint8_t syndrome;
    Mlx5RcWqe r = {
        .ds = w->ds, .opcode = w->opcode, .wqe_index = w->index,
        .signaled = w->fm_ce_se & MLX5_WQE_CTRL_CQ_UPDATE,
        .solicited = w->fm_ce_se & MLX5_WQE_CTRL_SOLICITED,
    };

    if (t->qp->st == MLX5_QP_ST_XRC && w->ds < 2) {
        return MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR;
    }
    r.wqe = t->qp->st == MLX5_QP_ST_XRC ? xrc_wqe_copy(w->bytes, w->ds, &r)
                                       : g_memdup2(w->bytes, w->ds * MLX5_DS_BYTES);
    syndrome = rc_post_checks(dp, t, &r, mtu);
    if (syndrome) {
        g_free(r.wqe);
        return syndrome;
    }
    r.first_psn = r.next_psn = req->sq_psn;
    r.last_psn = psn_add(req->sq_psn, mlx5_rc_npkts(&r, mtu) - 1);
    req->sq_psn = psn_add(r.last_psn, 1);
    rc_append(dp, t, &r);
    mlx5_rc_requester_run(dp, t);
    return 0;
}
