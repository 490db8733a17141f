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

typedef struct Env {
    Harness *h;
    HRing scq, rcq, a, b;       /* a sends to b */
    uint32_t key;               /* one key over all RAM: local and remote rights */
    uint32_t b_rq_pc;
    unsigned fed;               /* frames already fed back */
    uint8_t retry, rnr_retry, timeout;  /* qpc retry_count, rnr_retry, ack_timeout */
    uint8_t counter_set;                /* qpc counter_set_id (0: none) */
} Env;

/* The QP attributes a test chooses. */
typedef struct QpOpts {
    uint32_t rip, rmac_lo;      /* the peer's IPv4 GID and MAC (02:00:00:00:00:xx) */
    uint8_t retry, rnr_retry, timeout;
    uint8_t counter_set;
} QpOpts;

#define UD_QKEY 0x11111111u

/* Setup: GID 0 of the port (IPv4 `ip`, MAC 02:00:00:00:00:mac_lo); a
 * QP through RST -> INIT -> RTR -> RTS to `remote`; a PA key over all RAM
 * with every right; the environment (env_new: both RC QPs connected to
 * each other at PSN `psn`; ud_env_new: a datagram QP a and UD QP b in RTS
 * with Q_Key UD_QKEY). */
void set_gid_addr(Harness *h, uint32_t ip, uint32_t mac_lo);
void set_gid(Harness *h);
void connect_qp_to(Harness *h, uint32_t qpn, uint32_t remote, uint32_t psn, const QpOpts *o);
void connect_qp(Env *e, uint32_t qpn, uint32_t remote, uint32_t psn);
uint32_t all_rights_key(Harness *h);
Env *env_create(unsigned st_a, unsigned st_b);
Env *env_new_retry(uint32_t psn, uint8_t retry, uint8_t rnr_retry);
Env *env_new(uint32_t psn);
Env *ud_env_new(unsigned st_a);
void env_free(Env *e);

/* The wire: feed back every frame sent since the last call (or one). */
void wire(Env *e, bool drop_first);
void feed_one(Env *e);
/* Let the device's timer fire. */
void fire_timer(Env *e);

/* Work requests: a receive of `len` bytes at B_BUF + off; a send WQE of
 * `len` bytes from A_BUF (with a remote address and key for RDMA). */
void post_recv_on(Harness *h, const HRing *qp, uint32_t *pc, uint32_t key,
                  uint32_t off, uint32_t len);
void post_recv(Env *e, uint32_t off, uint32_t len);
void post_send_on(Harness *h, HRing *qp, uint32_t key, uint8_t opcode, uint32_t len,
                  uint64_t raddr, uint32_t rkey);
void post_send_rkey(Env *e, uint8_t opcode, uint32_t len, uint64_t raddr, uint32_t rkey);
void post_send(Env *e, uint8_t opcode, uint32_t len, uint64_t raddr);
/* A_BUF's first `len` bytes get a pattern. */
void fill(Env *e, uint32_t len);
/* The next CQE on a's send CQ: opcode `op`, error `syndrome` (0: none). */
const uint8_t *expect_req(Env *e, uint8_t op, uint8_t syndrome);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Env, env_free)

#endif
