/*
 * The data path's internals, shared by the files of hw-rdma.
 *
 * Concepts
 * --------
 * Mlx5Device is the firmware model (firmware-sim, Mlx5Fw) and the data
 * path (this library, Mlx5DataPath) side by side.  The firmware owns the
 * objects the driver made with commands: their contexts, numbers and the
 * states commands set.  The data path runs them, and owns what it keeps
 * while it does: each QP's transport state (transport.h, behind Mlx5Qp.dp),
 * the timers, the held completion events, the frames looped back to this
 * port.  The firmware tells it of new QPs, state changes and ends through
 * the Mlx5DataPathOps table device.c fills; the data path reads and updates
 * the objects' hardware fields (producer and consumer counters, arm state)
 * as a NIC updates its contexts, and asks the firmware's QP state machine
 * to move a QP that failed (mlx5_qp_send_error).
 *
 * Files by responsibility:
 *   device.c      BAR0 routing, UAR doorbells, the one platform timer, the ops
 *   queue.c       doorbell records: what the driver has posted
 *   sq.c          send queues: WQE fetch, Ethernet sends, QP send WQEs to
 *                 their transport, requester CQEs
 *   rx.c          an Ethernet frame: steering -> TIR -> RQ -> CQE
 *   steering.c    the flow-table walk; toeplitz.c  the RSS hash
 *   cq.c          the CQE writer, CQ arming, event moderation
 *   mkey.c        memory keys: access checks and address translation
 *   wqe.c         the data segments of WQEs (gather and scatter)
 *   roce.c        the RoCEv2 frame codec and its ICRC (no state)
 *   transport.c   what every QP transport shares (transport.h)
 *   rc*.c, ud.c, rq.c, umr.c, mad.c   the transports (transport.h, rc.h)
 */
#ifndef MLX5EMU_DATAPATH_H
#define MLX5EMU_DATAPATH_H

#include "fw.h"
#include "deadlines.h"
#include "mlx5-dev.h"
#include "wqe.h"

typedef struct Mlx5DataPath {
    Mlx5Fw *fw;                 /* the objects it runs (firmware-sim) */
    uint64_t timer_deadline;    /* what the platform timer is set to (UINT64_MAX: off) */
    Mlx5Deadlines cq_moderated; /* Mlx5Cq: the events moderation holds (cq.c) */
    GHashTable *cq_held_at;     /* Mlx5Cq * -> its place in cq_moderated */
    Mlx5Deadlines rc_timed;     /* Mlx5QpTransport whose ack or RNR timer runs (rc.c) */
    Mlx5Deadlines sq_paced;     /* SQ numbers waiting for their packet pacing rate (pacing.c) */
    GHashTable *sq_paced_at;    /* SQ number -> its place in sq_paced */
    GPtrArray *rq_err_watched;  /* Mlx5QpTransport in ERR, new receive WQEs flushed (rq.c) */
    guint rq_err_next;          /* where the next look at them starts */
    GQueue *roce_loopback;      /* GBytes: RoCE frames to this port, to receive (transport.c) */
    Mlx5Qp *gsi_qp;             /* the QP of st QP1: BTH destination QP 1 (ud.c) */
    bool rx_waiting;            /* a frame waits for a receive WQE (rx.c) */
    uint32_t slice_left;        /* units of work this entry point may still do (sched.c) */
    GQueue *deferred;           /* Mlx5Deferred: work the slices left for later (sched.c) */
    GHashTable *deferred_set;   /* the same, to note each once */
    unsigned resp_held;         /* RC requests held behind READ responses (rc-responder.c) */
    /* Resets so far: a QP's transport state made before the last one
     * belongs to a retired QP, in none of the lists above (transport.c). */
    uint32_t epoch;
    uint32_t pf_tokens;         /* page faults raised: the next one's token (odp.c) */
} Mlx5DataPath;

struct Mlx5Device {
    Mlx5Fw fw;
    Mlx5DataPath dp;
    /* high halves of 64-bit doorbells written as two 32-bit accesses */
    uint64_t latch_addr;
    uint32_t latch_hi;
    bool latch_valid;
    /* the last doorbell through a BlueFlame register, which the rest of
     * its WQE copy follows (device.c blueflame_chunk names it in traces) */
    uint32_t bf_page, bf_sqn;
    /* An entry point of mlx5-dev.h is running (device.c dev_enter), and a
     * reset asked for meanwhile waits for it to end. */
    bool busy;
    const char *reset_deferred;
};

static inline uint64_t mlx5_dp_now(const Mlx5DataPath *dp)
{
    return dp->fw->plat->clock_ns(dp->fw->opaque);
}

/* sched.c: work in bounded slices (Concepts there).  Each entry point
 * opens a slice of MLX5_SLICE_UNITS units (closed: unbounded); an engine
 * takes units as it works and, once none are left, notes where to go on. */
#define MLX5_SLICE_UNITS 128
typedef enum {
    MLX5_DEFER_SQ,              /* WQEs posted to a send queue (SQN or QPN) */
    MLX5_DEFER_RC_SEND,         /* RC requester: packets the window allows (QPN) */
    MLX5_DEFER_RC_RESPOND,      /* RC responder: READ responses, held requests (QPN) */
    MLX5_DEFER_QP_FLUSH,        /* a QP in ERR: WQEs still to flush (QPN) */
    MLX5_DEFER_SQ_FLUSH,        /* an SQ in ERR: WQEs still to flush (SQN) */
    MLX5_DEFER_RECLAIM,         /* objects a reset retired, still to free (0) */
    MLX5_DEFER__COUNT
} Mlx5DeferKind;
void mlx5_slice_open(Mlx5DataPath *dp);
void mlx5_slice_close(Mlx5DataPath *dp);
bool mlx5_slice_left(const Mlx5DataPath *dp);
void mlx5_slice_take(Mlx5DataPath *dp, uint32_t units);
void mlx5_defer(Mlx5DataPath *dp, Mlx5DeferKind kind, uint32_t num);
/* device.c: MLX5_DEFER_RECLAIM, the firmware's retired objects, a slice's
 * worth (mlx5_fw_reclaim). */
void mlx5_reclaim_resume(Mlx5DataPath *dp, uint32_t num);
/* The platform timer: run the notes, a slice's worth; the next deadline. */
uint64_t mlx5_deferred_run(Mlx5DataPath *dp);
void mlx5_deferred_init(Mlx5DataPath *dp);
void mlx5_deferred_clear(Mlx5DataPath *dp);      /* reset: every object goes */
void mlx5_deferred_fini(Mlx5DataPath *dp);

/* device.c: the platform timer is shared; fire no later than `deadline`. */
void mlx5_timer_request(Mlx5DataPath *dp, uint64_t deadline);
/* Count `frames` frames of `octets` in all, all to the destination MAC
 * of `frame`. */
void mlx5_count_frames(Mlx5Traffic *t, const uint8_t *frame, uint64_t frames, uint64_t octets);

/* queue.c: how many WQEs the driver has posted past the device's
 * `hw_counter` by the 16-bit producer counter in the doorbell record at
 * `dbr` (*posted).  False if the record is not in guest memory, or if it
 * claims more than the ring of queue `num` holds (undefined: traced and
 * logged; the queue then does nothing). */
bool mlx5_dbr_posted(Mlx5DataPath *dp, uint64_t dbr, uint32_t hw_counter,
                     const Mlx5Ring *ring, uint32_t num, uint32_t *posted);

/* cq.c */
void mlx5_cq_arm_doorbell(Mlx5DataPath *dp, uint32_t uar_page, uint32_t cqn, uint32_t dw0);
/* Write one CQE (64 bytes; op_own's owner bit is filled in) to the CQ. */
bool mlx5_cq_post(Mlx5DataPath *dp, Mlx5Cq *cq, uint8_t cqe[64], bool solicited);
/* The platform timer fired: raise the held CQ events that are due, a
 * slice's worth; the next deadline (UINT64_MAX: none). */
void mlx5_cq_moderation_init(Mlx5DataPath *dp);
uint64_t mlx5_cq_moderation_expire(Mlx5DataPath *dp);
/* The CQ goes: its held event with it. */
void mlx5_cq_forget(Mlx5DataPath *dp, Mlx5Cq *cq);

/* pacing.c: an Ethernet SQ held to a packet pacing rate. */
void mlx5_pacing_init(Mlx5DataPath *dp);
void mlx5_pacing_fini(Mlx5DataPath *dp);
void mlx5_pacing_reset(Mlx5DataPath *dp);
/* True if the SQ's next frame may not leave yet: it waits (its time is
 * set), and the SQ is resumed then. */
bool mlx5_sq_pace_hold(Mlx5DataPath *dp, Mlx5SendQueue *sq);
/* `bytes` went on the wire from the SQ: its time moves on. */
void mlx5_sq_pace_sent(Mlx5DataPath *dp, Mlx5SendQueue *sq, uint64_t bytes);
/* The platform timer fired: resume the SQs whose time has come, a
 * slice's worth; the next deadline (UINT64_MAX: none). */
uint64_t mlx5_pacing_expire(Mlx5DataPath *dp);

/* mkey.c */
/* ABSENT: a page the key maps is not present (only while the device
 * pages, cmd_hca_cap.pg): a page fault, not an error (odp.c). */
typedef enum { MLX5_MKEY_OK, MLX5_MKEY_PROT, MLX5_MKEY_NO_MEM, MLX5_MKEY_ABSENT } Mlx5MkeyStatus;
/* Who touches the memory and how: the rights (lr, lw, rr, rw, a) checked;
 * an atomic reads and writes under the atomic right. */
typedef enum {
    MLX5_MKEY_LOCAL_READ, MLX5_MKEY_LOCAL_WRITE, MLX5_MKEY_REMOTE_READ, MLX5_MKEY_REMOTE_WRITE,
    MLX5_MKEY_REMOTE_READ_ATOMIC, MLX5_MKEY_REMOTE_WRITE_ATOMIC,
    /* through an indirect key, whose rights were checked: a key it names
     * translates (range, PD) and moves data in the direction of `write` */
    MLX5_MKEY_INNER_READ, MLX5_MKEY_INNER_WRITE,
} Mlx5MkeyAccess;
/* The key `key` names, if it is usable by PD `pd`: it exists, its key
 * byte matches, it is that PD's and not free; NULL otherwise. */
Mlx5Mkey *mlx5_mkey_usable(Mlx5Fw *fw, uint32_t key, uint32_t pd);
/* A KLM entry's byte count as the PRM reads it: 0 is 2 GiB (the largest a
 * bind may ask: libmlx5 set_bind_wr). */
static inline uint64_t mlx5_klm_bytes(uint32_t byte_count)
{
    return byte_count ? byte_count : 1ull << 31;
}
/* The key is a type-2 window bound to a QP other than qpn. */
bool mlx5_mkey_bound_elsewhere(Mlx5Fw *fw, uint32_t key, uint32_t qpn);
/* Does key `key` of PD `pd` allow access `acc` to [addr, addr + len)? */
bool mlx5_mkey_allows(Mlx5Fw *fw, uint32_t key, uint32_t pd, uint64_t addr, uint64_t len,
                      Mlx5MkeyAccess acc);
/* Copy `len` bytes between `buf` and the memory key `key` of PD `pd` at
 * `addr` (the write accesses: into guest memory), after the access checks.
 * PROT: the key does not allow it; NO_MEM: it translates outside RAM. */
Mlx5MkeyStatus mlx5_mkey_dma(Mlx5Fw *fw, uint32_t key, uint32_t pd, uint64_t addr,
                             void *buf, uint32_t len, Mlx5MkeyAccess acc);
/* The checks and the translation of mlx5_mkey_dma, moving nothing: is
 * every page of [addr, addr + len) there for the access? */
Mlx5MkeyStatus mlx5_mkey_probe(Mlx5Fw *fw, uint32_t key, uint32_t pd, uint64_t addr,
                               uint32_t len, Mlx5MkeyAccess acc);
/* An 8-byte atomic at `va` (compare-and-swap or fetch-and-add); *orig
 * gets the value found there. */
Mlx5MkeyStatus mlx5_mkey_atomic(Mlx5Fw *fw, uint32_t key, uint32_t pd, uint64_t va,
                                bool cmp_swap, uint64_t swap_add, uint64_t compare,
                                uint64_t *orig);

/* wqe.c: data segments of send WQEs, from segment `first` of `ds`.  The
 * message length (0, or LOCAL_LENGTH_ERR for inline data past the WQE or
 * where inline is not allowed); copy bytes [off, off + n) of the message
 * to (write false: gather) or from (write: scatter) buf through the lkeys
 * of PD pd. */
uint8_t mlx5_wqe_msg_len(const uint8_t *wqe, unsigned ds, unsigned first, bool inline_ok,
                         uint64_t *len);
Mlx5SglStatus mlx5_wqe_sgl(Mlx5Fw *fw, uint32_t pd, const uint8_t *wqe, unsigned ds,
                           unsigned first, uint32_t off, uint8_t *buf, uint32_t n, bool write);
/* Does a pointer segment of the list name a page that is not present
 * (MLX5_MKEY_ABSENT)?  Other faults of the list are left to the copy. */
bool mlx5_wqe_sgl_absent(Mlx5Fw *fw, uint32_t pd, const uint8_t *wqe, unsigned ds,
                         unsigned first, bool write);
/* A receive WQE's list at guest address `addr` (`nseg` segments):
 * scatter `len` bytes at message offset `off` into it; its total length. */
Mlx5SglStatus mlx5_recv_scatter(Mlx5Fw *fw, uint32_t pd, uint64_t addr, unsigned nseg,
                                uint32_t off, const uint8_t *data, size_t len);
uint32_t mlx5_recv_capacity(Mlx5Fw *fw, uint64_t addr, unsigned nseg);
/* Does the receive list name a page not present for writing? */
bool mlx5_recv_absent(Mlx5Fw *fw, uint32_t pd, uint64_t addr, unsigned nseg);
/* Copy `len` bytes through one pointer segment {byte_count, lkey, addr}
 * as the key allows. */
Mlx5SglStatus mlx5_sge_dma(Mlx5Fw *fw, uint32_t pd, uint32_t lkey, uint64_t addr,
                           uint8_t *buf, uint32_t len, bool write);

/* sq.c.  A send WQE as the SQ engine fetched it: its bytes (ds * 16 of
 * them are the WQE) and the fields of its control segment. */
typedef struct Mlx5SendWqe {
    uint8_t bytes[MLX5_MAX_WQE_BYTES];
    uint16_t index;             /* the counter of its first basic block */
    uint8_t opcode;             /* MLX5_OPCODE_* */
    uint8_t ds;                 /* 16-byte units */
    uint8_t fm_ce_se;           /* MLX5_WQE_CTRL_CQ_UPDATE, _SOLICITED, ... */
} Mlx5SendWqe;
void mlx5_sq_doorbell(Mlx5DataPath *dp, uint32_t uar_page, uint32_t sqn, uint16_t wqe_counter);
/* Go on executing what a slice left (sched.c). */
void mlx5_sq_resume(Mlx5DataPath *dp, uint32_t sqn);
/* The WQE a page fault stalled the queue at fails with `syndrome` (the
 * driver could not resolve the fault: odp.c). */
void mlx5_sq_fail_stalled(Mlx5DataPath *dp, Mlx5SendQueue *sq, uint8_t syndrome,
                          const char *why);
/* odp.c: page faults.  Does the device page (cmd_hca_cap.pg)?  Raise a
 * WQE page fault of `type` (1: a send's gather list, 3: a READ's or an
 * atomic's scatter list) for the WQE at wqe_index and stall the queue
 * (false: no EQ takes page faults, nothing raised); PAGE_FAULT_RESUME's
 * answer (Mlx5DataPathOps.page_fault_resume); a QP's state changed. */
bool mlx5_odp_pages(Mlx5DataPath *dp);
bool mlx5_odp_sq_fault(Mlx5DataPath *dp, Mlx5SendQueue *sq, uint16_t wqe_index, uint8_t type);
bool mlx5_odp_resume(void *dp, unsigned type, uint32_t wq, uint32_t token, bool error);
void mlx5_odp_qp_state(Mlx5Qp *qp, unsigned to);
/* The page-fault types of WQE events (Linux device.h wqe_page_fault_type)
 * and the flags of RDMA events' type (MLX5_PFAULT_REQUESTOR/WRITE/RDMA). */
enum {
    MLX5_PF_TYPE_RMP = 0, MLX5_PF_TYPE_REQ_SEND_OR_WRITE = 1, MLX5_PF_TYPE_RESP = 2,
    MLX5_PF_TYPE_REQ_READ_OR_ATOMIC = 3,
    MLX5_PF_RDMA_WRITE = 2, MLX5_PF_RDMA = 4,
};
/* A QP's send queue in ERR: complete its posted WQEs with WR_FLUSH_ERR;
 * how many. */
unsigned mlx5_sq_flush(Mlx5DataPath *dp, Mlx5SendQueue *sq);
void mlx5_sq_flush_resume(Mlx5DataPath *dp, uint32_t sqn);
/* A send WQE's completion (PRM "Completion Queue Entry", requester CQE).
 * The only writer of requester CQEs: Ethernet sends, QP sends and their
 * flushes, the RC completer. */
typedef struct Mlx5SendCompletion {
    uint16_t wqe_counter;       /* the WQE's index (its first basic block) */
    uint8_t opcode;             /* the WQE's, MLX5_OPCODE_* */
    uint8_t syndrome;           /* 0: success; else an error CQE with this */
    bool signaled;              /* the WQE asked for a CQE (CQ_UPDATE) */
    bool solicited;
    uint32_t byte_cnt;          /* READ and atomics: the bytes that came back */
} Mlx5SendCompletion;
void mlx5_sq_complete(Mlx5DataPath *dp, const Mlx5SendQueue *sq, const Mlx5SendCompletion *c);

/* eth-tx.c: send the frame of an Ethernet SQ's SEND or LSO WQE; 0, or the
 * syndrome it fails with (*why says what).  *done false: a large LSO went
 * out only as far as the slice let it (sq->lso_sent); call again for the
 * same WQE. */
enum { MLX5_LSO_CHUNK_SEGS = 64 };      /* wire segments per LSO chunk */
uint8_t mlx5_eth_send(Mlx5DataPath *dp, Mlx5SendQueue *sq, const Mlx5SendWqe *w,
                      const char **why, bool *done);

/* rx.c: steer one frame from the wire to an RQ.  Returns false (and sets
 * dp->rx_waiting) if `may_wait` and the RQ has no WQE yet: the caller keeps
 * the frame and offers it again later. */
bool mlx5_rx_frame(Mlx5DataPath *dp, const uint8_t *frame, size_t len, bool may_wait);
/* A frame this function sent: loop it back to itself where the PRM says. */
#define MLX5_TD_NONE UINT32_MAX   /* a frame of no transport domain */
void mlx5_rx_loopback(Mlx5DataPath *dp, const uint8_t *frame, size_t len, uint32_t td);
/* Is `mac` one of the port's unicast addresses (its own, or one the
 * driver put in the vport's list)? */
bool mlx5_port_mac_is_ours(const Mlx5Fw *fw, const uint8_t mac[6]);

/* transport.c: the QP transports as the rest of the device sees them
 * (the ops of a QP's life; RoCE frames in; the timers' work). */
uint64_t mlx5_transport_qp_bytes(Mlx5DataPath *dp, const Mlx5Qp *qp);
void *mlx5_transport_qp_created(Mlx5DataPath *dp, Mlx5Qp *qp);
void mlx5_transport_qp_state(Mlx5DataPath *dp, Mlx5Qp *qp, unsigned from, unsigned to);
void mlx5_transport_qp_destroyed(Mlx5DataPath *dp, Mlx5Qp *qp);
/* A reset: every QP's transport state leaves the lists at once (the
 * states themselves go with their retired QPs, through qp_destroyed). */
void mlx5_transport_reset(Mlx5DataPath *dp);
/* A RoCEv2 frame for this port: false if it is not RoCEv2 (the Ethernet
 * path's); `looped` back from this port: never on the wire, not in the
 * physical port's counters. */
bool mlx5_roce_receive(Mlx5DataPath *dp, const uint8_t *frame, size_t len, bool looped);
/* Receive the RoCE frames this port sent to itself; the next deadline
 * (UINT64_MAX: none left). */
uint64_t mlx5_roce_loopback_run(Mlx5DataPath *dp);
/* Run the RC timers that are due, a slice's worth (rc.c), flush what was
 * posted to QPs in ERR (rq.c); the next deadline. */
void mlx5_rc_timers_init(Mlx5DataPath *dp);
uint64_t mlx5_rc_timer_expire(Mlx5DataPath *dp);
uint64_t mlx5_rq_err_poll(Mlx5DataPath *dp);

#endif
