/*
 * The QP transports: what the RC transport (rc*.c), the UD transport
 * (ud.c), receive WQEs (rq.c) and UMR (umr.c) share, and what they offer
 * the send queues (sq.c).
 *
 * Concepts
 * --------
 * Each QP the firmware creates gets an Mlx5QpTransport from the data path
 * (Mlx5Qp.dp; transport.c mlx5_transport_qp_created), which lives until
 * the QP goes.  It holds what the transport keeps while it runs the QP,
 * apart from the QP's context, which stays the firmware's:
 *
 *   req    requester and completer (IBA 9.7: they share the send WQEs in
 *          flight): the next PSN, the oldest unacknowledged one, the WQEs
 *          sent and not yet completed, the retry budgets, the timer;
 *   resp   responder: the expected PSN, the MSN, the receive WQE a message
 *          is filling, the READ and atomic results kept for replay.
 *
 * The transport learns of state changes from the firmware's QP state
 * machine (mlx5_transport_qp_state): RTR seeds the responder, RTS the
 * requester, ERR flushes, RST forgets.
 */
#ifndef MLX5EMU_TRANSPORT_H
#define MLX5EMU_TRANSPORT_H

#include "cqe.h"
#include "datapath.h"
#include "roce.h"
#include "wqe.h"

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

/* A send WQE of an RC QP, from the requester taking it until its CQE. */
typedef struct Mlx5RcWqe {
    uint8_t *wqe;               /* a copy, ds * 16 bytes (freed with the entry) */
    uint8_t ds, opcode;         /* MLX5_OPCODE_* */
    uint16_t wqe_index;
    bool signaled, solicited;
    bool started;               /* its packets have gone out (at least once) */
    bool local;                 /* no packets (a UMR): completes when it is the oldest */
    uint32_t len;               /* message bytes */
    uint32_t first_psn, last_psn;
    uint32_t next_psn;          /* the next of its packets to send (last + 1: all sent) */
    uint32_t resp_off;          /* READ: response bytes placed so far */
    uint32_t xrc_srqn;          /* XRC: the remote XRC SRQ (the WQE's XRC segment) */
} Mlx5RcWqe;

/* The send WQEs in flight, oldest first (rc.c): a ring of records that
 * doubles as it fills, up to the send ring's slots (rc-requester.c
 * rc_append).  It lives in the requester: a QP that never sent owns no
 * allocation for it, so a reset that frees 2^18 QPs leaves no small
 * blocks per QP for the allocator to merge in one go (docs/security.md),
 * and completing the oldest moves none of the others. */
typedef struct Mlx5RcWqes {
    Mlx5RcWqe *ring;
    uint32_t head, len, cap;    /* cap: 0 or a power of two */
} Mlx5RcWqes;

/* WQE i of the list, 0 the oldest (i < len). */
static inline Mlx5RcWqe *mlx5_rc_wqe_at(const Mlx5RcWqes *l, uint32_t i)
{
    return &l->ring[(l->head + i) & (l->cap - 1)];
}

/* A receive WQE the transport took from the QP's receive queue or from an
 * SRQ, until its CQE (rq.c). */
typedef struct Mlx5RecvWqe {
    uint64_t addr;              /* its first data segment; 0: none taken */
    uint16_t index;             /* its index in the ring: the CQE's wqe_counter */
    uint16_t next;              /* SRQ: the WQE its next_wqe_index names */
    uint8_t nseg;               /* data segments its stride holds */
    uint32_t pd;                /* whose keys its segments name */
    uint32_t srqn;              /* 0: the QP's own receive queue */
    uint32_t cqn, user_index;   /* where its CQE goes, and the CQE's srqn_uidx */
} Mlx5RecvWqe;

/* An executed READ or atomic the responder keeps, to answer a duplicate
 * of it again (IBA 9.7.5.1.4). */
typedef enum { MLX5_RC_RES_READ = 1, MLX5_RC_RES_ATOMIC } Mlx5RcResKind;
typedef struct Mlx5RcRes {
    Mlx5RcResKind kind;         /* 0: free */
    uint32_t first_psn, last_psn;
    uint64_t va;
    uint32_t rkey, len;
    uint64_t orig;              /* atomic: the value it found */
    uint32_t next_psn;          /* READ: the next response to send, */
    uint32_t opened_psn;        /* and the one that opened them (FIRST or ONLY) */
} Mlx5RcRes;
/* The most responder resources a QP has: 2^log_rra_max at most this
 * (caps.c log_max_ra_res_qp). */
#define MLX5_RC_MAX_RD_ATOMIC 16

typedef enum { MLX5_RC_TIMER_OFF, MLX5_RC_TIMER_ACK, MLX5_RC_TIMER_RNR } Mlx5RcTimer;

/* Requester and completer (rc-requester.c, rc-completer.c; a UD QP uses
 * sq_psn only). */
typedef struct Mlx5Requester {
    uint32_t sq_psn;            /* next new PSN (a WQE takes all of its PSNs when it starts) */
    uint32_t sent_psn;          /* one past the highest PSN a packet went out with */
    uint32_t una_psn;           /* oldest PSN not yet acknowledged */
    Mlx5RcWqes wqes;            /* in flight, oldest first */
    uint32_t copied;            /* bytes their copies hold (mlx5_rc_copies_max) */
    uint8_t retry_left, rnr_left;   /* retries before RETRY_EXC / RNR_RETRY_EXC */
    Mlx5RcTimer timer;
    uint32_t rnr_psn;           /* RNR wait: resend from here */
    bool seq_nak_resent;        /* resent for a sequence NAK at seq_nak_psn, */
    uint32_t seq_nak_psn;       /* and no progress since */
} Mlx5Requester;

/* Responder (rc-responder.c). */
/* What a FIRST packet began and its MIDDLE and LAST packets continue. */
typedef enum {
    MLX5_RESP_MSG_NONE,
    MLX5_RESP_MSG_SEND,
    MLX5_RESP_MSG_WRITE,
} Mlx5RespMsg;

typedef struct Mlx5Responder {
    uint32_t epsn, msn;         /* expected PSN, messages completed */
    bool nak_sent;              /* a PSN sequence NAK is outstanding */
    bool comm_est;              /* the first request in RTR was reported */
    uint32_t xrc_srqn;          /* XRC target: the SRQ the current request names */
    Mlx5RecvWqe recv;           /* the receive WQE a message is filling */
    Mlx5RespMsg in_msg;         /* the multi-packet message under way, if any */
    uint32_t msg_off;           /* bytes of it placed so far */
    uint64_t write_va;          /* RDMA WRITE: where it goes (from the RETH), */
    uint32_t write_rkey;        /* through which key, */
    uint32_t write_len;         /* and how many bytes its RETH said it has */
    Mlx5RcRes res[MLX5_RC_MAX_RD_ATOMIC];
    unsigned res_next;
    Mlx5RcRes *sending;         /* the READ whose responses are going out, paced */
    GQueue *held;               /* GBytes: requests that came meanwhile, in order */
    /* A page fault a request raised here (odp.c; type 2: the QP's receive
     * WQE; 4, 6: an RDMA READ or WRITE/atomic target); requests meanwhile
     * get RNR NAKs. */
    Mlx5PageFault pf;
} Mlx5Responder;

typedef struct Mlx5QpTransport {
    Mlx5Qp *qp;                 /* the firmware's QP: context, queues, state */
    Mlx5Requester req;
    Mlx5Responder resp;
    guint timed_at;             /* its place in dp->rc_timed + 1; 0: no timer runs */
    guint watched_at;           /* its place in dp->rq_err_watched + 1; 0: not there */
    uint32_t epoch;             /* dp->epoch when it was made */
} Mlx5QpTransport;

static inline Mlx5QpTransport *mlx5_qp_transport(const Mlx5Qp *qp)
{
    return qp->dp;
}

/* transport.c.  Send one RoCEv2 packet of QP `t` (to the wire, or back to
 * this port); a frame no QP takes is dropped, traced and counted. */
void mlx5_roce_send_frame(Mlx5DataPath *dp, const Mlx5QpTransport *t, Mlx5RocePkt *p,
                          const uint8_t *payload, size_t len);
void mlx5_roce_discard(Mlx5DataPath *dp, const char *why);
/* Count an error CQE of `qp` (syndrome 0: none) in its Q counter set: a
 * flush apart from the others, as mlx5_ib shows them (counters.c). */
void mlx5_count_cqe_error(Mlx5DataPath *dp, const Mlx5Qp *qp, uint8_t syndrome,
                          bool requester);

/* rq.c: receive WQEs of QPs: the next one posted to the QP's receive
 * queue or its SRQ (false: none), without or with taking it; take a peeked
 * one; scatter `len` bytes at message offset `off` into it; its total
 * length; its responder CQE; flush a QP's (and the WQE a message was
 * filling) at ERR: how many. */
typedef struct Mlx5RespCqe {
    uint8_t op, syndrome;       /* MLX5_CQE_RESP_*, error syndrome */
    uint32_t byte_cnt, imm, flags_rqpn;
    bool se;                    /* solicited: may raise a solicited-armed CQ's event */
    bool vlan;                  /* the frame was tagged: vlan_tci into the CQE */
    uint16_t vlan_tci;
} Mlx5RespCqe;
bool mlx5_rq_peek(Mlx5DataPath *dp, Mlx5QpTransport *t, Mlx5RecvWqe *r);
bool mlx5_rq_take(Mlx5DataPath *dp, Mlx5QpTransport *t, Mlx5RecvWqe *r);
void mlx5_rq_advance(Mlx5DataPath *dp, Mlx5QpTransport *t, const Mlx5RecvWqe *r);
Mlx5SglStatus mlx5_rq_scatter(Mlx5DataPath *dp, const Mlx5RecvWqe *r, uint32_t off,
                              const uint8_t *data, size_t len);
uint32_t mlx5_rq_wqe_capacity(Mlx5DataPath *dp, const Mlx5RecvWqe *r);
void mlx5_rq_cqe(Mlx5DataPath *dp, Mlx5QpTransport *t, const Mlx5RecvWqe *r,
                 const Mlx5RespCqe *c);
unsigned mlx5_rq_flush(Mlx5DataPath *dp, Mlx5QpTransport *t);
/* The QP's own posted receive WQEs only, as far as the slice goes. */
unsigned mlx5_rq_flush_posted(Mlx5DataPath *dp, Mlx5QpTransport *t);
/* transport.c: go on flushing a QP in ERR where a slice stopped. */
void mlx5_qp_flush_resume(Mlx5DataPath *dp, uint32_t qpn);
/* The QP no longer needs watching (RST, destroyed). */
void mlx5_rq_unwatch(Mlx5DataPath *dp, Mlx5QpTransport *t);

/* rc.c: the RC transport's entry points.  Take one send WQE of an RC QP
 * (0, or the error CQE syndrome to fail it with now); a WQE that sends
 * nothing (a UMR, already applied), whose CQE comes in send-queue order;
 * a packet of an RC or XRC opcode (`frame` as it came: for the counters);
 * the QP entering ERR (its send WQEs in flight flushed: how many); its
 * timer no longer needed. */
uint8_t mlx5_rc_post(Mlx5DataPath *dp, Mlx5QpTransport *t, const Mlx5SendWqe *w);
/* Does the WQE's list name a page that is not present (odp.c)?  *type:
 * the page-fault type it raises (a gather list's or a scatter list's). */
bool mlx5_rc_wqe_absent(Mlx5DataPath *dp, const Mlx5QpTransport *t, const Mlx5SendWqe *w,
                        uint8_t *type);
void mlx5_rc_post_local(Mlx5DataPath *dp, Mlx5QpTransport *t, const Mlx5SendWqe *w);
void mlx5_rc_receive(Mlx5DataPath *dp, const uint8_t *frame, size_t len, const Mlx5RocePkt *p);
unsigned mlx5_rc_flush(Mlx5DataPath *dp, Mlx5QpTransport *t);
void mlx5_rc_stop_timer(Mlx5DataPath *dp, Mlx5QpTransport *t);
/* Go on with what a slice left (sched.c): the requester's packets, the
 * responder's READ responses and the requests held meanwhile. */
void mlx5_rc_send_resume(Mlx5DataPath *dp, uint32_t qpn);
void mlx5_rc_respond_resume(Mlx5DataPath *dp, uint32_t qpn);
/* A request that must wait for the READ responses going out (true: held,
 * or dropped when too many wait, or a duplicate of that READ, which starts
 * its responses over); let go of every held request. */
bool mlx5_rc_resp_hold(Mlx5DataPath *dp, Mlx5QpTransport *t, const uint8_t *frame, size_t len,
                       const Mlx5RocePkt *p);
void mlx5_rc_resp_release(Mlx5DataPath *dp, Mlx5QpTransport *t);
/* The send WQEs in flight (req.wqes) and their copies: the most bytes the
 * copies of an RC QP's may hold (its send ring's, or one WQE's if that is
 * more); forget WQE i, or all of them, with their copies. */
uint64_t mlx5_rc_copies_max(const Mlx5Qp *qp);
void mlx5_rc_wqe_drop(Mlx5QpTransport *t, guint i);
void mlx5_rc_wqes_drop_all(Mlx5QpTransport *t);
/* Append a WQE (the list grows; rc_append bounds it). */
void mlx5_rc_wqe_push(Mlx5RcWqes *l, const Mlx5RcWqe *r);

/* ud.c: take one send WQE of a UD or GSI QP (0, or the syndrome to fail it
 * with; the caller writes its CQE); a datagram that parsed as RoCEv2 UD. */
uint8_t mlx5_ud_post(Mlx5DataPath *dp, Mlx5QpTransport *t, const Mlx5SendWqe *w);
/* odp.c, the responder's page faults: a receive WQE whose list is not
 * present, an RDMA target that is not (rkey, va, the rest of the
 * message, this packet's payload).  True: a fault is outstanding for it
 * (raised now, or already) - answer RNR; false: nobody takes page faults. */
bool mlx5_odp_recv_fault(Mlx5DataPath *dp, Mlx5QpTransport *t, const Mlx5RecvWqe *r);
bool mlx5_odp_rdma_fault(Mlx5DataPath *dp, Mlx5QpTransport *t, uint32_t rkey, uint64_t va,
                         uint32_t len, uint32_t pkt_len, bool write);
/* Does the datagram's gather list name a page that is not present? */
bool mlx5_ud_wqe_absent(Mlx5DataPath *dp, const Mlx5QpTransport *t, const Mlx5SendWqe *w);
void mlx5_ud_receive(Mlx5DataPath *dp, const uint8_t *frame, const Mlx5RocePkt *p);

/* umr.c: apply a UMR WQE of `qp` to the key it names; 0, or the error CQE
 * syndrome (the key is then unchanged). */
uint8_t mlx5_umr_exec(Mlx5DataPath *dp, const Mlx5Qp *qp, const Mlx5SendWqe *w);

/* mad.c: trace a MAD the GSI QP sends or receives (decoded, not trusted). */
void mlx5_mad_trace(const uint8_t *mad, size_t len, bool send, unsigned peer_qpn);

#endif
