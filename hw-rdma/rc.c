/*
 * The RC transport (IBTA vol. 1 ch. 9.7) over RoCEv2.
 *
 * Concepts
 * --------
 * Three state machines per RC QP, as in the IBTA's model and Linux rxe:
 *
 * requester  (rc-requester.c) The send queue in RTS hands each WQE over
 *            (mlx5_rc_post): it is copied, given its PSNs (one per packet
 *            of the path MTU; a READ takes one per response packet) and
 *            sent in order - SEND and RDMA WRITE as FIRST/MIDDLE/LAST or
 *            ONLY packets gathered through the local keys, READ and
 *            atomics as one request, at most 2^log_sra_max of those
 *            outstanding.  The WQE stays in req.wqes until completed.  A
 *            resend starts again from a PSN ("go back N", IBA 9.7.4.1.4).
 * responder  (rc-responder.c) A request with the expected PSN passes
 *            the responder's checks (one named function each, every
 *            failure one row of the table there: NAK, CQE syndrome, event,
 *            counter) and executes: SEND into the next receive WQE, WRITE
 *            through an rkey with remote write, READ answered by response
 *            packets, atomics answered with the value found.  An older PSN
 *            is a duplicate: SEND and WRITE are acknowledged again, not
 *            redone; READ and atomics are replayed from the QP's responder
 *            resources (IBA 9.7.5.1.4).  A PSN ahead is answered once by a
 *            sequence NAK.
 * completer  (rc-completer.c) ACKs (explicit, or implied by a later
 *            response) complete WQEs in order; read responses land in the
 *            WQE's scatter list, the atomic's original value in its data
 *            segment.  A sequence NAK or the ack timer (4.096 us *
 *            2^ack_timeout, retry_count times) resends from the oldest
 *            unacknowledged PSN; an RNR NAK waits the RNR timer it carries
 *            (rnr_retry times, 7 = for ever); other NAKs, and running out
 *            of retries, fail the WQE with its error CQE.
 *
 * A failed WQE takes the QP to ERR (IBA 10.3.1); entering ERR, by failure
 * or by MODIFY_QP, flushes: every outstanding and every posted send WQE,
 * and every posted receive WQE, completes with WR_FLUSH_ERR (transport.c).
 * Timers: each QP's one timer (ack or RNR) lives in dp->rc_timed
 * (deadlines.h) under the device's platform timer; the due ones expire a
 * slice's worth per call.
 */
#include <string.h>

#include "rc.h"

uint32_t mlx5_rc_mtu(const Mlx5Qp *qp)
{
    unsigned m = PRM_GET(qpc, mtu, qp->qpc);        /* 1: 256 ... 5: 4096 */

    return m >= 1 && m <= 5 ? 128u << m : 0;
}

/* The largest message: 2^log_msg_max of the QP (mlx5_ib sets the
 * device's log_max_msg at CREATE_QP; 0 is taken as that too). */
uint64_t mlx5_rc_max_msg(Mlx5Fw *fw, const Mlx5Qp *qp)
{
    unsigned cap = PRM_GET(cmd_hca_cap, log_max_msg, MLX5_CAP_CUR(fw, MLX5_CAP_GENERAL));
    unsigned l = PRM_GET(qpc, log_msg_max, qp->qpc);

    return 1ull << (l && l < cap ? l : cap);
}

/* Headers every packet of this QP carries, from its address path and the
 * GID table entry it names (IBA 9.7, Annex A17). */
bool mlx5_rc_pkt_init(Mlx5Fw *fw, const Mlx5Qp *qp, Mlx5RocePkt *p)
{
    const uint8_t *ap = PRM_PTR(qpc, primary_address_path, qp->qpc);
    unsigned idx = PRM_GET(ads, src_addr_index, ap);
    const Mlx5RoceAddr *g = idx < MLX5_GID_TABLE_SIZE ? &fw->gid[idx] : NULL;
    uint32_t rmac_lo = PRM_GET(ads, rmac_31_0, ap);
    uint16_t rmac_hi = PRM_GET(ads, rmac_47_32, ap);

    if (!g || !g->valid) {
        return false;
    }
    memset(p, 0, sizeof(*p));
    p->dmac[0] = rmac_hi >> 8;
    p->dmac[1] = (uint8_t)rmac_hi;
    prm_put_be32(p->dmac + 2, rmac_lo);
    memcpy(p->smac, g->mac, 6);
    p->vlan = g->vlan_valid;
    p->vlan_tci = g->vlan_id;
    p->ip_version = g->l3_type == 0 ? 4 : 6;        /* roce_l3_type: 0 IPv4, 1 IPv6 */
    memcpy(p->sgid, g->l3, 16);
    memcpy(p->dgid, PRM_PTR(ads, rgid_rip, ap), 16);
    p->hop_limit = PRM_GET(ads, hop_limit, ap) ? PRM_GET(ads, hop_limit, ap) : 64;
    p->traffic_class = PRM_GET(ads, tclass, ap);
    p->udp_sport = PRM_GET(ads, udp_sport, ap) ? PRM_GET(ads, udp_sport, ap)
                                               : 0xc000 | (qp->num & 0x3fff);
    p->pkey = 0xffff;
    p->dest_qpn = PRM_GET(qpc, remote_qpn, qp->qpc);
    return true;
}

#define QCNT_NONE MLX5_QCNT__COUNT
static const Mlx5RcNak rc_naks[] = {
    { AETH_NAK_PSN_SEQ, 0, MLX5_QCNT_packet_seq_err, 0 },
    { AETH_NAK_INVALID_REQ, MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR,
      MLX5_QCNT_req_remote_invalid_request, MLX5_EVENT_WQ_INVAL_REQ_ERROR },
    { AETH_NAK_REMOTE_ACCESS, MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR,
      MLX5_QCNT_req_remote_access_errors, MLX5_EVENT_WQ_ACCESS_ERROR },
    { AETH_NAK_REMOTE_OP, MLX5_CQE_SYNDROME_REMOTE_OP_ERR, QCNT_NONE, 0 },
};

const Mlx5RcNak *mlx5_rc_nak(uint8_t aeth)
{
    for (size_t i = 0; i < G_N_ELEMENTS(rc_naks); i++) {
        if (rc_naks[i].aeth == aeth) {
            return &rc_naks[i];
        }
    }
    return &rc_naks[G_N_ELEMENTS(rc_naks) - 1];
}

void mlx5_rc_req_cqe(Mlx5DataPath *dp, Mlx5QpTransport *t, const Mlx5RcWqe *r,
                     uint8_t syndrome)
{
    Mlx5SendCompletion c = {
        .wqe_counter = r->wqe_index, .opcode = r->opcode, .syndrome = syndrome,
        .signaled = r->signaled, .solicited = r->solicited,
        .byte_cnt = mlx5_rc_is_read_or_atomic(r->opcode) ? r->len : 0,
    };

    mlx5_sq_complete(dp, &t->qp->sq, &c);
}

void mlx5_rc_qp_error(Mlx5DataPath *dp, Mlx5QpTransport *t)
{
    mlx5_qp_send_error(dp->fw, t->qp);
}

/* --- timers ------------------------------------------------------------- */

/* dp->rc_timed (deadlines.h): each QP knows its place in it (timed_at). */
static void rc_timer_placed(void *owner, guint place, void *opaque)
{
    (void)opaque;
    ((Mlx5QpTransport *)owner)->timed_at = place;
}

void mlx5_rc_timers_init(Mlx5DataPath *dp)
{
    mlx5_deadlines_init(&dp->rc_timed, rc_timer_placed, NULL);
}

void mlx5_rc_timer_start(Mlx5DataPath *dp, Mlx5QpTransport *t, Mlx5RcTimer kind, uint64_t ns)
{
    uint64_t at = mlx5_dp_now(dp) + ns;

    t->req.timer = kind;
    mlx5_deadlines_set(&dp->rc_timed, t->timed_at, t, at);
    mlx5emu_trace_rc_timer(t->qp->num, kind, (unsigned)MIN(ns / 1000, UINT32_MAX));
    mlx5_timer_request(dp, at);
}

void mlx5_rc_stop_timer(Mlx5DataPath *dp, Mlx5QpTransport *t)
{
    t->req.timer = MLX5_RC_TIMER_OFF;
    if (t->timed_at) {
        mlx5_deadlines_remove(&dp->rc_timed, t->timed_at);
    }
}

/* The timers due, soonest first, as far as the slice goes (one unit
 * each, and what an expiry resends takes its own); the rest are still
 * due at the next call.  A timer runs only in RTS. */
uint64_t mlx5_rc_timer_expire(Mlx5DataPath *dp)
{
    Mlx5Deadlines *timed = &dp->rc_timed;
    uint64_t now = mlx5_dp_now(dp);

    while (mlx5_deadlines_next(timed) <= now && mlx5_slice_left(dp)) {
        Mlx5QpTransport *t = mlx5_deadlines_at(timed, 1)->owner;
        Mlx5RcTimer kind = t->req.timer;

        /* An expiry may fail a QP and so stop another's timer, or start
         * this one's again: the top is read afresh each time. */
        mlx5_rc_stop_timer(dp, t);
        if (t->qp->state != MLX5_QP_STATE_RTS) {
            continue;
        }
        mlx5_slice_take(dp, 1);
        mlx5emu_trace_rc_timeout(t->qp->num, kind);
        if (kind == MLX5_RC_TIMER_ACK) {
            mlx5_rc_completer_timeout(dp, t);
        } else if (kind == MLX5_RC_TIMER_RNR) {
            mlx5_rc_completer_rnr_timeout(dp, t);
        }
    }
    return mlx5_deadlines_next(timed);
}

/* --- entry points ------------------------------------------------------- */

/* An honest driver reuses a send-ring slot only once the WQE in it has
 * completed, so the WQEs in flight fit in the ring together; the copies
 * are bounded by it (rc-requester.c rc_append), and so is the memory the
 * data path keeps for the QP (transport.c mlx5_transport_qp_bytes). */
uint64_t mlx5_rc_copies_max(const Mlx5Qp *qp)
{
    return MAX((uint64_t)MLX5_WQEBB_BYTES << qp->sq.ring.log_size, (uint64_t)MLX5_MAX_WQE_BYTES);
}

/* --- the send WQEs in flight (transport.h Mlx5RcWqes) ------------------- */

void mlx5_rc_wqe_push(Mlx5RcWqes *l, const Mlx5RcWqe *r)
{
    if (l->len == l->cap) {             /* at most the send ring's slots: rc_append */
        uint32_t cap = l->cap ? l->cap * 2 : 8;
        Mlx5RcWqe *ring = g_new(Mlx5RcWqe, cap);

        for (uint32_t i = 0; i < l->len; i++) {
            ring[i] = *mlx5_rc_wqe_at(l, i);
        }
        g_free(l->ring);
        l->ring = ring;
        l->head = 0;
        l->cap = cap;
    }
    *mlx5_rc_wqe_at(l, l->len++) = *r;
}

void mlx5_rc_wqe_drop(Mlx5QpTransport *t, guint i)
{
    Mlx5RcWqes *l = &t->req.wqes;
    Mlx5RcWqe *r = mlx5_rc_wqe_at(l, i);

    t->req.copied -= r->ds * MLX5_DS_BYTES;
    g_free(r->wqe);
    if (i == 0) {
        l->head = (l->head + 1) & (l->cap - 1);
    } else {                            /* a failed WQE: rc-completer.c mlx5_rc_fail */
        for (guint j = i; j + 1 < l->len; j++) {
            *mlx5_rc_wqe_at(l, j) = *mlx5_rc_wqe_at(l, j + 1);
        }
    }
    l->len--;
}

/* The `n` oldest WQEs, with their copies. */
static void rc_wqes_drop_oldest(Mlx5QpTransport *t, guint n)
{
    while (n--) {
        mlx5_rc_wqe_drop(t, 0);
    }
}

void mlx5_rc_wqes_drop_all(Mlx5QpTransport *t)
{
    rc_wqes_drop_oldest(t, t->req.wqes.len);
    g_free(t->req.wqes.ring);
    t->req.wqes = (Mlx5RcWqes) { 0 };
}

/* The send WQEs in flight, oldest first, as far as the slice goes. */
unsigned mlx5_rc_flush(Mlx5DataPath *dp, Mlx5QpTransport *t)
{
    const Mlx5RcWqes *wqes = &t->req.wqes;
    guint n = 0;

    mlx5_rc_stop_timer(dp, t);
    while (n < wqes->len && mlx5_slice_left(dp)) {
        mlx5_rc_req_cqe(dp, t, mlx5_rc_wqe_at(wqes, n), MLX5_CQE_SYNDROME_WR_FLUSH_ERR);
        n++;
    }
    if (n) {
        rc_wqes_drop_oldest(t, n);
    }
    return n;
}

/* The RC, XRC or UC QP a packet is for, in a state whose receive side
 * works: RTR, RTS, and the states where only the send side stopped, SQD
 * and SQER (IBA 10.3.1; SQER is UC's after a send error). */
static Mlx5QpTransport *rc_dest(Mlx5DataPath *dp, const Mlx5RocePkt *p)
{
    Mlx5Qp *qp = mlx5_qp_get(dp->fw, p->dest_qpn);

    if (!qp || !mlx5_qp_st_is_connected(qp->st) || (p->opcode & 0xe0) != mlx5_rc_transport(qp)) {
        return NULL;
    }
    switch (qp->state) {
    case MLX5_QP_STATE_RTR: case MLX5_QP_STATE_RTS:
    case MLX5_QP_STATE_SQD: case MLX5_QP_STATE_SQER:
        return mlx5_qp_transport(qp);
    }
    return NULL;
}

void mlx5_rc_receive(Mlx5DataPath *dp, const uint8_t *frame, size_t len, const Mlx5RocePkt *p)
{
    const Mlx5RoceOpcode *op = mlx5_roce_opcode(p->opcode);
    Mlx5QpTransport *t = rc_dest(dp, p);

    if (!t) {
        mlx5_roce_discard(dp, "no RC, XRC or UC QP that receives with that number");
        return;
    }
    mlx5_count_frames(&dp->fw->counters.vport_rdma_rx, frame, 1, len);
    mlx5emu_trace_rc_rx(t->qp->num, p->opcode, p->psn, (unsigned)p->payload_len);
    if (op->flags & MLX5_ROCE_OPF_RESPONSE) {
        if (t->qp->state == MLX5_QP_STATE_RTS) {
            mlx5_rc_completer(dp, t, p, op);
        }
        return;
    }
    if (t->qp->state == MLX5_QP_STATE_RTR && !t->resp.comm_est) {
        /* IBA 11.6.3.1: the first request on a QP still in RTR; ULPs that
         * wait for the CM's RTU use it (ib_cm_notify). */
        t->resp.comm_est = true;
        mlx5_eq_post_qp_srq(dp->fw, MLX5_EVENT_COMM_EST, t->qp->num, MLX5_EVENT_QUEUE_QP);
    }
    if (!mlx5_rc_resp_hold(dp, t, frame, len, p)) {
        mlx5_rc_responder(dp, t, p, op);
    }
}
