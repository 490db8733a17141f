/*
 * What every fuzz input starts from: a device brought up as a driver
 * leaves it, with live objects of every kind the data path runs.
 *
 * Concepts
 * --------
 * fuzz_world_new() makes a FuzzDev and, with the unit tests' helpers
 * (harness.c, rc-env.c), brings it up: ENABLE/INIT_HCA, a UAR, the async
 * and completion EQs, a PD, the port up, GID 0 (RoCE v2, IPv4), three CQs
 * and
 *   QPs   a <-> b     RC, connected to each other at PSN FUZZ_PSN
 *         c <-> s     RC; s takes its receives from an SRQ (an RMP)
 *         ini -> tgt  XRC initiator and target (XRC domain, XRC SRQ)
 *         ud, gsi     UD and the GSI QP (QP1), in RTS
 *         umr         the UMR QP (REG_UMR)
 *   Ethernet          an SQ, an RQ behind a direct TIR, a root flow table
 *                     whose one entry forwards every frame to that TIR
 *   uc1 <-> uc2       UC, a process's (no fast registration: UMR only
 *                     as memory window binds)
 *   keys              one over all RAM with every right; in FUZZ_REENTER
 *                     one that also covers the BAR0 window; an indirect
 *                     (KLM) key a UC QP may bind as a window; an MTT key;
 *                     a key over 64 KiB of device memory (MEMIC)
 * Receive WQEs are posted on every receive queue, and a's requester has
 * a SEND, an RDMA READ and an atomic outstanding (their frames dropped),
 * so frames built around the live QPNs, PSNs and keys reach the
 * responder, the completer, the SRQs and the Ethernet RQ.
 *
 * The grammar (ops.c) names things by index into the tables here: send
 * queues, receive queues, QPs, keys, CQs, RAM regions.  The set-up is
 * deterministic: the same input always meets the same numbers.
 */
#ifndef MLX5EMU_FUZZ_WORLD_H
#define MLX5EMU_FUZZ_WORLD_H

#include "platform.h"
#include "rc-env.h"

#define FUZZ_PSN 0x100          /* the RC and XRC QPs' first PSN */

typedef enum { FUZZ_Q_SEND, FUZZ_Q_RECV, FUZZ_Q_SRQ } FuzzQueueKind;

/* A work queue the input may post to: ring.ci is the producer counter,
 * ring.dbr the doorbell record (send: its second word), ring.num the
 * number its doorbell names (QPN or SQN). */
typedef struct FuzzQueue {
    const char *name;
    FuzzQueueKind kind;
    HRing ring;
} FuzzQueue;

/* A QP as a peer's frames address it. */
typedef struct FuzzQp {
    const char *name;
    uint32_t qpn;
    unsigned st;                /* MLX5_QP_ST_* */
    uint32_t peer;              /* the QPN it is connected to (RC, XRC) */
} FuzzQp;

/* A memory key and the range the input's offsets address through it. */
typedef struct FuzzKey {
    uint32_t key;
    uint64_t base, span;
} FuzzKey;

/* RAM the input may write (rings, doorbell records, buffers). */
typedef struct FuzzRegion {
    const char *name;
    uint64_t gpa, size;
} FuzzRegion;

#define FUZZ_MAX_QUEUES 16
#define FUZZ_MAX_QPS 12
#define FUZZ_MAX_REGIONS 64
#define FUZZ_NKEYS 6
#define FUZZ_MEMIC_BYTES (64u << 10)    /* key 5's device memory */
#define FUZZ_NCQS 3
#define FUZZ_MBOX_BYTES (64u << 10)     /* the command queue's mailboxes */

typedef struct FuzzWorld {
    FuzzDev *f;
    RcEnv *e;                   /* h, scq, rcq, a, b, key: rc-env.h */
    FuzzQueue sq[FUZZ_MAX_QUEUES], rq[FUZZ_MAX_QUEUES];
    unsigned nsq, nrq;
    FuzzQp qp[FUZZ_MAX_QPS];
    unsigned nqp;
    FuzzKey key[FUZZ_NKEYS];
    HRing *cq[FUZZ_NCQS];
    HRing eth_cq;
    uint32_t xrc_srqn, rmpn;
    uint8_t mac[6];
    uint8_t gid[16];
    uint64_t mbox;              /* FUZZ_MBOX_BYTES for queued commands */
    FuzzRegion region[FUZZ_MAX_REGIONS];
    unsigned nregion;
} FuzzWorld;

FuzzWorld *fuzz_world_new(FuzzMode mode);
void fuzz_world_free(FuzzWorld *w);

#endif
