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
 * With the argument queues (lab 04) it shows libmlx5's side of the data
 * path instead: the QP's and CQ's buffers, doorbell records and BlueFlame
 * register (mlx5dv_init_obj), then node 1 posts a SEND gathered from the
 * region (a WQE and an 8-byte doorbell), a SEND of inline data (the data
 * inside the WQE; libmlx5 copies such a WQE whole through a BlueFlame
 * buffer when it has one) and two RDMA WRITEs in one ibv_post_send (two
 * WQEs, one doorbell), and prints
 * each WQE's control segment as it lies in the send queue's buffer; node
 * 0 posts two receives (its doorbell record moves, no doorbell rings) and
 * prints each CQE as it lies in the CQ's buffer.
 * With the argument memory (lab 08) node 0 shows where its MR's pages lie
 * in guest-physical memory and registers device memory (ibv_alloc_dm,
 * ibv_reg_dm_mr); node 1 writes 8 KiB across three of those pages and 64
 * bytes into the device memory; node 0 checks both.
 * With the argument qp-error (lab 09) node 1 instead posts a WRITE with a
 * wrong rkey and a good one after it: the first fails with a remote
 * access error, which takes the QP to ERR, and the second is flushed.
 *
 * Each step is announced in the kernel's trace buffer (trace_marker), so
 * the lab's timeline shows the application's intent beside what every
 * layer did about it.  Each result is checked; the program exits non-zero
 * if one is wrong.
 */
#include <dlfcn.h>
#include <endian.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <infiniband/mlx5dv.h>

#include "lab.h"
#include "pair.h"

static void requester(Lab *l)
{
    uint8_t *buf = l->mr->addr;
    char line[64];

    memset(buf, 0xab, 64);
    lab_mark("app: ibv_post_send RDMA_WRITE 64 bytes to 0x%llx rkey 0x%x",
         (unsigned long long)l->raddr, l->rkey);
    if (rc_post(&l->c, IBV_WR_RDMA_WRITE, l->mr, 0, 64, l->raddr, l->rkey, 1)) {
        die("post the WRITE");
    }
    lab_expect_ok(&l->c, "RDMA_WRITE");
    peer_send("written");
    peer_recv(line, sizeof(line));      /* checked, and a receive posted */
    lab_mark("app: ibv_post_send RDMA_READ 64 bytes from 0x%llx", (unsigned long long)l->raddr);
    if (rc_post(&l->c, IBV_WR_RDMA_READ, l->mr, 128, 64, l->raddr, l->rkey, 2)) {
        die("post the READ");
    }
    lab_expect_ok(&l->c, "RDMA_READ");
    if (memcmp(buf + 128, buf, 64)) {
        die("the READ brought back other bytes than the WRITE put there");
    }
    lab_mark("app: ibv_post_send ATOMIC_FETCH_AND_ADD +5 at 0x%llx", (unsigned long long)l->raddr);
    {
        struct ibv_sge sge = { .addr = (uintptr_t)buf + 256, .length = 8, .lkey = l->mr->lkey };
        struct ibv_send_wr wr = { .wr_id = 3, .sg_list = &sge, .num_sge = 1,
                                  .opcode = IBV_WR_ATOMIC_FETCH_AND_ADD,
                                  .send_flags = IBV_SEND_SIGNALED }, *bad;

        wr.wr.atomic.remote_addr = l->raddr;
        wr.wr.atomic.rkey = l->rkey;
        wr.wr.atomic.compare_add = 5;
        if (ibv_post_send(l->c.qp, &wr, &bad)) {
            die("post the atomic");
        }
    }
    lab_expect_ok(&l->c, "ATOMIC_FETCH_AND_ADD");
    if (memcmp(buf + 256, buf, 8)) {
        die("FETCH_AND_ADD returned other than what the WRITE had put there");
    }
    lab_mark("app: ibv_post_send SEND 32 bytes");
    if (rc_post(&l->c, IBV_WR_SEND, l->mr, 0, 32, 0, 0, 4)) {
        die("post the SEND");
    }
    lab_expect_ok(&l->c, "SEND");
}

/* Wait for the SEND through the completion channel. */
static void await_send(Rc *c, struct ibv_comp_channel *ch)
{
    struct ibv_cq *cq;
    void *cq_ctx;

    lab_mark("app: ibv_get_cq_event: sleeping until the device's completion event");
    if (ibv_get_cq_event(ch, &cq, &cq_ctx)) {
        die("ibv_get_cq_event");
    }
    ibv_ack_cq_events(cq, 1);
    lab_mark("app: woken by the completion event of CQ 0x%x", cq->handle);
    lab_expect_ok(c, "RECV of the SEND");
}

static void responder(Lab *l)
{
    uint8_t *buf = l->mr->addr, want[8];
    uint64_t v;
    char line[64];

    peer_recv(line, sizeof(line));                  /* "written" */
    for (int i = 0; i < 64; i++) {
        if (buf[i] != 0xab) {
            die("byte %d of the WRITE is 0x%02x", i, buf[i]);
        }
    }
    if (rc_post_recv(&l->c, l->mr, 1024, 64, 9)) {
        die("post the receive");
    }
    if (ibv_req_notify_cq(l->c.cq, 0)) {
        die("arm the CQ");
    }
    lab_mark("app: ibv_post_recv 64 bytes; ibv_req_notify_cq armed the CQ");
    peer_send("receive posted");
    await_send(&l->c, l->ch);
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
static void requester_error(Lab *l)
{
    uint64_t id;
    int st;

    lab_mark("app: ibv_post_send RDMA_WRITE with a wrong rkey 0x%x, then a good one",
             l->rkey ^ 0x100);
    if (rc_post(&l->c, IBV_WR_RDMA_WRITE, l->mr, 0, 64, l->raddr, l->rkey ^ 0x100, 1) ||
        rc_post(&l->c, IBV_WR_RDMA_WRITE, l->mr, 0, 64, l->raddr, l->rkey, 2)) {
        die("post the WRITEs");
    }
    st = rc_poll(&l->c, &id);
    if (st != IBV_WC_REM_ACCESS_ERR) {
        die("the bad WRITE completed with %s, not a remote access error", wc_status(st));
    }
    lab_mark("app: ibv_poll_cq: the first WRITE failed, IBV_WC_REM_ACCESS_ERR: the QP is in ERR");
    st = rc_poll(&l->c, &id);
    if (st != IBV_WC_WR_FLUSH_ERR) {
        die("the WRITE after it completed with %s, not flushed", wc_status(st));
    }
    lab_mark("app: ibv_poll_cq: the second WRITE was flushed, IBV_WC_WR_FLUSH_ERR");
}

/* --- lab 04: libmlx5's queues --------------------------------------------- */

/* libmlx5's view of a QP and its CQ (mlx5dv_init_obj: the buffers and
 * registers the provider writes), looked up at run time so that the
 * program links against libibverbs alone. */
typedef struct Queues {
    struct mlx5dv_qp qp;
    struct mlx5dv_cq cq;
    unsigned cqes;              /* completions polled so far: the next CQE's index */
} Queues;

static void queues_init(Rc *c, Queues *q)
{
    void *lib = dlopen("libmlx5.so.1", RTLD_NOW | RTLD_NOLOAD);
    int (*init_obj)(struct mlx5dv_obj *, uint64_t) =
        lib ? (int (*)(struct mlx5dv_obj *, uint64_t))dlsym(lib, "mlx5dv_init_obj") : NULL;
    struct mlx5dv_obj o = { .qp = { c->qp, &q->qp }, .cq = { c->cq, &q->cq } };

    memset(q, 0, sizeof(*q));
    if (!init_obj || init_obj(&o, MLX5DV_OBJ_QP | MLX5DV_OBJ_CQ)) {
        die("mlx5dv_init_obj: libmlx5's view of the QP and CQ");
    }
    lab_mark("app: libmlx5's QP 0x%x: send queue buffer %p, %u basic blocks of %u bytes; "
             "receive queue buffer %p, %u WQEs of %u bytes", c->qp->qp_num, q->qp.sq.buf,
             q->qp.sq.wqe_cnt, q->qp.sq.stride, q->qp.rq.buf, q->qp.rq.wqe_cnt, q->qp.rq.stride);
    lab_mark("app: libmlx5's QP 0x%x: doorbell record %p (receive counter at +0, send counter "
             "at +4); doorbell register %p, BlueFlame buffers of %u bytes (0: none)",
             c->qp->qp_num, (void *)q->qp.dbrec, q->qp.bf.reg, q->qp.bf.size);
    lab_mark("app: libmlx5's CQ 0x%x: buffer %p, %u CQEs of %u bytes; doorbell record %p "
         "(consumer index, then the arm word)", q->cq.cqn, q->cq.buf, q->cq.cqe_cnt,
         q->cq.cqe_size, (void *)q->cq.dbrec);
}

/* The control segment of send WQE `index` as libmlx5 wrote it in the
 * send queue's buffer (PRM "Send WQE", mlx5_wqe_ctrl_seg). */
static void show_wqe(const Queues *q, unsigned index)
{
    const uint32_t *w = (const uint32_t *)((const uint8_t *)q->qp.sq.buf +
                                           (size_t)(index % q->qp.sq.wqe_cnt) * q->qp.sq.stride);
    uint32_t dw0 = be32toh(w[0]), dw1 = be32toh(w[1]);

    lab_mark("app: send buffer WQE %u: control segment %08x %08x %08x %08x: wqe_index %u "
         "opcode 0x%02x, qpn 0x%x ds %u (%u bytes), fm_ce_se 0x%02x", index, dw0, dw1,
         be32toh(w[2]), be32toh(w[3]), dw0 >> 8 & 0xffff, dw0 & 0xff, dw1 >> 8, dw1 & 0x3f,
         (dw1 & 0x3f) * 16, be32toh(w[2]) & 0xff);
}

/* The CQE libmlx5 just consumed, as it lies in the CQ's buffer (PRM
 * "Completion Queue Entry", mlx5_cqe64), and the doorbell record's
 * consumer index libmlx5 moved past it. */
static void show_cqe(Queues *q)
{
    unsigned index = q->cqes++ % q->cq.cqe_cnt;
    const uint8_t *e = (const uint8_t *)q->cq.buf + (size_t)index * q->cq.cqe_size;
    const uint8_t *cqe = e + q->cq.cqe_size - 64;       /* the 64-byte CQE ends the entry */
    uint32_t qpn, bytes, wqe;

    memcpy(&bytes, cqe + 44, 4);
    memcpy(&qpn, cqe + 56, 4);
    wqe = (uint32_t)cqe[60] << 8 | cqe[61];
    lab_mark("app: CQ buffer CQE %u: op_own 0x%02x (opcode %u, owner %u), byte_cnt %u, "
         "qpn 0x%x, wqe_counter %u; doorbell record consumer index %u", index, cqe[63],
         cqe[63] >> 4, cqe[63] & 1, be32toh(bytes), be32toh(qpn) & 0xffffff, wqe,
         be32toh(q->cq.dbrec[0]) & 0xffffff);
}

static void poll_shown(Rc *c, Queues *q, const char *what)
{
    lab_expect_ok(c, what);
    show_cqe(q);
}

/* Node 1: three ways a WQE reaches the device. */
static void requester_queues(Lab *l)
{
    Queues q;
    char line[64];
    struct ibv_sge sge = { .addr = (uintptr_t)l->mr->addr, .length = 32, .lkey = l->mr->lkey };
    struct ibv_send_wr inl = { .wr_id = 2, .sg_list = &sge, .num_sge = 1, .opcode = IBV_WR_SEND,
                               .send_flags = IBV_SEND_SIGNALED | IBV_SEND_INLINE }, *bad;
    struct ibv_send_wr wr[2];

    queues_init(&l->c, &q);
    peer_recv(line, sizeof(line));      /* "receives posted" */
    memset(l->mr->addr, 0xcd, 256);
    lab_mark("app: ibv_post_send SEND 64 bytes gathered from the MR: one WQE, an 8-byte doorbell");
    if (rc_post(&l->c, IBV_WR_SEND, l->mr, 0, 64, 0, 0, 1)) {
        die("post the SEND");
    }
    show_wqe(&q, 0);
    poll_shown(&l->c, &q, "SEND");
    lab_mark("app: ibv_post_send SEND 32 bytes inline: the data inside the WQE");
    if (ibv_post_send(l->c.qp, &inl, &bad)) {
        die("post the inline SEND");
    }
    show_wqe(&q, 1);
    poll_shown(&l->c, &q, "inline SEND");
    for (int i = 0; i < 2; i++) {
        memset(&wr[i], 0, sizeof(wr[i]));
        wr[i] = (struct ibv_send_wr) { .wr_id = 3 + i, .sg_list = &sge, .num_sge = 1,
                                       .opcode = IBV_WR_RDMA_WRITE,
                                       .send_flags = IBV_SEND_SIGNALED,
                                       .next = i ? NULL : &wr[1] };
        wr[i].wr.rdma.remote_addr = l->raddr + 64u * i;
        wr[i].wr.rdma.rkey = l->rkey;
    }
    lab_mark("app: ibv_post_send two RDMA_WRITEs in one call: two WQEs, one doorbell");
    if (ibv_post_send(l->c.qp, wr, &bad)) {
        die("post the WRITEs");
    }
    show_wqe(&q, 2);
    show_wqe(&q, 3);
    poll_shown(&l->c, &q, "RDMA_WRITE");
    poll_shown(&l->c, &q, "RDMA_WRITE");
}

/* Node 0: receives are posted by the doorbell record alone. */
static void responder_queues(Lab *l)
{
    Queues q;

    queues_init(&l->c, &q);
    if (rc_post_recv(&l->c, l->mr, 1024, 64, 1) || rc_post_recv(&l->c, l->mr, 2048, 64, 2)) {
        die("post the receives");
    }
    lab_mark("app: ibv_post_recv twice: the doorbell record's receive counter is %u, no doorbell "
         "rang (the device reads the record when a SEND arrives)", be32toh(q.qp.dbrec[0]) & 0xffff);
    peer_send("receives posted");
    poll_shown(&l->c, &q, "RECV of the SEND");
    poll_shown(&l->c, &q, "RECV of the inline SEND");
    if (memcmp((uint8_t *)l->mr->addr + 2048, (uint8_t *)l->mr->addr + 1024, 32)) {
        die("the inline SEND brought other bytes than the gathered one");
    }
}

/* --- lab 08: memory the device reaches through keys ------------------------ */

/* Where page `va` lies in guest-physical memory (/proc/self/pagemap:
 * bit 63 present, bits 0-54 the frame; root reads the frames), 0 if
 * the page is not there. */
static uint64_t guest_physical(const void *va)
{
    uint64_t entry = 0;
    long page = sysconf(_SC_PAGESIZE);
    int fd = open("/proc/self/pagemap", O_RDONLY);

    if (fd < 0 || pread(fd, &entry, 8, (off_t)((uintptr_t)va / (uintptr_t)page * 8)) != 8) {
        entry = 0;
    }
    if (fd >= 0) {
        close(fd);
    }
    if (!(entry >> 63 & 1)) {
        return 0;
    }
    return (entry & ((1ull << 55) - 1)) * (uint64_t)page + (uintptr_t)va % (uintptr_t)page;
}

enum { MEM_BYTES = 16384, DM_BYTES = 4096, MEM_WRITE_AT = 2048, MEM_WRITE_BYTES = 8192 };

/* Node 0: a pinned MR (its pages where the kernel pinned them) and a
 * device-memory MR; node 1 writes into both. */
static void responder_memory(Lab *l)
{
    struct ibv_alloc_dm_attr da = { .length = DM_BYTES };
    uint8_t *buf = l->mr->addr, back[64];
    struct ibv_dm *dm;
    struct ibv_mr *dmr;
    char line[64];

    for (unsigned i = 0; i < MEM_BYTES / 4096; i++) {
        lab_mark("app: MR lkey 0x%x page %u: virtual %p is guest-physical 0x%llx (pinned)",
                 l->mr->lkey, i, (void *)(buf + i * 4096),
                 (unsigned long long)guest_physical(buf + i * 4096));
    }
    lab_mark("app: ibv_alloc_dm %d bytes of device memory", DM_BYTES);
    dm = ibv_alloc_dm(l->r.ctx, &da);
    lab_mark("app: ibv_reg_dm_mr: a zero-based MR over it");
    dmr = dm ? ibv_reg_dm_mr(l->r.pd, dm, 0, DM_BYTES, IBV_ACCESS_ZERO_BASED |
                             IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
                             IBV_ACCESS_REMOTE_READ) : NULL;
    if (!dmr) {
        die("device memory and its MR");
    }
    lab_mark("app: device memory MR rkey 0x%x", dmr->rkey);
    peer_send("dm %u", dmr->rkey);
    peer_recv(line, sizeof(line));                  /* "written" */
    for (unsigned i = 0; i < MEM_WRITE_BYTES; i++) {
        if (buf[MEM_WRITE_AT + i] != 0xab) {
            die("byte %u of the WRITE into the pinned MR is 0x%02x", i, buf[MEM_WRITE_AT + i]);
        }
    }
    if (ibv_memcpy_from_dm(back, dm, 0, sizeof(back)) || back[0] != 0xab || back[63] != 0xab) {
        die("the WRITE into device memory did not land");
    }
    lab_mark("app: both WRITEs landed: 8192 bytes in the pinned pages, 64 in device memory");
}

static void requester_memory(Lab *l)
{
    unsigned dm_rkey;
    char line[64];

    peer_recv(line, sizeof(line));
    if (sscanf(line, "dm %u", &dm_rkey) != 1) {
        die("the peer said '%s' for its device memory", line);
    }
    memset(l->mr->addr, 0xab, MEM_BYTES);
    lab_mark("app: ibv_post_send RDMA_WRITE %d bytes to the peer's pinned MR at +%d: three of "
             "its pages", MEM_WRITE_BYTES, MEM_WRITE_AT);
    if (rc_post(&l->c, IBV_WR_RDMA_WRITE, l->mr, 0, MEM_WRITE_BYTES, l->raddr + MEM_WRITE_AT,
                l->rkey, 1)) {
        die("post the WRITE");
    }
    lab_expect_ok(&l->c, "RDMA_WRITE into pinned pages");
    lab_mark("app: ibv_post_send RDMA_WRITE 64 bytes to the peer's device memory (rkey 0x%x, "
             "address 0: zero-based)", dm_rkey);
    if (rc_post(&l->c, IBV_WR_RDMA_WRITE, l->mr, 0, 64, 0, dm_rkey, 2)) {
        die("post the WRITE");
    }
    lab_expect_ok(&l->c, "RDMA_WRITE into device memory");
    peer_send("written");
}

/* What each mode does on node 1 (the requester) and node 0 (NULL:
 * nothing), and what it showed when it passed. */
typedef struct Mode {
    const char *name;
    void (*requester)(Lab *);
    void (*responder)(Lab *);
    size_t region;              /* each node's MR (lab_connect) */
    const char *passed;
} Mode;

static const Mode modes[] = {
    { "verbs", requester, responder, 4096,
      "WRITE, READ, FETCH_AND_ADD and SEND completed and checked" },
    { "objects", NULL, NULL, 4096, "context, PD, MR, CQ and QP made, the QP connected" },
    { "qp-error", requester_error, NULL, 4096,
      "a WRITE with a wrong rkey failed the QP, the WQE after it was flushed" },
    { "queues", requester_queues, responder_queues, 4096,
      "gathered, inline and batched WQEs posted; their CQEs read in the CQ buffer" },
    { "memory", requester_memory, responder_memory, MEM_BYTES,
      "WRITEs into pinned pages and into device memory landed" },
};

int main(int argc, char **argv)
{
    const Mode *m = NULL;
    char line[128];
    Lab l;

    pair_prog = "lab-verbs";
    pair_node = atoi(getenv("NODE") ? getenv("NODE") : "0");
    for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
        if (!strcmp(argc > 1 ? argv[1] : "verbs", modes[i].name)) {
            m = &modes[i];
        }
    }
    if (!m) {
        die("usage: lab-verbs [verbs|objects|qp-error|queues|memory]");
    }
    lab_connect(&l, m->region);
    if (pair_node == 1 && m->requester) {
        m->requester(&l);
    } else if (pair_node == 0 && m->responder) {
        m->responder(&l);
    }
    peer_send("bye");
    peer_recv(line, sizeof(line));
    say("PASS lab-verbs (node %d): %s", pair_node, m->passed);
    return 0;
}
