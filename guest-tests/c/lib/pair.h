/*
 * What the two-guest programs of guest-tests/c share: two guests (NODE 0
 * and 1, scripts/vm --nodes 2) agree over TCP, one line per message, and
 * talk RDMA over RC QPs of the device the guest init names (IBDEV,
 * GID_INDEX).  A result is a line: PASS, FAIL or SKIP, the program's
 * name, what was shown.
 */
#ifndef PAIR_H
#define PAIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

#define PAIR_POLL_S 30              /* deadline for any one completion */

extern int pair_node;               /* NODE */
extern const char *pair_prog;       /* the program's name, for FAIL lines */

void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "FAIL <prog> (node N): ..." with errno's text if set; exit 1. */
void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
double now_s(void);
/* The SHA-256 (FIPS 180-4) of `len` bytes, as 64 hex digits. */
void sha256_hex(const uint8_t *p, size_t len, char out[65]);
/* Bytes of a pattern that differs with `seed`. */
void fill_pattern(uint8_t *p, size_t len, uint32_t seed);

/* The TCP line: node 0 listens on `port`, node 1 connects to it. */
void peer_connect(const char *peer_ip, int port);
void peer_send(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void peer_recv(char *line, size_t size);       /* without its newline */

typedef struct Rdma {
    struct ibv_context *ctx;
    struct ibv_pd *pd;
    union ibv_gid gid;
    int gid_index;
} Rdma;

typedef struct Rc {
    Rdma *r;
    struct ibv_cq *cq;
    struct ibv_qp *qp;
} Rc;

/* The device IBDEV (GID_INDEX), a PD. */
void rdma_open(Rdma *r);
/* An RC QP with its own CQ, `depth` sends and receives deep. */
void rc_create(Rc *c, Rdma *r, unsigned depth);
/* Both nodes: tell the peer this QP, learn the peer's, take the QP to RTS
 * towards it (remote write, read and atomics allowed; RNR retries for
 * ever). */
void rc_exchange(Rc *c, uint32_t psn);
/* One completion within PAIR_POLL_S: its status, or -1 if none came. */
int rc_poll(Rc *c, uint64_t *wr_id);
int rc_post(Rc *c, enum ibv_wr_opcode op, struct ibv_mr *mr, uint64_t off, uint32_t len,
            uint64_t raddr, uint32_t rkey, uint64_t wr_id);
/* A receive of [mr + off, +len). */
int rc_post_recv(Rc *c, struct ibv_mr *mr, uint64_t off, uint32_t len, uint64_t wr_id);
/* RDMA WRITE [mr, +size) to raddr in `chunk`-byte WRITEs, `depth` in
 * flight: IBV_WC_SUCCESS or the first failure's status (-1: none came). */
int rc_write_all(Rc *c, struct ibv_mr *mr, size_t size, uint64_t raddr, uint32_t rkey,
                 uint32_t chunk, unsigned depth);
const char *wc_status(int st);

#endif
