/*
 * The labs' programs (scripts/lab): a line in the guest kernel's trace
 * buffer (trace_marker), so that the lab's timeline shows what the
 * application meant beside what every layer did about it.
 */
#ifndef LAB_H
#define LAB_H

#include "pair.h"

#define LAB_PORT 18777              /* the TCP line between the lab's two nodes */

/* "app: ..." into the trace buffer (if tracing is there) and on stdout,
 * as "<pair_prog>: ...".  With LAB_STEP set (scripts/lab --step) the
 * program then pauses: it prints the device's objects (the monitor's
 * `info mlx5`, through $MONITOR) and waits until /job/continue appears,
 * which scripts/lab makes when the reader presses Enter. */
void lab_mark(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* One completion on c's CQ, which must be a success; said with lab_mark. */
void lab_expect_ok(Rc *c, const char *what);

/* The connected pair a two-node lab starts from: a context, a PD, a
 * completion channel, an MR of `region` bytes (every remote right), a CQ
 * on the channel and an RC QP, connected to the peer's at PSN 100; the
 * peer's MR as raddr/rkey.  Each verb and the handle it returned is said
 * with lab_mark (lab 03 shows each at every layer). */
typedef struct Lab {
    Rdma r;
    Rc c;
    struct ibv_comp_channel *ch;
    struct ibv_mr *mr;
    unsigned long long raddr;
    unsigned rkey;
} Lab;

void lab_connect(Lab *l, size_t region);

#endif
