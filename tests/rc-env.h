/*
 * The test environment of the RC, UD and UMR tests (test-rc.c,
 * test-umr.c): one device with its port up and GID 0 set, two CQs, two
 * QPs a and b and a key over all RAM; every frame the device sends can be
 * fed back into its receive path (wire), so requester, responder and
 * completer all run and their CQEs, data and PSNs can be checked.
 */
#ifndef MLX5EMU_RC_ENV_H
#define MLX5EMU_RC_ENV_H

#include "harness-dev.h"
#include "transport.h"

#define MY_GID_V4 0xa9fe4d01u           /* 169.254.77.1 */
#define A_BUF (GUEST_BASE + (9u << 20))  /* requester's data */
#define B_BUF (GUEST_BASE + (10u << 20)) /* responder's receive / write target */

typedef struct RcEnv {
    Harness *h;
    HRing scq, rcq, a, b;       /* a sends to b */
    uint32_t key;               /* one key over all RAM: local and remote rights */
    uint32_t b_rq_pc;
    unsigned fed;               /* frames already fed back */
    uint8_t retry, rnr_retry, timeout;  /* qpc retry_count, rnr_retry, ack_timeout */
    uint8_t counter_set;                /* qpc counter_set_id (0: none) */
} RcEnv;

/* The QP attributes a test chooses. */
typedef struct QpOpts {
    uint32_t rip, rmac_lo;      /* the peer's IPv4 GID and MAC (02:00:00:00:00:xx) */
    uint8_t retry, rnr_retry, timeout;
    uint8_t counter_set;
} QpOpts;

#define UD_QKEY 0x11111111u

/* An IPv4 address as a GID (IPv4-mapped, ::ffff:a.b.c.d): bytes 10-15 of gid. */
void gid_set_v4(uint8_t *gid, uint32_t ip);

/* Setup: GID 0 of the port (IPv4 `ip`, MAC 02:00:00:00:00:mac_lo); a
 * QP through RST -> INIT -> RTR -> RTS to `remote`; a PA key over all RAM
 * with every right; the environment (env_new: both RC QPs connected to
 * each other at PSN `psn`; ud_env_new: a datagram QP a and UD QP b in RTS
 * with Q_Key UD_QKEY). */
void set_gid_addr(Harness *h, uint32_t ip, uint32_t mac_lo);
void set_gid(Harness *h);
void connect_qp_to(Harness *h, uint32_t qpn, uint32_t remote, uint32_t psn, const QpOpts *o);
void connect_qp(RcEnv *e, uint32_t qpn, uint32_t remote, uint32_t psn);
uint32_t all_rights_key(Harness *h);
/* An mkc with every right (lr, lw, rr, rw, a) on PD `pd`. */
void mkc_all_rights(uint8_t *mkc, uint32_t pd);
/* The same over guest-physical [start, start + len). */
uint32_t all_rights_key_over(Harness *h, uint64_t start, uint64_t len);
/* An MTT key with every right over [va, + n 4 KiB pages), its page list
 * `entries` as given (addresses and rd_en/wr_en bits), with or without
 * pg_access (the bits meant: mlx5_ib sets it once the device pages). */
uint32_t mtt_key_of(Harness *h, uint64_t va, const uint64_t *entries, unsigned n,
                    bool pg_access);
RcEnv *env_create(unsigned st_a, unsigned st_b);
/* The same on a harness whose device is made (h_attach_device). */
RcEnv *env_create_on(Harness *h, unsigned st_a, unsigned st_b);
RcEnv *env_new_retry(uint32_t psn, uint8_t retry, uint8_t rnr_retry);
RcEnv *env_new(uint32_t psn);
RcEnv *ud_env_new(unsigned st_a);
void env_free(RcEnv *e);
/* Up to `max` RC QPs more on e's CQs, one-slot rings, until the device
 * refuses one (the budget, the caps): how many.  They share the same
 * bytes of guest RAM (the device does not mind). */
unsigned env_add_qps(RcEnv *e, unsigned max);
/* A datagram QP (UD or GSI) through RST -> INIT -> RTR -> RTS with Q_Key
 * `qkey`. */
void ud_qp_to_rts(Harness *h, uint32_t qpn, uint32_t qkey);

/* Shared receive queues (hw-rdma/rq.c).  An SRQ WQE starts with its next
 * segment (Linux qp.h struct mlx5_wqe_srq_next_seg), then the data
 * segments: srq_wqe() writes WQE i of `srq`, its next segment naming
 * `next`, one data segment of `len` bytes at B_BUF + off through e->key,
 * then the end of the list. */
void srq_wqe(RcEnv *e, const HRing *srq, uint16_t i, uint16_t next, uint32_t off,
             uint32_t len);
/* A QP of service `st` on e's CQs whose receives come from SRQ `srqn`
 * (rq_type SRQ; its buffer holds no RQ, so the SQ starts it).  With a
 * `target_xrcd`, an XRC target as mlx5_ib makes them (qp.c
 * create_xrc_tgt_qp): no send queue, no UAR page, no user index. */
HRing srq_qp_of(RcEnv *e, unsigned st, uint32_t srqn, uint32_t target_xrcd);
/* An XRC SRQ of XRC domain `xrcd` completing on the receive CQ, its ring
 * (2^3 WQEs) kept for posting (user index 0x5678, harness.c). */
uint32_t xrc_srq_ring(RcEnv *e, uint32_t xrcd, HRing *ring);

/* The wire: feed back every frame sent since the last call (or one). */
void wire(RcEnv *e, bool drop_first);
void feed_one(RcEnv *e);

/* A frame the device sent, taken apart by the device's own codec so a
 * test changes its fields by name (a PSN, a RETH, the payload's length)
 * and puts it back together with consistent lengths, checksums and ICRC. */
typedef struct RcFrame {
    Mlx5RocePkt pkt;            /* pkt.payload is not used: payload[] is */
    uint8_t payload[4096];
    size_t len;                 /* payload bytes */
} RcFrame;
/* Frame i of those sent (it must parse), not yet fed. */
void frame_take(RcEnv *e, unsigned i, RcFrame *f);
/* Build the frame and give it to the device as received from the wire. */
void frame_feed(RcEnv *e, const RcFrame *f);
/* Let the device's timer fire. */
void fire_timer(RcEnv *e);

/* Work requests: a receive of `len` bytes at B_BUF + off; a send WQE of
 * `len` bytes from A_BUF (with a remote address and key for RDMA). */
void post_recv_on(Harness *h, const HRing *qp, uint32_t *pc, uint32_t key,
                  uint32_t off, uint32_t len);
void post_recv(RcEnv *e, uint32_t off, uint32_t len);
void post_send_on(Harness *h, HRing *qp, uint32_t key, uint8_t opcode, uint32_t len,
                  uint64_t raddr, uint32_t rkey);
void post_send_rkey(RcEnv *e, uint8_t opcode, uint32_t len, uint64_t raddr, uint32_t rkey);
void post_send(RcEnv *e, uint8_t opcode, uint32_t len, uint64_t raddr);
/* An atomic WQE (compare-and-swap or fetch-and-add) at `raddr`; the value
 * found there comes back to A_BUF. */
void post_atomic_on(Harness *h, HRing *qp, uint32_t key, uint8_t opcode, uint64_t raddr,
                    uint64_t swap_add, uint64_t cmp);
void post_atomic(RcEnv *e, uint8_t opcode, uint64_t raddr, uint64_t swap_add, uint64_t cmp);
/* A_BUF's first `len` bytes get a pattern. */
void fill(RcEnv *e, uint32_t len);
/* The next CQE on a's send CQ: opcode `op`, error `syndrome` (0: none). */
const uint8_t *expect_req(RcEnv *e, uint8_t op, uint8_t syndrome);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RcEnv, env_free)

#endif
