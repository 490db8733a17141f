/*
 * What every QP transport shares (see transport.h): the life of a QP's
 * transport state as the firmware's QP state machine drives it, RoCEv2
 * frames in (to the RC or UD transport) and out (to the wire, or back to
 * this port), and the frames no QP takes.
 */
#include <string.h>

#include "decode.h"
#include "transport.h"

/* What the allocator adds to each block (glibc malloc on 64-bit hosts). */
enum { ALLOC_HEADER_BYTES = 16 };

/* What the data path keeps for a QP: its transport state and, for an RC
 * or XRC QP, the send WQEs in flight - at most one per send-ring slot
 * (each an entry of req.wqes, a ring that doubles up to the slots, its
 * old and new buffers both held while it grows, and a copy with the
 * allocator's header) holding at most mlx5_rc_copies_max
 * bytes together (rc-requester.c rc_append). */
uint64_t mlx5_transport_qp_bytes(Mlx5DataPath *dp, const Mlx5Qp *qp)
{
    uint64_t slots = (uint64_t)1 << qp->sq.ring.log_size;
    uint64_t bytes = sizeof(Mlx5QpTransport);

    (void)dp;
    if (mlx5_qp_st_is_connected(qp->st)) {
        bytes += slots * (2 * sizeof(Mlx5RcWqe) + ALLOC_HEADER_BYTES) +
                 mlx5_rc_copies_max(qp);
    }
    return bytes;
}

void *mlx5_transport_qp_created(Mlx5DataPath *dp, Mlx5Qp *qp)
{
    Mlx5QpTransport *t = g_new0(Mlx5QpTransport, 1);

    t->qp = qp;
    t->epoch = dp->epoch;
    if (qp->st == MLX5_QP_ST_QP1) {
        dp->gsi_qp = qp;                /* BTH destination QP 1 (ud.c) */
    }
    return t;
}

void mlx5_transport_qp_destroyed(Mlx5DataPath *dp, Mlx5Qp *qp)
{
    Mlx5QpTransport *t = mlx5_qp_transport(qp);

    if (dp->gsi_qp == qp) {
        dp->gsi_qp = NULL;
    }
    if (!t) {
        return;
    }
    if (t->epoch == dp->epoch) {
        mlx5_rc_stop_timer(dp, t);
        mlx5_rq_unwatch(dp, t);
        mlx5_rc_resp_release(dp, t);
    } else if (t->resp.held) {
        /* A retired QP (a reset emptied the lists and the count at once,
         * mlx5_transport_reset): only its memory is left. */
        g_queue_free_full(t->resp.held, (GDestroyNotify)g_bytes_unref);
    }
    mlx5_rc_wqes_drop_all(t);
    g_free(t);
    qp->dp = NULL;
}

/* The responder starts from the PSN the driver set at RTR (next_rcv_psn),
 * with nothing under way and nothing kept (IBA 10.3.1). */
static void transport_seed_responder(Mlx5DataPath *dp, Mlx5QpTransport *t)
{
    Mlx5Responder *resp = &t->resp;

    mlx5_rc_resp_release(dp, t);
    memset(resp, 0, sizeof(*resp));
    resp->epsn = PRM_GET(qpc, next_rcv_psn, t->qp->qpc);
}

/* The requester starts from next_send_psn at RTR -> RTS; every move to
 * RTS refills the retry budgets of retry_count and rnr_retry. */
static void transport_seed_requester(Mlx5QpTransport *t, unsigned from)
{
    Mlx5Requester *req = &t->req;

    if (from == MLX5_QP_STATE_RTR) {
        req->sq_psn = req->sent_psn = req->una_psn = PRM_GET(qpc, next_send_psn, t->qp->qpc);
    }
    req->retry_left = PRM_GET(qpc, retry_count, t->qp->qpc);
    req->rnr_left = PRM_GET(qpc, rnr_retry, t->qp->qpc);
}

/* Entering ERR (IBA 10.3.1, 11.6.2): whatever was posted completes with
 * WR_FLUSH_ERR, oldest first - the RC send WQEs in flight, those posted but
 * not yet fetched, then the receive WQEs (rq.c mlx5_rq_flush) - a slice's
 * worth now, the rest from the timer (sched.c): a QP with full rings does
 * not hold the command that moved it for tens of thousands of CQEs. */
static void transport_flush(Mlx5DataPath *dp, Mlx5QpTransport *t)
{
    unsigned n;

    mlx5_rc_resp_release(dp, t);
    n = mlx5_rc_flush(dp, t);
    n += mlx5_sq_flush(dp, &t->qp->sq);
    n += mlx5_rq_flush(dp, t);
    mlx5emu_trace_qp_flush(t->qp->num, n);
    if (!mlx5_slice_left(dp)) {
        mlx5_defer(dp, MLX5_DEFER_QP_FLUSH, t->qp->num);
    }
}

void mlx5_qp_flush_resume(Mlx5DataPath *dp, uint32_t qpn)
{
    Mlx5Qp *qp = mlx5_qp_get(dp->fw, qpn);
    Mlx5QpTransport *t = qp ? mlx5_qp_transport(qp) : NULL;
    unsigned n;

    if (!t || qp->state != MLX5_QP_STATE_ERR) {
        return;
    }
    n = mlx5_rc_flush(dp, t);
    n += mlx5_sq_flush(dp, &qp->sq);
    n += mlx5_rq_flush_posted(dp, t);
    mlx5emu_trace_qp_flush(qpn, n);
    if (!mlx5_slice_left(dp)) {
        mlx5_defer(dp, MLX5_DEFER_QP_FLUSH, qpn);
    }
}

void mlx5_transport_qp_state(Mlx5DataPath *dp, Mlx5Qp *qp, unsigned from, unsigned to)
{
    Mlx5QpTransport *t = mlx5_qp_transport(qp);
    bool runs = mlx5_qp_st_is_connected(qp->st) || mlx5_qp_st_is_ud(qp->st);

    mlx5_odp_qp_state(qp, to);
    if (!t) {
        return;
    }
    if (to == MLX5_QP_STATE_RTR) {
        transport_seed_responder(dp, t);
    } else if (to == MLX5_QP_STATE_RTS) {
        transport_seed_requester(t, from);
    } else if (to == MLX5_QP_STATE_RST) {
        mlx5_rc_wqes_drop_all(t);
        mlx5_rc_stop_timer(dp, t);
        mlx5_rq_unwatch(dp, t);
        mlx5_rc_resp_release(dp, t);
    } else if (to == MLX5_QP_STATE_ERR && from != MLX5_QP_STATE_ERR && runs) {
        transport_flush(dp, t);
    }
}

void mlx5_transport_reset(Mlx5DataPath *dp)
{
    g_queue_clear_full(dp->roce_loopback, (GDestroyNotify)g_bytes_unref);
    mlx5_deadlines_clear(&dp->rc_timed);
    g_ptr_array_set_size(dp->rq_err_watched, 0);
    dp->resp_held = 0;
    dp->gsi_qp = NULL;
    dp->epoch++;
}

void mlx5_count_cqe_error(Mlx5DataPath *dp, const Mlx5Qp *qp, uint8_t syndrome,
                          bool requester)
{
    if (!syndrome) {
        return;
    }
    if (syndrome == MLX5_CQE_SYNDROME_WR_FLUSH_ERR) {
        mlx5_qp_count(dp->fw, qp, requester ? MLX5_QCNT_req_cqe_flush_error
                                            : MLX5_QCNT_resp_cqe_flush_error);
    } else {
        mlx5_qp_count(dp->fw, qp, requester ? MLX5_QCNT_req_cqe_error : MLX5_QCNT_resp_cqe_error);
    }
}

/* --- frames out ----------------------------------------------------------- */

/* Loopback (as ConnectX's): a frame to our own MAC - a QP talking to
 * another QP of this device, rping or perftest to the guest's own address
 * - never reaches the wire.  It is received later, from the timer, so the
 * engine that sent it is never re-entered; a full queue drops it, as a
 * congested link would, and the transport recovers. */
#define MLX5_ROCE_LOOPBACK_MAX 4096
static void roce_loopback(Mlx5DataPath *dp, const uint8_t *frame, size_t n)
{
    if (g_queue_get_length(dp->roce_loopback) >= MLX5_ROCE_LOOPBACK_MAX) {
        mlx5emu_trace_rc_rx_drop("loopback queue full");
        return;
    }
    g_queue_push_tail(dp->roce_loopback, g_bytes_new(frame, n));
    mlx5_timer_request(dp, mlx5_dp_now(dp));
}

/* A multicast datagram goes out on the wire and to this device's own QPs
 * attached to the group (ud.c mlx5_ud_receive), the sender's too, unless
 * the sender asked otherwise (qpc block_lb_mc: mlx5_ib's
 * IB_QP_CREATE_BLOCK_MULTICAST_LOOPBACK, IPoIB's choice). */
static bool mcast_loops_back(const Mlx5Fw *fw, const Mlx5QpTransport *t, const uint8_t *frame)
{
    return fw->cfg.roce_loopback && (frame[0] & 1) && !PRM_GET(qpc, block_lb_mc, t->qp->qpc);
}

uint64_t mlx5_roce_loopback_run(Mlx5DataPath *dp)
{
    /* A slice's worth (sched.c): what it sends back comes in the next. */
    for (unsigned i = 0; i < MLX5_ROCE_LOOPBACK_MAX && mlx5_slice_left(dp); i++) {
        g_autoptr(GBytes) b = g_queue_pop_head(dp->roce_loopback);
        gsize len;
        const uint8_t *f;

        if (!b) {
            return UINT64_MAX;
        }
        mlx5_slice_take(dp, 1);
        f = g_bytes_get_data(b, &len);
        if (dp->fw->port_up) {
            mlx5_roce_receive(dp, f, len, true);
        }
    }
    return g_queue_is_empty(dp->roce_loopback) ? UINT64_MAX : mlx5_dp_now(dp);
}

/* The packet header by header, for whoever traces mlx5_roce_fields. */
static void roce_trace_fields(const char *dir, const Mlx5RocePkt *p)
{
    g_autoptr(GString) text = g_string_new(NULL);

    mlx5_decode_roce(text, p);
    mlx5emu_trace_roce_fields(dir, text->str);
}

/* As it goes out: parsed from the frame built, so pad and all. */
static void roce_trace_tx(const uint8_t *frame, size_t n)
{
    Mlx5RocePkt q;

    if (mlx5_roce_parse(frame, n, &q) == MLX5_ROCE_OK) {
        roce_trace_fields("tx", &q);
    }
}

void mlx5_roce_send_frame(Mlx5DataPath *dp, const Mlx5QpTransport *t, Mlx5RocePkt *p,
                          const uint8_t *payload, size_t len)
{
    Mlx5Fw *fw = dp->fw;
    uint8_t frame[4096 + 128];
    Mlx5TxOffload off = { 0 };
    size_t n = mlx5_roce_build(p, payload, len, frame, sizeof(frame));

    mlx5_slice_take(dp, 1);
    if (!n) {
        mlx5_guest_error(fw, "QP 0x%x: cannot build a RoCEv2 packet (address path?)",
                         t->qp->num);
        return;
    }
    mlx5emu_trace_rc_tx(t->qp->num, p->opcode, p->dest_qpn, p->psn, (unsigned)len);
    if (mlx5emu_trace_roce_fields_enabled()) {
        roce_trace_tx(frame, n);
    }
    if (fw->cfg.roce_loopback && !(frame[0] & 1) && mlx5_port_mac_is_ours(fw, frame)) {
        mlx5_count_frames(&fw->counters.vport_rdma_tx, frame, 1, n);
        roce_loopback(dp, frame, n);
        return;
    }
    if (mcast_loops_back(fw, t, frame)) {
        roce_loopback(dp, frame, n);
    }
    if (fw->port_up) {
        mlx5_count_frames(&fw->counters.phy_tx, frame, 1, n);
        mlx5_count_frames(&fw->counters.vport_rdma_tx, frame, 1, n);
        fw->plat->tx_frame(fw->opaque, frame, n, &off);
    }
}

/* --- frames in ------------------------------------------------------------ */

/* Such a frame never reaches a QP, so no Q counter can have it; the
 * port's if_in_discards (PPCNT RFC 2863 group, mlx5e's rx_discards_phy)
 * is where the driver sees the device drop what it received. */
void mlx5_roce_discard(Mlx5DataPath *dp, const char *why)
{
    dp->fw->counters.rx_roce_discards++;
    mlx5emu_trace_rc_rx_drop(why);
}

bool mlx5_roce_receive(Mlx5DataPath *dp, const uint8_t *frame, size_t len, bool looped)
{
    Mlx5RocePkt p;
    Mlx5RoceStatus st = mlx5_roce_parse(frame, len, &p);

    if (st == MLX5_ROCE_NOT_ROCE) {
        return false;
    }
    if (!looped) {
        mlx5_count_frames(&dp->fw->counters.phy_rx, frame, 1, len);
    }
    if (st == MLX5_ROCE_OK && mlx5emu_trace_roce_fields_enabled()) {
        roce_trace_fields(looped ? "rx(loopback)" : "rx", &p);
    }
    if (st != MLX5_ROCE_OK) {
        mlx5_roce_discard(dp, mlx5_roce_status_name(st));
    } else if ((p.opcode & 0xe0) == MLX5_ROCE_UD) {
        mlx5_count_frames(&dp->fw->counters.vport_rdma_rx, frame, 1, len);
        mlx5_ud_receive(dp, frame, &p);
    } else {
        mlx5_rc_receive(dp, frame, len, &p);
    }
    return true;
}
