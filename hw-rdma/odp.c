/*
 * Page faults, the data path's side (PRM "Page Fault", the transport
 * scheme; what mlx5_ib does with each event: docs/odp-driver-map.md 2, 5).
 *
 * Concepts
 * --------
 * While the device pages (cmd_hca_cap.pg) an MTT entry says whether its
 * page is there (mkey.c: MLX5_MKEY_ABSENT when not).  A send WQE whose
 * gather list - or, for a READ or an atomic, whose scatter list - names a
 * page that is not there is not started: the device checks the whole list
 * first (so nothing of it is on the wire and bytes_committed is 0), posts
 * a WQE page-fault event and stalls the send queue at that WQE; later
 * WQEs wait behind it, other queues go on.  mlx5_ib reads the WQE from
 * the queue itself, maps its pages, writes them into the key with its UMR
 * QP (which keeps running) and sends PAGE_FAULT_RESUME
 * (firmware-sim/odp.c): the queue then runs the WQE again from the start,
 * translating afresh; with error set, the WQE fails as a local protection
 * error, as an access through a bad key would.
 *
 * A responder meets the same on a receive WQE's list (the QP's own
 * receive queue, or an SRQ) or on the target of an RDMA WRITE, READ or
 * atomic: it posts the event - a WQE event naming the receive WQE, or an
 * RDMA event naming the rkey, address and length - leaves the WQE posted
 * and the expected PSN where it was, and answers with an RNR NAK carrying
 * the QP's min_rnr_nak (rc-responder.c); the peer tries again after that
 * timer, with more RNR NAKs (and no new event) until the resume.  A resume
 * with error leaves the page absent, and the retry that meets it again is
 * not faulted a second time: it fails as an access through a bad key
 * would (a remote access NAK; a receive WQE completes with a local
 * protection error), and the QP with it.
 *
 * A queue has at most one fault outstanding, so the events it can post
 * are bounded by the queues.  With no EQ subscribed to page faults there
 * is nobody to resolve one: the WQE fails at once.  A QP that leaves RTS
 * drops its fault; its flush completes the stalled WQE.
 */
#include "transport.h"

/* The event's fields (Linux device.h struct mlx5_eqe_page_fault), from
 * EQE_DATA on. */
enum {
    PF_BYTES_COMMITTED = 0x00,
    PF_WQE_INDEX = 0x06,
    PF_WQE_TOKEN = 0x0c,
    PF_TYPE_WQ = 0x18,          /* page-fault type << 24 | work queue */
    PF_RDMA_RKEY = 0x04,
    PF_RDMA_PACKET_LENGTH = 0x0a,
    PF_RDMA_OP_LEN = 0x0c,
    PF_RDMA_VA = 0x10,
    PF_RDMA_TYPE_TOKEN = 0x18,  /* type << 24 | token (the responder's QPN) */
};
enum { MLX5_PFAULT_SUBTYPE_WQE = 0, MLX5_PFAULT_SUBTYPE_RDMA = 1 };

bool mlx5_odp_pages(Mlx5DataPath *dp)
{
    return MLX5_CAP_GET(dp->fw, MLX5_CAP_GENERAL, cmd_hca_cap, pg);
}

/* A WQE event (subtype 0) for the WQE at wqe_index of work queue wq;
 * whether an EQ took it, and its token. */
static bool wqe_fault(Mlx5DataPath *dp, uint32_t wq, uint16_t wqe_index, uint8_t type,
                      uint32_t *token)
{
    uint8_t data[EQE_DATA_BYTES] = { 0 };
    bool posted;

    *token = dp->pf_tokens++ & 0xffffff;
    prm_put_be32(data + PF_BYTES_COMMITTED, 0);
    prm_put_be16(data + PF_WQE_INDEX, wqe_index);
    prm_put_be32(data + PF_WQE_TOKEN, *token);
    prm_put_be32(data + PF_TYPE_WQ, (uint32_t)type << 24 | (wq & 0xffffff));
    posted = mlx5_eq_post_async(dp->fw, MLX5_EVENT_PAGE_FAULT, MLX5_PFAULT_SUBTYPE_WQE, data);
    mlx5emu_trace_page_fault(wq, MLX5_PFAULT_SUBTYPE_WQE, type, wqe_index, *token, posted);
    return posted;
}

/* pf now waits on the fault an EQ took: its type and token, and what it
 * named. */
static void pf_raised(Mlx5PageFault *pf, uint8_t type, uint32_t token, uint32_t key, uint64_t va)
{
    *pf = (Mlx5PageFault) { .pending = true, .type = type, .token = token, .key = key, .va = va };
}

/* A PAGE_FAULT_RESUME names pf's outstanding fault (type and token): it
 * is over. */
static bool pf_resumed(Mlx5PageFault *pf, unsigned type, uint32_t token)
{
    if (!pf->pending || pf->type != type || pf->token != token) {
        return false;
    }
    pf->pending = false;
    return true;
}

bool mlx5_odp_sq_fault(Mlx5DataPath *dp, Mlx5SendQueue *sq, uint16_t wqe_index, uint8_t type)
{
    uint32_t token;

    if (!wqe_fault(dp, sq->num, wqe_index, type, &token)) {
        return false;
    }
    pf_raised(&sq->pf, type, token, wqe_index, 0);
    return true;
}

/* The driver resumed a responder's fault with error: it could not map
 * what the fault named (mlx5_ib_mr_wqe_pfault_handler and
 * mlx5_ib_mr_rdma_pfault_handler on failure: the range left its MR, the
 * pages cannot be had).  The peer's retry meets the same absent page;
 * faulting again would loop for as long as its rnr_retry allows - for
 * ever at 7 - so the same fault, once refused, is not raised again: the
 * caller answers as for an access through a bad key (docs/odp-driver-map.md
 * 3).  A different fault clears the refusal. */
static bool refused_again(Mlx5PageFault *pf, uint32_t wq, uint8_t type, uint32_t key,
                          uint64_t va)
{
    bool again = pf->refused && pf->type == type && pf->key == key && pf->va == va;

    pf->refused = false;
    if (again) {
        mlx5emu_trace_page_fault_err(wq, type, key, va);
    }
    return again;
}

/* A responder's receive WQE (at `index` of work queue `wq`: an SRQ, or the
 * QP's own RQ) lists a page not present: whether a fault is out for it. */
static bool recv_wqe_fault(Mlx5DataPath *dp, Mlx5PageFault *pf, uint32_t wq, uint16_t index,
                           uint8_t type)
{
    uint32_t token;

    if (pf->pending) {
        return true;
    }
    if (refused_again(pf, wq, type, index, 0) || !wqe_fault(dp, wq, index, type, &token)) {
        return false;
    }
    pf_raised(pf, type, token, index, 0);
    return true;
}

bool mlx5_odp_recv_fault(Mlx5DataPath *dp, Mlx5QpTransport *t, const Mlx5RecvWqe *r)
{
    Mlx5Srq *s = r->srqn ? mlx5_table_get(&dp->fw->srq, r->srqn) : NULL;

    return s ? recv_wqe_fault(dp, &s->pf, s->num, r->index, MLX5_PF_TYPE_RMP)
             : recv_wqe_fault(dp, &t->resp.pf, t->qp->num, r->index, MLX5_PF_TYPE_RESP);
}

/* The token of an RDMA event is the responder's QPN: mlx5_ib sends it
 * back as both the work queue and the token (odp.c
 * mlx5_ib_page_fault_resume). */
bool mlx5_odp_rdma_fault(Mlx5DataPath *dp, Mlx5QpTransport *t, uint32_t rkey, uint64_t va,
                         uint32_t len, uint32_t pkt_len, bool write)
{
    Mlx5PageFault *pf = &t->resp.pf;
    uint8_t data[EQE_DATA_BYTES] = { 0 };
    uint8_t type = MLX5_PF_RDMA | (write ? MLX5_PF_RDMA_WRITE : 0);
    uint32_t token = t->qp->num & 0xffffff;
    bool posted;

    if (pf->pending) {
        return true;
    }
    if (refused_again(pf, t->qp->num, type, rkey, va)) {
        return false;
    }
    prm_put_be32(data + PF_RDMA_RKEY, rkey);
    prm_put_be16(data + PF_RDMA_PACKET_LENGTH, (uint16_t)pkt_len);
    prm_put_be32(data + PF_RDMA_OP_LEN, len);
    prm_put_be64(data + PF_RDMA_VA, va);
    prm_put_be32(data + PF_RDMA_TYPE_TOKEN, (uint32_t)type << 24 | token);
    posted = mlx5_eq_post_async(dp->fw, MLX5_EVENT_PAGE_FAULT, MLX5_PFAULT_SUBTYPE_RDMA, data);
    mlx5emu_trace_page_fault(t->qp->num, MLX5_PFAULT_SUBTYPE_RDMA, type, 0, token, posted);
    if (posted) {
        pf_raised(pf, type, token, rkey, va);
    }
    return posted;
}

/* A responder's fault: resolved, it clears (the peer's retry after the
 * RNR timer finds the pages); not resolved, the retry meets the same
 * absent page and is refused (refused_again). */
static bool resume_responder(Mlx5DataPath *dp, unsigned type, uint32_t wq, uint32_t token,
                             bool error)
{
    Mlx5Srq *s = type == MLX5_PF_TYPE_RMP ? mlx5_table_get(&dp->fw->srq, wq) : NULL;
    Mlx5Qp *qp = type == MLX5_PF_TYPE_RMP ? NULL : mlx5_qp_get(dp->fw, wq);
    Mlx5QpTransport *t = qp ? mlx5_qp_transport(qp) : NULL;
    Mlx5PageFault *pf = s ? &s->pf : t ? &t->resp.pf : NULL;

    if (!pf || !pf_resumed(pf, type, token)) {
        return false;
    }
    pf->refused = error;
    return true;
}

bool mlx5_odp_resume(void *opaque, unsigned type, uint32_t wq, uint32_t token, bool error)
{
    Mlx5DataPath *dp = opaque;
    Mlx5Qp *qp;
    Mlx5SendQueue *sq;

    if (type != MLX5_PF_TYPE_REQ_SEND_OR_WRITE && type != MLX5_PF_TYPE_REQ_READ_OR_ATOMIC) {
        return resume_responder(dp, type, wq, token, error);
    }
    qp = mlx5_qp_get(dp->fw, wq);
    sq = qp ? &qp->sq : NULL;
    if (!sq || !pf_resumed(&sq->pf, type, token)) {
        return false;
    }
    if (error) {
        mlx5_sq_fail_stalled(dp, sq, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR,
                             "the driver could not resolve its page fault");
    } else {
        mlx5_defer(dp, MLX5_DEFER_SQ, sq->num);
    }
    return true;
}

void mlx5_odp_qp_state(Mlx5Qp *qp, unsigned to)
{
    Mlx5QpTransport *t = mlx5_qp_transport(qp);

    if (to != MLX5_QP_STATE_RTS) {
        qp->sq.pf.pending = false;
    }
    if (t && to != MLX5_QP_STATE_RTR && to != MLX5_QP_STATE_RTS) {
        t->resp.pf.pending = false;
        t->resp.pf.refused = false;
    }
}
