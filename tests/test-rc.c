/*
 * RC transport (hw-rdma/rc.c): two RC QPs of one device connected to each
 * other through the port's own address; every frame the device sends is
 * fed back into its receive path, so the requester, responder and
 * completer all run and their CQEs, data and PSNs can be checked.
 */
#include <string.h>

#include "rc-env.h"

/* A 3000-byte SEND with immediate at MTU 1024: three packets (FIRST,
 * MIDDLE, LAST), the data in b's receive buffer, a responder CQE on b's
 * receive CQ with length and immediate, one ACK, a requester CQE with the
 * WQE's opcode for a. */
static void test_rc_send_multi_packet(void)
{
    g_autoptr(RcEnv) e = env_new(100);
    const uint8_t *cqe;

    fill(e, 3000);
    post_recv(e, 0, 4096);
    post_send(e, MLX5_OPCODE_SEND_IMM, 3000, 0);
    g_assert_cmpuint(e->h->frames->len, ==, 3);
    wire(e, false);
    g_assert_cmpuint(e->h->frames->len, ==, 4);      /* + the ACK */
    wire(e, false);
    g_assert_cmpmem(h_gpa(e->h, B_BUF), 3000, h_gpa(e->h, A_BUF), 3000);
    cqe = h_cq_next(e->h, &e->rcq);
    g_assert_nonnull(cqe);
    g_assert_cmphex(cqe[CQE_OP_OWN] >> 4, ==, MLX5_CQE_RESP_SEND_IMM);
    g_assert_cmpuint(prm_be32(cqe + CQE_BYTE_CNT), ==, 3000);
    g_assert_cmphex(prm_be32(cqe + CQE_IMMEDIATE), ==, 0xfeedf00d);
    g_assert_cmphex(prm_be32(cqe + CQE_SRQN), ==, 0x4321); /* user index */
    cqe = h_cq_next(e->h, &e->scq);
    g_assert_nonnull(cqe);
    g_assert_cmphex(cqe[CQE_OP_OWN] >> 4, ==, MLX5_CQE_REQ);
    g_assert_cmphex(prm_be32(cqe + CQE_SOP_DROP_QPN), ==,
                    (uint32_t)MLX5_OPCODE_SEND_IMM << 24 | e->a.num);
}

/* RDMA WRITE lands at the RETH address; no receive WQE is used.  Its CQE
 * carries the device clock when it was written (1 GHz: the platform's ns). */
static void test_rc_write(void)
{
    g_autoptr(RcEnv) e = env_new(0xfffffe);            /* PSNs wrap mod 2^24 */
    const uint8_t *cqe;

    e->h->clock_ns = 0x1234567890ull;
    fill(e, 2500);
    post_send(e, MLX5_OPCODE_RDMA_WRITE, 2500, B_BUF + 100);
    wire(e, false);
    wire(e, false);
    g_assert_cmpmem(h_gpa(e->h, B_BUF + 100), 2500, h_gpa(e->h, A_BUF), 2500);
    g_assert_null(h_cq_next(e->h, &e->rcq));
    cqe = h_cq_next(e->h, &e->scq);
    g_assert_cmphex(cqe[CQE_OP_OWN] >> 4, ==, MLX5_CQE_REQ);
    g_assert_cmphex(prm_be64(cqe + CQE_TIMESTAMP), ==, 0x1234567890ull);
}

/* RDMA WRITE with immediate consumes a receive WQE; its CQE carries the
 * immediate and the length written (as rxe and ConnectX report it). */
static void test_rc_write_imm(void)
{
    g_autoptr(RcEnv) e = env_new(33);
    const uint8_t *cqe;

    fill(e, 1500);
    post_recv(e, 0, 64);
    post_send(e, MLX5_OPCODE_RDMA_WRITE_IMM, 1500, B_BUF + 4096);
    wire(e, false);
    g_assert_cmpmem(h_gpa(e->h, B_BUF + 4096), 1500, h_gpa(e->h, A_BUF), 1500);
    cqe = h_cq_next(e->h, &e->rcq);
    g_assert_nonnull(cqe);
    g_assert_cmphex(cqe[CQE_OP_OWN] >> 4, ==, MLX5_CQE_RESP_WR_IMM);
    g_assert_cmpuint(prm_be32(cqe + CQE_BYTE_CNT), ==, 1500);
    g_assert_cmphex(prm_be32(cqe + CQE_IMMEDIATE), ==, 0xfeedf00d);
    expect_req(e, MLX5_OPCODE_RDMA_WRITE_IMM, 0);
}

/* No receive WQE: RNR NAK; a lost first packet: PSN sequence NAK; a bad
 * rkey: remote access NAK.  Each ends in the requester's error CQE. */
static void test_rc_errors(void)
{
    static const struct { uint8_t syndrome; bool drop; uint32_t key_xor; } t[] = {
        /* RNR retry exceeded (no retry yet) */
        { MLX5_CQE_SYNDROME_RNR_RETRY_EXC_ERR, false, 0 },
        /* sequence error: no retransmission yet */
        { MLX5_CQE_SYNDROME_TRANSPORT_RETRY_EXC_ERR, true, 0 },
        { MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR, false, 0x80 },   /* remote access */
    };

    for (size_t i = 0; i < G_N_ELEMENTS(t); i++) {
        g_autoptr(RcEnv) e = env_new(7);
        const uint8_t *cqe;

        fill(e, 2000);
        if (t[i].drop) {
            post_recv(e, 0, 4096);
        }
        if (t[i].key_xor) {
            post_send_rkey(e, MLX5_OPCODE_RDMA_WRITE, 100, B_BUF, e->key ^ t[i].key_xor);
        } else {
            post_send(e, MLX5_OPCODE_SEND, 2000, 0);
        }
        wire(e, t[i].drop);
        wire(e, false);
        cqe = h_cq_next(e->h, &e->scq);
        g_assert_nonnull(cqe);
        g_assert_cmphex(cqe[CQE_OP_OWN] >> 4, ==, MLX5_CQE_REQ_ERR);
        g_assert_cmphex(cqe[CQE_ERR_SYNDROME], ==, t[i].syndrome);
        g_assert_cmpuint(h_query_qp_state(e->h, e->a.num), ==, MLX5_QP_STATE_ERR);
    }
}

/* Loopback: with the device's own loopback on (as in QEMU), RoCE frames to
 * our own MAC never reach the wire; the timer receives them, so a WRITE, a
 * READ and a SEND between two QPs of one device complete by themselves. */
static void run_timer_until_idle(RcEnv *e)
{
    h_run_due(e->h);
}

static void test_rc_loopback(void)
{
    g_autoptr(RcEnv) e = env_create(MLX5_QP_ST_RC, MLX5_QP_ST_RC);
    uint8_t *src = h_gpa(e->h, B_BUF + 8192);

    e->h->fw->cfg.roce_loopback = true;
    e->timeout = 14;
    connect_qp(e, e->a.num, e->b.num, 1);
    connect_qp(e, e->b.num, e->a.num, 1);
    fill(e, 5000);
    for (int i = 0; i < 3000; i++) {
        src[i] = (uint8_t)(i * 5 + 2);
    }
    post_recv(e, 0, 8192);
    post_send(e, MLX5_OPCODE_SEND, 5000, 0);         /* SEND: five packets */
    post_send(e, MLX5_OPCODE_RDMA_WRITE, 3000, B_BUF + 16384);
    g_assert_cmpuint(e->h->frames->len, ==, 0);      /* nothing on the wire */
    run_timer_until_idle(e);
    g_assert_cmpmem(h_gpa(e->h, B_BUF), 5000, h_gpa(e->h, A_BUF), 5000);
    g_assert_cmpmem(h_gpa(e->h, B_BUF + 16384), 3000, h_gpa(e->h, A_BUF), 3000);
    post_send(e, MLX5_OPCODE_RDMA_READ, 3000, B_BUF + 8192); /* READ into A_BUF */
    run_timer_until_idle(e);
    g_assert_cmpuint(e->h->frames->len, ==, 0);
    g_assert_cmpuint(mlx5_traffic_frames(&e->h->fw->counters.phy_rx), ==, 0);   /* not the wire */
    g_assert_cmpuint(mlx5_traffic_frames(&e->h->fw->counters.vport_rdma_rx), >=, 12);
    g_assert_cmpuint(mlx5_traffic_frames(&e->h->fw->counters.vport_rx), ==, 0);  /* not Ethernet */
    g_assert_cmpmem(h_gpa(e->h, A_BUF), 3000, src, 3000);
    g_assert_cmphex(h_cq_next(e->h, &e->rcq)[CQE_OP_OWN] >> 4, ==, MLX5_CQE_RESP_SEND);
    expect_req(e, MLX5_OPCODE_SEND, 0);
    expect_req(e, MLX5_OPCODE_RDMA_WRITE, 0);
    expect_req(e, MLX5_OPCODE_RDMA_READ, 0);
}

/* A duplicate request (the same frame twice) is ACKed again, not
 * delivered twice. */
static void test_rc_duplicate(void)
{
    g_autoptr(RcEnv) e = env_new(5);
    gsize len;
    const uint8_t *f;

    fill(e, 64);
    post_recv(e, 0, 4096);
    post_recv(e, 4096, 4096);
    post_send(e, MLX5_OPCODE_SEND, 64, 0);
    f = g_bytes_get_data(g_ptr_array_index(e->h->frames, 0), &len);
    wire(e, false);
    g_assert_true(mlx5_rx_frame(h_dp(e->h), f, len, false));  /* again */
    g_assert_nonnull(h_cq_next(e->h, &e->rcq));
    g_assert_null(h_cq_next(e->h, &e->rcq));
    g_assert_cmpuint(e->h->frames->len, ==, 3);      /* the request, two ACKs */
}

/* Frames that are not valid RoCEv2 are dropped and counted, never
 * delivered: a corrupted ICRC, a QPN that is not ours. */
static void test_rc_bad_frames(void)
{
    g_autoptr(RcEnv) e = env_new(1);
    g_autofree uint8_t *f = NULL;
    const void *sent;
    gsize len;
    RcFrame other_qp;

    fill(e, 64);
    post_recv(e, 0, 4096);
    post_send(e, MLX5_OPCODE_SEND, 64, 0);
    sent = g_bytes_get_data(g_ptr_array_index(e->h->frames, 0), &len);
    f = g_memdup2(sent, len);
    f[len - 1] ^= 1;                                 /* the ICRC (the frame's last bytes) */
    g_assert_true(mlx5_rx_frame(h_dp(e->h), f, len, false));
    frame_take(e, 0, &other_qp);
    other_qp.pkt.dest_qpn ^= 0x40;                   /* dest QPN */
    frame_feed(e, &other_qp);
    g_assert_null(h_cq_next(e->h, &e->rcq));
    g_assert_cmpuint(e->h->frames->len, ==, 1);      /* nothing answered */
    g_assert_cmpuint(e->h->fw->counters.rx_roce_discards, ==, 2);   /* and counted */
}

/* A driver that keeps posting without ever getting ACKs (the peer is
 * gone) cannot make the device remember more sends than its SQ slots. */
static void test_rc_outstanding_bounded(void)
{
    g_autoptr(RcEnv) e = env_new(9);
    Mlx5QpTransport *t = mlx5_qp_transport(mlx5_qp_get(e->h->fw, e->a.num));

    fill(e, 8);
    for (int i = 0; i < 40; i++) {
        post_send(e, MLX5_OPCODE_SEND, 8, 0);
    }
    g_assert_cmpuint(t->req.wqes.len, <=, 1u << e->a.log_size);
    g_assert_cmpuint(h_nerrors(e->h), >=, 1);
}

/* Nor more bytes of sends than its SQ holds: WQEs of 4 basic blocks in a
 * 16-block send queue, posted over and over, leave at most 4 copies (the
 * QP's data-path state stays within what CREATE_QP charged for it). */
static void test_rc_outstanding_bytes_bounded(void)
{
    g_autoptr(RcEnv) e = env_new(9);
    Mlx5QpTransport *t = mlx5_qp_transport(mlx5_qp_get(e->h->fw, e->a.num));
    unsigned ds = 16, copied = 0;

    fill(e, 64);
    for (int i = 0; i < 10; i++) {
        uint8_t *w = h_sq_wqe(e->h, &e->a, MLX5_OPCODE_RDMA_WRITE, ds, MLX5_WQE_CTRL_CQ_UPDATE);

        prm_put_be64(w + MLX5_DS_BYTES + WQE_RADDR_VA, B_BUF);
        prm_put_be32(w + MLX5_DS_BYTES + WQE_RADDR_RKEY, e->key);
        for (unsigned s = 2; s < ds; s++) {
            h_data_seg(w + s * MLX5_DS_BYTES, 4, e->key, A_BUF + 4 * s);
        }
        h_sq_ring(e->h, &e->a);
    }
    for (guint i = 0; i < t->req.wqes.len; i++) {
        copied += mlx5_rc_wqe_at(&t->req.wqes, i)->ds * MLX5_DS_BYTES;
    }
    g_assert_cmpuint(t->req.wqes.len, ==, 4);
    g_assert_cmpuint(copied, <=, (uint64_t)MLX5_WQEBB_BYTES << e->a.log_size);
    g_assert_cmpuint(h_nerrors(e->h), >=, 1);
}

/* CREATE_QP charges the device's host-memory budget for the data path's
 * state of the QP too (its most: transport state, WQE copies); DESTROY_QP
 * gives it back, and a budget without room for it refuses the QP. */
static void test_rc_qp_state_charged(void)
{
    g_autoptr(RcEnv) e = env_new(9);
    Mlx5HostMem *m = &e->h->fw->host_mem;
    HRing sq;
    g_autoptr(HCmd) c = h_create_qp_cmd(e->h, &sq, MLX5_QP_ST_RC, e->h->pd, e->scq.num,
                                        e->rcq.num, e->h->uar, 4, 4);
    uint64_t before = m->used, fw_part;
    Mlx5Qp *qp;

    h_ok(e->h, c);
    qp = mlx5_qp_get(e->h->fw, OUT_GET(c, create_qp_out, qpn));
    g_assert_cmpuint(qp->dp_bytes, ==, mlx5_transport_qp_bytes(h_dp(e->h), qp));
    g_assert_cmpuint(qp->dp_bytes, >=, sizeof(Mlx5QpTransport) +
                     ((uint64_t)MLX5_WQEBB_BYTES << 4));                /* the copies */
    fw_part = sizeof(Mlx5Qp) + MLX5_TABLE_ENTRY_BYTES + mlx5_ring_bytes(&qp->sq.ring) +
              mlx5_ring_bytes(&qp->rq.ring);
    g_assert_cmpuint(m->used - before, ==, fw_part + qp->dp_bytes);
    h_destroy(e->h, OP_DESTROY_QP, qp->num);
    g_assert_cmpuint(m->used, ==, before);
    m->limit = m->used + fw_part;          /* the firmware's part fits, the data path's not */
    h_fail(e->h, c, MLX5_CMD_STAT_LIM_ERR, MLX5_SYND_HOST_MEMORY);
}

/* RDMA READ of 3000 bytes at MTU 1024: one request, three responses
 * (FIRST, MIDDLE, LAST) scattered into the requester's buffer; the
 * requester CQE carries the READ opcode and the byte count. */
static void test_rc_read(void)
{
    g_autoptr(RcEnv) e = env_new(0xfffffe);            /* across the PSN wrap */
    uint8_t *src = h_gpa(e->h, B_BUF + 64);

    for (int i = 0; i < 3000; i++) {
        src[i] = (uint8_t)(i * 13 + 1);
    }
    post_send(e, MLX5_OPCODE_RDMA_READ, 3000, B_BUF + 64);
    g_assert_cmpuint(e->h->frames->len, ==, 1);
    wire(e, false);
    g_assert_cmpuint(e->h->frames->len, ==, 4);
    wire(e, false);
    g_assert_cmpmem(h_gpa(e->h, A_BUF), 3000, src, 3000);
    g_assert_cmpuint(prm_be32(expect_req(e, MLX5_OPCODE_RDMA_READ, 0) + CQE_BYTE_CNT), ==, 3000);
}

/* An atomic WQE: ctrl, remote address, atomic segment, 8-byte result. */
static uint64_t le64_at(RcEnv *e, uint64_t gpa)
{
    return prm_le64(h_gpa(e->h, gpa));
}

/* Fetch-and-add and compare-and-swap (IBA 9.4.5) on a little-endian
 * 8-byte word: the old value comes back into the requester's buffer. */
static void test_rc_atomics(void)
{
    g_autoptr(RcEnv) e = env_new(3);

    prm_put_le64(h_gpa(e->h, B_BUF), 40);
    post_atomic(e, MLX5_OPCODE_ATOMIC_FA, B_BUF, 2, 0); /* FAA +2 */
    wire(e, false);
    wire(e, false);
    g_assert_cmpuint(le64_at(e, B_BUF), ==, 42);
    g_assert_cmpuint(le64_at(e, A_BUF), ==, 40);
    g_assert_cmpuint(prm_be32(expect_req(e, MLX5_OPCODE_ATOMIC_FA, 0) + CQE_BYTE_CNT), ==, 8);
    post_atomic(e, MLX5_OPCODE_ATOMIC_CS, B_BUF, 7, 41); /* CAS 41 -> 7: no match */
    wire(e, false);
    wire(e, false);
    g_assert_cmpuint(le64_at(e, B_BUF), ==, 42);
    g_assert_cmpuint(le64_at(e, A_BUF), ==, 42);
    post_atomic(e, MLX5_OPCODE_ATOMIC_CS, B_BUF, 7, 42); /* CAS 42 -> 7 */
    wire(e, false);
    wire(e, false);
    g_assert_cmpuint(le64_at(e, B_BUF), ==, 7);
    expect_req(e, MLX5_OPCODE_ATOMIC_CS, 0);
    expect_req(e, MLX5_OPCODE_ATOMIC_CS, 0);
}

/* A duplicate atomic is answered from the kept result, not executed
 * again; a duplicate READ is read again (IBA 9.7.5.1.4). */
static void test_rc_rd_atomic_replay(void)
{
    g_autoptr(RcEnv) e = env_new(11);
    g_autoptr(GBytes) req = NULL;
    gsize len;
    const uint8_t *f;

    prm_put_le64(h_gpa(e->h, B_BUF), 100);
    post_atomic(e, MLX5_OPCODE_ATOMIC_FA, B_BUF, 1, 0);
    req = g_bytes_ref(g_ptr_array_index(e->h->frames, 0));
    wire(e, false);                                  /* executed: 101 */
    f = g_bytes_get_data(req, &len);
    g_assert_true(mlx5_rx_frame(h_dp(e->h), f, len, false));
    g_assert_cmpuint(le64_at(e, B_BUF), ==, 101);    /* not 102 */
    wire(e, false);                                  /* two atomic ACKs, same value */
    g_assert_cmpuint(le64_at(e, A_BUF), ==, 100);
    expect_req(e, MLX5_OPCODE_ATOMIC_FA, 0);
    g_assert_null(h_cq_next(e->h, &e->scq));         /* the second is a duplicate */
}

/* A READ request longer than the largest message is an invalid request
 * (IBA 9.7.5.2.2); a read response longer than what was asked for fails
 * the READ with a bad response (IBA 9.9.2.2). */
static void test_rc_read_bad_lengths(void)
{
    {
        g_autoptr(RcEnv) e = env_new(21);
        RcFrame f;

        post_send(e, MLX5_OPCODE_RDMA_READ, 64, B_BUF);
        frame_take(e, 0, &f);
        f.pkt.reth.dma_len = 0x80000000u;            /* 2 GiB: past 2^log_max_msg */
        frame_feed(e, &f);
        e->fed = 1;                                  /* the original is lost */
        wire(e, false);
        expect_req(e, MLX5_OPCODE_RDMA_READ, MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR);
    }
    {
        g_autoptr(RcEnv) e = env_new(22);
        RcFrame f;

        post_send(e, MLX5_OPCODE_RDMA_READ, 64, B_BUF);
        feed_one(e);                                 /* the response: frame 1 */
        frame_take(e, 1, &f);
        memset(f.payload + f.len, 0, 4);             /* 4 bytes longer */
        f.len += 4;
        frame_feed(e, &f);
        expect_req(e, MLX5_OPCODE_RDMA_READ, MLX5_CQE_SYNDROME_BAD_RESP_ERR);
        g_assert_cmpuint(h_query_qp_state(e->h, e->a.num), ==, MLX5_QP_STATE_ERR);
    }
}

/* A lost packet: the responder's sequence NAK makes the requester go back
 * and resend; the message arrives whole, once. */
static void test_rc_seq_nak_resend(void)
{
    g_autoptr(RcEnv) e = env_new_retry(50, 3, 0);

    fill(e, 3000);
    post_recv(e, 0, 4096);
    post_send(e, MLX5_OPCODE_SEND, 3000, 0);
    wire(e, true);                                   /* FIRST lost: NAK */
    wire(e, false);                                  /* resend, ACK */
    wire(e, false);
    g_assert_cmpmem(h_gpa(e->h, B_BUF), 3000, h_gpa(e->h, A_BUF), 3000);
    g_assert_nonnull(h_cq_next(e->h, &e->rcq));
    g_assert_null(h_cq_next(e->h, &e->rcq));
    expect_req(e, MLX5_OPCODE_SEND, 0);
}

/* A lost ACK: the ack timer (ack_timeout 14: 67 ms) resends; the
 * responder sees a duplicate and ACKs again. */
static void test_rc_ack_timeout_resend(void)
{
    g_autoptr(RcEnv) e = env_new_retry(60, 3, 0);
    uint64_t t0 = e->h->clock_ns;

    fill(e, 100);
    post_recv(e, 0, 4096);
    post_send(e, MLX5_OPCODE_SEND, 100, 0);
    g_assert_cmpuint(e->h->timer_ns - t0, ==, 4096ull << 14);
    feed_one(e);                                     /* delivered; the ACK ... */
    e->fed = e->h->frames->len;                      /* ... is lost */
    g_assert_null(h_cq_next(e->h, &e->scq));
    fire_timer(e);
    wire(e, false);
    wire(e, false);
    expect_req(e, MLX5_OPCODE_SEND, 0);
    g_assert_nonnull(h_cq_next(e->h, &e->rcq));
    g_assert_null(h_cq_next(e->h, &e->rcq));         /* once */
}

/* The peer is gone: retry_count resends, then RETRY_EXC_ERR for the WQE
 * and a flush for the one behind it. */
static void test_rc_retry_exhausted(void)
{
    g_autoptr(RcEnv) e = env_new_retry(70, 2, 0);
    unsigned sent;

    fill(e, 100);
    post_send(e, MLX5_OPCODE_SEND, 100, 0);
    post_send(e, MLX5_OPCODE_RDMA_WRITE, 100, B_BUF);
    sent = e->h->frames->len;
    for (int i = 0; i < 2; i++) {
        fire_timer(e);
        g_assert_cmpuint(e->h->frames->len, ==, sent + 2 * (i + 1));
        g_assert_null(h_cq_next(e->h, &e->scq));
    }
    fire_timer(e);
    expect_req(e, MLX5_OPCODE_SEND, MLX5_CQE_SYNDROME_TRANSPORT_RETRY_EXC_ERR);
    expect_req(e, MLX5_OPCODE_RDMA_WRITE, MLX5_CQE_SYNDROME_WR_FLUSH_ERR);
    g_assert_cmpuint(h_query_qp_state(e->h, e->a.num), ==, MLX5_QP_STATE_ERR);
}

/* No receive WQE: an RNR NAK; after the RNR timer the requester resends,
 * and once a receive is posted the SEND completes. */
static void test_rc_rnr_retry(void)
{
    g_autoptr(RcEnv) e = env_new_retry(80, 0, 3);

    fill(e, 100);
    post_send(e, MLX5_OPCODE_SEND, 100, 0);
    wire(e, false);                                  /* RNR NAK */
    wire(e, false);
    g_assert_null(h_cq_next(e->h, &e->scq));
    post_recv(e, 0, 4096);
    fire_timer(e);
    wire(e, false);
    wire(e, false);
    expect_req(e, MLX5_OPCODE_SEND, 0);
    g_assert_nonnull(h_cq_next(e->h, &e->rcq));
}

/* A long message goes out as the window allows (512 packets), asking for
 * ACKs along the way; each ACK moves the window until all has arrived. */
static void test_rc_window(void)
{
    g_autoptr(RcEnv) e = env_new(0xffff00);
    uint32_t len = 600 * 1024;                       /* 600 packets of 1024 */

    fill(e, len);
    post_recv(e, 0, len);
    post_send(e, MLX5_OPCODE_SEND, len, 0);
    g_assert_cmpuint(e->h->frames->len, ==, 512);
    wire(e, false);
    g_assert_cmpuint(e->fed, >, 600);                 /* all, and the ACKs */
    g_assert_cmpmem(h_gpa(e->h, B_BUF), len, h_gpa(e->h, A_BUF), len);
    expect_req(e, MLX5_OPCODE_SEND, 0);
    g_assert_cmpuint(prm_be32(h_cq_next(e->h, &e->rcq) + CQE_BYTE_CNT), ==, len);
}

/* MODIFY_QP to ERR flushes the posted receive WQEs (IBA 10.3.1). */
static void test_rc_flush_on_error(void)
{
    g_autoptr(RcEnv) e = env_new(90);
    const uint8_t *cqe;

    post_recv(e, 0, 64);
    post_recv(e, 64, 64);
    g_assert_cmphex(h_modify_qp(e->h, OP_2ERR_QP, e->b.num), ==, MLX5_CMD_STAT_OK);
    for (int i = 0; i < 2; i++) {
        cqe = h_cq_next(e->h, &e->rcq);
        g_assert_nonnull(cqe);
        g_assert_cmphex(cqe[CQE_OP_OWN] >> 4, ==, MLX5_CQE_RESP_ERR);
        g_assert_cmphex(cqe[CQE_ERR_SYNDROME], ==, MLX5_CQE_SYNDROME_WR_FLUSH_ERR);
    }
    g_assert_null(h_cq_next(e->h, &e->rcq));
}

/* A receive posted to a QP in ERR (only the doorbell record moves, as in
 * mlx5_ib_drain_rq) is flushed when the device next looks, on its timer;
 * a producer counter beyond the ring (undefined) flushes nothing and is
 * logged, and the looking stops once the QP leaves ERR. */
static void test_rc_flush_posted_in_err(void)
{
    g_autoptr(RcEnv) e = env_new(90);
    const uint8_t *cqe;
    unsigned n = 0;

    g_assert_cmphex(h_modify_qp(e->h, OP_2ERR_QP, e->b.num), ==, MLX5_CMD_STAT_OK);
    post_recv(e, 0, 64);
    g_assert_null(h_cq_next(e->h, &e->rcq));
    fire_timer(e);
    cqe = h_cq_next(e->h, &e->rcq);
    g_assert_nonnull(cqe);
    g_assert_cmphex(cqe[CQE_ERR_SYNDROME], ==, MLX5_CQE_SYNDROME_WR_FLUSH_ERR);
    g_assert_cmpuint(prm_be16(cqe + CQE_WQE_COUNTER), ==, 0);
    h_put32(e->h, e->b.dbr, e->b_rq_pc + 1000);     /* undefined: beyond the ring */
    n = h_nerrors(e->h);
    fire_timer(e);
    g_assert_null(h_cq_next(e->h, &e->rcq));
    g_assert_cmpuint(h_nerrors(e->h), >, n);
    g_assert_cmphex(h_modify_qp(e->h, OP_2RST_QP, e->b.num), ==, MLX5_CMD_STAT_OK);
    e->h->clock_ns = MAX(e->h->clock_ns, e->h->timer_ns);
    mlx5_dev_timer(e->h->dev);
    g_assert_cmpuint(h_dp(e->h)->rq_err_watched->len, ==, 0);
}

/* The data path holds QPs (a running ack timer, an ERR receive queue
 * watched) and loopback frames; a QP destroyed, or every object freed by a
 * reset, takes them along: the timer finds nothing, nothing is used after
 * it was freed (ASan), and the device goes on. */
static void arm_everything(RcEnv *e)
{
    fill(e, 64);
    post_send(e, MLX5_OPCODE_RDMA_WRITE, 64, B_BUF);     /* a's ack timer runs */
    g_assert_cmphex(h_modify_qp(e->h, OP_2ERR_QP, e->b.num), ==, MLX5_CMD_STAT_OK);
    g_assert_cmpuint(mlx5_deadlines_len(&h_dp(e->h)->rc_timed), ==, 1);
    g_assert_cmpuint(h_dp(e->h)->rq_err_watched->len, ==, 1);
}

static void test_rc_gone_while_busy(void)
{
    g_autoptr(RcEnv) e = env_new(70);

    arm_everything(e);
    h_destroy(e->h, OP_DESTROY_QP, e->a.num);
    h_destroy(e->h, OP_DESTROY_QP, e->b.num);
    g_assert_cmpuint(mlx5_deadlines_len(&h_dp(e->h)->rc_timed), ==, 0);
    g_assert_cmpuint(h_dp(e->h)->rq_err_watched->len, ==, 0);
    fire_timer(e);
    g_clear_pointer(&e, env_free);

    e = env_new(70);
    arm_everything(e);
    e->h->fw->cfg.roce_loopback = true;
    h_data_seg(h_sq_wqe(e->h, &e->a, MLX5_OPCODE_SEND, 2, 0) + MLX5_DS_BYTES, 8, e->key, A_BUF);
    h_sq_doorbell(e->h, &e->a);                         /* a frame to ourselves, queued */
    g_assert_cmpuint(g_queue_get_length(h_dp(e->h)->roce_loopback), >, 0);
    g_assert_cmpuint(mlx5_dev_reset(e->h->dev, "flr"), >, 0);
    g_assert_cmpuint(mlx5_deadlines_len(&h_dp(e->h)->rc_timed) + h_dp(e->h)->rq_err_watched->len +
                     g_queue_get_length(h_dp(e->h)->roce_loopback), ==, 0);
    mlx5_dev_timer(e->h->dev);
}

/* Bad requests get the IBA's answer; responses and ACKs that match
 * nothing sent are dropped.  Each case posts a's WQE and carries the
 * frames; a's CQE for it must then have the syndrome. */
typedef struct RdAtomicBad {
    const char *name;
    uint8_t opcode;             /* a's WQE */
    uint8_t syndrome;           /* its CQE (0: none, it completes) */
    void (*run)(RcEnv *e);
} RdAtomicBad;

/* A misaligned atomic: an invalid request NAK. */
static void atomic_misaligned(RcEnv *e)
{
    post_atomic(e, MLX5_OPCODE_ATOMIC_FA, B_BUF + 4, 1, 0);
    wire(e, false);
    wire(e, false);
}

/* A READ without the remote read right: a remote access NAK. */
static void read_without_right(RcEnv *e)
{
    post_send_rkey(e, MLX5_OPCODE_RDMA_READ, 64, B_BUF, e->key ^ 0x80);
    wire(e, false);
    wire(e, false);
}

/* An atomic whose result segment holds 4 bytes: a local length error,
 * nothing sent. */
static void atomic_of_4_bytes(RcEnv *e)
{
    uint8_t *w = h_sq_wqe(e->h, &e->a, MLX5_OPCODE_ATOMIC_FA, 4, MLX5_WQE_CTRL_CQ_UPDATE);
    uint8_t *raddr = w + MLX5_DS_BYTES;

    prm_put_be64(raddr + WQE_RADDR_VA, B_BUF);
    prm_put_be32(raddr + WQE_RADDR_RKEY, e->key);
    h_data_seg(w + 3 * MLX5_DS_BYTES, 4, e->key, A_BUF);
    h_sq_ring(e->h, &e->a);
    g_assert_cmpuint(e->h->frames->len, ==, 0);
}

/* A read response with a PSN nothing was asked at is not taken; the real
 * one completes the READ. */
static void read_response_other_psn(RcEnv *e)
{
    RcFrame f;

    post_send(e, MLX5_OPCODE_RDMA_READ, 64, B_BUF);
    feed_one(e);                                 /* the response is sent ... */
    frame_take(e, 1, &f);
    f.pkt.psn ^= 0x10;                           /* ... with another PSN */
    frame_feed(e, &f);
    g_assert_null(h_cq_next(e->h, &e->scq));     /* not taken */
    wire(e, false);
}

static const RdAtomicBad rd_atomic_bad[] = {
    { "atomic-misaligned", MLX5_OPCODE_ATOMIC_FA, MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR,
      atomic_misaligned },
    { "read-without-right", MLX5_OPCODE_RDMA_READ, MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR,
      read_without_right },
    { "atomic-of-4-bytes", MLX5_OPCODE_ATOMIC_FA, MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR,
      atomic_of_4_bytes },
    { "read-response-other-psn", MLX5_OPCODE_RDMA_READ, 0, read_response_other_psn },
};

static void test_rc_rd_atomic_bad_input(gconstpointer p)
{
    const RdAtomicBad *t = p;
    g_autoptr(RcEnv) e = env_new(1);

    t->run(e);
    expect_req(e, t->opcode, t->syndrome);
}

/* --- two engines back to back, on an impaired link ---------------------- */

/* Two devices, one RC QP each (side 0: 169.254.77.1, MAC ...:01; side 1:
 * .2, ...:02), and the wire between them: frames are dropped, duplicated
 * and reordered at the given percentages, from a seeded generator. */
typedef struct Link {
    Harness *h[2];
    HRing scq[2], rcq[2], qp[2];
    uint32_t key[2], rq_pc[2];
    unsigned fed[2];
    GRand *rand;
    unsigned drop, dup, reorder;                    /* percent */
    GBytes *held;                                   /* a frame being overtaken */
    int held_to;
    unsigned dropped, duplicated, reordered, delivered;
} Link;

static Link *link_new(unsigned drop, unsigned dup, unsigned reorder, guint32 seed)
{
    Link *l = g_new0(Link, 1);

    l->rand = g_rand_new_with_seed(seed);
    l->drop = drop, l->dup = dup, l->reorder = reorder;
    for (int s = 0; s < 2; s++) {
        Harness *h = l->h[s] = h_new_device();

        h->fw->cfg.mac[5] = 1 + s;                  /* as -device mlx5,mac=02:00:00:00:00:0N */
        h_bringup(h);
        h_port_up(h);
        set_gid_addr(h, MY_GID_V4 + s, 1 + s);
        l->scq[s] = h_create_cq(h, h->comp_eq.num, 4);
        l->rcq[s] = h_create_cq(h, h->comp_eq.num, 4);
        l->qp[s] = h_create_qp(h, MLX5_QP_ST_RC, h->pd, l->scq[s].num, l->rcq[s].num, h->uar, 4, 4);
        l->key[s] = all_rights_key(h);
    }
    for (int s = 0; s < 2; s++) {
        QpOpts o = { MY_GID_V4 + !s, 1 + !s, 7, 7, 14 };
        connect_qp_to(l->h[s], l->qp[s].num, l->qp[!s].num, 0xfffff0, &o);
    }
    return l;
}

static void link_free(Link *l)
{
    if (l->held) {
        g_bytes_unref(l->held);
    }
    h_free(l->h[0]);
    h_free(l->h[1]);
    g_rand_free(l->rand);
    g_free(l);
}
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Link, link_free)

static void link_deliver(Link *l, int to, GBytes *f)
{
    gsize len;
    const uint8_t *p = g_bytes_get_data(f, &len);

    l->delivered++;
    g_assert_true(mlx5_rx_frame(h_dp(l->h[to]), p, len, false));
}

/* Carry frames both ways until both devices are quiet; true if any moved. */
static bool link_pump(Link *l)
{
    bool any = false, moved = true;

    while (moved) {
        moved = false;
        for (int s = 0; s < 2; s++) {
            while (l->fed[s] < l->h[s]->frames->len) {
                GBytes *f = g_ptr_array_index(l->h[s]->frames, l->fed[s]++);
                unsigned r = (unsigned)g_rand_int_range(l->rand, 0, 100);

                moved = true;
                if (r < l->drop) {
                    l->dropped++;
                    continue;
                }
                if (r < l->drop + l->reorder && !l->held) {
                    l->reordered++;
                    l->held = g_bytes_ref(f);
                    l->held_to = !s;
                    continue;
                }
                link_deliver(l, !s, f);
                if (r >= 100 - l->dup) {
                    l->duplicated++;
                    link_deliver(l, !s, f);
                }
                if (l->held) {                          /* overtaken: now it goes */
                    g_autoptr(GBytes) h = g_steal_pointer(&l->held);
                    link_deliver(l, l->held_to, h);
                }
            }
        }
        if (!moved && l->held) {
            g_autoptr(GBytes) h = g_steal_pointer(&l->held);
            link_deliver(l, l->held_to, h);
            moved = true;
        }
        any |= moved;
    }
    return any;
}

/* The wire is quiet: let the earliest device timer fire (ack or RNR). */
static bool link_fire_timer(Link *l)
{
    int s = h_dp(l->h[0])->timer_deadline <= h_dp(l->h[1])->timer_deadline ? 0 : 1;
    Harness *h = l->h[s];

    if (h_dp(h)->timer_deadline == UINT64_MAX) {
        return false;
    }
    h->clock_ns = MAX(h->clock_ns, h_dp(h)->timer_deadline);
    l->h[!s]->clock_ns = MAX(l->h[!s]->clock_ns, h->clock_ns);
    mlx5_dev_timer(h->dev);
    return true;
}

/* Run the link until side s has a requester CQE; returns it. */
static const uint8_t *link_run_until_cqe(Link *l, int s)
{
    for (int i = 0; i < 100000; i++) {
        const uint8_t *cqe;

        link_pump(l);
        cqe = h_cq_next(l->h[s], &l->scq[s]);
        if (cqe) {
            return cqe;
        }
        g_assert_true(link_fire_timer(l));
    }
    g_assert_not_reached();
}

static void fill_random(Link *l, Harness *h, uint64_t gpa, uint32_t len)
{
    uint8_t *p = h_gpa(h, gpa);

    for (uint32_t i = 0; i < len; i++) {
        p[i] = (uint8_t)g_rand_int(l->rand);
    }
}

/* One random operation from side s to the other, checked: data, CQEs. */
static void link_random_op(Link *l, int s)
{
    static const uint8_t ops[] = {
        MLX5_OPCODE_SEND, MLX5_OPCODE_SEND_IMM, MLX5_OPCODE_RDMA_WRITE,
        MLX5_OPCODE_RDMA_WRITE_IMM, MLX5_OPCODE_RDMA_READ, MLX5_OPCODE_ATOMIC_FA,
    };
    uint8_t op = ops[g_rand_int_range(l->rand, 0, G_N_ELEMENTS(ops))];
    int t = !s;
    uint32_t len = g_rand_int_range(l->rand, 0, 8) == 0 ? (uint32_t)g_rand_int_range(l->rand, 0, 600000)
                                                        : (uint32_t)g_rand_int_range(l->rand, 0, 9000);
    uint64_t faa = B_BUF + 0x100000 - 0x1000;       /* a word past the data */
    bool recv = op == MLX5_OPCODE_SEND || op == MLX5_OPCODE_SEND_IMM ||
                op == MLX5_OPCODE_RDMA_WRITE_IMM;
    bool write = op == MLX5_OPCODE_RDMA_WRITE || op == MLX5_OPCODE_RDMA_WRITE_IMM;
    const uint8_t *cqe;
    uint64_t before = 0;

    if (op == MLX5_OPCODE_ATOMIC_FA) {
        len = 8;
        before = prm_le64(h_gpa(l->h[t], faa));
        post_atomic_on(l->h[s], &l->qp[s], l->key[s], op, faa, 3, 0);
    } else if (op == MLX5_OPCODE_RDMA_READ) {
        fill_random(l, l->h[t], B_BUF, len);
        post_send_on(l->h[s], &l->qp[s], l->key[s], op, len, B_BUF, l->key[t]);
    } else {
        fill_random(l, l->h[s], A_BUF, len);
        if (recv) {
            post_recv_on(l->h[t], &l->qp[t], &l->rq_pc[t], l->key[t], 0, 600000);
        }
        post_send_on(l->h[s], &l->qp[s], l->key[s], op, len, write ? B_BUF : 0, l->key[t]);
    }
    cqe = link_run_until_cqe(l, s);
    g_test_message("side %d opcode 0x%02x %u bytes: CQE 0x%x syndrome 0x%02x", s, op, len,
                   cqe[CQE_OP_OWN] >> 4, cqe[CQE_ERR_SYNDROME]);
    g_assert_cmphex(cqe[CQE_OP_OWN] >> 4, ==, MLX5_CQE_REQ);
    g_assert_cmphex(prm_be32(cqe + CQE_SOP_DROP_QPN), ==, (uint32_t)op << 24 | l->qp[s].num);
    if (op == MLX5_OPCODE_ATOMIC_FA) {
        g_assert_cmpuint(prm_le64(h_gpa(l->h[s], A_BUF)), ==, before);
        g_assert_cmpuint(prm_le64(h_gpa(l->h[t], faa)), ==, before + 3);
        return;
    }
    if (op == MLX5_OPCODE_RDMA_READ) {
        g_assert_cmpmem(h_gpa(l->h[s], A_BUF), len, h_gpa(l->h[t], B_BUF), len);
        return;
    }
    link_pump(l);                                   /* the responder side has it all */
    g_assert_cmpmem(h_gpa(l->h[t], B_BUF), len, h_gpa(l->h[s], A_BUF), len);
    if (recv) {
        cqe = h_cq_next(l->h[t], &l->rcq[t]);
        g_assert_nonnull(cqe);
        g_assert_cmpuint(prm_be32(cqe + CQE_BYTE_CNT), ==, len);
        g_assert_null(h_cq_next(l->h[t], &l->rcq[t]));   /* exactly once */
    }
}

/* Random SEND, WRITE, READ and FAA both ways, 0 B .. 600 KB, over a link
 * that drops 3%, duplicates 2% and reorders 2% of the frames: every
 * operation completes once, with its data intact (go-back-N resends,
 * duplicate detection, READ/atomic replay, sequence NAKs, the ack timer). */
static void test_rc_engines_impaired(void)
{
    g_autoptr(Link) l = link_new(3, 2, 2, 7);

    for (int i = 0; i < 150; i++) {
        link_random_op(l, g_rand_int_range(l->rand, 0, 2));
    }
    g_test_message("%u frames delivered; %u dropped, %u duplicated, %u reordered",
                   l->delivered, l->dropped, l->duplicated, l->reordered);
    g_assert_cmpuint(l->dropped, >, 10);
    g_assert_cmpuint(l->duplicated, >, 10);
    g_assert_cmpuint(l->reordered, >, 10);
}

/* --- UD and GSI (hw-rdma/ud.c) -------------------------------------------- */

/* A datagram lands behind the network-header area, its IPv4 header in
 * the area's last 20 bytes (hw-rdma/ud.c). */
enum { UD_IPV4_HDR = MLX5_UD_GRH_BYTES - 20 };

/* A UD send WQE on a: ctrl, address vector (GID index 0 -> IPv4 `dip`,
 * MAC `dmac`), `len` bytes from A_BUF. */
static void post_ud_to(RcEnv *e, uint8_t opcode, uint32_t dqpn, uint32_t qkey, uint32_t len,
                       uint32_t dip, const uint8_t dmac[6])
{
    unsigned ds = 1 + MLX5_AV_BYTES / MLX5_DS_BYTES + 1;
    uint8_t *w = h_sq_wqe(e->h, &e->a, opcode, ds, MLX5_WQE_CTRL_CQ_UPDATE);
    uint8_t *av = w + MLX5_DS_BYTES;

    prm_put_be32(w + WQE_CTRL_IMM, 0xabcd0123);
    prm_put_be32(av + WQE_AV_QKEY, qkey);
    prm_put_be32(av + WQE_AV_DQP, MLX5_EXTENDED_UD_AV | dqpn);
    prm_put_be16(av + WQE_AV_UDP_SPORT, 0xc0de);
    memcpy(av + WQE_AV_RMAC, dmac, 6);
    av[WQE_AV_HOP_LIMIT] = 64;
    prm_put_be32(av + WQE_AV_GRH_GID_FL, 0u << 20 | 0x12345);  /* GID index 0; a flow label, as
                                                              rdma_cm sets even for IPv4 */
    gid_set_v4(av + WQE_AV_RGID, dip);
    h_data_seg(av + MLX5_AV_BYTES, len, e->key, A_BUF);
    h_sq_ring(e->h, &e->a);
}

/* ... to our own address and MAC 02:00:00:00:00:01 */
static void post_ud(RcEnv *e, uint8_t opcode, uint32_t dqpn, uint32_t qkey, uint32_t len)
{
    static const uint8_t mac[6] = { 0x02, 0, 0, 0, 0, 0x01 };

    post_ud_to(e, opcode, dqpn, qkey, len, MY_GID_V4, mac);
}

/* A datagram arrives behind a 40-byte area holding its IPv4 header
 * (bytes 20..39); the CQE counts both, flags a GRH, IPv4 and the source
 * QP, and carries the immediate. */
static void test_ud_send_receive(void)
{
    g_autoptr(RcEnv) e = ud_env_new(MLX5_QP_ST_UD);
    const uint8_t *cqe, *buf = h_gpa(e->h, B_BUF);

    fill(e, 100);
    post_recv(e, 0, MLX5_UD_GRH_BYTES + 100);
    post_ud(e, MLX5_OPCODE_SEND_IMM, e->b.num, UD_QKEY, 100);
    expect_req(e, MLX5_OPCODE_SEND_IMM, 0);          /* done once sent */
    wire(e, false);
    cqe = h_cq_next(e->h, &e->rcq);
    g_assert_nonnull(cqe);
    g_assert_cmphex(cqe[CQE_OP_OWN] >> 4, ==, MLX5_CQE_RESP_SEND_IMM);
    g_assert_cmpuint(prm_be32(cqe + CQE_BYTE_CNT), ==, MLX5_UD_GRH_BYTES + 100);
    g_assert_cmphex(prm_be32(cqe + CQE_FLAGS_RQPN), ==,
                    MLX5_CQE_GRH_IN_BUFFER | MLX5_CQE_L3_IPV4 | e->a.num);
    g_assert_cmphex(prm_be32(cqe + CQE_IMMEDIATE), ==, 0xabcd0123);
    g_assert_cmphex(buf[UD_IPV4_HDR], ==, 0x45);    /* the IPv4 header */
    g_assert_cmphex(prm_be32(buf + UD_IPV4_HDR + 16), ==, MY_GID_V4);  /* its destination */
    g_assert_cmpmem(buf + MLX5_UD_GRH_BYTES, 100, h_gpa(e->h, A_BUF), 100);
}

/* IBA 10.2.5: a Q_Key with bit 31 set means the sending QP's own; a Q_Key
 * that is not the receiver's is dropped; so is a datagram without a
 * receive WQE (UD has no RNR) or longer than its WQE. */
static void test_ud_qkey_and_drops(void)
{
    g_autoptr(RcEnv) e = ud_env_new(MLX5_QP_ST_UD);
    const uint8_t *sent;
    RcFrame first;

    fill(e, 64);
    post_recv(e, 0, MLX5_UD_GRH_BYTES + 64);
    post_ud(e, MLX5_OPCODE_SEND, e->b.num, 0x22222222, 64); /* wrong Q_Key */
    post_ud(e, MLX5_OPCODE_SEND, e->b.num, MLX5_QKEY_CONTROLLED, 64);  /* a's own = b's */
    wire(e, false);
    g_assert_nonnull(h_cq_next(e->h, &e->rcq));
    g_assert_null(h_cq_next(e->h, &e->rcq));
    g_assert_cmpuint(e->h->fw->counters.rx_roce_discards, ==, 1);
    post_ud(e, MLX5_OPCODE_SEND, e->b.num, UD_QKEY, 64); /* no receive WQE */
    wire(e, false);
    g_assert_null(h_cq_next(e->h, &e->rcq));
    post_recv(e, 4096, MLX5_UD_GRH_BYTES + 16);
    post_ud(e, MLX5_OPCODE_SEND, e->b.num, UD_QKEY, 64); /* longer than the WQE */
    wire(e, false);
    g_assert_null(h_cq_next(e->h, &e->rcq));
    for (int i = 0; i < 4; i++) {
        expect_req(e, MLX5_OPCODE_SEND, 0);          /* each one sent */
    }
    /* The first datagram again, cut inside its DETH (Eth, IPv4, UDP, BTH
     * and 4 of DETH's 8 bytes): dropped and counted, nothing delivered. */
    post_recv(e, 8192, MLX5_UD_GRH_BYTES + 64);
    frame_take(e, 0, &first);
    sent = g_bytes_get_data(g_ptr_array_index(e->h->frames, 0), NULL);
    g_assert_true(mlx5_rx_frame(h_dp(e->h), sent, mlx5_roce_hdr_len(&first.pkt) - 4, false));
    g_assert_null(h_cq_next(e->h, &e->rcq));
    g_assert_cmpuint(e->h->fw->counters.rx_roce_discards, ==, 2);
}

/* IBA C10-93.1.1: a datagram longer than the path MTU (1024 on a 1500
 * link) is not sent, and its WQE completes. */
static void test_ud_longer_than_mtu(void)
{
    g_autoptr(RcEnv) e = ud_env_new(MLX5_QP_ST_UD);

    fill(e, 2000);
    post_ud(e, MLX5_OPCODE_SEND, e->b.num, UD_QKEY, 2000);
    g_assert_cmpuint(e->h->frames->len, ==, 0);
    expect_req(e, MLX5_OPCODE_SEND, 0);
}

/* The GSI QP (st QP1): its datagrams say source QP 1 and take QP1's Q_Key
 * for the controlled 0x80000000 the MAD layer sends; datagrams for QP 1
 * reach it, with the P_Key in the CQE. */
static void test_ud_gsi(void)
{
    g_autoptr(RcEnv) e = ud_env_new(MLX5_QP_ST_QP1);
    Mlx5RocePkt p;
    gsize len;
    const uint8_t *f, *cqe;

    fill(e, 256);
    post_ud(e, MLX5_OPCODE_SEND, 1, MLX5_QKEY_CONTROLLED, 256);    /* a MAD to QP 1: itself */
    f = g_bytes_get_data(g_ptr_array_index(e->h->frames, 0), &len);
    g_assert_cmpint(mlx5_roce_parse(f, len, &p), ==, MLX5_ROCE_OK);
    g_assert_cmpuint(p.deth.src_qpn, ==, 1);
    g_assert_cmphex(p.deth.qkey, ==, 0x80010000u);
    g_assert_cmpuint(p.dest_qpn, ==, 1);
    /* the GSI QP's receive queue is a's */
    {
        uint32_t pc = 0;
        post_recv_on(e->h, &e->a, &pc, e->key, 0, MLX5_UD_GRH_BYTES + 256);
    }
    wire(e, false);
    cqe = h_cq_next(e->h, &e->rcq);
    g_assert_nonnull(cqe);
    g_assert_cmpuint(prm_be32(cqe + CQE_SOP_DROP_QPN) & 0xffffff, ==, e->a.num);
    g_assert_cmphex(prm_be32(cqe + CQE_FLAGS_RQPN) & 0xffffff, ==, 1);
    g_assert_cmphex(prm_be32(cqe + CQE_IMMEDIATE), ==, 0xffff);
}

/* MADs the GSI QP carries are traced, not trusted: CM-class MADs shorter
 * than the MAD header or than the CM IDs, and empty ones, arrive as any
 * datagram does (the kernel's MAD layer judges them), with the trace's
 * decoding switched on. */
static void test_ud_gsi_short_mads(void)
{
    static const uint32_t sizes[] = { 0, 8, 23, 24, 31, 32 };
    g_autoptr(RcEnv) e = ud_env_new(MLX5_QP_ST_QP1);
    uint8_t *mad = h_gpa(e->h, A_BUF);
    uint32_t pc = 0;

    h_trace_watch(e->h, "mlx5_gsi_*");
    fill(e, 64);
    mad[1] = 0x07;                                   /* CM class */
    prm_put_be16(mad + 16, 0x0013);                  /* REP */
    for (size_t i = 0; i < G_N_ELEMENTS(sizes); i++) {
        const uint8_t *cqe;

        post_recv_on(e->h, &e->a, &pc, e->key, 0, MLX5_UD_GRH_BYTES + 64);
        post_ud(e, MLX5_OPCODE_SEND, 1, MLX5_QKEY_CONTROLLED, sizes[i]);
        wire(e, false);
        cqe = h_cq_next(e->h, &e->rcq);
        g_assert_nonnull(cqe);
        g_assert_cmphex(cqe[CQE_OP_OWN] >> 4, ==, MLX5_CQE_RESP_SEND);
        g_assert_cmpuint(prm_be32(cqe + CQE_BYTE_CNT), ==, MLX5_UD_GRH_BYTES + sizes[i]);
    }
    g_assert_cmpuint(e->h->traced->len, >=, G_N_ELEMENTS(sizes));
}

static uint32_t q_counter(RcEnv *e, uint32_t set, unsigned bit_off)
{
    g_autoptr(HCmd) c = hcmd_new(OP_QUERY_Q_COUNTER, 0);

    IN_SET(c, query_q_counter_in, counter_set_id, set);
    h_ok(e->h, c);
    return prm_be32(c->out + bit_off / 8);
}
#define Q_COUNTER(e, set, name) \
    q_counter(e, set, PRM_OFF(query_q_counter_out, name))

/* The transport events land in the Q counter set the QPs' contexts name
 * (mlx5_ib's hw_counters): requests executed, a duplicate, a gap and the
 * sequence NAK it causes, a remote access error on both sides, the error
 * and flush CQEs that follow. */
static void test_rc_q_counters(void)
{
    g_autoptr(RcEnv) e = env_create(MLX5_QP_ST_RC, MLX5_QP_ST_RC);
    uint32_t set = h_alloc_simple(e->h, OP_ALLOC_Q_COUNTER);
    gsize len;
    const uint8_t *f;

    e->counter_set = (uint8_t)set;
    e->timeout = 14;
    e->retry = 3;
    connect_qp(e, e->a.num, e->b.num, 10);
    connect_qp(e, e->b.num, e->a.num, 10);
    fill(e, 3000);
    post_send(e, MLX5_OPCODE_RDMA_WRITE, 2500, B_BUF); /* WRITE: three packets */
    wire(e, false);
    post_send(e, MLX5_OPCODE_RDMA_READ, 100, B_BUF);
    wire(e, false);
    post_atomic(e, MLX5_OPCODE_ATOMIC_FA, B_BUF, 1, 0); /* FAA */
    wire(e, false);
    post_recv(e, 0, 4096);
    post_recv(e, 4096, 4096);
    post_send(e, MLX5_OPCODE_SEND, 64, 0);
    f = g_bytes_get_data(g_ptr_array_index(e->h->frames, e->fed), &len);
    wire(e, false);
    g_assert_true(mlx5_rx_frame(h_dp(e->h), f, len, false));   /* a duplicate */
    wire(e, false);
    post_send(e, MLX5_OPCODE_SEND, 2000, 0);         /* its first packet lost */
    wire(e, true);
    wire(e, false);
    g_assert_cmpuint(Q_COUNTER(e, set, rx_write_requests), ==, 1);
    g_assert_cmpuint(Q_COUNTER(e, set, rx_read_requests), ==, 1);
    g_assert_cmpuint(Q_COUNTER(e, set, rx_atomic_requests), ==, 1);
    g_assert_cmpuint(Q_COUNTER(e, set, duplicate_request), ==, 1);
    g_assert_cmpuint(Q_COUNTER(e, set, out_of_sequence), ==, 1);
    g_assert_cmpuint(Q_COUNTER(e, set, packet_seq_err), ==, 1);
    g_assert_cmpuint(Q_COUNTER(e, set, req_cqe_error), ==, 0);
    post_recv(e, 0, 4096);
    post_send_rkey(e, MLX5_OPCODE_RDMA_WRITE, 100, B_BUF, e->key ^ 0x80);
    wire(e, false);
    wire(e, false);
    g_assert_cmpuint(Q_COUNTER(e, set, resp_remote_access_errors), ==, 1);
    g_assert_cmpuint(Q_COUNTER(e, set, req_remote_access_errors), ==, 1);
    g_assert_cmpuint(Q_COUNTER(e, set, req_cqe_error), ==, 1);
    g_assert_cmpuint(Q_COUNTER(e, set, resp_cqe_error), ==, 0);
    /* b went to ERR with its NAK: its one posted receive is flushed */
    g_assert_cmpuint(Q_COUNTER(e, set, resp_cqe_flush_error), ==, 1);
    g_assert_cmpuint(Q_COUNTER(e, set, out_of_buffer), ==, 0);
}

/* Multicast (IBA 10.5): ATTACH_TO_MCG takes UD QPs and multicast GIDs
 * only; a datagram to QP 0xFFFFFF and the group's GID lands in every
 * attached QP, and in none after it detached; the multicast QP number to
 * a unicast address is dropped. */
static unsigned mcg_cmd(RcEnv *e, uint16_t op, uint32_t qpn, uint32_t ip)
{
    g_autoptr(HCmd) c = hcmd_new(op, 0);
    uint8_t *gid = IN_PTR(c, attach_to_mcg_in, multicast_gid);

    IN_SET(c, attach_to_mcg_in, qpn, qpn);
    gid_set_v4(gid, ip);
    return h_exec(e->h, c);
}

static void test_ud_multicast(void)
{
    g_autoptr(RcEnv) e = ud_env_new(MLX5_QP_ST_UD);
    static const uint8_t mc_mac[6] = { 0x01, 0x00, 0x5e, 0x01, 0x02, 0x03 };
    const uint32_t group = 0xef010203;              /* 239.1.2.3 */
    HRing rc = h_create_qp(e->h, MLX5_QP_ST_RC, e->h->pd, e->scq.num, e->rcq.num,
                           e->h->uar, 4, 4);
    uint32_t a_pc = 0;
    const uint8_t *cqe;

    g_assert_cmphex(mcg_cmd(e, OP_ATTACH_TO_MCG, rc.num, group), ==, MLX5_CMD_STAT_BAD_PARAM);
    g_assert_cmphex(mcg_cmd(e, OP_ATTACH_TO_MCG, e->b.num, MY_GID_V4), ==,
                    MLX5_CMD_STAT_BAD_PARAM);
    g_assert_cmphex(mcg_cmd(e, OP_ATTACH_TO_MCG, 0xabcde, group), ==, MLX5_CMD_STAT_BAD_RES);
    g_assert_cmphex(mcg_cmd(e, OP_DETACH_FROM_MCG, e->b.num, group), ==,
                    MLX5_CMD_STAT_BAD_PARAM);
    g_assert_cmphex(mcg_cmd(e, OP_ATTACH_TO_MCG, e->b.num, group), ==, MLX5_CMD_STAT_OK);
    g_assert_cmphex(mcg_cmd(e, OP_ATTACH_TO_MCG, e->b.num, group), ==, MLX5_CMD_STAT_OK);
    g_assert_cmphex(mcg_cmd(e, OP_ATTACH_TO_MCG, e->a.num, group), ==, MLX5_CMD_STAT_OK);
    fill(e, 64);
    post_recv(e, 0, MLX5_UD_GRH_BYTES + 64);
    post_recv(e, 256, MLX5_UD_GRH_BYTES + 64);
    post_recv_on(e->h, &e->a, &a_pc, e->key, 512, MLX5_UD_GRH_BYTES + 64);
    post_ud_to(e, MLX5_OPCODE_SEND, 0xffffff, UD_QKEY, 64, group, mc_mac);
    wire(e, false);
    for (int i = 0; i < 2; i++) {                    /* a and b, once each */
        cqe = h_cq_next(e->h, &e->rcq);
        g_assert_nonnull(cqe);
        g_assert_cmphex(cqe[CQE_OP_OWN] >> 4, ==, MLX5_CQE_RESP_SEND);
        g_assert_cmpuint(prm_be32(cqe + CQE_BYTE_CNT), ==, MLX5_UD_GRH_BYTES + 64);
    }
    g_assert_null(h_cq_next(e->h, &e->rcq));
    g_assert_cmpmem(h_gpa(e->h, B_BUF + MLX5_UD_GRH_BYTES), 64, h_gpa(e->h, A_BUF), 64);
    g_assert_cmphex(mcg_cmd(e, OP_DETACH_FROM_MCG, e->b.num, group), ==, MLX5_CMD_STAT_OK);
    g_assert_cmphex(mcg_cmd(e, OP_DETACH_FROM_MCG, e->a.num, group), ==, MLX5_CMD_STAT_OK);
    post_ud_to(e, MLX5_OPCODE_SEND, 0xffffff, UD_QKEY, 64, group, mc_mac);
    post_ud(e, MLX5_OPCODE_SEND, 0xffffff, UD_QKEY, 64); /* QP 0xFFFFFF, unicast GID */
    wire(e, false);
    g_assert_null(h_cq_next(e->h, &e->rcq));
}

/* With the device's loopback (as in QEMU), a datagram to a group goes out
 * on the wire once and to every QP of this device attached to it, the
 * sender's own too; a sender created with block_lb_mc (mlx5_ib's
 * IB_QP_CREATE_BLOCK_MULTICAST_LOOPBACK) reaches the wire only.  Before,
 * two processes of one guest in one group never heard each other. */
static void test_ud_multicast_loopback(void)
{
    g_autoptr(RcEnv) e = ud_env_new(MLX5_QP_ST_UD);
    static const uint8_t mc_mac[6] = { 0x01, 0x00, 0x5e, 0x01, 0x02, 0x03 };
    const uint32_t group = 0xef010203;              /* 239.1.2.3 */
    uint32_t a_pc = 0;
    unsigned wire_before;

    e->h->fw->cfg.roce_loopback = true;
    g_assert_cmphex(mcg_cmd(e, OP_ATTACH_TO_MCG, e->b.num, group), ==, MLX5_CMD_STAT_OK);
    g_assert_cmphex(mcg_cmd(e, OP_ATTACH_TO_MCG, e->a.num, group), ==, MLX5_CMD_STAT_OK);
    fill(e, 64);
    post_recv(e, 0, MLX5_UD_GRH_BYTES + 64);
    post_recv_on(e->h, &e->a, &a_pc, e->key, 512, MLX5_UD_GRH_BYTES + 64);
    wire_before = e->h->frames->len;
    post_ud_to(e, MLX5_OPCODE_SEND, 0xffffff, UD_QKEY, 64, group, mc_mac);
    g_assert_cmpuint(e->h->frames->len, ==, wire_before + 1);
    h_run_due(e->h);
    for (int i = 0; i < 2; i++) {                    /* a and b, once each */
        const uint8_t *cqe = h_cq_next(e->h, &e->rcq);

        g_assert_nonnull(cqe);
        g_assert_cmphex(cqe[CQE_OP_OWN] >> 4, ==, MLX5_CQE_RESP_SEND);
    }
    g_assert_null(h_cq_next(e->h, &e->rcq));
    g_assert_cmpmem(h_gpa(e->h, B_BUF + MLX5_UD_GRH_BYTES), 64, h_gpa(e->h, A_BUF), 64);
    post_recv(e, 0, MLX5_UD_GRH_BYTES + 64);
    PRM_SET(qpc, block_lb_mc, mlx5_qp_get(e->h->fw, e->a.num)->qpc, 1);  /* as created so */
    post_ud_to(e, MLX5_OPCODE_SEND, 0xffffff, UD_QKEY, 64, group, mc_mac);
    g_assert_cmpuint(e->h->frames->len, ==, wire_before + 2);
    h_run_due(e->h);
    g_assert_null(h_cq_next(e->h, &e->rcq));
    e->fed = e->h->frames->len;
}

/* --- shared receive queues (hw-rdma/rq.c) ---------------------------------- */

/* srq_wqe() and srq_qp_of() are rc-env.c's. */

/* An RC QP whose receives come from SRQ `srqn`. */
static HRing srq_qp(RcEnv *e, uint32_t srqn)
{
    return srq_qp_of(e, MLX5_QP_ST_RC, srqn, 0);
}

/* The next async event of `type`, skipping others; NULL if none. */
static const uint8_t *async_event(RcEnv *e, uint8_t type)
{
    const uint8_t *eqe;

    while ((eqe = h_eq_next(e->h, &e->h->async_eq))) {
        if (eqe[EQE_TYPE] == type) {
            return eqe;
        }
    }
    return NULL;
}

static const uint8_t *expect_srq_recv(RcEnv *e, uint32_t qpn, uint16_t index, uint32_t len)
{
    const uint8_t *cqe = h_cq_next(e->h, &e->rcq);

    g_assert_nonnull(cqe);
    g_assert_cmphex(cqe[CQE_OP_OWN] >> 4, ==, MLX5_CQE_RESP_SEND);
    g_assert_cmpuint(prm_be32(cqe + CQE_SOP_DROP_QPN) & 0xffffff, ==, qpn);
    g_assert_cmpuint(prm_be16(cqe + CQE_WQE_COUNTER), ==, index); /* the WQE's index */
    g_assert_cmphex(prm_be32(cqe + CQE_SRQN), ==, 0x4321); /* the QP's user index */
    g_assert_cmpuint(prm_be32(cqe + CQE_BYTE_CNT), ==, len);
    return cqe;
}

/* Two RC QPs share an RMP (the ISSI 1 SRQ): each message takes the WQE at
 * the list's head, even while another QP's multi-packet SEND is filling
 * its own; the links, not the ring order, say which is next; fewer WQEs
 * left than the limit raise the limit event once; a QP on an SRQ that
 * enters ERR flushes only the WQE it was filling and reports its last
 * WQE, the SRQ's other WQEs stay for the other QP. */
static void test_srq_shared(void)
{
    g_autoptr(RcEnv) e = env_create(MLX5_QP_ST_RC, MLX5_QP_ST_RC);
    HRing srq, s1, s2;
    uint32_t rmpn = h_create_rmp_ring(e->h, &srq, 3);
    const uint8_t *eqe;
    unsigned sent;

    s1 = srq_qp(e, rmpn);
    s2 = srq_qp(e, rmpn);
    e->timeout = 14;
    connect_qp(e, e->a.num, s1.num, 1);
    connect_qp(e, s1.num, e->a.num, 1);
    connect_qp(e, e->b.num, s2.num, 1);
    connect_qp(e, s2.num, e->b.num, 1);
    {
        g_autoptr(HCmd) m = h_modify_rmp_cmd(rmpn, ST_RDY, ST_RDY);
        IN_SET(m, modify_rmp_in, bitmask, 1);
        PRM_SET(wq, lwm, PRM_PTR(rmpc, wq, IN_PTR(m, modify_rmp_in, ctx)), 2);
        h_ok(e->h, m);
    }
    /* the list 0 -> 1 -> 5 -> 2 -> 3 -> 4, five posted */
    srq_wqe(e, &srq, 0, 1, 0, 4096);
    srq_wqe(e, &srq, 1, 5, 4096, 4096);
    srq_wqe(e, &srq, 5, 2, 8192, 4096);
    srq_wqe(e, &srq, 2, 3, 12288, 4096);
    srq_wqe(e, &srq, 3, 4, 16384, 4096);
    h_put32(e->h, srq.dbr, 5);
    fill(e, 3000);
    post_send_on(e->h, &e->a, e->key, MLX5_OPCODE_SEND, 3000, 0, 0); /* three packets */
    post_send_on(e->h, &e->b, e->key, MLX5_OPCODE_SEND, 100, 0, 0); /* one */
    g_assert_cmpuint(e->h->frames->len, ==, 4);
    feed_one(e);                                     /* a's FIRST: s1 takes WQE 0 */
    e->fed = 3;
    feed_one(e);                                     /* b's ONLY: s2 takes WQE 1 */
    e->fed = 1;
    feed_one(e);
    feed_one(e);                                     /* a's MIDDLE, LAST */
    e->fed = 4;
    wire(e, false);                                  /* the ACKs */
    expect_srq_recv(e, s2.num, 1, 100);
    expect_srq_recv(e, s1.num, 0, 3000);
    g_assert_cmpmem(h_gpa(e->h, B_BUF), 3000, h_gpa(e->h, A_BUF), 3000);
    g_assert_cmpmem(h_gpa(e->h, B_BUF + 4096), 100, h_gpa(e->h, A_BUF), 100);
    post_send_on(e->h, &e->b, e->key, MLX5_OPCODE_SEND, 64, 0, 0);
    wire(e, false);
    wire(e, false);
    expect_srq_recv(e, s2.num, 5, 64);               /* the link, not ring order */
    g_assert_null(async_event(e, MLX5_EVENT_SRQ_RQ_LIMIT));   /* 2 left, limit 2 */
    /* s1's next message stops after its FIRST packet: ERR flushes that
     * WQE (index 2) and reports the last WQE; WQE 3 stays for s2 */
    post_send_on(e->h, &e->a, e->key, MLX5_OPCODE_SEND, 2000, 0, 0);
    sent = e->h->frames->len;
    feed_one(e);
    e->fed = sent;
    g_assert_cmphex(h_modify_qp(e->h, OP_2ERR_QP, s1.num), ==, MLX5_CMD_STAT_OK);
    {
        const uint8_t *cqe = h_cq_next(e->h, &e->rcq);
        g_assert_nonnull(cqe);
        g_assert_cmphex(cqe[CQE_OP_OWN] >> 4, ==, MLX5_CQE_RESP_ERR);
        g_assert_cmphex(cqe[CQE_ERR_SYNDROME], ==, MLX5_CQE_SYNDROME_WR_FLUSH_ERR);
        g_assert_cmpuint(prm_be16(cqe + CQE_WQE_COUNTER), ==, 2);
    }
    g_assert_null(h_cq_next(e->h, &e->rcq));
    eqe = async_event(e, MLX5_EVENT_SRQ_RQ_LIMIT);   /* taking 2 left 1 < 2 */
    g_assert_nonnull(eqe);
    g_assert_cmpuint(prm_be32(eqe + EQE_QP_SRQ_NUMBER), ==, rmpn);
    g_assert_cmpuint(eqe[EQE_QP_SRQ_TYPE], ==, MLX5_EVENT_QUEUE_RQ);    /* an RMP */
    eqe = async_event(e, MLX5_EVENT_SRQ_LAST_WQE);
    g_assert_nonnull(eqe);
    g_assert_cmpuint(prm_be32(eqe + EQE_QP_SRQ_NUMBER), ==, s1.num);
    g_assert_cmpuint(eqe[EQE_QP_SRQ_TYPE], ==, MLX5_EVENT_QUEUE_QP);
    post_send_on(e->h, &e->b, e->key, MLX5_OPCODE_SEND, 32, 0, 0);
    wire(e, false);
    expect_srq_recv(e, s2.num, 3, 32);               /* the SRQ kept it */
    g_assert_null(async_event(e, MLX5_EVENT_SRQ_RQ_LIMIT));   /* fired once */
}

/* Bad SRQ WQEs: a data segment with a key the device does not know fails
 * the receive (local protection CQE, remote access NAK); a next index
 * beyond the ring is taken modulo its size and logged. */
static void test_srq_bad_wqes(void)
{
    g_autoptr(RcEnv) e = env_create(MLX5_QP_ST_RC, MLX5_QP_ST_RC);
    HRing srq, s1;
    uint32_t rmpn = h_create_rmp_ring(e->h, &srq, 2);
    const uint8_t *cqe;

    s1 = srq_qp(e, rmpn);
    e->timeout = 14;
    connect_qp(e, e->a.num, s1.num, 1);
    connect_qp(e, s1.num, e->a.num, 1);
    srq_wqe(e, &srq, 0, 0x7ff1, 0, 4096);            /* next: 0x7ff1 & 3 = 1 */
    srq_wqe(e, &srq, 1, 2, 4096, 4096);
    h_put32(e->h, srq.gpa + 1 * srq.stride + MLX5_SRQ_NEXT_SEG_BYTES + WQE_DATA_LKEY,
            e->key ^ 0x80);                          /* bad lkey */
    h_put32(e->h, srq.dbr, 2);
    fill(e, 64);
    post_send(e, MLX5_OPCODE_SEND, 64, 0);
    wire(e, false);
    wire(e, false);
    expect_srq_recv(e, s1.num, 0, 64);
    g_assert_cmpuint(e->h->guest_errors->len, ==, 1);
    g_ptr_array_set_size(e->h->guest_errors, 0);
    post_send(e, MLX5_OPCODE_SEND, 64, 0);
    wire(e, false);
    wire(e, false);
    cqe = h_cq_next(e->h, &e->rcq);
    g_assert_nonnull(cqe);
    g_assert_cmphex(cqe[CQE_OP_OWN] >> 4, ==, MLX5_CQE_RESP_ERR);
    g_assert_cmphex(cqe[CQE_ERR_SYNDROME], ==, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR);
    g_assert_cmpuint(prm_be16(cqe + CQE_WQE_COUNTER), ==, 1);
    expect_req(e, MLX5_OPCODE_SEND, 0);
    expect_req(e, MLX5_OPCODE_SEND, MLX5_CQE_SYNDROME_REMOTE_OP_ERR);
}

/* --- XRC (IBA Annex A14) ---------------------------------------------------- */

/* An XRC QP: an initiator with a send queue, or a target in XRC domain
 * `xrcd`; mlx5_ib gives both its own XRC SRQ as a placeholder. */
static HRing xrc_qp(RcEnv *e, bool target, uint32_t xrcd, uint32_t placeholder_srqn)
{
    return srq_qp_of(e, MLX5_QP_ST_XRC, placeholder_srqn, target ? xrcd : 0);
}

/* An XRC SEND: ctrl, the XRC segment naming the remote XRC SRQ, data. */
static void post_xrc_send(RcEnv *e, HRing *ini, uint32_t xrc_srqn, uint32_t len)
{
    uint8_t *w = h_sq_wqe(e->h, ini, MLX5_OPCODE_SEND, 3, MLX5_WQE_CTRL_CQ_UPDATE);

    prm_put_be32(w + MLX5_DS_BYTES, xrc_srqn);      /* mlx5_wqe_xrc_seg: xrc_srqn */
    h_data_seg(w + 2 * MLX5_DS_BYTES, len, e->key, A_BUF);
    h_sq_ring(e->h, ini);
}

/* An XRC initiator sends to a target: every request carries the XRCETH
 * with the SRQ the WQE named, the target takes the WQE from that SRQ and
 * completes it on the SRQ's CQ with the SRQ's user index, and answers
 * with XRC ACKs; a request naming an SRQ of another kind or none is
 * refused with a remote access NAK. */
static void test_xrc(void)
{
    g_autoptr(RcEnv) e = env_create(MLX5_QP_ST_RC, MLX5_QP_ST_RC);
    uint32_t xrcd = h_alloc_simple(e->h, OP_ALLOC_XRCD);
    HRing srq, other, ini, tgt;
    uint32_t srqn = xrc_srq_ring(e, xrcd, &srq);
    uint32_t rmpn = h_create_rmp_ring(e->h, &other, 2);
    const uint8_t *f, *cqe;
    Mlx5RocePkt p;
    gsize len;

    ini = xrc_qp(e, false, xrcd, srqn);
    tgt = xrc_qp(e, true, xrcd, srqn);
    e->timeout = 14;
    connect_qp(e, ini.num, tgt.num, 1);
    connect_qp(e, tgt.num, ini.num, 1);
    srq_wqe(e, &srq, 0, 1, 0, 4096);
    srq_wqe(e, &srq, 1, 2, 4096, 4096);
    h_put32(e->h, srq.dbr, 2);
    fill(e, 2500);
    post_xrc_send(e, &ini, srqn, 2500);
    f = g_bytes_get_data(g_ptr_array_index(e->h->frames, 0), &len);
    g_assert_cmpint(mlx5_roce_parse(f, len, &p), ==, MLX5_ROCE_OK);
    g_assert_cmphex(p.opcode, ==, MLX5_ROCE_XRC | MLX5_ROCE_SEND_FIRST);
    g_assert_cmpuint(p.xrc_srqn, ==, srqn);
    g_assert_cmpuint(p.dest_qpn, ==, tgt.num);
    wire(e, false);
    f = g_bytes_get_data(g_ptr_array_index(e->h->frames, e->h->frames->len - 1), &len);
    g_assert_cmpint(mlx5_roce_parse(f, len, &p), ==, MLX5_ROCE_OK);
    g_assert_cmphex(p.opcode, ==, MLX5_ROCE_XRC | MLX5_ROCE_ACKNOWLEDGE);
    wire(e, false);
    cqe = h_cq_next(e->h, &e->rcq);
    g_assert_nonnull(cqe);
    g_assert_cmphex(cqe[CQE_OP_OWN] >> 4, ==, MLX5_CQE_RESP_SEND);
    g_assert_cmpuint(prm_be32(cqe + CQE_SOP_DROP_QPN) & 0xffffff, ==, tgt.num);
    g_assert_cmphex(prm_be32(cqe + CQE_SRQN), ==, 0x5678); /* the XRC SRQ's user index */
    g_assert_cmpuint(prm_be16(cqe + CQE_WQE_COUNTER), ==, 0);
    g_assert_cmpuint(prm_be32(cqe + CQE_BYTE_CNT), ==, 2500);
    g_assert_cmpmem(h_gpa(e->h, B_BUF), 2500, h_gpa(e->h, A_BUF), 2500);
    cqe = h_cq_next(e->h, &e->scq);
    g_assert_nonnull(cqe);
    g_assert_cmphex(cqe[CQE_OP_OWN] >> 4, ==, MLX5_CQE_REQ);
    g_assert_cmphex(prm_be32(cqe + CQE_SOP_DROP_QPN), ==,
                    (uint32_t)MLX5_OPCODE_SEND << 24 | ini.num);
    post_xrc_send(e, &ini, rmpn, 16);                /* an RMP is no XRC SRQ */
    wire(e, false);
    wire(e, false);
    cqe = h_cq_next(e->h, &e->scq);
    g_assert_nonnull(cqe);
    g_assert_cmphex(cqe[CQE_ERR_SYNDROME], ==, MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
    g_assert_cmpuint(h_query_qp_state(e->h, tgt.num), ==, MLX5_QP_STATE_ERR);
    g_assert_null(h_cq_next(e->h, &e->rcq));         /* WQE 1 stays in the SRQ */
}

/* Responder events: the first request on a QP in RTR reports that
 * communication is established; a request the responder refuses for
 * access rights reports the access error of its QP. */
static void test_rc_async_events(void)
{
    g_autoptr(RcEnv) e = env_create(MLX5_QP_ST_RC, MLX5_QP_ST_RC);
    static const uint16_t to_rtr[] = { OP_RST2INIT_QP, OP_INIT2RTR_QP };
    const uint8_t *eqe;

    connect_qp(e, e->a.num, e->b.num, 1);
    for (size_t i = 0; i < G_N_ELEMENTS(to_rtr); i++) {     /* b: RTR only */
        HCmd *c = h_modify_qp_cmd(to_rtr[i], e->b.num, 0);
        uint8_t *qpc = h_modify_qp_qpc(c);
        PRM_SET(qpc, rwe, qpc, 1);
        PRM_SET(qpc, mtu, qpc, 3);
        PRM_SET(qpc, remote_qpn, qpc, e->a.num);
        PRM_SET(qpc, next_rcv_psn, qpc, 1);
        h_ok_free(e->h, c);
    }
    fill(e, 64);
    post_send(e, MLX5_OPCODE_RDMA_WRITE, 64, B_BUF);
    wire(e, false);
    eqe = async_event(e, MLX5_EVENT_COMM_EST);
    g_assert_nonnull(eqe);
    g_assert_cmpuint(prm_be32(eqe + EQE_QP_SRQ_NUMBER), ==, e->b.num);
    g_assert_cmpuint(eqe[EQE_QP_SRQ_TYPE], ==, MLX5_EVENT_QUEUE_QP);
    post_send(e, MLX5_OPCODE_RDMA_WRITE, 64, B_BUF); /* once only */
    wire(e, false);
    g_assert_null(async_event(e, MLX5_EVENT_COMM_EST));
    post_send_rkey(e, MLX5_OPCODE_RDMA_WRITE, 64, B_BUF, e->key ^ 0x80);
    wire(e, false);
    eqe = async_event(e, MLX5_EVENT_WQ_ACCESS_ERROR);
    g_assert_nonnull(eqe);
    g_assert_cmpuint(prm_be32(eqe + EQE_QP_SRQ_NUMBER), ==, e->b.num);
    g_assert_cmpuint(h_query_qp_state(e->h, e->b.num), ==, MLX5_QP_STATE_ERR);
}


/* The list of send WQEs in flight (transport.h Mlx5RcWqes): oldest first
 * through growth with the ring wrapped, completions from the front and a
 * failed WQE from the middle, each copy freed once (ASan) and the bytes
 * of the copies counted. */
static void test_rc_wqe_list(void)
{
    Mlx5QpTransport t = { 0 };
    Mlx5RcWqes *l = &t.req.wqes;
    uint16_t next = 0, want = 0;

    for (unsigned round = 0; round < 40; round++) {
        for (unsigned k = 0; k < 5; k++) {          /* post 5 */
            Mlx5RcWqe r = { .ds = 2, .wqe_index = next++, .wqe = g_malloc(32) };

            mlx5_rc_wqe_push(l, &r);
            t.req.copied += 32;
        }
        for (unsigned k = 0; k < 3; k++) {          /* complete the 3 oldest */
            g_assert_cmpuint(mlx5_rc_wqe_at(l, 0)->wqe_index, ==, want++);
            mlx5_rc_wqe_drop(&t, 0);
        }
    }
    g_assert_cmpuint(l->len, ==, 80);
    g_assert_cmpuint(l->cap, ==, 128);
    mlx5_rc_wqe_drop(&t, 10);                      /* a failed one */
    for (uint32_t i = 0; i < l->len; i++) {
        uint16_t w = (uint16_t)(want + i + (i >= 10));

        g_assert_cmpuint(mlx5_rc_wqe_at(l, i)->wqe_index, ==, w);
    }
    g_assert_cmpuint(t.req.copied, ==, 79 * 32);
    mlx5_rc_wqes_drop_all(&t);
    g_assert_cmpuint(t.req.copied, ==, 0);
    g_assert_null(l->ring);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/rc/wqe-list", test_rc_wqe_list);
    g_test_add_func("/rc/send-multi-packet", test_rc_send_multi_packet);
    g_test_add_func("/rc/write", test_rc_write);
    g_test_add_func("/rc/write-imm", test_rc_write_imm);
    g_test_add_func("/rc/errors", test_rc_errors);
    g_test_add_func("/rc/duplicate", test_rc_duplicate);
    g_test_add_func("/rc/q-counters", test_rc_q_counters);
    g_test_add_func("/rc/loopback", test_rc_loopback);
    g_test_add_func("/rc/bad-frames", test_rc_bad_frames);
    g_test_add_func("/rc/outstanding-bounded", test_rc_outstanding_bounded);
    g_test_add_func("/rc/outstanding-bytes-bounded", test_rc_outstanding_bytes_bounded);
    g_test_add_func("/rc/qp-state-charged", test_rc_qp_state_charged);
    g_test_add_func("/rc/read", test_rc_read);
    g_test_add_func("/rc/atomics", test_rc_atomics);
    g_test_add_func("/rc/rd-atomic-replay", test_rc_rd_atomic_replay);
    g_test_add_func("/rc/seq-nak-resend", test_rc_seq_nak_resend);
    g_test_add_func("/rc/ack-timeout-resend", test_rc_ack_timeout_resend);
    g_test_add_func("/rc/retry-exhausted", test_rc_retry_exhausted);
    g_test_add_func("/rc/rnr-retry", test_rc_rnr_retry);
    g_test_add_func("/rc/flush-on-error", test_rc_flush_on_error);
    g_test_add_func("/rc/flush-posted-in-err", test_rc_flush_posted_in_err);
    g_test_add_func("/rc/gone-while-busy", test_rc_gone_while_busy);
    g_test_add_func("/rc/window", test_rc_window);
    g_test_add_func("/rc/engines-impaired", test_rc_engines_impaired);
    for (size_t i = 0; i < G_N_ELEMENTS(rd_atomic_bad); i++) {
        g_autofree char *path = g_strdup_printf("/rc/rd-atomic-bad-input/%s",
                                                rd_atomic_bad[i].name);
        g_test_add_data_func(path, &rd_atomic_bad[i], test_rc_rd_atomic_bad_input);
    }
    g_test_add_func("/rc/read-bad-lengths", test_rc_read_bad_lengths);
    g_test_add_func("/ud/send-receive", test_ud_send_receive);
    g_test_add_func("/ud/qkey-and-drops", test_ud_qkey_and_drops);
    g_test_add_func("/ud/longer-than-mtu", test_ud_longer_than_mtu);
    g_test_add_func("/ud/gsi", test_ud_gsi);
    g_test_add_func("/ud/gsi-short-mads", test_ud_gsi_short_mads);
    g_test_add_func("/ud/multicast", test_ud_multicast);
    g_test_add_func("/ud/multicast-loopback", test_ud_multicast_loopback);
    g_test_add_func("/srq/shared", test_srq_shared);
    g_test_add_func("/srq/bad-wqes", test_srq_bad_wqes);
    g_test_add_func("/xrc/send", test_xrc);
    g_test_add_func("/rc/async-events", test_rc_async_events);
    return g_test_run();
}
