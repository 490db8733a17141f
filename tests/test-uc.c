/*
 * UC (the RC engine without acknowledgements, hw-rdma/rc*.c; IBA 9.8):
 * the requester completes a WQE once its last packet has gone and waits
 * for nothing, the responder answers nothing, a lost packet loses its
 * message and no more, and the responder's errors are silent.  a and b
 * are UC QPs of one device, connected to each other; the tests carry the
 * frames (rc-env.h).
 */
#include <string.h>

#include "rc-env.h"

static RcEnv *uc_env_new(uint32_t psn)
{
    RcEnv *e = env_create(MLX5_QP_ST_UC, MLX5_QP_ST_UC);

    connect_qp(e, e->a.num, e->b.num, psn);
    connect_qp(e, e->b.num, e->a.num, psn);
    return e;
}

static const uint8_t *expect_resp(RcEnv *e, uint8_t op, uint32_t bytes)
{
    const uint8_t *cqe = h_cq_next(e->h, &e->rcq);

    g_assert_nonnull(cqe);
    g_assert_cmphex(cqe[CQE_OP_OWN] >> 4, ==, op);
    g_assert_cmpuint(prm_be32(cqe + CQE_BYTE_CNT), ==, bytes);
    return cqe;
}

/* A 3-packet SEND with immediate and a 3-packet WRITE: UC opcodes, no
 * ACK asked for or sent, the sender's CQEs before anything came back. */
static void test_uc_send_write(void)
{
    g_autoptr(RcEnv) e = uc_env_new(0xfffffe);          /* PSNs wrap mod 2^24 */
    RcFrame f;

    fill(e, 3000);
    post_recv(e, 0, 4096);
    post_send(e, MLX5_OPCODE_SEND_IMM, 3000, 0);
    g_assert_cmpuint(e->h->frames->len, ==, 3);
    for (unsigned i = 0; i < 3; i++) {
        frame_take(e, i, &f);
        g_assert_cmphex(f.pkt.opcode & 0xe0, ==, MLX5_ROCE_UC);
        g_assert_false(f.pkt.ackreq);
    }
    expect_req(e, MLX5_OPCODE_SEND_IMM, 0);
    wire(e, false);
    g_assert_cmpuint(e->h->frames->len, ==, 3);          /* no ACK */
    g_assert_cmpmem(h_gpa(e->h, B_BUF), 3000, h_gpa(e->h, A_BUF), 3000);
    g_assert_cmphex(prm_be32(expect_resp(e, MLX5_CQE_RESP_SEND_IMM, 3000) + CQE_IMMEDIATE), ==,
                    0xfeedf00d);
    post_send(e, MLX5_OPCODE_RDMA_WRITE, 2500, B_BUF + 8192);
    expect_req(e, MLX5_OPCODE_RDMA_WRITE, 0);
    wire(e, false);
    g_assert_cmpuint(e->h->frames->len, ==, 6);
    g_assert_cmpmem(h_gpa(e->h, B_BUF + 8192), 2500, h_gpa(e->h, A_BUF), 2500);
    g_assert_null(h_cq_next(e->h, &e->rcq));
    g_assert_cmpuint(e->h->timer_ns, ==, UINT64_MAX);    /* no ack timer */
}

/* The middle packet of a 3-packet SEND is lost: that message is, and the
 * next one (a FIRST at a later PSN) fills the receive WQE the lost one had
 * taken.  Nothing is answered. */
static void test_uc_lost_packet_loses_message(void)
{
    g_autoptr(RcEnv) e = uc_env_new(100);
    RcFrame f;

    fill(e, 3000);
    post_recv(e, 0, 4096);
    post_send(e, MLX5_OPCODE_SEND, 3000, 0);
    post_send(e, MLX5_OPCODE_SEND, 1000, 0);
    g_assert_cmpuint(e->h->frames->len, ==, 4);
    for (unsigned i = 0; i < 4; i++) {
        if (i != 1) {
            frame_take(e, i, &f);
            frame_feed(e, &f);
        }
    }
    g_assert_cmpuint(e->h->frames->len, ==, 4);          /* no NAK */
    expect_resp(e, MLX5_CQE_RESP_SEND, 1000);
    g_assert_null(h_cq_next(e->h, &e->rcq));
    expect_req(e, MLX5_OPCODE_SEND, 0);
    expect_req(e, MLX5_OPCODE_SEND, 0);
}

/* The responder's errors drop the message and answer nothing: a WRITE
 * through a key that does not exist, a SEND with no receive WQE posted,
 * a SEND longer than its receive WQE.  The QP goes on: the next SEND
 * lands.  A frame asking for an ACK gets none. */
static void test_uc_errors_are_silent(void)
{
    g_autoptr(RcEnv) e = uc_env_new(100);
    RcFrame f;

    fill(e, 2000);
    post_send_rkey(e, MLX5_OPCODE_RDMA_WRITE, 100, B_BUF, 0xdead00);
    post_send(e, MLX5_OPCODE_SEND, 100, 0);             /* no receive WQE */
    wire(e, false);
    post_recv(e, 0, 512);
    post_send(e, MLX5_OPCODE_SEND, 2000, 0);            /* longer than the WQE */
    wire(e, false);
    g_assert_cmpuint(e->h->frames->len, ==, 4);
    g_assert_null(h_cq_next(e->h, &e->rcq));
    memset(h_gpa(e->h, B_BUF), 0, 4096);
    post_send(e, MLX5_OPCODE_SEND, 300, 0);
    frame_take(e, 4, &f);
    f.pkt.ackreq = true;
    frame_feed(e, &f);
    g_assert_cmpuint(e->h->frames->len, ==, 5);
    expect_resp(e, MLX5_CQE_RESP_SEND, 300);            /* the WQE the long one had */
    g_assert_cmpmem(h_gpa(e->h, B_BUF), 300, h_gpa(e->h, A_BUF), 300);
    for (unsigned i = 0; i < 4; i++) {
        g_assert_nonnull(h_cq_next(e->h, &e->scq));    /* the sender knew nothing */
    }
}

/* UC has no READ, atomics or SEND with invalidate (IBA 9.8.3): the WQE
 * fails with a local QP operation error and the QP's send side stops
 * (SQER) with what was posted after it kept, as for UD; its receive side
 * goes on; SQERR2RTS and a doorbell send what was kept. */
static void test_uc_read_refused(void)
{
    g_autoptr(RcEnv) e = uc_env_new(100);
    HRing b_as_sender = e->b;

    fill(e, 64);
    post_send(e, MLX5_OPCODE_RDMA_READ, 64, B_BUF);
    expect_req(e, MLX5_OPCODE_RDMA_READ, MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR);
    post_send(e, MLX5_OPCODE_SEND, 64, 0);
    g_assert_null(h_cq_next(e->h, &e->scq));
    g_assert_cmpuint(e->h->frames->len, ==, 0);
    post_recv_on(e->h, &e->a, &(uint32_t) { 0 }, e->key, 0, 64);
    post_send_on(e->h, &b_as_sender, e->key, MLX5_OPCODE_SEND, 64, 0, 0);
    wire(e, false);
    expect_resp(e, MLX5_CQE_RESP_SEND, 64);             /* a still receives */
    g_assert_cmphex(prm_be32(h_cq_next(e->h, &e->scq) + CQE_SOP_DROP_QPN) & 0xffffff, ==,
                    e->b.num);                          /* b's SEND */
    g_assert_cmphex(h_modify_qp(e->h, OP_SQERR2RTS_QP, e->a.num), ==, MLX5_CMD_STAT_OK);
    h_sq_doorbell(e->h, &e->a);
    expect_req(e, MLX5_OPCODE_SEND, 0);                 /* what a had kept */
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/uc/send-write", test_uc_send_write);
    g_test_add_func("/uc/lost-packet-loses-message", test_uc_lost_packet_loses_message);
    g_test_add_func("/uc/errors-are-silent", test_uc_errors_are_silent);
    g_test_add_func("/uc/read-refused", test_uc_read_refused);
    return g_test_run();
}
