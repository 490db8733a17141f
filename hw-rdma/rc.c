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
 *            outstanding.  The WQE stays in rc.wqes until completed.  A
 *            resend starts again from a PSN ("go back N", IBA 9.7.4.1.4).
 * responder  (rc-responder.c) A request with the expected PSN executes:
 *            SEND into the next receive WQE, WRITE through an rkey with
 *            remote write, READ answered by response packets, atomics
 *            answered with the value found.  An older PSN is a duplicate:
 *            SEND and WRITE are acknowledged again, not redone; READ and
 *            atomics are replayed from the last 16 executed (IBA 9.7.5.1.4).
 *            A PSN ahead is answered once by a sequence NAK; no receive WQE
 *            by an RNR NAK; a bad key by a remote access NAK.
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
 * and every posted receive WQE, completes with WR_FLUSH_ERR (rc_qp_flush).
 * Timers: each QP's one timer (ack or RNR) lives in fw->rc_timed under the
 * device's platform timer.
 */
#include <string.h>

#include "rc.h"

uint32_t mlx5_rc_mtu(const Mlx5Wq *w)
{
    unsigned m = PRM_GET(qpc, mtu, w->qp->qpc);      /* 1: 256 ... 5: 4096 */

    return m >= 1 && m <= 5 ? 128u << m : 0;
}

/* The largest message: 2^log_msg_max of the QP (mlx5_ib sets the
 * device's log_max_msg at CREATE_QP; 0 is taken as that too). */
uint64_t mlx5_rc_max_msg(Mlx5Fw *fw, const Mlx5Wq *w)
{
    unsigned cap = PRM_GET(cmd_hca_cap, log_max_msg, fw->caps_cur[MLX5_CAP_GENERAL]);
    unsigned l = PRM_GET(qpc, log_msg_max, w->qp->qpc);

    return 1ull << (l && l < cap ? l : cap);
}

static const uint8_t *qp_path(const Mlx5Wq *w)
{
    return PRM_PTR(qpc, primary_address_path, w->qp->qpc);
}

/* Headers every packet of this QP carries, from its address path and the
 * GID table entry it names (IBA 9.7, Annex A17). */
bool mlx5_rc_pkt_init(Mlx5Fw *fw, const Mlx5Wq *w, Mlx5RocePkt *p)
{
    const uint8_t *ap = qp_path(w);
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
                                               : 0xc000 | (w->num & 0x3fff);
    p->pkey = 0xffff;
    p->dest_qpn = PRM_GET(qpc, remote_qpn, w->qp->qpc);
    return true;
}

/* Loopback (as ConnectX's): a frame to our own MAC - a QP talking to
 * another QP of this device, rping or perftest to the guest's own address
 * - never reaches the wire.  It is received later, from the timer, so the
 * engine that sent it is never re-entered; a full queue drops it, as a
 * congested link would, and the transport recovers. */
#define MLX5_ROCE_LOOPBACK_MAX 4096
static void rc_loopback(Mlx5Fw *fw, const uint8_t *frame, size_t n)
{
    if (g_queue_get_length(fw->roce_loopback) >= MLX5_ROCE_LOOPBACK_MAX) {
        mlx5emu_trace_rc_rx_drop("loopback queue full");
        return;
    }
    mlx5_count_frames(&fw->counters.vport_tx, frame, 1, n);
    g_queue_push_tail(fw->roce_loopback, g_bytes_new(frame, n));
    mlx5_timer_request(fw, fw->plat->clock_ns(fw->opaque));
}

uint64_t mlx5_rc_loopback_run(Mlx5Fw *fw)
{
    /* A bounded batch: what the batch sends back comes in the next one. */
    for (unsigned i = 0; i < MLX5_ROCE_LOOPBACK_MAX; i++) {
        GBytes *b = g_queue_pop_head(fw->roce_loopback);
        gsize len;
        const uint8_t *f;

        if (!b) {
            return UINT64_MAX;
        }
        f = g_bytes_get_data(b, &len);
        if (fw->port_up) {
            mlx5_rc_receive(fw, f, len, true);
        }
        g_bytes_unref(b);
    }
    return g_queue_is_empty(fw->roce_loopback) ? UINT64_MAX : fw->plat->clock_ns(fw->opaque);
}

void mlx5_roce_send_frame(Mlx5Fw *fw, const Mlx5Wq *w, Mlx5RocePkt *p,
                        const uint8_t *payload, size_t len)
{
    uint8_t frame[4096 + 128];
    Mlx5TxOffload off = { 0 };
    size_t n = mlx5_roce_build(p, payload, len, frame, sizeof(frame));

    if (!n) {
        mlx5_guest_error(fw, "QP 0x%x: cannot build a RoCEv2 packet (address path?)", w->num);
        return;
    }
    mlx5emu_trace_rc_tx(w->num, p->opcode, p->dest_qpn, p->psn, (unsigned)len);
    if (fw->cfg.roce_loopback && !(frame[0] & 1) && mlx5_rx_for_us(fw, frame)) {
        rc_loopback(fw, frame, n);
        return;
    }
    if (fw->port_up) {
        mlx5_count_frames(&fw->counters.phy_tx, frame, 1, n);
        mlx5_count_frames(&fw->counters.vport_tx, frame, 1, n);
        fw->plat->tx_frame(fw->opaque, frame, n, &off);
    }
}

void mlx5_rc_req_cqe(Mlx5Fw *fw, Mlx5Wq *w, const Mlx5RcWqe *r, uint8_t syndrome)
{
    Mlx5Cq *cq = mlx5_table_get(&fw->cq, w->qp->sq.cqn);
    uint8_t cqe[64] = { 0 };

    if (!cq || (!syndrome && !r->signaled)) {
        return;
    }
    prm_put_be16(cqe + CQE_WQE_COUNTER, r->wqe_index);
    prm_put_be32(cqe + CQE_SOP_DROP_QPN, (uint32_t)r->opcode << 24 | w->num);
    prm_put_be32(cqe + CQE_SRQN, w->user_index);
    if (r->opcode == MLX5_OPCODE_RDMA_READ || mlx5_rc_is_rd_atomic(r->opcode)) {
        prm_put_be32(cqe + CQE_BYTE_CNT, r->len);
    }
    cqe[CQE_OP_OWN] = (syndrome ? MLX5_CQE_REQ_ERR : MLX5_CQE_REQ) << 4;
    cqe[CQE_ERR_SYNDROME] = syndrome;
    mlx5_count_cqe_error(fw, w, syndrome, true);
    mlx5emu_trace_rc_cqe(w->num, r->wqe_index, r->opcode, syndrome);
    mlx5_cq_post(fw, cq, cqe, r->solicited);
}

/* --- timers ------------------------------------------------------------- */

void mlx5_rc_timer_start(Mlx5Fw *fw, Mlx5Wq *w, Mlx5RcTimer kind, uint64_t ns)
{
    Mlx5RcState *rc = &w->qp->rc;

    mlx5_num_list_add(fw->rc_timed, w->num);
    rc->timer = kind;
    rc->deadline = fw->plat->clock_ns(fw->opaque) + ns;
    mlx5emu_trace_rc_timer(w->num, kind, (unsigned)MIN(ns / 1000, UINT32_MAX));
    mlx5_timer_request(fw, rc->deadline);
}

uint64_t mlx5_rc_timer_expire(Mlx5Fw *fw)
{
    uint64_t now = fw->plat->clock_ns(fw->opaque), next = UINT64_MAX;
    g_autoptr(GArray) due = g_array_new(false, false, sizeof(uint32_t));

    for (guint i = 0; i < fw->rc_timed->len;) {
        uint32_t qpn = g_array_index(fw->rc_timed, uint32_t, i);
        Mlx5Wq *w = mlx5_qp_get(fw, qpn);

        if (w && w->qp->rc.timer != MLX5_RC_TIMER_OFF && w->state == MLX5_QP_STATE_RTS &&
            w->qp->rc.deadline > now) {
            i++;
            continue;
        }
        if (w && w->qp->rc.timer != MLX5_RC_TIMER_OFF && w->state == MLX5_QP_STATE_RTS) {
            g_array_append_val(due, qpn);
        }
        g_array_remove_index_fast(fw->rc_timed, i);
    }
    for (guint i = 0; i < due->len; i++) {
        Mlx5Wq *w = mlx5_qp_get(fw, g_array_index(due, uint32_t, i));
        Mlx5RcTimer kind = w->qp->rc.timer;

        w->qp->rc.timer = MLX5_RC_TIMER_OFF;
        mlx5emu_trace_rc_timeout(w->num, kind);
        if (kind == MLX5_RC_TIMER_ACK) {
            mlx5_rc_completer_timeout(fw, w);
        } else {
            mlx5_rc_completer_rnr_timeout(fw, w);
        }
    }
    for (guint i = 0; i < fw->rc_timed->len; i++) {
        Mlx5Wq *w = mlx5_qp_get(fw, g_array_index(fw->rc_timed, uint32_t, i));
        if (w && w->qp->rc.timer != MLX5_RC_TIMER_OFF) {
            next = MIN(next, w->qp->rc.deadline);
        }
    }
    return next;
}

/* Such a frame never reaches a QP, so no Q counter can have it; the
 * port's if_in_discards (PPCNT RFC 2863 group, mlx5e's rx_discards_phy)
 * is where the driver sees the device drop what it received. */
void mlx5_roce_discard(Mlx5Fw *fw, const char *why)
{
    fw->counters.rx_roce_discards++;
    mlx5emu_trace_rc_rx_drop(why);
}

/* --- entry points ------------------------------------------------------- */

/* Entering ERR (IBA 10.3.1, 11.6.2): whatever was posted completes with
 * WR_FLUSH_ERR, oldest first - the send WQEs in flight, those posted but
 * not yet fetched, then the receive WQEs (not an SRQ's: it is shared;
 * rq.c mlx5_rq_flush). */
static void rc_qp_flush(Mlx5Fw *fw, Mlx5Wq *w)
{
    GArray *wqes = w->qp->rc.wqes;
    unsigned n = 0;

    w->qp->rc.timer = MLX5_RC_TIMER_OFF;
    for (guint i = 0; wqes && i < wqes->len; i++, n++) {
        mlx5_rc_req_cqe(fw, w, &g_array_index(wqes, Mlx5RcWqe, i),
                        MLX5_CQE_SYNDROME_WR_FLUSH_ERR);
    }
    if (wqes) {
        g_array_set_size(wqes, 0);
    }
    n += mlx5_sq_flush(fw, &w->qp->sq);
    n += mlx5_rq_flush(fw, w, &w->qp->rc.recv);
    mlx5emu_trace_rc_flush(w->num, n);
}

static void rc_qp_error_hook(Mlx5Fw *fw, Mlx5Wq *w)
{
    if (mlx5_qp_st_is_rc(w->qp_st) || mlx5_ud_is_ud(w)) {
        rc_qp_flush(fw, w);
    }
}

void mlx5_rc_init(Mlx5Fw *fw)
{
    fw->qp_error_hook = rc_qp_error_hook;
}

void mlx5_rc_qp_error(Mlx5Fw *fw, Mlx5Wq *w)
{
    mlx5_qp_send_error(fw, w->num);
}

bool mlx5_rc_receive(Mlx5Fw *fw, const uint8_t *frame, size_t len, bool looped)
{
    Mlx5RocePkt p;
    const Mlx5RoceOpcode *op;
    Mlx5Wq *w;
    Mlx5RoceStatus st = mlx5_roce_parse(frame, len, &p);

    if (st == MLX5_ROCE_NOT_ROCE) {
        return false;
    }
    if (!looped) {
        mlx5_count_frames(&fw->counters.phy_rx, frame, 1, len);
    }
    if (st != MLX5_ROCE_OK) {
        mlx5_roce_discard(fw, mlx5_roce_status_name(st));
        return true;
    }
    if ((p.opcode & 0xe0) == MLX5_ROCE_UD) {
        mlx5_count_frames(&fw->counters.vport_rx, frame, 1, len);
        mlx5_ud_receive(fw, frame, &p);
        return true;
    }
    op = mlx5_roce_opcode(p.opcode);
    w = mlx5_qp_get(fw, p.dest_qpn);
    if (!w || !mlx5_qp_st_is_rc(w->qp_st) ||
        (p.opcode & 0xe0) != mlx5_rc_transport(w) ||
        (w->state != MLX5_QP_STATE_RTR && w->state != MLX5_QP_STATE_RTS)) {
        mlx5_roce_discard(fw, "no RC or XRC QP in RTR/RTS with that number");
        return true;
    }
    mlx5_count_frames(&fw->counters.vport_rx, frame, 1, len);
    mlx5emu_trace_rc_rx(w->num, p.opcode, p.psn, (unsigned)p.payload_len);
    if (op->flags & MLX5_ROCE_OPF_RESPONSE) {
        if (w->state == MLX5_QP_STATE_RTS) {
            mlx5_rc_completer(fw, w, &p, op);
        }
    } else {
        if (w->state == MLX5_QP_STATE_RTR && !w->qp->rc.comm_est) {
            /* IBA 11.6.3.1: the first request on a QP still in RTR;
             * ULPs that wait for the CM's RTU use it (ib_cm_notify). */
            w->qp->rc.comm_est = true;
            mlx5_eq_post_qp_srq(fw, MLX5_EVENT_COMM_EST, w->num, MLX5_EVENT_QUEUE_QP);
        }
        mlx5_rc_responder(fw, w, &p, op);
    }
    return true;
}
