/*
 * RC responder (see rc.c): a request with the expected PSN passes the
 * responder's checks and executes; the answer is an ACK, a NAK, read
 * responses or an atomic acknowledge.
 *
 * Concepts
 * --------
 * The checks run in the order of IBA 9.7.5.1 (and of Linux rxe_resp.c,
 * one named function each): the opcode's place in the message sequence,
 * the operation is one the QP allows and has responder resources for, the
 * packet's length, the R_Key and range, a receive WQE for a SEND.  Each
 * failure is a row of resp_errors[]: the NAK it answers with, the IBA
 * responder error class (IBA 9.9.3.1), the completion of the receive WQE
 * a SEND was filling, the Q counter, and whether the QP goes to ERR (and
 * reports the NAK's affiliated event, rc.c mlx5_rc_nak).  A class B error
 * (PSN sequence, RNR) leaves the QP as it was; class C and J errors end it.
 */
#include <string.h>

#include "rc.h"

#define QCNT_NONE MLX5_QCNT__COUNT

typedef enum {
    RESP_OK,
    RESP_ERR_PSN_SEQ,           /* a PSN ahead of the expected one */
    RESP_ERR_RNR,               /* a SEND (or WRITE with immediate) and no receive WQE */
    RESP_ERR_OP_SEQ,            /* FIRST inside a message, MIDDLE or LAST outside one */
    RESP_ERR_OP_INVALID,        /* not a request of the RC transport */
    RESP_ERR_NO_RESOURCE,       /* READ or atomic, and the QP has no responder resources */
    RESP_ERR_LENGTH,            /* payload against the path MTU or the WRITE's DMA length */
    RESP_ERR_MISALIGNED,        /* an atomic not on an 8-byte boundary */
    RESP_ERR_OP_DISABLED,       /* the QP does not allow remote READ, WRITE or atomics */
    RESP_ERR_RKEY,              /* the R_Key, its rights or its range */
    RESP_ERR_XRC_SRQ,           /* the XRC SRQ named is not one of the QP's XRC domain */
    RESP_ERR_RECV_LENGTH,       /* the SEND is longer than its receive WQE */
    RESP_ERR_RECV_PROT,         /* the receive WQE's list is not writable */
    RESP_ERR_INVALIDATE,        /* SEND with invalidate of a key it may not invalidate */
    RESP_PAGE_FAULT,            /* a page it needs is not present: a fault is out (odp.c) */
} RespStatus;

typedef struct RespError {
    const char *name;
    uint8_t aeth;               /* the NAK's AETH syndrome (AETH_KIND_RNR: + the timer) */
    const char *iba_class;      /* IBA 9.9.3.1 responder error class */
    uint8_t recv_syndrome;      /* the receive WQE being filled completes so (0: none) */
    Mlx5QCnt counter;           /* the responder's Q counter */
    bool qp_error;              /* the QP goes to ERR and reports the NAK's event */
} RespError;

static const RespError resp_errors[] = {
    [RESP_ERR_PSN_SEQ] = { "PSN ahead of the expected one", AETH_NAK_PSN_SEQ, "B", 0,
                           MLX5_QCNT_out_of_sequence, false },
    [RESP_ERR_RNR] = { "no receive WQE", AETH_KIND_RNR, "B", 0,
                       MLX5_QCNT_out_of_buffer, false },
    [RESP_ERR_OP_SEQ] = { "opcode out of sequence", AETH_NAK_INVALID_REQ, "C",
                          MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR, QCNT_NONE, true },
    [RESP_ERR_OP_INVALID] = { "not an RC request", AETH_NAK_INVALID_REQ, "C",
                              MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR, QCNT_NONE, true },
    [RESP_ERR_NO_RESOURCE] = { "no responder resources for READ or atomics",
                               AETH_NAK_INVALID_REQ, "C", 0, QCNT_NONE, true },
    [RESP_ERR_LENGTH] = { "length against the path MTU or the DMA length",
                          AETH_NAK_INVALID_REQ, "C", MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR,
                          QCNT_NONE, true },
    [RESP_ERR_MISALIGNED] = { "atomic not 8-byte aligned", AETH_NAK_INVALID_REQ, "C", 0,
                              QCNT_NONE, true },
    [RESP_ERR_OP_DISABLED] = { "operation not enabled on the QP", AETH_NAK_REMOTE_ACCESS, "C",
                               0, MLX5_QCNT_resp_remote_access_errors, true },
    [RESP_ERR_RKEY] = { "R_Key, rights or range", AETH_NAK_REMOTE_ACCESS, "C", 0,
                        MLX5_QCNT_resp_remote_access_errors, true },
    [RESP_ERR_XRC_SRQ] = { "not an XRC SRQ of the QP's domain", AETH_NAK_REMOTE_ACCESS, "C", 0,
                           MLX5_QCNT_resp_remote_access_errors, true },
    [RESP_ERR_RECV_LENGTH] = { "message longer than its receive WQE", AETH_NAK_INVALID_REQ, "C",
                               MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR,
                               MLX5_QCNT_resp_local_length_error, true },
    /* The responder's own fault, not the request's: a Remote Operational
     * Error (IBA 9.9.3.1 class D; rxe RESPST_ERR_MALFORMED_WQE; rdma-core
     * tests test_mr_rereg_addr/pd expect it after the MR under a posted
     * receive moved). */
    [RESP_ERR_RECV_PROT] = { "receive WQE not writable", AETH_NAK_REMOTE_OP, "D",
                             MLX5_CQE_SYNDROME_LOCAL_PROT_ERR, QCNT_NONE, true },
    /* Not an error: the pages come once the driver resumes the fault;
     * meanwhile the peer waits the RNR timer, as for a missing receive
     * WQE (docs/odp-driver-map.md 5.2, 5.3). */
    [RESP_PAGE_FAULT] = { "page not present: page fault", AETH_KIND_RNR, "B", 0, QCNT_NONE,
                          false },
    [RESP_ERR_INVALIDATE] = { "key may not be invalidated", AETH_NAK_INVALID_REQ, "J",
                              MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR, QCNT_NONE, true },
};

static bool is_read_or_atomic_req(uint8_t code)
{
    return code == MLX5_ROCE_RDMA_READ_REQUEST || code == MLX5_ROCE_COMPARE_SWAP ||
           code == MLX5_ROCE_FETCH_ADD;
}

static bool is_send(uint8_t code, const Mlx5RoceOpcode *op)
{
    return code <= MLX5_ROCE_SEND_ONLY_WITH_IMMEDIATE || (op->hdrs & MLX5_ROCE_HDR_IETH);
}

static bool is_write(uint8_t code)
{
    return code >= MLX5_ROCE_RDMA_WRITE_FIRST && code <= MLX5_ROCE_RDMA_WRITE_ONLY_WITH_IMMEDIATE;
}

/* The protection domain remote keys and receive WQEs are checked against:
 * the QP's, or on an XRC target the XRC SRQ's the request names (the
 * target QP itself is on a PD of mlx5_ib's own, qp.c create_xrc_tgt_qp). */
static uint32_t resp_pd(Mlx5DataPath *dp, const Mlx5QpTransport *t)
{
    Mlx5Srq *s;

    if (t->qp->st != MLX5_QP_ST_XRC) {
        return t->qp->pd;
    }
    s = mlx5_table_get(&dp->fw->srq, t->resp.xrc_srqn);
    return s ? s->pd : 0;
}

static void send_ack(Mlx5DataPath *dp, Mlx5QpTransport *t, uint32_t psn, uint8_t syndrome)
{
    Mlx5RocePkt p;

    if (!mlx5_rc_pkt_init(dp->fw, t->qp, &p)) {
        return;
    }
    p.opcode = mlx5_rc_transport(t->qp) | MLX5_ROCE_ACKNOWLEDGE;
    p.psn = psn & PSN_MASK;
    p.aeth.syndrome = syndrome;
    p.aeth.msn = t->resp.msn & PSN_MASK;
    if ((syndrome & AETH_KIND_MASK) != AETH_KIND_ACK) {
        mlx5emu_trace_rc_nak_sent(t->qp->num, psn, syndrome);
    }
    mlx5_roce_send_frame(dp, t, &p, NULL, 0);
}

/* The CQE of the receive WQE the message filled; the WQE is done.  The
 * immediate field holds an invalidated key instead (mlx5_ib cq.c). */
static void resp_cqe(Mlx5DataPath *dp, Mlx5QpTransport *t, const Mlx5RocePkt *p, uint8_t op,
                     uint32_t bytes, uint8_t syndrome)
{
    Mlx5RespCqe c = {
        .op = op, .syndrome = syndrome, .byte_cnt = bytes, .se = p->se,
        .imm = op == MLX5_CQE_RESP_SEND_INV ? p->ieth_rkey : p->imm_data,
        .flags_rqpn = PRM_GET(qpc, remote_qpn, t->qp->qpc),
    };

    mlx5_rq_cqe(dp, t, &t->resp.recv, &c);
    t->resp.recv.addr = 0;
}

/* A check failed: the answer its row says.  A PSN sequence NAK goes once
 * until the expected PSN comes (IBA 9.7.5.2.2, C9-108); an RNR NAK names
 * the QP's RNR timer and leaves the PSN expected. */
static void resp_error(Mlx5DataPath *dp, Mlx5QpTransport *t, const Mlx5RocePkt *p,
                       RespStatus st)
{
    const RespError *e = &resp_errors[st];
    Mlx5Responder *resp = &t->resp;

    mlx5emu_trace_rc_resp_err(t->qp->num, p->psn, e->name, e->iba_class, e->aeth);
    mlx5_qp_count(dp->fw, t->qp, e->counter);
    if (st == RESP_ERR_PSN_SEQ) {
        if (!resp->nak_sent) {
            resp->nak_sent = true;
            send_ack(dp, t, resp->epsn, e->aeth);
        }
        return;
    }
    if (st == RESP_ERR_RNR || st == RESP_PAGE_FAULT) {
        send_ack(dp, t, p->psn, AETH_KIND_RNR | PRM_GET(qpc, min_rnr_nak, t->qp->qpc));
        return;
    }
    if (e->recv_syndrome && resp->recv.addr) {
        resp_cqe(dp, t, p, MLX5_CQE_RESP_ERR, 0, e->recv_syndrome);
    }
    resp->nak_sent = false;
    send_ack(dp, t, p->psn, e->aeth);
    if (e->qp_error) {
        /* IBA 11.6.3.1: the responder's QP fails too, and says why
         * (mlx5_ib QP_REQ_ERR / QP_ACCESS_ERR). */
        mlx5_eq_post_qp_srq(dp->fw, mlx5_rc_nak(e->aeth)->resp_event, t->qp->num,
                            MLX5_EVENT_QUEUE_QP);
        mlx5_rc_qp_error(dp, t);
    }
}

/* --- the checks ----------------------------------------------------------- */

/* An XRC request names an XRC SRQ of the target QP's XRC domain (IBA
 * A14.4.2); other requests pass. */
static RespStatus check_xrc_srq(Mlx5DataPath *dp, Mlx5QpTransport *t, const Mlx5RocePkt *p)
{
    Mlx5Srq *s;

    if (t->qp->st != MLX5_QP_ST_XRC) {
        return RESP_OK;
    }
    s = mlx5_table_get(&dp->fw->srq, p->xrc_srqn);
    if (!s || s->kind != MLX5_SRQ_XRC || s->xrcd != PRM_GET(qpc, xrcd, t->qp->qpc)) {
        return RESP_ERR_XRC_SRQ;
    }
    t->resp.xrc_srqn = s->num;
    return RESP_OK;
}

/* A multi-packet SEND or WRITE goes FIRST, MIDDLE..., LAST with nothing
 * else in between, and its MIDDLE and LAST packets are of the operation
 * the FIRST began (IBA 9.7.5.1.1: C9-86/C9-87); a SEND_MIDDLE inside a
 * WRITE would otherwise fill a receive WQE the message never took. */
static RespStatus check_op_seq(const Mlx5QpTransport *t, uint8_t code, const Mlx5RoceOpcode *op)
{
    Mlx5RespMsg kind = is_send(code, op) ? MLX5_RESP_MSG_SEND
                     : is_write(code) ? MLX5_RESP_MSG_WRITE : MLX5_RESP_MSG_NONE;

    if (kind == MLX5_RESP_MSG_NONE || (op->flags & MLX5_ROCE_OPF_FIRST)) {
        return t->resp.in_msg != MLX5_RESP_MSG_NONE ? RESP_ERR_OP_SEQ : RESP_OK;
    }
    return t->resp.in_msg != kind ? RESP_ERR_OP_SEQ : RESP_OK;
}

/* An RC request the QP allows (qpc rwe, rre, rae: IBA 10.2.4 remote access
 * enables), with responder resources for a READ or atomic: mlx5_ib
 * encodes max_dest_rd_atomic 0 by clearing both rre and rae
 * (qp.c set_qpc_atomic_flags); such a QP takes none (rxe check_resource). */
static RespStatus check_op_valid(const Mlx5QpTransport *t, uint8_t code,
                                 const Mlx5RoceOpcode *op)
{
    const uint8_t *qpc = t->qp->qpc;
    bool atomic = code == MLX5_ROCE_COMPARE_SWAP || code == MLX5_ROCE_FETCH_ADD;

    if (!is_send(code, op) && !is_write(code) && !is_read_or_atomic_req(code)) {
        return RESP_ERR_OP_INVALID;
    }
    if (is_read_or_atomic_req(code) && !PRM_GET(qpc, rre, qpc) && !PRM_GET(qpc, rae, qpc)) {
        return RESP_ERR_NO_RESOURCE;
    }
    if ((is_write(code) && !PRM_GET(qpc, rwe, qpc)) ||
        (code == MLX5_ROCE_RDMA_READ_REQUEST && !PRM_GET(qpc, rre, qpc)) ||
        (atomic && !PRM_GET(qpc, rae, qpc))) {
        return RESP_ERR_OP_DISABLED;
    }
    return RESP_OK;
}

/* Packet lengths against the path MTU (IBA 9.7.5.1.1, C9-88..C9-90; rxe
 * check_length): a FIRST or MIDDLE packet carries exactly one MTU, an ONLY
 * at most one, a LAST 1 to one MTU.  A WRITE's bytes stay within the DMA
 * length its RETH named and fill it by its last packet (IBA 9.7.5.1.2,
 * C9-92); a READ or WRITE asks for at most the largest message. */
static RespStatus check_length(Mlx5DataPath *dp, const Mlx5QpTransport *t,
                               const Mlx5RocePkt *p, const Mlx5RoceOpcode *op)
{
    uint32_t mtu = mlx5_rc_mtu(t->qp), n = (uint32_t)p->payload_len;
    bool first = op->flags & MLX5_ROCE_OPF_FIRST, last = op->flags & MLX5_ROCE_OPF_LAST;
    uint32_t done = first ? 0 : t->resp.msg_off;
    uint32_t dma_len = first ? p->reth.dma_len : t->resp.write_len;

    if (!mtu) {
        return RESP_ERR_LENGTH;
    }
    if ((op->flags & MLX5_ROCE_OPF_PAYLOAD) &&
        (last ? n > mtu || (!first && n == 0) : n != mtu)) {
        return RESP_ERR_LENGTH;
    }
    if ((op->hdrs & MLX5_ROCE_HDR_RETH) && p->reth.dma_len > mlx5_rc_max_msg(dp->fw, t->qp)) {
        return RESP_ERR_LENGTH;
    }
    if (is_write(p->opcode & 0x1f) &&
        (n > dma_len - MIN(done, dma_len) || (last && done + n != dma_len))) {
        return RESP_ERR_LENGTH;
    }
    return RESP_OK;
}

/* The R_Key allows the whole range a WRITE's first packet or a READ
 * names (IBA 9.7.5.1.2, C9-91; 10.6.3.5), the 8 bytes of an atomic,
 * naturally aligned (IBA 9.4.5, C9-35). */
static RespStatus check_rkey(Mlx5DataPath *dp, const Mlx5QpTransport *t,
                             const Mlx5RocePkt *p, uint8_t code)
{
    Mlx5Fw *fw = dp->fw;
    uint32_t pd = resp_pd(dp, t);

    if (code == MLX5_ROCE_COMPARE_SWAP || code == MLX5_ROCE_FETCH_ADD) {
        if (p->atomic_eth.va & 7) {
            return RESP_ERR_MISALIGNED;
        }
        return mlx5_mkey_allows(fw, p->atomic_eth.rkey, pd, p->atomic_eth.va, 8,
                                MLX5_MKEY_REMOTE_READ_ATOMIC) &&
               !mlx5_mkey_bound_elsewhere(fw, p->atomic_eth.rkey, t->qp->num)
               ? RESP_OK : RESP_ERR_RKEY;
    }
    if (!(mlx5_roce_opcode(p->opcode)->hdrs & MLX5_ROCE_HDR_RETH) || p->reth.dma_len == 0) {
        return RESP_OK;             /* a later packet, or nothing to touch */
    }
    return mlx5_mkey_allows(fw, p->reth.rkey, pd, p->reth.va, p->reth.dma_len,
                            code == MLX5_ROCE_RDMA_READ_REQUEST ? MLX5_MKEY_REMOTE_READ
                                                                : MLX5_MKEY_REMOTE_WRITE) &&
           !mlx5_mkey_bound_elsewhere(fw, p->reth.rkey, t->qp->num)
           ? RESP_OK : RESP_ERR_RKEY;
}

/* A WRITE's later packet: its own bytes must still be present.  The
 * first packet found the whole target there, but the kernel may take
 * pages back at any time (an MMU notifier: reclaim, migration, THP
 * collapse; mlx5_ib_invalidate_range zaps them through UMR), so a page can
 * be gone by a MIDDLE or LAST packet.  That is a fault at this packet's
 * offset, not an access error: mlx5_ib_mr_rdma_pfault_handler maps from
 * rdma_va on, and the peer resends from this PSN after the RNR NAK. */
static RespStatus check_write_later_pages(Mlx5DataPath *dp, Mlx5QpTransport *t,
                                          const Mlx5RocePkt *p)
{
    Mlx5Responder *resp = &t->resp;
    uint64_t va = resp->write_va + resp->msg_off;

    if (p->payload_len == 0 ||
        mlx5_mkey_probe(dp->fw, resp->write_rkey, resp_pd(dp, t), va, (uint32_t)p->payload_len,
                        MLX5_MKEY_REMOTE_WRITE) != MLX5_MKEY_ABSENT) {
        return RESP_OK;
    }
    return mlx5_odp_rdma_fault(dp, t, resp->write_rkey, va,
                               resp->write_len - MIN(resp->msg_off, resp->write_len),
                               (uint32_t)p->payload_len, true)
           ? RESP_PAGE_FAULT : RESP_ERR_RKEY;
}

/* While the device pages, the target the R_Key allowed must be present
 * (checked whole at a WRITE's first packet, a READ, an atomic; a WRITE's
 * later packets, each its own bytes): if not, an RDMA page fault, and the
 * peer retries after the RNR timer. */
static RespStatus check_rdma_pages(Mlx5DataPath *dp, Mlx5QpTransport *t,
                                   const Mlx5RocePkt *p, uint8_t code)
{
    bool atomic = code == MLX5_ROCE_COMPARE_SWAP || code == MLX5_ROCE_FETCH_ADD;
    bool read = code == MLX5_ROCE_RDMA_READ_REQUEST;
    bool reth = mlx5_roce_opcode(p->opcode)->hdrs & MLX5_ROCE_HDR_RETH;
    uint32_t rkey = atomic ? p->atomic_eth.rkey : p->reth.rkey;
    uint64_t va = atomic ? p->atomic_eth.va : p->reth.va;
    uint32_t len = atomic ? 8 : p->reth.dma_len;

    if (!mlx5_odp_pages(dp)) {
        return RESP_OK;
    }
    if (!atomic && !reth) {
        return is_write(code) ? check_write_later_pages(dp, t, p) : RESP_OK;
    }
    if (!atomic && len == 0) {
        return RESP_OK;
    }
    if (mlx5_mkey_probe(dp->fw, rkey, resp_pd(dp, t), va, len,
                        read ? MLX5_MKEY_REMOTE_READ
                             : atomic ? MLX5_MKEY_REMOTE_WRITE_ATOMIC
                                      : MLX5_MKEY_REMOTE_WRITE) != MLX5_MKEY_ABSENT &&
        (!atomic || mlx5_mkey_probe(dp->fw, rkey, resp_pd(dp, t), va, len,
                                    MLX5_MKEY_REMOTE_READ_ATOMIC) != MLX5_MKEY_ABSENT)) {
        return RESP_OK;
    }
    return mlx5_odp_rdma_fault(dp, t, rkey, va, len, (uint32_t)p->payload_len, !read)
           ? RESP_PAGE_FAULT : RESP_ERR_RKEY;
}

/* A SEND takes its receive WQE at its first packet, a WRITE with
 * immediate at its last (IBA 9.7.5.1.1, 9.7.5.1.2); an SRQ's next WQE may
 * go to another QP before this message ends. */
static RespStatus check_recv_wqe(Mlx5DataPath *dp, Mlx5QpTransport *t, uint8_t code,
                                 const Mlx5RoceOpcode *op)
{
    bool first = op->flags & MLX5_ROCE_OPF_FIRST, last = op->flags & MLX5_ROCE_OPF_LAST;
    bool imm = op->hdrs & MLX5_ROCE_HDR_IMMDT;

    if (!((is_send(code, op) && first) || (is_write(code) && imm && last))) {
        return RESP_OK;
    }
    if (t->resp.recv.addr) {
        return RESP_OK;         /* UC: the WQE a dropped message had taken (uc_drop) */
    }
    if (!mlx5_odp_pages(dp)) {
        return mlx5_rq_take(dp, t, &t->resp.recv) ? RESP_OK : RESP_ERR_RNR;
    }
    /* While the device pages, a WQE whose list is not present stays
     * posted behind a page fault (docs/odp-driver-map.md 5.2). */
    if (!mlx5_rq_peek(dp, t, &t->resp.recv)) {
        t->resp.recv.addr = 0;
        return RESP_ERR_RNR;
    }
    if (mlx5_recv_absent(dp->fw, t->resp.recv.pd, t->resp.recv.addr, t->resp.recv.nseg)) {
        if (mlx5_odp_recv_fault(dp, t, &t->resp.recv)) {
            t->resp.recv.addr = 0;
            return RESP_PAGE_FAULT;
        }
        /* Nobody maps it (no page-fault EQ, or the driver refused): the
         * WQE is taken and completes with a protection error. */
        mlx5_rq_advance(dp, t, &t->resp.recv);
        return RESP_ERR_RECV_PROT;
    }
    mlx5_rq_advance(dp, t, &t->resp.recv);
    return RESP_OK;
}

/* Every check, in order; the first that fails says how. */
static RespStatus resp_checks(Mlx5DataPath *dp, Mlx5QpTransport *t, const Mlx5RocePkt *p,
                              const Mlx5RoceOpcode *op)
{
    uint8_t code = p->opcode & 0x1f;
    RespStatus st = check_xrc_srq(dp, t, p);

    if (st == RESP_OK) {
        st = check_op_seq(t, code, op);
    }
    if (st == RESP_OK) {
        st = check_op_valid(t, code, op);
    }
    if (st == RESP_OK) {
        st = check_length(dp, t, p, op);
    }
    if (st == RESP_OK) {
        st = check_rkey(dp, t, p, code);
    }
    if (st == RESP_OK) {
        st = check_rdma_pages(dp, t, p, code);
    }
    if (st == RESP_OK) {
        st = check_recv_wqe(dp, t, code, op);
    }
    return st;
}

/* --- execution ------------------------------------------------------------ */

/* The last packet of a SEND with invalidate (IBA 10.6.7.2.3 / 9.4.1.1):
 * the R_Key it names stops working, then the receive completes saying so
 * (CQE opcode RESP_SEND_INV, the key where the immediate goes; mlx5_ib
 * cq.c handle_responder: IB_WC_WITH_INVALIDATE).  The key must be this
 * QP's PD's and allow remote invalidation (en_rinval, set by REG_MR); if
 * not, the receive fails with a remote invalid request and so does the
 * sender's WQE (IBA 11.6.2, class J as in Soft-RoCE). */
static RespStatus send_inval_done(Mlx5DataPath *dp, Mlx5QpTransport *t, const Mlx5RocePkt *p)
{
    Mlx5Mkey *mk = mlx5_mkey_usable(dp->fw, p->ieth_rkey, resp_pd(dp, t));

    if (!mk || !mk->en_rinval || mlx5_mkey_bound_elsewhere(dp->fw, p->ieth_rkey, t->qp->num)) {
        mlx5emu_trace_rc_invalidate(t->qp->num, p->ieth_rkey, "refused");
        return RESP_ERR_INVALIDATE;
    }
    mk->free = true;
    mlx5emu_trace_rc_invalidate(t->qp->num, p->ieth_rkey, "key freed");
    t->resp.msn++;
    resp_cqe(dp, t, p, MLX5_CQE_RESP_SEND_INV, t->resp.msg_off, 0);
    return RESP_OK;
}

/* A SEND packet into the receive WQE (IBA 9.7.5.1.1); a WQE too short
 * fails locally (IBA 9.9.3.1.1) and the requester learns of an invalid
 * request, one not writable of a protection error. */
static RespStatus place_send(Mlx5DataPath *dp, Mlx5QpTransport *t, const Mlx5RocePkt *p)
{
    Mlx5SglStatus st = mlx5_rq_scatter(dp, &t->resp.recv, t->resp.msg_off, p->payload,
                                       p->payload_len);

    if (st == MLX5_SGL_OK) {
        return RESP_OK;
    }
    return st == MLX5_SGL_BAD_KEY ? RESP_ERR_RECV_PROT : RESP_ERR_RECV_LENGTH;
}

/* An RDMA WRITE packet through the rkey of its first one (IBA 9.7.5.1.2). */
static RespStatus place_write(Mlx5DataPath *dp, Mlx5QpTransport *t, const Mlx5RocePkt *p)
{
    Mlx5Responder *resp = &t->resp;

    if (p->payload_len &&
        mlx5_mkey_dma(dp->fw, resp->write_rkey, resp_pd(dp, t), resp->write_va + resp->msg_off,
                      (void *)p->payload, (uint32_t)p->payload_len,
                      MLX5_MKEY_REMOTE_WRITE) != MLX5_MKEY_OK) {
        return RESP_ERR_RKEY;
    }
    return RESP_OK;
}

/* SEND and RDMA WRITE packets, checked; the last completes the message
 * (a WRITE's CQE, with immediate only, carries its length too: IBA
 * 11.4.2.1). */
static RespStatus do_send_write(Mlx5DataPath *dp, Mlx5QpTransport *t, const Mlx5RocePkt *p,
                                const Mlx5RoceOpcode *op)
{
    Mlx5Responder *resp = &t->resp;
    uint8_t code = p->opcode & 0x1f;
    bool send = is_send(code, op), imm = op->hdrs & MLX5_ROCE_HDR_IMMDT;
    bool first = op->flags & MLX5_ROCE_OPF_FIRST, last = op->flags & MLX5_ROCE_OPF_LAST;
    RespStatus st;

    if (first) {
        resp->msg_off = 0;
        if (!send) {
            mlx5_qp_count(dp->fw, t->qp, MLX5_QCNT_rx_write_requests);
            resp->write_va = p->reth.va;
            resp->write_rkey = p->reth.rkey;
            resp->write_len = p->reth.dma_len;
        }
    }
    st = send ? place_send(dp, t, p) : place_write(dp, t, p);
    if (st != RESP_OK) {
        return st;
    }
    resp->msg_off += (uint32_t)p->payload_len;
    resp->in_msg = last ? MLX5_RESP_MSG_NONE : send ? MLX5_RESP_MSG_SEND : MLX5_RESP_MSG_WRITE;
    if (last && (op->hdrs & MLX5_ROCE_HDR_IETH)) {
        return send_inval_done(dp, t, p);
    }
    if (last) {
        resp->msn++;
        if (send || imm) {
            resp_cqe(dp, t, p, !send ? MLX5_CQE_RESP_WR_IMM
                               : imm ? MLX5_CQE_RESP_SEND_IMM : MLX5_CQE_RESP_SEND,
                     resp->msg_off, 0);
        }
    }
    return RESP_OK;
}

/* One response of READ `res`: packet i (FIRST, MIDDLE, LAST or, when it
 * opens the responses, ONLY), its payload read from memory now, so a
 * replay reads it again; the AETH carries the MSN (IBA 9.7.5.1.6).  False
 * if the source can no longer be read. */
static bool read_response(Mlx5DataPath *dp, Mlx5QpTransport *t, const Mlx5RcRes *res,
                          unsigned i, bool opens, Mlx5RocePkt *p)
{
    uint32_t mtu = mlx5_rc_mtu(t->qp);
    uint32_t off = i * mtu, len = MIN(mtu, res->len - off);
    bool last = psn_add(res->first_psn, i) == res->last_psn;
    uint8_t buf[4096];

    if (len && mlx5_mkey_dma(dp->fw, res->rkey, resp_pd(dp, t), res->va + off, buf, len,
                             MLX5_MKEY_REMOTE_READ) != MLX5_MKEY_OK) {
        mlx5_guest_error(dp->fw, "QP 0x%x: READ source no longer readable", t->qp->num);
        return false;
    }
    p->opcode = mlx5_rc_transport(t->qp) | (opens && last ? MLX5_ROCE_RDMA_READ_RESPONSE_ONLY
                                        : opens ? MLX5_ROCE_RDMA_READ_RESPONSE_FIRST
                                        : last ? MLX5_ROCE_RDMA_READ_RESPONSE_LAST
                                        : MLX5_ROCE_RDMA_READ_RESPONSE_MIDDLE);
    p->psn = psn_add(res->first_psn, i);
    p->aeth.syndrome = AETH_ACK;
    p->aeth.msn = t->resp.msn & PSN_MASK;
    mlx5_roce_send_frame(dp, t, p, buf, len);
    return true;
}

/* The responses of the READ going out, at the link's pace: a slice's worth
 * now, the rest from the timer (sched.c) - a READ of a GiB, or a replay
 * of one, is not built in one go. */
static void read_send(Mlx5DataPath *dp, Mlx5QpTransport *t)
{
    Mlx5RcRes *res = t->resp.sending;
    Mlx5RocePkt p;

    if (!mlx5_rc_pkt_init(dp->fw, t->qp, &p)) {
        t->resp.sending = NULL;
        return;
    }
    while (!psn_before(res->last_psn, res->next_psn)) {
        unsigned i = (unsigned)psn_diff(res->next_psn, res->first_psn);

        if (!mlx5_slice_left(dp)) {
            mlx5_defer(dp, MLX5_DEFER_RC_RESPOND, t->qp->num);
            return;
        }
        if (!read_response(dp, t, res, i, res->next_psn == res->opened_psn, &p)) {
            break;
        }
        res->next_psn = psn_add(res->next_psn, 1);
    }
    t->resp.sending = NULL;
}

/* Read responses for `res` from PSN `from` on: FIRST (or ONLY) opens
 * them (IBA 9.4.4: a resent READ asks for the rest only). */
static void read_respond(Mlx5DataPath *dp, Mlx5QpTransport *t, Mlx5RcRes *res, uint32_t from)
{
    res->next_psn = res->opened_psn = from;
    t->resp.sending = res;
    read_send(dp, t);
}

static void atomic_respond(Mlx5DataPath *dp, Mlx5QpTransport *t, const Mlx5RcRes *res)
{
    Mlx5RocePkt p;

    if (!mlx5_rc_pkt_init(dp->fw, t->qp, &p)) {
        return;
    }
    p.opcode = mlx5_rc_transport(t->qp) | MLX5_ROCE_ATOMIC_ACKNOWLEDGE;
    p.psn = res->first_psn;
    p.aeth.syndrome = AETH_ACK;
    p.aeth.msn = t->resp.msn & PSN_MASK;
    p.atomic_ack_orig = res->orig;
    mlx5_roce_send_frame(dp, t, &p, NULL, 0);
}

/* The next responder resource, in turn: the oldest result goes. */
static Mlx5RcRes *res_new(Mlx5Responder *resp, Mlx5RcResKind kind, uint32_t first_psn,
                          uint32_t last_psn)
{
    Mlx5RcRes *res = &resp->res[resp->res_next++ % MLX5_RC_MAX_RD_ATOMIC];

    *res = (Mlx5RcRes) { .kind = kind, .first_psn = first_psn, .last_psn = last_psn };
    resp->msn++;
    resp->epsn = psn_add(last_psn, 1);
    return res;
}

/* RDMA READ request (IBA 9.7.5.1.3), checked: answered with
 * ceil(len / MTU) responses, one PSN each. */
static void do_read(Mlx5DataPath *dp, Mlx5QpTransport *t, const Mlx5RocePkt *p)
{
    uint32_t mtu = mlx5_rc_mtu(t->qp), len = p->reth.dma_len;
    Mlx5RcRes *res = res_new(&t->resp, MLX5_RC_RES_READ, p->psn,
                             psn_add(p->psn, len ? (len + mtu - 1) / mtu - 1 : 0));

    res->va = p->reth.va;
    res->rkey = p->reth.rkey;
    res->len = len;
    mlx5_qp_count(dp->fw, t->qp, MLX5_QCNT_rx_read_requests);
    read_respond(dp, t, res, res->first_psn);
}

/* CmpSwap / FetchAdd (IBA 9.7.5.1.4), checked: executed once, its result
 * kept for a duplicate. */
static RespStatus do_atomic(Mlx5DataPath *dp, Mlx5QpTransport *t, const Mlx5RocePkt *p)
{
    bool cas = (p->opcode & 0x1f) == MLX5_ROCE_COMPARE_SWAP;
    uint64_t orig;
    Mlx5RcRes *res;

    if (mlx5_mkey_atomic(dp->fw, p->atomic_eth.rkey, resp_pd(dp, t), p->atomic_eth.va, cas,
                         p->atomic_eth.swap_add, p->atomic_eth.compare, &orig) != MLX5_MKEY_OK) {
        return RESP_ERR_RKEY;
    }
    res = res_new(&t->resp, MLX5_RC_RES_ATOMIC, p->psn, p->psn);
    res->orig = orig;
    mlx5_qp_count(dp->fw, t->qp, MLX5_QCNT_rx_atomic_requests);
    atomic_respond(dp, t, res);
    return RESP_OK;
}

/* A request with a PSN already executed (IBA 9.7.5.1.4, C9-103): SEND and
 * WRITE are acknowledged again (the latest PSN) but not redone; READ and
 * atomics are answered from the kept record; an unknown one is dropped. */
static void duplicate(Mlx5DataPath *dp, Mlx5QpTransport *t, const Mlx5RocePkt *p)
{
    Mlx5Responder *resp = &t->resp;

    mlx5emu_trace_rc_duplicate(t->qp->num, p->psn);
    mlx5_qp_count(dp->fw, t->qp, MLX5_QCNT_duplicate_request);
    if (!is_read_or_atomic_req(p->opcode & 0x1f)) {
        send_ack(dp, t, psn_add(resp->epsn, PSN_MASK), AETH_ACK);
        return;
    }
    for (unsigned i = 0; i < MLX5_RC_MAX_RD_ATOMIC; i++) {
        Mlx5RcRes *res = &resp->res[i];

        if (res->kind && !psn_before(p->psn, res->first_psn) &&
            !psn_before(res->last_psn, p->psn)) {
            if (res->kind == MLX5_RC_RES_READ) {
                read_respond(dp, t, res, p->psn);
            } else {
                atomic_respond(dp, t, res);
            }
            return;
        }
    }
    mlx5emu_trace_rc_rx_drop("duplicate READ/atomic not among the kept ones");
}

/* Execute a request that passed the checks; a SEND or WRITE acknowledges
 * itself when asked to (AckReq), READs and atomics by their responses. */
static RespStatus resp_execute(Mlx5DataPath *dp, Mlx5QpTransport *t, const Mlx5RocePkt *p,
                               const Mlx5RoceOpcode *op)
{
    uint8_t code = p->opcode & 0x1f;
    RespStatus st;

    if (code == MLX5_ROCE_RDMA_READ_REQUEST) {
        do_read(dp, t, p);
        return RESP_OK;
    }
    if (code == MLX5_ROCE_COMPARE_SWAP || code == MLX5_ROCE_FETCH_ADD) {
        return do_atomic(dp, t, p);
    }
    st = do_send_write(dp, t, p, op);
    if (st == RESP_OK) {
        t->resp.epsn = psn_add(t->resp.epsn, 1);
        if (p->ackreq) {
            send_ack(dp, t, p->psn, AETH_ACK);
        }
    }
    return st;
}

/* --- UC ------------------------------------------------------------------- */

/* A UC responder answers nothing and fails nothing: a packet it cannot
 * take is dropped with the message under way (IBA 9.8.3.2, 9.9.2: UC
 * errors are silent), the packets of that message up to the next FIRST or
 * ONLY are dropped in turn (check_op_seq: no message is open), and the
 * receive WQE a SEND was filling stays for the next message (as Soft-RoCE
 * rewinds it).  The row's counter counts it. */
static void uc_drop(Mlx5DataPath *dp, Mlx5QpTransport *t, const Mlx5RocePkt *p, RespStatus st)
{
    mlx5emu_trace_uc_drop(t->qp->num, p->psn, resp_errors[st].name);
    mlx5_qp_count(dp->fw, t->qp, resp_errors[st].counter);
    t->resp.in_msg = MLX5_RESP_MSG_NONE;
    t->resp.msg_off = 0;
}

/* UC keeps no duplicates and sends no NAK: a PSN other than the expected
 * one means packets were lost, so the message under way is; a FIRST or
 * ONLY starts the next one at its own PSN, and anything else waits for
 * one (IBA 9.8.3.2). */
static void uc_responder(Mlx5DataPath *dp, Mlx5QpTransport *t, const Mlx5RocePkt *p,
                         const Mlx5RoceOpcode *op)
{
    RespStatus st;

    if (p->psn != t->resp.epsn) {
        uc_drop(dp, t, p, RESP_ERR_PSN_SEQ);
        if (!(op->flags & MLX5_ROCE_OPF_FIRST)) {
            return;
        }
    }
    t->resp.epsn = psn_add(p->psn, 1);
    st = resp_checks(dp, t, p, op);
    if (st == RESP_OK) {
        st = do_send_write(dp, t, p, op);
    }
    if (st != RESP_OK) {
        uc_drop(dp, t, p, st);
    }
}

void mlx5_rc_responder(Mlx5DataPath *dp, Mlx5QpTransport *t, const Mlx5RocePkt *p,
                       const Mlx5RoceOpcode *op)
{
    RespStatus st;

    if (!mlx5_rc_reliable(t->qp)) {
        uc_responder(dp, t, p, op);
        return;
    }
    if (psn_before(p->psn, t->resp.epsn)) {
        duplicate(dp, t, p);
        return;
    }
    st = p->psn != t->resp.epsn ? RESP_ERR_PSN_SEQ : resp_checks(dp, t, p, op);
    if (st == RESP_OK) {
        t->resp.nak_sent = false;
        st = resp_execute(dp, t, p, op);
    }
    if (st != RESP_OK) {
        resp_error(dp, t, p, st);
    }
}

/* --- requests held behind READ responses ------------------------------------ */

/* While a READ's responses go out (paced), the requests after it wait in
 * arrival order, as in a NIC's receive buffer: a responder answers in PSN
 * order (IBA 9.7.5.1), so an ACK for a later WRITE may not overtake the
 * READ's responses (the requester would take them for lost).  The wait is
 * bounded for the whole device; a request beyond it is dropped and
 * counted, and the requester sends it again. */
#define MLX5_RESP_HELD_MAX 1024

/* A duplicate of the READ whose responses are going out: the requester
 * lost some of them and asks again from p->psn, so the stream starts over
 * there (IBA 9.7.5.1.3 lets a responder stop answering the original; Linux
 * rxe does the same).  Held behind itself instead, every duplicate would
 * queue one more whole replay: seven retries of a 2 GiB READ, 14 GiB. */
static bool read_restart(Mlx5DataPath *dp, Mlx5QpTransport *t, const Mlx5RocePkt *p)
{
    Mlx5RcRes *res = t->resp.sending;

    if (!res || (p->opcode & 0x1f) != MLX5_ROCE_RDMA_READ_REQUEST ||
        psn_before(p->psn, res->first_psn) || psn_before(res->last_psn, p->psn)) {
        return false;
    }
    mlx5emu_trace_rc_read_restart(t->qp->num, p->psn, res->next_psn);
    mlx5_qp_count(dp->fw, t->qp, MLX5_QCNT_duplicate_request);
    res->next_psn = res->opened_psn = p->psn;
    return true;
}

bool mlx5_rc_resp_hold(Mlx5DataPath *dp, Mlx5QpTransport *t, const uint8_t *frame, size_t len,
                       const Mlx5RocePkt *p)
{
    Mlx5Responder *resp = &t->resp;

    if (!resp->sending && (!resp->held || g_queue_is_empty(resp->held))) {
        return false;
    }
    if (read_restart(dp, t, p)) {
        return true;
    }
    if (dp->resp_held >= MLX5_RESP_HELD_MAX) {
        mlx5_roce_discard(dp, "request while READ responses go out, and no room to hold it");
        return true;
    }
    if (!resp->held) {
        resp->held = g_queue_new();
    }
    g_queue_push_tail(resp->held, g_bytes_new(frame, len));
    dp->resp_held++;
    mlx5emu_trace_rc_resp_hold(t->qp->num, g_queue_get_length(resp->held));
    return true;
}

void mlx5_rc_resp_release(Mlx5DataPath *dp, Mlx5QpTransport *t)
{
    Mlx5Responder *resp = &t->resp;

    resp->sending = NULL;
    if (resp->held) {
        dp->resp_held -= g_queue_get_length(resp->held);
        g_queue_free_full(resp->held, (GDestroyNotify)g_bytes_unref);
        resp->held = NULL;
    }
}

/* The held requests, once no READ is sending, as if they came now. */
static void resp_drain_held(Mlx5DataPath *dp, Mlx5QpTransport *t)
{
    Mlx5Responder *resp = &t->resp;

    while (resp->held && !resp->sending && mlx5_slice_left(dp)) {
        g_autoptr(GBytes) b = g_queue_pop_head(resp->held);
        Mlx5RocePkt p;

        if (!b) {
            break;
        }
        dp->resp_held--;
        mlx5_slice_take(dp, 1);
        if (mlx5_roce_parse(g_bytes_get_data(b, NULL), g_bytes_get_size(b), &p) ==
            MLX5_ROCE_OK) {
            mlx5_rc_responder(dp, t, &p, mlx5_roce_opcode(p.opcode));
        }
    }
    if (resp->held && !g_queue_is_empty(resp->held) && !resp->sending) {
        mlx5_defer(dp, MLX5_DEFER_RC_RESPOND, t->qp->num);
    }
}

void mlx5_rc_respond_resume(Mlx5DataPath *dp, uint32_t qpn)
{
    Mlx5Qp *qp = mlx5_qp_get(dp->fw, qpn);
    Mlx5QpTransport *t = qp && mlx5_qp_st_is_connected(qp->st) ? mlx5_qp_transport(qp) : NULL;

    if (!t) {
        return;
    }
    if (qp->state != MLX5_QP_STATE_RTR && qp->state != MLX5_QP_STATE_RTS) {
        mlx5_rc_resp_release(dp, t);
        return;
    }
    if (t->resp.sending) {
        read_send(dp, t);
    }
    resp_drain_held(dp, t);
}
