/*
 * The RC transport's parts, shared by rc.c (receive dispatch, timers,
 * flush), rc-requester.c, rc-completer.c and rc-responder.c.  See rc.c for
 * the concepts.
 */
#ifndef MLX5EMU_RC_H
#define MLX5EMU_RC_H

#include "transport.h"

/* AETH syndrome (IBTA 9.7.5.1.2, Table 44): bits 6:5 the kind, 4:0 its
 * value (credits, RNR timer or NAK code). */
enum {
    AETH_KIND_MASK = 0x60,
    AETH_KIND_ACK = 0x00, AETH_KIND_RNR = 0x20, AETH_KIND_NAK = 0x60,
    AETH_ACK = 0x1f,                /* ACK, no end-to-end credits */
    AETH_NAK_PSN_SEQ = 0x60, AETH_NAK_INVALID_REQ = 0x61,
    AETH_NAK_REMOTE_ACCESS = 0x62, AETH_NAK_REMOTE_OP = 0x63,
};

/* rc.c */
/* What a NAK code means to the requester (IBA 9.7.5.2.4, NAK codes; 11.6.2:
 * its work request completes in error), and what the responder that sends
 * it reports (IBA 11.6.3.1, the QP's affiliated asynchronous errors; mlx5_ib
 * counters.c).  An unknown code is taken as a remote operational error
 * (IBA 9.7.5.2.4: reserved codes are). */
typedef struct Mlx5RcNak {
    uint8_t aeth;               /* AETH_NAK_* */
    uint8_t req_syndrome;       /* the requester's error CQE (0: it retries) */
    Mlx5QCnt req_counter;       /* counted by the requester (MLX5_QCNT__COUNT: none) */
    uint8_t resp_event;         /* the responder's QP event, if it fails (0: none) */
} Mlx5RcNak;
const Mlx5RcNak *mlx5_rc_nak(uint8_t aeth);
/* The BTH transport of the QP's packets: RC, XRC for an XRC QP, UC for
 * a UC QP. */
static inline uint8_t mlx5_rc_transport(const Mlx5Qp *qp)
{
    return qp->st == MLX5_QP_ST_XRC ? MLX5_ROCE_XRC
         : qp->st == MLX5_QP_ST_UC ? MLX5_ROCE_UC : MLX5_ROCE_RC;
}
/* RC and XRC acknowledge; UC does not (no ACKs, NAKs, timers, retries). */
static inline bool mlx5_rc_reliable(const Mlx5Qp *qp)
{
    return mlx5_qp_st_is_rc(qp->st);
}
uint32_t mlx5_rc_mtu(const Mlx5Qp *qp);         /* path MTU in bytes; 0 if unset */
uint64_t mlx5_rc_max_msg(Mlx5Fw *fw, const Mlx5Qp *qp);
bool mlx5_rc_pkt_init(Mlx5Fw *fw, const Mlx5Qp *qp, Mlx5RocePkt *p);
void mlx5_rc_timer_start(Mlx5DataPath *dp, Mlx5QpTransport *t, Mlx5RcTimer kind, uint64_t ns);
/* The send side failed: QP to ERR, which flushes the rest. */
void mlx5_rc_qp_error(Mlx5DataPath *dp, Mlx5QpTransport *t);
/* The requester CQE of an RC send WQE (sq.c mlx5_sq_complete). */
void mlx5_rc_req_cqe(Mlx5DataPath *dp, Mlx5QpTransport *t, const Mlx5RcWqe *r,
                     uint8_t syndrome);
static inline bool mlx5_rc_is_rd_atomic(uint8_t opcode)
{
    return opcode == MLX5_OPCODE_ATOMIC_CS || opcode == MLX5_OPCODE_ATOMIC_FA;
}
/* A READ or an atomic: a request answered with data, completed only by
 * its own responses. */
static inline bool mlx5_rc_is_read_or_atomic(uint8_t opcode)
{
    return opcode == MLX5_OPCODE_RDMA_READ || mlx5_rc_is_rd_atomic(opcode);
}

/* rc-requester.c */
unsigned mlx5_rc_npkts(const Mlx5RcWqe *r, uint32_t mtu);
void mlx5_rc_requester_run(Mlx5DataPath *dp, Mlx5QpTransport *t);
void mlx5_rc_requester_resend(Mlx5DataPath *dp, Mlx5QpTransport *t, uint32_t from_psn);
/* The ack timer, started when something waits for an acknowledgement. */
void mlx5_rc_ack_timer_start(Mlx5DataPath *dp, Mlx5QpTransport *t);
Mlx5SglStatus mlx5_rc_wqe_sgl(Mlx5DataPath *dp, const Mlx5QpTransport *t, const Mlx5RcWqe *r,
                              uint32_t off, uint8_t *buf, uint32_t n, bool write);

/* rc-completer.c */
void mlx5_rc_completer(Mlx5DataPath *dp, Mlx5QpTransport *t, const Mlx5RocePkt *p,
                       const Mlx5RoceOpcode *op);
void mlx5_rc_completer_timeout(Mlx5DataPath *dp, Mlx5QpTransport *t);
void mlx5_rc_completer_rnr_timeout(Mlx5DataPath *dp, Mlx5QpTransport *t);
/* Fail WQE i of req.wqes with `syndrome`; the QP goes to ERR, which
 * flushes the others. */
void mlx5_rc_fail(Mlx5DataPath *dp, Mlx5QpTransport *t, guint i, uint8_t syndrome);

/* rc-responder.c */
void mlx5_rc_responder(Mlx5DataPath *dp, Mlx5QpTransport *t, const Mlx5RocePkt *p,
                       const Mlx5RoceOpcode *op);

#endif
