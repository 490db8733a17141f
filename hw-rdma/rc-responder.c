/*
 * RC responder (see rc.c): requests with the expected PSN execute; the
 * answer is an ACK, a NAK, read responses or an atomic acknowledge.
 */
#include <string.h>

#include "rc.h"

/* The protection domain remote keys and receive WQEs are checked against:
 * the QP's, or on an XRC target the XRC SRQ's the request names (the
 * target QP itself is on a PD of mlx5_ib's own, qp.c create_xrc_tgt_qp). */
static uint32_t resp_pd(Mlx5Fw *fw, const Mlx5Wq *w)
{
    Mlx5Srq *s;

    if (w->qp_st != MLX5_QP_ST_XRC) {
        return w->pd;
    }
    s = mlx5_table_get(&fw->srq, w->qp->rc.xrc_srqn);
    return s ? s->pd : 0;
}

/* An XRC request names an XRC SRQ of the target QP's XRC domain (IBA
 * A14.4.2); other requests pass. */
static bool xrc_srq_ok(Mlx5Fw *fw, Mlx5Wq *w, const Mlx5RocePkt *p)
{
    Mlx5Srq *s;

    if (w->qp_st != MLX5_QP_ST_XRC) {
        return true;
    }
    s = mlx5_table_get(&fw->srq, p->xrc_srqn);
    if (!s || s->kind != MLX5_SRQ_XRC || s->xrcd != PRM_GET(qpc, xrcd, w->qp->qpc)) {
        mlx5emu_trace_rc_xrc_bad_srq(w->num, p->xrc_srqn);
        return false;
    }
    w->qp->rc.xrc_srqn = s->num;
    return true;
}

static void send_ack(Mlx5Fw *fw, Mlx5Wq *w, uint32_t psn, uint8_t syndrome)
{
    Mlx5RocePkt p;

    if (!mlx5_rc_pkt_init(fw, w, &p)) {
        return;
    }
    p.opcode = mlx5_rc_transport(w) | MLX5_ROCE_ACKNOWLEDGE;
    p.psn = psn & PSN_MASK;
    p.aeth.syndrome = syndrome;
    p.aeth.msn = w->qp->rc.msn & PSN_MASK;
    if ((syndrome & AETH_KIND_MASK) != AETH_KIND_ACK) {
        mlx5emu_trace_rc_nak_sent(w->num, psn, syndrome);
    }
    if ((syndrome & AETH_KIND_MASK) == AETH_KIND_RNR) {
        mlx5_qp_count(fw, w, MLX5_QCNT_out_of_buffer);     /* no receive WQE */
    } else if (syndrome == AETH_NAK_REMOTE_ACCESS) {
        mlx5_qp_count(fw, w, MLX5_QCNT_resp_remote_access_errors);
    }
    mlx5_roce_send_frame(fw, w, &p, NULL, 0);
}

/* The CQE of the receive WQE the message filled; the WQE is done.  The
 * immediate field holds an invalidated key instead (mlx5_ib cq.c). */
static void resp_cqe(Mlx5Fw *fw, Mlx5Wq *w, const Mlx5RocePkt *p, uint8_t op,
                     uint32_t bytes, uint8_t syndrome)
{
    Mlx5RespCqe c = {
        .op = op, .syndrome = syndrome, .byte_cnt = bytes, .se = p->se,
        .imm = op == MLX5_CQE_RESP_SEND_INV ? p->ieth_rkey : p->imm_data,
        .flags_rqpn = PRM_GET(qpc, remote_qpn, w->qp->qpc),
    };

    mlx5_rq_cqe(fw, w, &w->qp->rc.recv, &c);
    w->qp->rc.recv.addr = 0;
}

/* The last packet of a SEND with invalidate (IBA 10.6.7.2.3 / 9.4.1.1):
 * the R_Key it names stops working, then the receive completes saying so
 * (CQE opcode RESP_SEND_INV, the key where the immediate goes; mlx5_ib
 * cq.c handle_responder: IB_WC_WITH_INVALIDATE).  The key must be this
 * QP's PD's and allow remote invalidation (en_rinval, set by REG_MR); if
 * not, the receive fails with a remote invalid request and so does the
 * sender's WQE (IBA 11.6.2, class J as in Soft-RoCE). */
static uint8_t send_inval_done(Mlx5Fw *fw, Mlx5Wq *w, const Mlx5RocePkt *p)
{
    Mlx5RcState *rc = &w->qp->rc;
    Mlx5Mkey *mk = mlx5_mkey_usable(fw, p->ieth_rkey, resp_pd(fw, w));

    if (!mk || !mk->en_rinval) {
        mlx5emu_trace_rc_invalidate(w->num, p->ieth_rkey, "refused");
        resp_cqe(fw, w, p, MLX5_CQE_RESP_ERR, 0, MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR);
        return AETH_NAK_INVALID_REQ;
    }
    mk->free = true;
    mlx5emu_trace_rc_invalidate(w->num, p->ieth_rkey, "key freed");
    rc->msn++;
    resp_cqe(fw, w, p, MLX5_CQE_RESP_SEND_INV, rc->msg_off, 0);
    return AETH_ACK;
}

/* SEND and RDMA WRITE packets (IBA 9.7.5.1.1-2); the AETH syndrome to
 * answer with (AETH_ACK: all is well). */
static uint8_t do_send_write(Mlx5Fw *fw, Mlx5Wq *w, const Mlx5RocePkt *p,
                             const Mlx5RoceOpcode *op)
{
    Mlx5RcState *rc = &w->qp->rc;
    uint8_t code = p->opcode & 0x1f;
    bool send = code <= MLX5_ROCE_SEND_ONLY_WITH_IMMEDIATE || (op->hdrs & MLX5_ROCE_HDR_IETH);
    bool imm = op->hdrs & MLX5_ROCE_HDR_IMMDT;
    bool first = op->flags & MLX5_ROCE_OPF_FIRST, last = op->flags & MLX5_ROCE_OPF_LAST;
    Mlx5ScatterStatus st;

    if (first == rc->in_msg) {
        return AETH_NAK_INVALID_REQ;        /* FIRST inside a message, MIDDLE outside */
    }
    if (!send && !PRM_GET(qpc, rwe, w->qp->qpc)) {
        return AETH_NAK_REMOTE_ACCESS;      /* the QP does not allow remote writes */
    }
    if (!send && first) {
        mlx5_qp_count(fw, w, MLX5_QCNT_rx_write_requests);
    }
    if (first) {
        rc->msg_off = 0;
        if (op->hdrs & MLX5_ROCE_HDR_RETH) {
            rc->write_va = p->reth.va;
            rc->write_rkey = p->reth.rkey;
        }
    }
    /* A SEND takes its receive WQE at its first packet, a WRITE with
     * immediate at its last; an SRQ's next WQE may go to another QP
     * before this message ends. */
    if (((send && first) || (!send && imm && last)) && !mlx5_rq_take(fw, w, &rc->recv)) {
        return AETH_KIND_RNR | PRM_GET(qpc, min_rnr_nak, w->qp->qpc);
    }
    if (send && (st = mlx5_rq_scatter(fw, &rc->recv, rc->msg_off, p->payload, p->payload_len))) {
        /* The receive WQE fails locally (IBA 9.9.3.1.1); the requester
         * learns of an invalid request (too long) or a protection error. */
        resp_cqe(fw, w, p, MLX5_CQE_RESP_ERR, 0, st == MLX5_SCATTER_LENGTH
                 ? MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR : MLX5_CQE_SYNDROME_LOCAL_PROT_ERR);
        if (st == MLX5_SCATTER_LENGTH) {
            mlx5_qp_count(fw, w, MLX5_QCNT_resp_local_length_error);
        }
        return st == MLX5_SCATTER_LENGTH ? AETH_NAK_INVALID_REQ : AETH_NAK_REMOTE_ACCESS;
    }
    if (!send && p->payload_len &&
        mlx5_mkey_dma(fw, rc->write_rkey, resp_pd(fw, w), rc->write_va + rc->msg_off, (void *)p->payload,
                      (uint32_t)p->payload_len, MLX5_MKEY_REMOTE_WRITE) != MLX5_MKEY_OK) {
        return AETH_NAK_REMOTE_ACCESS;
    }
    rc->msg_off += (uint32_t)p->payload_len;
    rc->in_msg = !last;
    if (last && (op->hdrs & MLX5_ROCE_HDR_IETH)) {
        return send_inval_done(fw, w, p);
    }
    if (last) {
        rc->msn++;
        if (send || imm) {
            resp_cqe(fw, w, p, !send ? MLX5_CQE_RESP_WR_IMM
                               : imm ? MLX5_CQE_RESP_SEND_IMM : MLX5_CQE_RESP_SEND,
                     rc->msg_off, 0);        /* a WRITE's length too (IBA 11.4.2.1) */
        }
    }
    return AETH_ACK;
}

/* Read responses for `res` from PSN `from` on: FIRST (or ONLY) opens
 * them, the AETH on the first and last carries the MSN (IBA 9.7.5.1.6).
 * Memory is read now, packet by packet: a replay reads it again. */
static void read_respond(Mlx5Fw *fw, Mlx5Wq *w, const Mlx5RcRes *res, uint32_t from)
{
    uint32_t mtu = mlx5_rc_mtu(w);
    unsigned n = (unsigned)psn_diff(res->last_psn, res->first_psn) + 1;
    uint8_t buf[4096];
    Mlx5RocePkt p;

    if (!mlx5_rc_pkt_init(fw, w, &p)) {
        return;
    }
    p.aeth.syndrome = AETH_ACK;
    for (unsigned i = (unsigned)psn_diff(from, res->first_psn); i < n; i++) {
        uint32_t off = i * mtu, len = MIN(mtu, res->len - off);
        bool first = psn_add(res->first_psn, i) == from, last = i == n - 1;

        if (len && mlx5_mkey_dma(fw, res->rkey, resp_pd(fw, w), res->va + off, buf, len,
                                 MLX5_MKEY_REMOTE_READ) != MLX5_MKEY_OK) {
            mlx5_guest_error(fw, "QP 0x%x: READ source no longer readable", w->num);
            return;
        }
        p.opcode = mlx5_rc_transport(w) | (first && last ? MLX5_ROCE_RDMA_READ_RESPONSE_ONLY
                                   : first ? MLX5_ROCE_RDMA_READ_RESPONSE_FIRST
                                   : last ? MLX5_ROCE_RDMA_READ_RESPONSE_LAST
                                   : MLX5_ROCE_RDMA_READ_RESPONSE_MIDDLE);
        p.psn = psn_add(res->first_psn, i);
        p.aeth.msn = w->qp->rc.msn & PSN_MASK;
        mlx5_roce_send_frame(fw, w, &p, buf, len);
    }
}

static void atomic_respond(Mlx5Fw *fw, Mlx5Wq *w, const Mlx5RcRes *res)
{
    Mlx5RocePkt p;

    if (!mlx5_rc_pkt_init(fw, w, &p)) {
        return;
    }
    p.opcode = mlx5_rc_transport(w) | MLX5_ROCE_ATOMIC_ACKNOWLEDGE;
    p.psn = res->first_psn;
    p.aeth.syndrome = AETH_ACK;
    p.aeth.msn = w->qp->rc.msn & PSN_MASK;
    p.atomic_ack_orig = res->orig;
    mlx5_roce_send_frame(fw, w, &p, NULL, 0);
}

static Mlx5RcRes *res_new(Mlx5RcState *rc)
{
    Mlx5RcRes *res = &rc->res[rc->res_next++ % MLX5_RC_MAX_RD_ATOMIC];

    memset(res, 0, sizeof(*res));
    return res;
}

/* RDMA READ request (IBA 9.7.5.1.3): checked once, answered with
 * ceil(len / MTU) responses, one PSN each. */
static uint8_t do_read(Mlx5Fw *fw, Mlx5Wq *w, const Mlx5RocePkt *p)
{
    Mlx5RcState *rc = &w->qp->rc;
    uint32_t mtu = mlx5_rc_mtu(w), len = p->reth.dma_len;
    Mlx5RcRes *res;
    uint8_t probe;

    if (!PRM_GET(qpc, rre, w->qp->qpc)) {
        return AETH_NAK_REMOTE_ACCESS;
    }
    if (!mtu || len > mlx5_rc_max_msg(fw, w)) {
        return AETH_NAK_INVALID_REQ;
    }
    /* The whole range must be readable: its first and last byte. */
    if (len && (mlx5_mkey_dma(fw, p->reth.rkey, resp_pd(fw, w), p->reth.va, &probe, 1,
                              MLX5_MKEY_REMOTE_READ) != MLX5_MKEY_OK ||
                mlx5_mkey_dma(fw, p->reth.rkey, resp_pd(fw, w), p->reth.va + len - 1, &probe, 1,
                              MLX5_MKEY_REMOTE_READ) != MLX5_MKEY_OK)) {
        return AETH_NAK_REMOTE_ACCESS;
    }
    res = res_new(rc);
    res->kind = MLX5_RC_RES_READ;
    res->first_psn = p->psn;
    res->last_psn = psn_add(p->psn, len ? (len + mtu - 1) / mtu - 1 : 0);
    res->va = p->reth.va;
    res->rkey = p->reth.rkey;
    res->len = len;
    rc->msn++;
    rc->epsn = psn_add(res->last_psn, 1);
    read_respond(fw, w, res, res->first_psn);
    return AETH_ACK;
}

/* CmpSwap / FetchAdd (IBA 9.7.5.1.4): executed once, its result kept for
 * a duplicate. */
static uint8_t do_atomic(Mlx5Fw *fw, Mlx5Wq *w, const Mlx5RocePkt *p)
{
    Mlx5RcState *rc = &w->qp->rc;
    bool cas = (p->opcode & 0x1f) == MLX5_ROCE_COMPARE_SWAP;
    uint64_t orig;
    Mlx5RcRes *res;

    if (!PRM_GET(qpc, rae, w->qp->qpc)) {
        return AETH_NAK_REMOTE_ACCESS;
    }
    if (p->atomic_eth.va & 7) {
        return AETH_NAK_INVALID_REQ;        /* C9-35: naturally aligned */
    }
    if (mlx5_mkey_atomic(fw, p->atomic_eth.rkey, resp_pd(fw, w), p->atomic_eth.va, cas,
                         p->atomic_eth.swap_add, p->atomic_eth.compare, &orig) != MLX5_MKEY_OK) {
        return AETH_NAK_REMOTE_ACCESS;
    }
    res = res_new(rc);
    res->kind = MLX5_RC_RES_ATOMIC;
    res->first_psn = res->last_psn = p->psn;
    res->orig = orig;
    rc->msn++;
    rc->epsn = psn_add(p->psn, 1);
    atomic_respond(fw, w, res);
    return AETH_ACK;
}

/* A request with a PSN already executed (IBA 9.7.5.1.4, C9-103): SEND and
 * WRITE are acknowledged again (the latest PSN) but not redone; READ and
 * atomics are answered from the kept record; an unknown one is dropped. */
static void duplicate(Mlx5Fw *fw, Mlx5Wq *w, const Mlx5RocePkt *p)
{
    Mlx5RcState *rc = &w->qp->rc;
    uint8_t code = p->opcode & 0x1f;

    mlx5emu_trace_rc_duplicate(w->num, p->psn);
    mlx5_qp_count(fw, w, MLX5_QCNT_duplicate_request);
    if (code != MLX5_ROCE_RDMA_READ_REQUEST && code != MLX5_ROCE_COMPARE_SWAP &&
        code != MLX5_ROCE_FETCH_ADD) {
        send_ack(fw, w, psn_add(rc->epsn, PSN_MASK), AETH_ACK);
        return;
    }
    for (unsigned i = 0; i < MLX5_RC_MAX_RD_ATOMIC; i++) {
        Mlx5RcRes *res = &rc->res[i];

        if (res->kind && !psn_before(p->psn, res->first_psn) &&
            !psn_before(res->last_psn, p->psn)) {
            if (res->kind == MLX5_RC_RES_READ) {
                read_respond(fw, w, res, p->psn);
            } else {
                atomic_respond(fw, w, res);
            }
            return;
        }
    }
    mlx5emu_trace_rc_rx_drop("duplicate READ/atomic not among the kept ones");
}

void mlx5_rc_responder(Mlx5Fw *fw, Mlx5Wq *w, const Mlx5RocePkt *p, const Mlx5RoceOpcode *op)
{
    Mlx5RcState *rc = &w->qp->rc;
    uint8_t code = p->opcode & 0x1f;
    uint8_t aeth;

    if (p->psn != rc->epsn) {
        if (psn_before(p->psn, rc->epsn)) {
            duplicate(fw, w, p);
            return;
        }
        mlx5_qp_count(fw, w, MLX5_QCNT_out_of_sequence);
        if (!rc->nak_sent) {                        /* a gap: ask for a resend once */
            rc->nak_sent = true;
            send_ack(fw, w, rc->epsn, AETH_NAK_PSN_SEQ);
        }
        return;
    }
    if (!xrc_srq_ok(fw, w, p)) {
        aeth = AETH_NAK_REMOTE_ACCESS;
    } else if (rc->in_msg && (code == MLX5_ROCE_RDMA_READ_REQUEST ||
                              code == MLX5_ROCE_COMPARE_SWAP || code == MLX5_ROCE_FETCH_ADD)) {
        aeth = AETH_NAK_INVALID_REQ;                /* inside a SEND or WRITE */
    } else if (code == MLX5_ROCE_RDMA_READ_REQUEST) {
        aeth = do_read(fw, w, p);
    } else if (code == MLX5_ROCE_COMPARE_SWAP || code == MLX5_ROCE_FETCH_ADD) {
        aeth = do_atomic(fw, w, p);
    } else if (code <= MLX5_ROCE_RDMA_WRITE_ONLY_WITH_IMMEDIATE ||
               code == MLX5_ROCE_SEND_LAST_WITH_INVALIDATE ||
               code == MLX5_ROCE_SEND_ONLY_WITH_INVALIDATE) {
        aeth = do_send_write(fw, w, p, op);
    } else {
        aeth = AETH_NAK_INVALID_REQ;                /* not a request of RC */
    }
    if ((aeth & AETH_KIND_MASK) == AETH_KIND_RNR) { /* the PSN stays expected */
        send_ack(fw, w, p->psn, aeth);
        return;
    }
    rc->nak_sent = false;
    if (aeth != AETH_ACK) {
        /* The responder's QP fails too, and says why (IBA 11.6.3.1:
         * invalid request, access violation; mlx5_ib QP_REQ_ERR/ACCESS_ERR). */
        send_ack(fw, w, p->psn, aeth);
        mlx5_eq_post_qp_srq(fw, aeth == AETH_NAK_REMOTE_ACCESS ? MLX5_EVENT_WQ_ACCESS_ERROR
                                : MLX5_EVENT_WQ_INVAL_REQ_ERROR, w->num, MLX5_EVENT_QUEUE_QP);
        mlx5_rc_qp_error(fw, w);
        return;
    }
    if (code == MLX5_ROCE_RDMA_READ_REQUEST) {
        mlx5_qp_count(fw, w, MLX5_QCNT_rx_read_requests);
        return;                                     /* answered, epsn advanced */
    }
    if (code == MLX5_ROCE_COMPARE_SWAP || code == MLX5_ROCE_FETCH_ADD) {
        mlx5_qp_count(fw, w, MLX5_QCNT_rx_atomic_requests);
        return;
    }
    rc->epsn = psn_add(rc->epsn, 1);
    if (p->ackreq) {
        send_ack(fw, w, p->psn, AETH_ACK);
    }
}
