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
};
enum { MLX5_PFAULT_SUBTYPE_WQE = 0 };

bool mlx5_odp_pages(Mlx5DataPath *dp)
{
    return MLX5_CAP_GET(dp->fw, MLX5_CAP_GENERAL, cmd_hca_cap, pg);
}

bool mlx5_odp_sq_fault(Mlx5DataPath *dp, Mlx5SendQueue *sq, uint16_t wqe_index, uint8_t type)
{
    uint8_t data[EQE_DATA_BYTES] = { 0 };
    uint32_t token = dp->pf_tokens++ & 0xffffff;
    bool posted;

    prm_put_be32(data + PF_BYTES_COMMITTED, 0);
    data[PF_WQE_INDEX] = (uint8_t)(wqe_index >> 8);
    data[PF_WQE_INDEX + 1] = (uint8_t)wqe_index;
    prm_put_be32(data + PF_WQE_TOKEN, token);
    prm_put_be32(data + PF_TYPE_WQ, (uint32_t)type << 24 | (sq->num & 0xffffff));
    posted = mlx5_eq_post_async(dp->fw, MLX5_EVENT_PAGE_FAULT, MLX5_PFAULT_SUBTYPE_WQE, data);
    mlx5emu_trace_page_fault(sq->num, MLX5_PFAULT_SUBTYPE_WQE, type, wqe_index, token, posted);
    if (posted) {
        sq->pf_pending = true;
        sq->pf_type = type;
        sq->pf_token = token;
    }
    return posted;
}

bool mlx5_odp_resume(void *opaque, unsigned type, uint32_t wq, uint32_t token, bool error)
{
    Mlx5DataPath *dp = opaque;
    Mlx5Qp *qp = mlx5_qp_get(dp->fw, wq);
    Mlx5SendQueue *sq = qp ? &qp->sq : NULL;

    if (!sq || !sq->pf_pending || sq->pf_type != type || sq->pf_token != token) {
        return false;
    }
    sq->pf_pending = false;
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
    if (to != MLX5_QP_STATE_RTS) {
        qp->sq.pf_pending = false;
    }
}
