/*
 * The RC transport (IBTA vol. 1 ch. 9.7) over RoCEv2: requester,
 * responder and completer.
 *
 * Concepts
 * --------
 * requester  An RC QP's send queue in RTS executes a WQE (hw-rdma/sq.c
 *            calls mlx5_rc_execute): the message is gathered through the
 *            local keys, cut into packets of the path MTU (FIRST, MIDDLE,
 *            LAST or ONLY), each with the next PSN, the last one asking
 *            for an ACK, and sent.  The WQE waits in rc.sent.
 * responder  A RoCEv2 frame for one of our RC QPs (mlx5_rc_receive, called
 *            before Ethernet steering) is accepted only with the expected
 *            PSN: a SEND lands in the next receive WQE, an RDMA WRITE at
 *            the RETH's address through an rkey with remote write.  The
 *            last packet of a message completes the receive WQE (a
 *            responder CQE) and is acknowledged.  An old PSN is a
 *            duplicate: ACKed again, not executed twice.  A PSN ahead of
 *            the expected one is answered once by a PSN sequence error NAK.
 * completer  An ACK completes every sent WQE up to its PSN (requester
 *            CQEs for the signaled ones); a NAK fails the oldest with the
 *            matching error CQE and the QP goes to the error state.
 *
 * Not yet: retransmission (a lost packet is recovered only by the
 * requester's ack timeout, which comes with the next step), RDMA READ,
 * atomics, RNR retry.  On a lossless link (-netdev stream) none is needed.
 */
#include <string.h>

#include "cqe.h"
#include "rdma.h"
#include "roce.h"
#include "wqe.h"

enum {
    /* AETH syndromes (IBTA 9.7.5.1.2) */
    AETH_ACK = 0x1f,                /* ACK, no end-to-end credits */
    AETH_NAK_PSN_SEQ = 0x60, AETH_NAK_INVALID_REQ = 0x61,
    AETH_NAK_REMOTE_ACCESS = 0x62, AETH_NAK_REMOTE_OP = 0x63,
    MLX5_RC_MAX_MSG = 1u << 24,     /* gathered in one buffer: bounded */
};

#define PSN_MASK 0xffffffu
/* a before b in PSN order (IBA 9.7.2: a window of half the space) */
static bool psn_before(uint32_t a, uint32_t b)
{
    return ((b - a) & PSN_MASK) != 0 && ((b - a) & PSN_MASK) < (1u << 23);
}

static const uint8_t *qp_path(const Mlx5Wq *w)
{
    return PRM_PTR(qpc, primary_address_path, w->qp->qpc);
}

/* Headers every packet of this QP carries, from its address path and the
 * GID table entry it names (IBA 9.7, Annex A17). */
static bool rc_pkt_init(Mlx5Fw *fw, const Mlx5Wq *w, Mlx5RocePkt *p)
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

static void rc_send_frame(Mlx5Fw *fw, const Mlx5Wq *w, Mlx5RocePkt *p,
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
    if (fw->port_up) {
        mlx5_count_frames(&fw->counters.phy_tx, frame, 1, n);
        mlx5_count_frames(&fw->counters.vport_tx, frame, 1, n);
        fw->plat->tx_frame(fw->opaque, frame, n, &off);
    }
}

/* --- requester ---------------------------------------------------------- */

/* The message of a WQE: inline data or data segments after the ctrl (and
 * remote address) segments, gathered through the local keys. */
static uint8_t *rc_gather(Mlx5Fw *fw, const Mlx5Wq *w, const uint8_t *wqe, unsigned ds,
                          unsigned first_seg, uint32_t *len, uint8_t *syndrome)
{
    g_autoptr(GByteArray) msg = g_byte_array_new();

    for (unsigned s = first_seg; s < ds; s++) {
        const uint8_t *seg = wqe + s * MLX5_DS_BYTES;
        uint32_t bc = prm_be32(seg + WQE_DATA_BYTE_COUNT);

        if (bc & 0x80000000u) {                         /* MLX5_INLINE_SEG */
            uint32_t n = bc & 0x3ff;
            if (4 + n > (ds - s) * MLX5_DS_BYTES) {
                *syndrome = MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR;
                return NULL;
            }
            g_byte_array_append(msg, seg + 4, n);
            s += (4 + n - 1) / MLX5_DS_BYTES;
            continue;
        }
        if (bc == 0) {
            continue;
        }
        if (msg->len + (uint64_t)bc > MLX5_RC_MAX_MSG) {
            *syndrome = MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR;
            return NULL;
        }
        g_byte_array_set_size(msg, msg->len + bc);
        if (mlx5_mkey_dma(fw, prm_be32(seg + WQE_DATA_LKEY), w->pd,
                          prm_be64(seg + WQE_DATA_ADDR), msg->data + msg->len - bc, bc,
                          MLX5_MKEY_LOCAL_READ) != MLX5_MKEY_OK) {
            *syndrome = MLX5_CQE_SYNDROME_LOCAL_PROT_ERR;
            return NULL;
        }
    }
    *len = msg->len;
    return g_byte_array_steal(g_steal_pointer(&msg), NULL);
}

/* BTH opcodes for the packets of a message: FIRST, MIDDLE, LAST, ONLY. */
static uint8_t rc_opcode(uint8_t wqe_op, bool first, bool last)
{
    bool imm = wqe_op == MLX5_OPCODE_SEND_IMM || wqe_op == MLX5_OPCODE_RDMA_WRITE_IMM;

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

uint8_t mlx5_rc_execute(Mlx5Fw *fw, Mlx5Wq *w, const uint8_t *wqe, uint16_t index,
                        uint8_t opcode, unsigned ds, bool signaled)
{
    bool rdma = opcode == MLX5_OPCODE_RDMA_WRITE || opcode == MLX5_OPCODE_RDMA_WRITE_IMM;
    uint32_t mtu = 128u << PRM_GET(qpc, mtu, w->qp->qpc);      /* 1: 256 ... 5: 4096 */
    g_autofree uint8_t *msg = NULL;
    uint8_t syndrome = 0;
    uint32_t len = 0, off = 0;
    Mlx5RocePkt p;
    Mlx5RcSent sent = { .wqe_index = index, .opcode = opcode, .signaled = signaled };

    if (opcode != MLX5_OPCODE_SEND && opcode != MLX5_OPCODE_SEND_IMM && !rdma) {
        return MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR;       /* READ, atomics: next step */
    }
    if (mtu < 256 || mtu > 4096 || !rc_pkt_init(fw, w, &p)) {
        return MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR;
    }
    msg = rc_gather(fw, w, wqe, ds, rdma ? 2 : 1, &len, &syndrome);
    if (!msg) {
        return syndrome;
    }
    do {
        uint32_t n = MIN(mtu, len - off);
        bool first = off == 0, last = off + n == len;

        p.opcode = MLX5_ROCE_RC | rc_opcode(opcode, first, last);
        p.psn = w->qp->rc.sq_psn;
        p.ackreq = last;
        p.se = last && (wqe[WQE_CTRL_FM_CE_SE] & MLX5_WQE_CTRL_SOLICITED);
        p.imm_data = prm_be32(wqe + WQE_CTRL_IMM);
        if (rdma && first) {
            const uint8_t *raddr = wqe + MLX5_DS_BYTES;
            p.reth.va = prm_be64(raddr);
            p.reth.rkey = prm_be32(raddr + 8);
            p.reth.dma_len = len;
        }
        rc_send_frame(fw, w, &p, msg + off, n);
        sent.last_psn = p.psn;
        w->qp->rc.sq_psn = (p.psn + 1) & PSN_MASK;
        off += n;
    } while (off < len);
    /* More WQEs awaiting their ACK than the send queue has slots: the
     * driver reused a slot it was never given back (undefined); the record
     * of the oldest goes, so a guest cannot grow this without bound. */
    if (w->qp->rc.sent->len >= (1u << w->qp->sq.ring.log_size)) {
        mlx5_guest_error(fw, "QP 0x%x: more sends outstanding than send queue slots", w->num);
        g_array_remove_index(w->qp->rc.sent, 0);
    }
    g_array_append_val(w->qp->rc.sent, sent);
    return 0;
}

/* --- completer ---------------------------------------------------------- */

static void rc_req_cqe(Mlx5Fw *fw, Mlx5Wq *w, const Mlx5RcSent *s, uint8_t syndrome)
{
    Mlx5Cq *cq = mlx5_table_get(&fw->cq, w->qp->sq.cqn);
    uint8_t cqe[64] = { 0 };

    if (!cq || (!syndrome && !s->signaled)) {
        return;
    }
    prm_put_be16(cqe + CQE_WQE_COUNTER, s->wqe_index);
    prm_put_be32(cqe + CQE_SOP_DROP_QPN, (uint32_t)s->opcode << 24 | w->num);
    prm_put_be32(cqe + CQE_SRQN, w->user_index);
    cqe[CQE_OP_OWN] = (syndrome ? MLX5_CQE_REQ_ERR : MLX5_CQE_REQ) << 4;
    cqe[CQE_ERR_SYNDROME] = syndrome;
    mlx5_cq_post(fw, cq, cqe, false);
}

static void rc_complete(Mlx5Fw *fw, Mlx5Wq *w, const Mlx5RocePkt *p)
{
    GArray *sent = w->qp->rc.sent;
    uint8_t nak = p->aeth.syndrome;

    bool is_nak = (nak & 0xe0) == 0x60 || (nak & 0xe0) == 0x20;

    /* An ACK covers every WQE up to its PSN; a NAK those before it. */
    while (sent->len) {
        Mlx5RcSent *s = &g_array_index(sent, Mlx5RcSent, 0);
        if (is_nak ? !psn_before(s->last_psn, p->psn) : psn_before(p->psn, s->last_psn)) {
            break;
        }
        rc_req_cqe(fw, w, s, 0);
        g_array_remove_index(sent, 0);
    }
    if (is_nak) {
        uint8_t syndrome = (nak & 0xe0) == 0x20 ? MLX5_CQE_SYNDROME_RNR_RETRY_EXC_ERR
                         : nak == AETH_NAK_REMOTE_ACCESS ? MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR
                         : nak == AETH_NAK_INVALID_REQ ? MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR
                         : nak == AETH_NAK_REMOTE_OP ? MLX5_CQE_SYNDROME_REMOTE_OP_ERR
                         : MLX5_CQE_SYNDROME_TRANSPORT_RETRY_EXC_ERR;
        mlx5emu_trace_rc_nak(w->num, p->psn, nak);
        if (sent->len) {
            rc_req_cqe(fw, w, &g_array_index(sent, Mlx5RcSent, 0), syndrome);
            g_array_set_size(sent, 0);
        }
        mlx5_qp_send_error(fw, w->num);
    }
}

/* --- responder ---------------------------------------------------------- */

static void rc_ack(Mlx5Fw *fw, Mlx5Wq *w, uint32_t psn, uint8_t syndrome)
{
    Mlx5RocePkt p;

    if (!rc_pkt_init(fw, w, &p)) {
        return;
    }
    p.opcode = MLX5_ROCE_RC | MLX5_ROCE_ACKNOWLEDGE;
    p.psn = psn & PSN_MASK;
    p.aeth.syndrome = syndrome;
    p.aeth.msn = w->qp->rc.msn & PSN_MASK;
    rc_send_frame(fw, w, &p, NULL, 0);
}

/* The next receive WQE of the QP's RQ: its ring address, or 0 if none is
 * posted (the counter is at the doorbell record, +0). */
static uint64_t rc_rq_wqe(Mlx5Fw *fw, Mlx5Wq *w)
{
    uint8_t dbr[4];
    uint64_t addr;

    if (!w->ring.npas || mlx5_dma_read(fw, w->dbr_addr, dbr, 4) ||
        (uint16_t)(prm_be32(dbr) - w->hw_counter) == 0 ||
        !mlx5_ring_entry_addr(&w->ring, w->hw_counter, &addr)) {
        return 0;
    }
    return addr;
}

/* Place payload at byte `off` of the message through the WQE's scatter list. */
static bool rc_scatter(Mlx5Fw *fw, Mlx5Wq *w, uint64_t wqe, uint32_t off,
                       const uint8_t *data, size_t len)
{
    unsigned nseg = (1u << w->ring.log_stride) / 16;

    for (unsigned i = 0; i < nseg && len; i++) {
        uint8_t ds[16];
        uint32_t bc, n;

        if (mlx5_dma_read(fw, wqe + 16 * i, ds, 16)) {
            return false;
        }
        bc = prm_be32(ds);
        if (prm_be32(ds + 4) == 0x100 || bc == 0) {
            break;
        }
        if (off >= bc) {
            off -= bc;
            continue;
        }
        n = (uint32_t)MIN((size_t)(bc - off), len);
        if (mlx5_mkey_dma(fw, prm_be32(ds + 4), w->pd, prm_be64(ds + 8) + off,
                          (void *)data, n, MLX5_MKEY_LOCAL_WRITE) != MLX5_MKEY_OK) {
            return false;
        }
        data += n;
        len -= n;
        off = 0;
    }
    return len == 0;
}

static void rc_resp_cqe(Mlx5Fw *fw, Mlx5Wq *w, const Mlx5RocePkt *p, uint8_t op, uint32_t bytes)
{
    Mlx5Cq *cq = mlx5_table_get(&fw->cq, w->cqn);
    uint8_t cqe[64] = { 0 };

    if (!cq) {
        return;
    }
    prm_put_be32(cqe + CQE_BYTE_CNT, bytes);
    prm_put_be32(cqe + CQE_IMMEDIATE, p->imm_data);
    prm_put_be32(cqe + CQE_SOP_DROP_QPN, w->num);
    prm_put_be32(cqe + CQE_FLAGS_RQPN, PRM_GET(qpc, remote_qpn, w->qp->qpc));
    prm_put_be32(cqe + CQE_SRQN, w->user_index);
    prm_put_be16(cqe + CQE_WQE_COUNTER, (uint16_t)w->hw_counter);
    cqe[CQE_OP_OWN] = op << 4;
    mlx5_cq_post(fw, cq, cqe, p->se);
}

/* One in-order request packet; returns the AETH syndrome to answer with
 * (AETH_ACK: all is well). */
static uint8_t rc_respond(Mlx5Fw *fw, Mlx5Wq *w, const Mlx5RocePkt *p,
                          const Mlx5RoceOpcode *op)
{
    Mlx5RcState *rc = &w->qp->rc;
    uint8_t code = p->opcode & 0x1f;
    bool send = code <= MLX5_ROCE_SEND_ONLY_WITH_IMMEDIATE;
    bool imm = op->hdrs & MLX5_ROCE_HDR_IMMDT;
    bool first = op->flags & MLX5_ROCE_OPF_FIRST, last = op->flags & MLX5_ROCE_OPF_LAST;
    uint64_t wqe = 0;

    if (first == rc->in_msg) {
        return AETH_NAK_INVALID_REQ;        /* FIRST inside a message, MIDDLE outside */
    }
    if (first) {
        rc->msg_off = 0;
        if (op->hdrs & MLX5_ROCE_HDR_RETH) {
            rc->write_va = p->reth.va;
            rc->write_rkey = p->reth.rkey;
        }
    }
    if (send || (imm && last)) {
        wqe = rc_rq_wqe(fw, w);
        if (!wqe) {
            return 0x20 | PRM_GET(qpc, min_rnr_nak, w->qp->qpc);     /* RNR NAK */
        }
    }
    if (send && !rc_scatter(fw, w, wqe, rc->msg_off, p->payload, p->payload_len)) {
        return AETH_NAK_REMOTE_ACCESS;
    }
    if (!send && p->payload_len &&
        mlx5_mkey_dma(fw, rc->write_rkey, w->pd, rc->write_va + rc->msg_off, (void *)p->payload,
                      (uint32_t)p->payload_len, MLX5_MKEY_REMOTE_WRITE) != MLX5_MKEY_OK) {
        return AETH_NAK_REMOTE_ACCESS;
    }
    rc->msg_off += (uint32_t)p->payload_len;
    rc->in_msg = !last;
    if (last) {
        rc->msn++;
        if (wqe) {
            rc_resp_cqe(fw, w, p, !send ? MLX5_CQE_RESP_WR_IMM
                                : imm ? MLX5_CQE_RESP_SEND_IMM : MLX5_CQE_RESP_SEND,
                        send ? rc->msg_off : 0);
            w->hw_counter = (uint16_t)(w->hw_counter + 1);
        }
    }
    return AETH_ACK;
}

static void rc_request(Mlx5Fw *fw, Mlx5Wq *w, const Mlx5RocePkt *p, const Mlx5RoceOpcode *op)
{
    Mlx5RcState *rc = &w->qp->rc;
    uint8_t code = p->opcode & 0x1f;
    uint8_t aeth;

    if (p->psn != rc->epsn) {
        if (psn_before(p->psn, rc->epsn)) {         /* duplicate: ACK, do not redo */
            rc_ack(fw, w, (rc->epsn - 1) & PSN_MASK, AETH_ACK);
        } else if (!rc->nak_sent) {                 /* a gap: ask for a resend once */
            rc->nak_sent = true;
            rc_ack(fw, w, rc->epsn, AETH_NAK_PSN_SEQ);
        }
        return;
    }
    if (code > MLX5_ROCE_RDMA_WRITE_ONLY_WITH_IMMEDIATE) {
        aeth = AETH_NAK_INVALID_REQ;                /* READ, atomics: next step */
    } else {
        aeth = rc_respond(fw, w, p, op);
    }
    if ((aeth & 0xe0) == 0x20) {                    /* RNR: the PSN stays expected */
        rc_ack(fw, w, p->psn, aeth);
        return;
    }
    rc->nak_sent = false;
    if (aeth != AETH_ACK) {
        rc_ack(fw, w, p->psn, aeth);
        mlx5_qp_send_error(fw, w->num);             /* the responder's QP fails too */
        return;
    }
    rc->epsn = (rc->epsn + 1) & PSN_MASK;
    if (p->ackreq) {
        rc_ack(fw, w, p->psn, AETH_ACK);
    }
}

bool mlx5_rc_receive(Mlx5Fw *fw, const uint8_t *frame, size_t len)
{
    Mlx5RocePkt p;
    const Mlx5RoceOpcode *op;
    Mlx5Wq *w;
    Mlx5RoceStatus st = mlx5_roce_parse(frame, len, &p);

    if (st == MLX5_ROCE_NOT_ROCE) {
        return false;
    }
    mlx5_count_frames(&fw->counters.phy_rx, frame, 1, len);
    if (st != MLX5_ROCE_OK) {
        mlx5emu_trace_rc_rx_drop(mlx5_roce_status_name(st));
        return true;
    }
    op = mlx5_roce_opcode(p.opcode);
    w = mlx5_qp_get(fw, p.dest_qpn);
    if (!w || (p.opcode & 0xe0) != MLX5_ROCE_RC ||
        (w->qp_st != MLX5_QP_ST_RC) ||
        (w->state != MLX5_QP_STATE_RTR && w->state != MLX5_QP_STATE_RTS)) {
        mlx5emu_trace_rc_rx_drop("no RC QP in RTR/RTS with that number");
        return true;
    }
    mlx5_count_frames(&fw->counters.vport_rx, frame, 1, len);
    mlx5emu_trace_rc_rx(w->num, p.opcode, p.psn, (unsigned)p.payload_len);
    if (op->flags & MLX5_ROCE_OPF_RESPONSE) {
        if (w->state == MLX5_QP_STATE_RTS) {
            rc_complete(fw, w, &p);
        }
    } else {
        rc_request(fw, w, &p, op);
    }
    return true;
}
