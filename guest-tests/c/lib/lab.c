/* The labs' trace marker: see lab.h. */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab.h"
#include "pair.h"

/* scripts/lab --step: a pause after each step, the device's objects shown. */
static void lab_step(void)
{
    if (!getenv("LAB_STEP")) {
        return;
    }
    printf("lab-step: paused; the device's objects now (info mlx5):\n");
    fflush(stdout);
    if (getenv("MONITOR") && system("\"$MONITOR\" 'info mlx5'") != 0) {
        printf("lab-step: the monitor did not answer\n");
    }
    printf("lab-step: waiting for Enter on the host\n");
    fflush(stdout);
    while (access("/job/continue", F_OK) != 0) {
        usleep(200 * 1000);
    }
    unlink("/job/continue");
}

void lab_mark(const char *fmt, ...)
{
    static int fd = -2;
    char line[512];
    va_list ap;
    int n;

    if (fd == -2) {
        fd = open("/sys/kernel/tracing/trace_marker", O_WRONLY);
    }
    va_start(ap, fmt);
    n = vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    if (fd >= 0 && n > 0 && write(fd, line, (size_t)n) < 0) {
        fd = -1;
    }
    say("%s: %s", pair_prog, line);
    lab_step();
}

void lab_expect_ok(Rc *c, const char *what)
{
    uint64_t id;
    int st = rc_poll(c, &id);

    if (st != IBV_WC_SUCCESS) {
        die("%s completed with %s", what, wc_status(st));
    }
    lab_mark("app: ibv_poll_cq: %s completed, IBV_WC_SUCCESS", what);
}

/* An RC QP whose CQ signals a completion channel; room for 64 bytes of
 * inline data (lab 04). */
static void rc_create_notified(Rc *c, Rdma *r, struct ibv_comp_channel *ch)
{
    struct ibv_qp_init_attr qia = { 0 };

    c->r = r;
    c->cq = ibv_create_cq(r->ctx, 16, NULL, ch, 0);
    qia.send_cq = qia.recv_cq = c->cq;
    qia.qp_type = IBV_QPT_RC;
    qia.cap = (struct ibv_qp_cap) { .max_send_wr = 8, .max_recv_wr = 8,
                                    .max_send_sge = 1, .max_recv_sge = 1,
                                    .max_inline_data = 64 };
    c->qp = c->cq ? ibv_create_qp(r->pd, &qia) : NULL;
    if (!c->qp) {
        die("create an RC QP");
    }
}

static void lab_objects(Lab *l, size_t region)
{
    lab_mark("app: ibv_open_device, ibv_alloc_pd");
    rdma_open(&l->r);
    lab_mark("app: got context fd %d, PD handle %u", l->r.ctx->cmd_fd, l->r.pd->handle);
    l->ch = ibv_create_comp_channel(l->r.ctx);
    if (!l->ch) {
        die("create a completion channel");
    }
    lab_mark("app: ibv_reg_mr %zu bytes", region);
    l->mr = ibv_reg_mr(l->r.pd, aligned_alloc(4096, region), region,
                       IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
                       IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC);
    if (!l->mr) {
        die("register the region");
    }
    lab_mark("app: got MR handle %u, lkey 0x%x, rkey 0x%x", l->mr->handle, l->mr->lkey,
             l->mr->rkey);
    lab_mark("app: ibv_create_cq, ibv_create_qp");
    rc_create_notified(&l->c, &l->r, l->ch);
    lab_mark("app: got CQ handle %u; QP handle %u, QP 0x%x", l->c.cq->handle, l->c.qp->handle,
             l->c.qp->qp_num);
    memset(l->mr->addr, 0, region);
}

void lab_connect(Lab *l, size_t region)
{
    char line[128];

    lab_objects(l, region);
    peer_connect(getenv("PEER_IP"), LAB_PORT);
    peer_send("mr %llu %u", (unsigned long long)(uintptr_t)l->mr->addr, l->mr->rkey);
    peer_recv(line, sizeof(line));
    if (sscanf(line, "mr %llu %u", &l->raddr, &l->rkey) != 2) {
        die("the peer said '%s' for its region", line);
    }
    lab_mark("app: ibv_modify_qp: QP 0x%x RESET -> INIT -> RTR -> RTS towards the peer's",
             l->c.qp->qp_num);
    rc_exchange(&l->c, 100);               /* both sides start at PSN 100 */
    lab_mark("app: QP 0x%x connected to the peer's, both in RTS", l->c.qp->qp_num);
}
