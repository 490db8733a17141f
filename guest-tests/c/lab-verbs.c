/*
 * Lab 10 (scripts/lab 10): the verbs of the data path, one at a time, so
 * that each can be followed from the application through libmlx5, the
 * device and the wire to the peer's completion (seed chapters part 10).
 *
 * Node 1 is the requester, node 0 the responder; each owns one RC QP and
 * one 4 KiB memory region.  Node 1 does, waiting for each to complete:
 *
 *   1. RDMA WRITE of 64 bytes into node 0's region (polling its CQ),
 *   2. RDMA READ of those 64 bytes back,
 *   3. atomic FETCH_AND_ADD of 5 on node 0's first 8 bytes,
 *   4. SEND of 32 bytes, which node 0 receives through a completion
 *      channel (ibv_req_notify_cq, then ibv_get_cq_event sleeps until the
 *      device's completion event wakes it) rather than by polling.
 *
 * With the argument objects (lab 03) it stops once the QPs are connected:
 * the objects are what that lab shows.
 * With the argument qp-error (lab 09) node 1 instead posts a WRITE with a
 * wrong rkey and a good one after it: the first fails with a remote
 * access error, which takes the QP to ERR, and the second is flushed.
 *
 * Each step is announced in the kernel's trace buffer (trace_marker), so
 * the lab's timeline shows the application's intent beside what every
 * layer did about it.  Each result is checked; the program exits non-zero
 * if one is wrong.
 */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pair.h"

enum { REGION = 4096, PORT = 18777 };

static int marker_fd = -1;

/* A line in the trace buffer, in the application's lane of the timeline. */
static void mark(const char *fmt, ...)
{
    char line[256];
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    if (marker_fd >= 0 && n > 0 && write(marker_fd, line, (size_t)n) < 0) {
        marker_fd = -1;
    }
    say("lab-verbs: %s", line);
}

/* An RC QP whose CQ signals a completion channel. */
static void rc_create_notified(Rc *c, Rdma *r, struct ibv_comp_channel *ch)
{
    struct ibv_qp_init_attr qia = { 0 };

    c->r = r;
    c->cq = ibv_create_cq(r->ctx, 16, NULL, ch, 0);
    qia.send_cq = qia.recv_cq = c->cq;
    qia.qp_type = IBV_QPT_RC;
    qia.cap = (struct ibv_qp_cap) { .max_send_wr = 8, .max_recv_wr = 8,
                                    .max_send_sge = 1, .max_recv_sge = 1 };
    c->qp = c->cq ? ibv_create_qp(r->pd, &qia) : NULL;
    if (!c->qp) {
        die("create an RC QP");
    }
}

static void expect_ok(Rc *c, const char *what)
{
    uint64_t id;
    int st = rc_poll(c, &id);

    if (st != IBV_WC_SUCCESS) {
        die("%s completed with %s", what, wc_status(st));
    }
    mark("app: ibv_poll_cq: %s completed, IBV_WC_SUCCESS", what);
}

static void requester(Rc *c, struct ibv_mr *mr, uint64_t raddr, uint32_t rkey)
{
    uint8_t *buf = mr->addr;
    char line[64];

    memset(buf, 0xab, 64);
    mark("app: ibv_post_send RDMA_WRITE 64 bytes to 0x%llx rkey 0x%x",
         (unsigned long long)raddr, rkey);
    if (rc_post(c, IBV_WR_RDMA_WRITE, mr, 0, 64, raddr, rkey, 1)) {
        die("post the WRITE");
    }
    expect_ok(c, "RDMA_WRITE");
    peer_send("written");
    peer_recv(line, sizeof(line));      /* checked, and a receive posted */
    mark("app: ibv_post_send RDMA_READ 64 bytes from 0x%llx", (unsigned long long)raddr);
    if (rc_post(c, IBV_WR_RDMA_READ, mr, 128, 64, raddr, rkey, 2)) {
        die("post the READ");
    }
    expect_ok(c, "RDMA_READ");
    if (memcmp(buf + 128, buf, 64)) {
        die("the READ brought back other bytes than the WRITE put there");
    }
    mark("app: ibv_post_send ATOMIC_FETCH_AND_ADD +5 at 0x%llx", (unsigned long long)raddr);
    {
        struct ibv_sge sge = { .addr = (uintptr_t)buf + 256, .length = 8, .lkey = mr->lkey };
        struct ibv_send_wr wr = { .wr_id = 3, .sg_list = &sge, .num_sge = 1,
                                  .opcode = IBV_WR_ATOMIC_FETCH_AND_ADD,
                                  .send_flags = IBV_SEND_SIGNALED }, *bad;

        wr.wr.atomic.remote_addr = raddr;
        wr.wr.atomic.rkey = rkey;
        wr.wr.atomic.compare_add = 5;
        if (ibv_post_send(c->qp, &wr, &bad)) {
            die("post the atomic");
        }
    }
    expect_ok(c, "ATOMIC_FETCH_AND_ADD");
    if (memcmp(buf + 256, buf, 8)) {
        die("FETCH_AND_ADD returned other than what the WRITE had put there");
    }
    mark("app: ibv_post_send SEND 32 bytes");
    if (rc_post(c, IBV_WR_SEND, mr, 0, 32, 0, 0, 4)) {
        die("post the SEND");
    }
    expect_ok(c, "SEND");
}

/* Wait for the SEND through the completion channel. */
static void await_send(Rc *c, struct ibv_comp_channel *ch)
{
    struct ibv_cq *cq;
    void *cq_ctx;

    mark("app: ibv_get_cq_event: sleeping until the device's completion event");
    if (ibv_get_cq_event(ch, &cq, &cq_ctx)) {
        die("ibv_get_cq_event");
    }
    ibv_ack_cq_events(cq, 1);
    mark("app: woken by the completion event of CQ 0x%x", cq->handle);
    expect_ok(c, "RECV of the SEND");
}

static void responder(Rc *c, struct ibv_mr *mr, struct ibv_comp_channel *ch)
{
    uint8_t *buf = mr->addr, want[8];
    uint64_t v;
    char line[64];

    peer_recv(line, sizeof(line));                  /* "written" */
    for (int i = 0; i < 64; i++) {
        if (buf[i] != 0xab) {
            die("byte %d of the WRITE is 0x%02x", i, buf[i]);
        }
    }
    if (rc_post_recv(c, mr, 1024, 64, 9)) {
        die("post the receive");
    }
    if (ibv_req_notify_cq(c->cq, 0)) {
        die("arm the CQ");
    }
    mark("app: ibv_post_recv 64 bytes; ibv_req_notify_cq armed the CQ");
    peer_send("receive posted");
    await_send(c, ch);
    for (int i = 0; i < 32; i++) {
        if (buf[1024 + i] != 0xab) {
            die("byte %d of the SEND is 0x%02x", i, buf[1024 + i]);
        }
    }
    /* the atomic added 5 to the first 8 bytes (in the host's order) */
    memset(want, 0xab, 8);
    memcpy(&v, want, 8);
    v += 5;
    if (memcmp(buf, &v, 8)) {
        die("the FETCH_AND_ADD did not add 5");
    }
}

/* Lab 09: a WRITE the responder refuses (an rkey that is not its
 * region's) takes the requester's QP to ERR; the WRITE posted after it
 * completes flushed. */
static void requester_error(Rc *c, struct ibv_mr *mr, uint64_t raddr, uint32_t rkey)
{
    uint64_t id;
    int st;

    mark("app: ibv_post_send RDMA_WRITE with a wrong rkey 0x%x, then a good one", rkey ^ 0x100);
    if (rc_post(c, IBV_WR_RDMA_WRITE, mr, 0, 64, raddr, rkey ^ 0x100, 1) ||
        rc_post(c, IBV_WR_RDMA_WRITE, mr, 0, 64, raddr, rkey, 2)) {
        die("post the WRITEs");
    }
    st = rc_poll(c, &id);
    if (st != IBV_WC_REM_ACCESS_ERR) {
        die("the bad WRITE completed with %s, not a remote access error", wc_status(st));
    }
    mark("app: ibv_poll_cq: the first WRITE failed, IBV_WC_REM_ACCESS_ERR: the QP is in ERR");
    st = rc_poll(c, &id);
    if (st != IBV_WC_WR_FLUSH_ERR) {
        die("the WRITE after it completed with %s, not flushed", wc_status(st));
    }
    mark("app: ibv_poll_cq: the second WRITE was flushed, IBV_WC_WR_FLUSH_ERR");
}

int main(int argc, char **argv)
{
    int qp_error = argc > 1 && !strcmp(argv[1], "qp-error");
    int objects_only = argc > 1 && !strcmp(argv[1], "objects");
    struct ibv_comp_channel *ch;
    struct ibv_mr *mr;
    char line[128];
    unsigned long long raddr;
    unsigned rkey;
    Rdma r;
    Rc c;

    pair_prog = "lab-verbs";
    pair_node = atoi(getenv("NODE") ? getenv("NODE") : "0");
    marker_fd = open("/sys/kernel/tracing/trace_marker", O_WRONLY);
    /* Each object with the handle the application holds (lab 03): the
     * kernel's uverbs object number, the device's key or number. */
    mark("app: ibv_open_device, ibv_alloc_pd");
    rdma_open(&r);
    mark("app: got context fd %d, PD handle %u", r.ctx->cmd_fd, r.pd->handle);
    ch = ibv_create_comp_channel(r.ctx);
    if (!ch) {
        die("create a completion channel");
    }
    mark("app: ibv_reg_mr %d bytes", REGION);
    mr = ibv_reg_mr(r.pd, aligned_alloc(4096, REGION), REGION,
                    IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
                    IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC);
    if (!mr) {
        die("register the region");
    }
    mark("app: got MR handle %u, lkey 0x%x, rkey 0x%x", mr->handle, mr->lkey, mr->rkey);
    mark("app: ibv_create_cq, ibv_create_qp");
    rc_create_notified(&c, &r, ch);
    mark("app: got CQ handle %u; QP handle %u, QP 0x%x", c.cq->handle, c.qp->handle,
         c.qp->qp_num);
    memset(mr->addr, 0, REGION);
    peer_connect(getenv("PEER_IP"), PORT);
    peer_send("mr %llu %u", (unsigned long long)(uintptr_t)mr->addr, mr->rkey);
    peer_recv(line, sizeof(line));
    if (sscanf(line, "mr %llu %u", &raddr, &rkey) != 2) {
        die("the peer said '%s' for its region", line);
    }
    mark("app: ibv_modify_qp: QP 0x%x RESET -> INIT -> RTR -> RTS towards the peer's",
         c.qp->qp_num);
    rc_exchange(&c, 100);                  /* both sides start at PSN 100 */
    mark("app: QP 0x%x connected to the peer's, both in RTS", c.qp->qp_num);
    if (objects_only) {
        /* lab 03: the objects are made; nothing to send */
    } else if (qp_error) {
        if (pair_node == 1) {
            requester_error(&c, mr, raddr, rkey);
        }
    } else if (pair_node == 1) {
        requester(&c, mr, raddr, rkey);
    } else {
        responder(&c, mr, ch);
    }
    peer_send("bye");
    peer_recv(line, sizeof(line));
    say("PASS lab-verbs (node %d): %s", pair_node,
        objects_only ? "context, PD, MR, CQ and QP made, the QP connected"
        : qp_error ? "a WRITE with a wrong rkey failed the QP, the WQE after it was flushed"
                   : "WRITE, READ, FETCH_AND_ADD and SEND completed and checked");
    return 0;
}
