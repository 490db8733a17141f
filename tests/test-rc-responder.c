/*
 * The RC responder's checks (hw-rdma/rc-responder.c), one case each: a
 * request QP a sent is changed on the wire (rc-env.h RcFrame) so that
 * exactly one check fails.  The responder b must answer as the IBA says
 * for that failure - the NAK (IBA 9.7.5.2.4), its QP to ERR with an
 * affiliated error (class C, IBA 9.9.3.1 / 11.6.3.1), the receive WQE a
 * SEND was filling completed in error - and leave its memory as it was;
 * the NAK fails a's WQE with the error CQE mlx5_ib maps to that NAK.
 */
#include <string.h>

#include "rc-env.h"
#include "rc.h"

enum { MTU = 1024, WATCH = 8192 };   /* rc-env's path MTU; bytes of b's memory watched */

typedef struct RespCase {
    const char *name;
    const char *why;            /* the check that fails, as b's trace names it */
    uint8_t opcode;             /* a's WQE: MLX5_OPCODE_* */
    uint32_t len;               /* its message */
    void (*feed)(RcEnv *e);     /* the request packets, as b receives them */
    uint32_t placed;            /* bytes the packets before the bad one placed */
    bool b_without_rd_atomic;   /* b's context without rre and rae */
    uint8_t aeth;               /* b's answer */
    uint8_t req_syndrome;       /* a's error CQE */
    uint8_t recv_syndrome;      /* b's receive CQE (0: none) */
} RespCase;

/* Request packet i unchanged. */
static void feed_as_sent(RcEnv *e, unsigned i)
{
    RcFrame f;

    frame_take(e, i, &f);
    frame_feed(e, &f);
}

/* --- the requests, changed -------------------------------------------- */

/* A FIRST packet carries exactly one path MTU (IBA 9.7.5.1.1, C9-88). */
static void first_short(RcEnv *e)
{
    RcFrame f;

    frame_take(e, 0, &f);
    f.len = MTU - 24;
    frame_feed(e, &f);
}

/* So does a MIDDLE one. */
static void middle_long(RcEnv *e)
{
    RcFrame f;

    feed_as_sent(e, 0);
    frame_take(e, 1, &f);
    f.len = MTU + 4;
    frame_feed(e, &f);
}

/* An ONLY packet carries at most one MTU (C9-89); its RETH agrees. */
static void only_over_mtu(RcEnv *e)
{
    RcFrame f;

    frame_take(e, 0, &f);
    f.len = MTU + 100;
    f.pkt.reth.dma_len = MTU + 100;
    frame_feed(e, &f);
}

/* A LAST packet carries 1 to one MTU (C9-90): a 3-packet WRITE whose
 * LAST has `last_len` bytes, its FIRST's RETH saying so, so that only the
 * LAST's size is wrong. */
static void feed_with_last(RcEnv *e, size_t last_len)
{
    RcFrame f;

    frame_take(e, 0, &f);
    f.pkt.reth.dma_len = (uint32_t)(2 * MTU + last_len);
    frame_feed(e, &f);
    feed_as_sent(e, 1);
    frame_take(e, 2, &f);
    f.len = last_len;
    frame_feed(e, &f);
}

static void last_over_mtu(RcEnv *e)
{
    feed_with_last(e, MTU + 100);
}

static void last_empty(RcEnv *e)
{
    feed_with_last(e, 0);
}

/* A WRITE's bytes stay within the DMA length its RETH names (C9-92) ... */
static void write_beyond_dma_len(RcEnv *e)
{
    RcFrame f;

    frame_take(e, 0, &f);
    f.pkt.reth.dma_len = 50;
    frame_feed(e, &f);
}

/* ... and fill it by the last packet. */
static void write_short_of_dma_len(RcEnv *e)
{
    RcFrame f;

    frame_take(e, 0, &f);
    f.pkt.reth.dma_len = 200;
    frame_feed(e, &f);
}

/* A MIDDLE or LAST continues the message its FIRST began, of the same
 * kind (IBA 9.7.5.1.1, C9-86): packet 1 of the message as another
 * operation's. */
static void feed_second_as(RcEnv *e, uint8_t opcode)
{
    RcFrame f;

    feed_as_sent(e, 0);
    frame_take(e, 1, &f);
    f.pkt.opcode = MLX5_ROCE_RC | opcode;
    f.pkt.imm_data = 0x1234;
    frame_feed(e, &f);
}

static void send_middle_in_write(RcEnv *e)
{
    feed_second_as(e, MLX5_ROCE_SEND_MIDDLE);
}

static void write_last_imm_in_send(RcEnv *e)
{
    feed_second_as(e, MLX5_ROCE_RDMA_WRITE_LAST_WITH_IMMEDIATE);
}

/* READ and atomics as sent, to a responder without resources for them. */
static void request_as_sent(RcEnv *e)
{
    feed_as_sent(e, 0);
}

static const RespCase resp_cases[] = {
    { "write-first-short", "length against the path MTU",
      MLX5_OPCODE_RDMA_WRITE, 3000, first_short, 0, false,
      AETH_NAK_INVALID_REQ, MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR, 0 },
    { "write-middle-long", "length against the path MTU",
      MLX5_OPCODE_RDMA_WRITE, 3000, middle_long, MTU, false,
      AETH_NAK_INVALID_REQ, MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR, 0 },
    { "write-only-over-mtu", "length against the path MTU",
      MLX5_OPCODE_RDMA_WRITE, 1000, only_over_mtu, 0, false,
      AETH_NAK_INVALID_REQ, MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR, 0 },
    { "write-last-over-mtu", "length against the path MTU",
      MLX5_OPCODE_RDMA_WRITE, 3000, last_over_mtu, 2 * MTU, false,
      AETH_NAK_INVALID_REQ, MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR, 0 },
    { "write-last-empty", "length against the path MTU",
      MLX5_OPCODE_RDMA_WRITE, 3000, last_empty, 2 * MTU, false,
      AETH_NAK_INVALID_REQ, MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR, 0 },
    { "write-beyond-dma-len", "length against the path MTU",
      MLX5_OPCODE_RDMA_WRITE, 100, write_beyond_dma_len, 0, false,
      AETH_NAK_INVALID_REQ, MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR, 0 },
    { "write-short-of-dma-len", "length against the path MTU",
      MLX5_OPCODE_RDMA_WRITE, 100, write_short_of_dma_len, 0, false,
      AETH_NAK_INVALID_REQ, MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR, 0 },
    { "send-middle-long", "length against the path MTU",
      MLX5_OPCODE_SEND, 3000, middle_long, MTU, false,
      AETH_NAK_INVALID_REQ, MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR,
      MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR },
    { "send-middle-in-write", "opcode out of sequence",
      MLX5_OPCODE_RDMA_WRITE, 3000, send_middle_in_write, MTU, false,
      AETH_NAK_INVALID_REQ, MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR, 0 },
    { "write-last-imm-in-send", "opcode out of sequence",
      MLX5_OPCODE_SEND, 3000, write_last_imm_in_send, MTU, false,
      AETH_NAK_INVALID_REQ, MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR,
      MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR },
    { "read-no-responder-resources", "no responder resources",
      MLX5_OPCODE_RDMA_READ, 64, request_as_sent, 0, true,
      AETH_NAK_INVALID_REQ, MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR, 0 },
    { "atomic-no-responder-resources", "no responder resources",
      MLX5_OPCODE_ATOMIC_FA, 8, request_as_sent, 0, true,
      AETH_NAK_INVALID_REQ, MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR, 0 },
};

/* --- the run ------------------------------------------------------------ */

/* RTS2RTS with RRE and RAE named and off: max_dest_rd_atomic 0, as mlx5_ib
 * encodes it (qp.c set_qpc_atomic_flags). */
static void no_rd_atomic(RcEnv *e, uint32_t qpn)
{
    enum { OPTPAR_RRE = 1u << 1, OPTPAR_RAE = 1u << 2 };
    g_autoptr(HCmd) c = h_modify_qp_cmd(OP_RTS2RTS_QP, qpn, OPTPAR_RRE | OPTPAR_RAE);

    PRM_SET(qpc, rre, h_modify_qp_qpc(c), 0);
    PRM_SET(qpc, rae, h_modify_qp_qpc(c), 0);
    h_ok(e->h, c);
}

/* a's request for the case: data at A_BUF; a SEND gets a receive WQE. */
static void post_request(RcEnv *e, const RespCase *t)
{
    fill(e, t->len);
    if (t->opcode == MLX5_OPCODE_SEND) {
        post_recv(e, 0, WATCH);
    }
    if (t->opcode == MLX5_OPCODE_ATOMIC_FA) {
        post_atomic(e, t->opcode, B_BUF, 1, 0);
    } else {
        post_send(e, t->opcode, t->len, t->opcode == MLX5_OPCODE_SEND ? 0 : B_BUF);
    }
}

/* The last frame b sent is an ACKNOWLEDGE with this AETH syndrome. */
static void expect_nak(RcEnv *e, uint8_t aeth)
{
    RcFrame f;

    frame_take(e, e->h->frames->len - 1, &f);
    g_assert_cmphex(f.pkt.opcode, ==, MLX5_ROCE_RC | MLX5_ROCE_ACKNOWLEDGE);
    g_assert_cmphex(f.pkt.aeth.syndrome, ==, aeth);
}

static void test_responder_check(gconstpointer p)
{
    const RespCase *t = p;
    g_autoptr(RcEnv) e = env_new(500);
    g_autofree uint8_t *before = NULL;
    unsigned sent;
    const uint8_t *cqe;

    memset(h_gpa(e->h, B_BUF), 0xcc, WATCH);
    if (t->b_without_rd_atomic) {
        no_rd_atomic(e, e->b.num);
    }
    post_request(e, t);
    sent = e->h->frames->len;
    before = g_memdup2(h_gpa(e->h, B_BUF), WATCH);
    h_trace_watch(e->h, "mlx5_rc_resp_err");
    t->feed(e);                 /* the packets before the bad one place their bytes */
    g_assert_cmpuint(e->h->frames->len, ==, sent + 1);
    expect_nak(e, t->aeth);
    g_assert_cmpuint(h_traced(e->h, t->why), ==, 1);
    g_assert_cmpmem(h_gpa(e->h, B_BUF + t->placed), WATCH - t->placed, before + t->placed,
                    WATCH - t->placed);
    g_assert_cmpuint(h_query_qp_state(e->h, e->b.num), ==, MLX5_QP_STATE_ERR);
    cqe = h_cq_next(e->h, &e->rcq);
    if (t->recv_syndrome) {
        g_assert_nonnull(cqe);
        g_assert_cmphex(cqe[CQE_OP_OWN] >> 4, ==, MLX5_CQE_RESP_ERR);
        g_assert_cmphex(cqe[CQE_ERR_SYNDROME], ==, t->recv_syndrome);
    }
    e->fed = sent;              /* the NAK back to a */
    wire(e, false);
    expect_req(e, t->opcode, t->req_syndrome);
}

/* A SEND_MIDDLE inside a WRITE, after a SEND that completed: nothing of it
 * may land in that SEND's receive buffer, which the consumer already has
 * back (IBA 9.7.5.1.1, C9-86: the opcode is out of sequence). */
static void test_send_middle_after_send(void)
{
    g_autoptr(RcEnv) e = env_new(700);
    g_autofree uint8_t *received = NULL;
    unsigned sent;
    RcFrame f;

    fill(e, 3000);
    post_recv(e, 0, WATCH);
    post_send(e, MLX5_OPCODE_SEND, 3000, 0);
    wire(e, false);
    wire(e, false);
    expect_req(e, MLX5_OPCODE_SEND, 0);
    g_assert_cmphex(h_cq_next(e->h, &e->rcq)[CQE_OP_OWN] >> 4, ==, MLX5_CQE_RESP_SEND);
    received = g_memdup2(h_gpa(e->h, B_BUF), WATCH);

    memset(h_gpa(e->h, A_BUF), 0x5e, 3000);
    h_trace_watch(e->h, "mlx5_rc_resp_err");
    sent = e->h->frames->len;
    post_send(e, MLX5_OPCODE_RDMA_WRITE, 3000, B_BUF + WATCH);
    feed_as_sent(e, sent);
    frame_take(e, sent + 1, &f);
    f.pkt.opcode = MLX5_ROCE_RC | MLX5_ROCE_SEND_MIDDLE;
    frame_feed(e, &f);
    expect_nak(e, AETH_NAK_INVALID_REQ);
    g_assert_cmpuint(h_traced(e->h, "opcode out of sequence"), ==, 1);
    g_assert_cmpmem(h_gpa(e->h, B_BUF), WATCH, received, WATCH);
    g_assert_cmpuint(h_query_qp_state(e->h, e->b.num), ==, MLX5_QP_STATE_ERR);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    for (size_t i = 0; i < G_N_ELEMENTS(resp_cases); i++) {
        g_autofree char *path = g_strdup_printf("/rc-responder/%s", resp_cases[i].name);
        g_test_add_data_func(path, &resp_cases[i], test_responder_check);
    }
    g_test_add_func("/rc-responder/send-middle-after-send", test_send_middle_after_send);
    return g_test_run();
}
