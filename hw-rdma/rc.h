/*
 * The RC transport's parts, shared by rc.c (receive dispatch, timers,
 * flush), rc-requester.c, rc-completer.c and rc-responder.c.  See rc.c for
 * the concepts.
 */
#ifndef MLX5EMU_RC_H
#define MLX5EMU_RC_H

#include "cqe.h"
#include "rdma.h"
#include "roce.h"
#include "wqe.h"

/* AETH syndrome (IBTA 9.7.5.1.2, Table 44): bits 6:5 the kind, 4:0 its
 * value (credits, RNR timer or NAK code). */
enum {
    AETH_KIND_MASK = 0x60,
    AETH_KIND_ACK = 0x00, AETH_KIND_RNR = 0x20, AETH_KIND_NAK = 0x60,
    AETH_ACK = 0x1f,                /* ACK, no end-to-end credits */
    AETH_NAK_PSN_SEQ = 0x60, AETH_NAK_INVALID_REQ = 0x61,
    AETH_NAK_REMOTE_ACCESS = 0x62, AETH_NAK_REMOTE_OP = 0x63,
};

/* PSNs are 24 bits; a is before b when b - a is in (0, 2^23) (IBA 9.7.2). */
#define PSN_MASK 0xffffffu
static inline int32_t psn_diff(uint32_t a, uint32_t b)
{
    return (int32_t)((a - b) << 8) >> 8;
}
static inline bool psn_before(uint32_t a, uint32_t b)
{
    return psn_diff(a, b) < 0;
}
static inline uint32_t psn_add(uint32_t a, uint32_t n)
{
    return (a + n) & PSN_MASK;
}

/* rc.c */
/* The BTH transport of the QP's packets: RC, or XRC for an XRC QP. */
static inline uint8_t mlx5_rc_transport(const Mlx5Wq *w)
{
    return w->qp_st == MLX5_QP_ST_XRC ? MLX5_ROCE_XRC : MLX5_ROCE_RC;
}
uint32_t mlx5_rc_mtu(const Mlx5Wq *w);          /* path MTU in bytes; 0 if unset */
uint64_t mlx5_rc_max_msg(Mlx5Fw *fw, const Mlx5Wq *w);
bool mlx5_rc_pkt_init(Mlx5Fw *fw, const Mlx5Wq *w, Mlx5RocePkt *p);
void mlx5_roce_send_frame(Mlx5Fw *fw, const Mlx5Wq *w, Mlx5RocePkt *p,
                        const uint8_t *payload, size_t len);
void mlx5_rc_timer_start(Mlx5Fw *fw, Mlx5Wq *w, Mlx5RcTimer kind, uint64_t ns);
/* The send side failed: QP to ERR, which flushes the rest (rc_qp_error). */
void mlx5_rc_qp_error(Mlx5Fw *fw, Mlx5Wq *w);
/* One requester CQE (the only writer of RC send-side CQEs). */
void mlx5_rc_req_cqe(Mlx5Fw *fw, Mlx5Wq *w, const Mlx5RcWqe *r, uint8_t syndrome);

/* rc-requester.c */
bool mlx5_rc_is_rd_atomic(uint8_t opcode);
unsigned mlx5_rc_npkts(const Mlx5RcWqe *r, uint32_t mtu);
void mlx5_rc_requester_run(Mlx5Fw *fw, Mlx5Wq *w);
void mlx5_rc_requester_resend(Mlx5Fw *fw, Mlx5Wq *w, uint32_t from_psn);
/* The ack timer, started when something waits for an acknowledgement. */
void mlx5_rc_ack_timer_start(Mlx5Fw *fw, Mlx5Wq *w);
bool mlx5_rc_wqe_sgl(const Mlx5RcWqe *r, uint32_t off, uint8_t *buf, uint32_t n,
                     Mlx5Fw *fw, const Mlx5Wq *w, bool write);

/* rc-completer.c */
void mlx5_rc_completer(Mlx5Fw *fw, Mlx5Wq *w, const Mlx5RocePkt *p, const Mlx5RoceOpcode *op);
void mlx5_rc_completer_timeout(Mlx5Fw *fw, Mlx5Wq *w);
void mlx5_rc_completer_rnr_timeout(Mlx5Fw *fw, Mlx5Wq *w);
/* Fail WQE i of rc.wqes with `syndrome`; the QP goes to ERR, which
 * flushes the others. */
void mlx5_rc_fail(Mlx5Fw *fw, Mlx5Wq *w, guint i, uint8_t syndrome);

/* rc-responder.c */
void mlx5_rc_responder(Mlx5Fw *fw, Mlx5Wq *w, const Mlx5RocePkt *p, const Mlx5RoceOpcode *op);

#endif
