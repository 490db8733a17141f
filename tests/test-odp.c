/*
 * Page faults of send WQEs (hw-rdma/odp.c, firmware-sim/odp.c): while the
 * device pages, a WQE whose list names a page that is not present stalls
 * its queue behind a page-fault event until PAGE_FAULT_RESUME; the resume
 * runs it again, or fails it with error set; without an EQ for page
 * faults it fails at once; a resume for no outstanding fault is ignored;
 * a QP leaving RTS drops its fault.  A responder's faults (receive WQE,
 * SRQ WQE, RDMA target) answer RNR NAKs until the resume; after a resume
 * with error the same fault again is an access error, not a new event.
 */
#include <string.h>

#include "rc-env.h"
#include "wqe.h"

#define VA 0x7000000ull             /* where the paged key's addresses start */
#define PF_EQE_TYPE_WQ (EQE_DATA + 0x18)
#define PF_EQE_INDEX (EQE_DATA + 0x06)
#define PF_EQE_TOKEN (EQE_DATA + 0x0c)

typedef struct OdpEnv {
    RcEnv *e;
    HRing pf_eq;                /* the EQ page faults go to (mlx5_ib odp.c mlx5r_odp_create_eq) */
    uint32_t key;               /* two pages: A_BUF's first, then one not present */
} OdpEnv;

/* A key as mlx5_ib makes an ODP MR's: pg_access, page 0 there (A_BUF),
 * page 1 not (its entry 0, as a zap leaves it). */
static uint32_t paged_key(Harness *h)
{
    const uint64_t pages[] = { A_BUF | MLX5_MTT_RD_EN | MLX5_MTT_WR_EN, 0 };

    return mtt_key_of(h, VA, pages, 2, true);
}

static void odp_env(OdpEnv *o, bool pf_eq)
{
    Harness *h;

    o->e = env_new_retry(10, 7, 7);     /* rnr_retry 7: for ever, as rdma-core's tests */
    h = o->e->h;
    PRM_SET(cmd_hca_cap, pg, MLX5_CAP_CUR(h->fw, MLX5_CAP_GENERAL), 1);
    if (pf_eq) {
        o->pf_eq = h_create_eq(h, 6, 0, 1ull << MLX5_EVENT_PAGE_FAULT);
    }
    o->key = paged_key(h);
}

/* A WQE on a's queue: `opcode`, a remote address for RDMA, one data
 * segment of `len` bytes at `va` through the paged key. */
static void post_paged(OdpEnv *o, uint8_t opcode, uint64_t va, uint32_t len)
{
    Harness *h = o->e->h;
    bool rdma = opcode != MLX5_OPCODE_SEND;
    uint8_t *w = h_sq_wqe(h, &o->e->a, opcode, rdma ? 3 : 2, MLX5_WQE_CTRL_CQ_UPDATE);

    if (rdma) {
        prm_put_be64(w + MLX5_DS_BYTES + WQE_RADDR_VA, B_BUF);
        prm_put_be32(w + MLX5_DS_BYTES + WQE_RADDR_RKEY, o->e->key);
    }
    h_data_seg(w + (rdma ? 2 : 1) * MLX5_DS_BYTES, len, o->key, va);
    h_sq_ring(h, &o->e->a);
}

/* The page-fault event the device posted: its type, WQE index, token. */
static uint32_t expect_fault(OdpEnv *o, unsigned type, unsigned wqe_index)
{
    const uint8_t *eqe = h_eq_next(o->e->h, &o->pf_eq);

    g_assert_nonnull(eqe);
    g_assert_cmphex(eqe[EQE_TYPE], ==, MLX5_EVENT_PAGE_FAULT);
    g_assert_cmphex(eqe[EQE_SUB_TYPE], ==, 0);                       /* a WQE fault */
    g_assert_cmphex(prm_be32(eqe + PF_EQE_TYPE_WQ), ==, type << 24 | o->e->a.num);
    g_assert_cmpuint(prm_be16(eqe + PF_EQE_INDEX), ==, wqe_index);
    g_assert_null(h_eq_next(o->e->h, &o->pf_eq));
    return prm_be32(eqe + PF_EQE_TOKEN);
}

static void resume_wq(OdpEnv *o, unsigned type, uint32_t wq, uint32_t token, bool error)
{
    g_autoptr(HCmd) c = hcmd_new(OP_PAGE_FAULT_RESUME, 0);

    IN_SET(c, page_fault_resume_in, page_fault_type, type);
    IN_SET(c, page_fault_resume_in, wq_number, wq);
    IN_SET(c, page_fault_resume_in, token, token);
    IN_SET(c, page_fault_resume_in, error, error);
    h_ok(o->e->h, c);
    h_run_due(o->e->h);
}

static void resume(OdpEnv *o, unsigned type, uint32_t token, bool error)
{
    resume_wq(o, type, o->e->a.num, token, error);
}

/* The driver maps the page: its entry gets the address and both bits (as
 * mlx5_ib's UMR writes it, odp.c pagefault_real_mr). */
static void map_page(OdpEnv *o)
{
    Mlx5Mkey *mk = mlx5_table_get(&o->e->h->fw->mkey, o->key >> 8);

    mk->mtt[1] = (A_BUF + PAGE) | MLX5_MTT_RD_EN | MLX5_MTT_WR_EN;
}

/* The kernel takes the page back (mlx5_ib_invalidate_range zaps its entry). */
static void zap_page(OdpEnv *o)
{
    Mlx5Mkey *mk = mlx5_table_get(&o->e->h->fw->mkey, o->key >> 8);

    mk->mtt[1] = 0;
}

/* A SEND from a page not present: nothing goes out, the WQE behind it
 * waits too; the driver maps the page and resumes: both go, in order,
 * the bytes of the page that was missing arrive. */
static void test_odp_send_fault_resume(void)
{
    OdpEnv o;
    uint32_t token;
    unsigned sent;

    odp_env(&o, true);
    h_trace_watch(o.e->h, "mlx5_page_fault*");
    memset(h_gpa(o.e->h, A_BUF + PAGE), 0x5c, 0x80);
    post_recv(o.e, 0, 0x100);
    post_recv(o.e, 0x100, 0x100);
    sent = o.e->h->frames->len;
    post_paged(&o, MLX5_OPCODE_SEND, VA + PAGE, 0x80);
    post_paged(&o, MLX5_OPCODE_SEND, VA, 0x40);
    g_assert_cmpuint(o.e->h->frames->len, ==, sent);
    token = expect_fault(&o, MLX5_PF_TYPE_REQ_SEND_OR_WRITE, 0);
    g_assert_null(h_cq_next(o.e->h, &o.e->scq));
    resume(&o, MLX5_PF_TYPE_REQ_SEND_OR_WRITE, token + 1, false);     /* not that fault */
    g_assert_cmpuint(o.e->h->frames->len, ==, sent);
    map_page(&o);
    resume(&o, MLX5_PF_TYPE_REQ_SEND_OR_WRITE, token, false);
    wire(o.e, false);
    expect_req(o.e, MLX5_OPCODE_SEND, 0);
    expect_req(o.e, MLX5_OPCODE_SEND, 0);
    g_assert_cmphex(*(uint8_t *)h_gpa(o.e->h, B_BUF), ==, 0x5c);
    g_assert_cmpuint(h_traced(o.e->h, "found=0"), ==, 1);
    g_assert_cmpuint(h_traced(o.e->h, "found=1"), ==, 1);
    env_free(o.e);
}

/* A READ whose scatter list is not present: a fault of the READ type,
 * resumed; then the response lands there. */
static void test_odp_read_scatter_fault(void)
{
    OdpEnv o;
    uint32_t token;

    odp_env(&o, true);
    memset(h_gpa(o.e->h, B_BUF), 0x3a, 0x40);
    post_paged(&o, MLX5_OPCODE_RDMA_READ, VA + PAGE, 0x40);
    token = expect_fault(&o, MLX5_PF_TYPE_REQ_READ_OR_ATOMIC, 0);
    map_page(&o);
    resume(&o, MLX5_PF_TYPE_REQ_READ_OR_ATOMIC, token, false);
    wire(o.e, false);
    wire(o.e, false);
    expect_req(o.e, MLX5_OPCODE_RDMA_READ, 0);
    g_assert_cmphex(*(uint8_t *)h_gpa(o.e->h, A_BUF + PAGE), ==, 0x3a);
    env_free(o.e);
}

/* The driver could not map the page (resume with error): the WQE fails
 * as a protection error and the one behind it is flushed.  With no EQ for
 * page faults, the same at once. */
static void test_odp_fault_fails(void)
{
    for (int eq = 0; eq <= 1; eq++) {
        OdpEnv o;

        odp_env(&o, eq);
        post_paged(&o, MLX5_OPCODE_RDMA_WRITE, VA + PAGE, 0x40);
        post_paged(&o, MLX5_OPCODE_RDMA_WRITE, VA, 0x40);
        if (eq) {
            resume(&o, MLX5_PF_TYPE_REQ_SEND_OR_WRITE,
                   expect_fault(&o, MLX5_PF_TYPE_REQ_SEND_OR_WRITE, 0), true);
        }
        expect_req(o.e, MLX5_OPCODE_RDMA_WRITE, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR);
        expect_req(o.e, MLX5_OPCODE_RDMA_WRITE, MLX5_CQE_SYNDROME_WR_FLUSH_ERR);
        g_assert_cmpuint(h_query_qp_state(o.e->h, o.e->a.num), ==, MLX5_QP_STATE_ERR);
        env_free(o.e);
    }
}

/* A stalled QP moved to ERR: its fault goes, its WQEs are flushed, and a
 * late resume finds nothing. */
static void test_odp_fault_dropped_at_err(void)
{
    OdpEnv o;
    uint32_t token;

    odp_env(&o, true);
    post_paged(&o, MLX5_OPCODE_SEND, VA + PAGE, 0x40);
    token = expect_fault(&o, MLX5_PF_TYPE_REQ_SEND_OR_WRITE, 0);
    g_assert_cmphex(h_modify_qp(o.e->h, OP_2ERR_QP, o.e->a.num), ==, 0);
    h_run_due(o.e->h);
    expect_req(o.e, MLX5_OPCODE_SEND, MLX5_CQE_SYNDROME_WR_FLUSH_ERR);
    h_trace_watch(o.e->h, "mlx5_page_fault_resume");
    resume(&o, MLX5_PF_TYPE_REQ_SEND_OR_WRITE, token, false);
    g_assert_cmpuint(h_traced(o.e->h, "found=0"), ==, 1);
    env_free(o.e);
}

/* While the device does not page (pg 0) there are no faults: a WQE of
 * the paged key goes out at once and no event is posted. */
static void test_odp_not_paging(void)
{
    OdpEnv o;

    odp_env(&o, true);
    PRM_SET(cmd_hca_cap, pg, MLX5_CAP_CUR(o.e->h->fw, MLX5_CAP_GENERAL), 0);
    post_paged(&o, MLX5_OPCODE_RDMA_WRITE, VA, 0x40);
    wire(o.e, false);
    expect_req(o.e, MLX5_OPCODE_RDMA_WRITE, 0);
    g_assert_null(h_eq_next(o.e->h, &o.pf_eq));
    env_free(o.e);
}

/* The driver maps the page a receive WQE lists and resumes the fault
 * (`type` of work queue `wq`): a's next retry of its SEND of 0x40 bytes
 * lands there, both sides complete. */
static void resume_recv_lands(OdpEnv *o, unsigned type, uint32_t wq, uint32_t token)
{
    Harness *h = o->e->h;

    map_page(o);
    resume_wq(o, type, wq, token, false);
    fire_timer(o->e);
    wire(o->e, false);
    wire(o->e, false);
    expect_req(o->e, MLX5_OPCODE_SEND, 0);
    g_assert_nonnull(h_cq_next(h, &o->e->rcq));
    g_assert_cmpmem(h_gpa(h, A_BUF + PAGE), 0x40, h_gpa(h, A_BUF), 0x40);
}

/* a SENDs 0x40 bytes to b, whose receive WQE lists the page not present. */
static void send_to_absent_page(OdpEnv *o)
{
    Harness *h = o->e->h;
    uint64_t wqe = o->e->b.gpa - (uint64_t)H_QP_RQ_STRIDE * 16;

    fill(o->e, 0x40);
    post_recv(o->e, 0, 0x40);
    h_data_seg(h_gpa(h, wqe), 0x40, o->key, VA + PAGE);
    post_send(o->e, MLX5_OPCODE_SEND, 0x40, 0);
    wire(o->e, false);
}

/* b's receive WQE lists the page not present: the SEND gets an RNR NAK,
 * b raises a WQE fault of its RQ (type 2) once - a's retry before the
 * resume gets another RNR NAK and no event - and after the resume a's
 * next retry lands in the page. */
static void test_odp_recv_fault(void)
{
    OdpEnv o;
    Harness *h;
    const uint8_t *eqe;
    uint32_t token;

    odp_env(&o, true);
    h = o.e->h;
    send_to_absent_page(&o);
    eqe = h_eq_next(h, &o.pf_eq);
    g_assert_nonnull(eqe);
    g_assert_cmphex(eqe[EQE_SUB_TYPE], ==, 0);
    g_assert_cmphex(prm_be32(eqe + PF_EQE_TYPE_WQ), ==, MLX5_PF_TYPE_RESP << 24 | o.e->b.num);
    g_assert_cmpuint(prm_be16(eqe + PF_EQE_INDEX), ==, 0);
    token = prm_be32(eqe + PF_EQE_TOKEN);
    g_assert_null(h_cq_next(h, &o.e->rcq));
    fire_timer(o.e);                                    /* the RNR timer: a retries */
    wire(o.e, false);
    g_assert_null(h_eq_next(h, &o.pf_eq));              /* the fault is out already */
    resume_recv_lands(&o, MLX5_PF_TYPE_RESP, o.e->b.num, token);
    env_free(o.e);
}

/* b's driver could not map the page its receive WQE lists (resume with
 * error): a's retry meets the same absent page and b does not fault again
 * - the WQE completes with a local protection error, a's SEND fails with a
 * remote operational error, b goes to ERR.  Before, each retry raised the
 * fault again, for as long as rnr_retry allowed (for ever at 7).  With no
 * EQ for page faults, the same at the first packet. */
static void test_odp_recv_fault_refused(void)
{
    for (int eq = 0; eq <= 1; eq++) {
        OdpEnv o;
        Harness *h;
        const uint8_t *cqe;

        odp_env(&o, eq);
        h = o.e->h;
        send_to_absent_page(&o);
        if (eq) {
            cqe = h_eq_next(h, &o.pf_eq);
            g_assert_nonnull(cqe);
            h_trace_watch(h, "mlx5_page_fault_err");
            resume_wq(&o, MLX5_PF_TYPE_RESP, o.e->b.num, prm_be32(cqe + PF_EQE_TOKEN), true);
            fire_timer(o.e);                            /* a retries */
            wire(o.e, false);
            g_assert_null(h_eq_next(h, &o.pf_eq));      /* not faulted again */
            g_assert_cmpuint(h_traced(h, "resumed this fault with error"), ==, 1);
        }
        cqe = h_cq_next(h, &o.e->rcq);
        g_assert_nonnull(cqe);
        g_assert_cmphex(cqe[CQE_OP_OWN] >> 4, ==, MLX5_CQE_RESP_ERR);
        g_assert_cmphex(cqe[CQE_ERR_SYNDROME], ==, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR);
        expect_req(o.e, MLX5_OPCODE_SEND, MLX5_CQE_SYNDROME_REMOTE_OP_ERR);
        g_assert_cmpuint(h_query_qp_state(h, o.e->b.num), ==, MLX5_QP_STATE_ERR);
        env_free(o.e);
    }
}

/* a SENDs 0x40 bytes to a QP s on an RMP (the ISSI 1 SRQ) whose one
 * receive WQE lists the page not present: the fault event names the RMP
 * (type 0) and the WQE; nothing completes yet.  The event's token. */
static uint32_t srq_send_to_absent_page(OdpEnv *o, uint32_t *rmpn, HRing *s)
{
    Harness *h;
    HRing srq;
    const uint8_t *eqe;

    o->e = env_create(MLX5_QP_ST_RC, MLX5_QP_ST_RC);
    h = o->e->h;
    o->e->rnr_retry = 7;
    o->e->timeout = 14;
    PRM_SET(cmd_hca_cap, pg, MLX5_CAP_CUR(h->fw, MLX5_CAP_GENERAL), 1);
    o->pf_eq = h_create_eq(h, 6, 0, 1ull << MLX5_EVENT_PAGE_FAULT);
    o->key = paged_key(h);
    *rmpn = h_create_rmp_ring(h, &srq, 3);
    *s = srq_qp_of(o->e, MLX5_QP_ST_RC, *rmpn, 0);
    connect_qp(o->e, o->e->a.num, s->num, 1);
    connect_qp(o->e, s->num, o->e->a.num, 1);
    srq_wqe(o->e, &srq, 0, 1, 0, 0x40);
    h_data_seg(h_gpa(h, srq.gpa) + MLX5_SRQ_NEXT_SEG_BYTES, 0x40, o->key, VA + PAGE);
    h_put32(h, srq.dbr, 1);
    fill(o->e, 0x40);
    post_send(o->e, MLX5_OPCODE_SEND, 0x40, 0);
    wire(o->e, false);
    eqe = h_eq_next(h, &o->pf_eq);
    g_assert_nonnull(eqe);
    g_assert_cmphex(eqe[EQE_SUB_TYPE], ==, 0);
    g_assert_cmphex(prm_be32(eqe + PF_EQE_TYPE_WQ), ==, MLX5_PF_TYPE_RMP << 24 | *rmpn);
    g_assert_cmpuint(prm_be16(eqe + PF_EQE_INDEX), ==, 0);
    g_assert_null(h_cq_next(h, &o->e->rcq));
    return prm_be32(eqe + PF_EQE_TOKEN);
}

/* The WQE stays on the SRQ and, after the resume, the retry lands in it. */
static void test_odp_srq_recv_fault(void)
{
    OdpEnv o;
    HRing s;
    uint32_t rmpn, token = srq_send_to_absent_page(&o, &rmpn, &s);

    resume_recv_lands(&o, MLX5_PF_TYPE_RMP, rmpn, token);
    env_free(o.e);
}

/* The driver could not map the SRQ's WQE (resume with error): the retry
 * is not faulted again; the WQE is taken and completes with a local
 * protection error, a's SEND fails with a remote operational error. */
static void test_odp_srq_recv_fault_refused(void)
{
    OdpEnv o;
    HRing s;
    uint32_t rmpn, token = srq_send_to_absent_page(&o, &rmpn, &s);
    Harness *h = o.e->h;
    const uint8_t *cqe;

    resume_wq(&o, MLX5_PF_TYPE_RMP, rmpn, token, true);
    fire_timer(o.e);
    wire(o.e, false);
    g_assert_null(h_eq_next(h, &o.pf_eq));
    cqe = h_cq_next(h, &o.e->rcq);
    g_assert_nonnull(cqe);
    g_assert_cmphex(cqe[CQE_OP_OWN] >> 4, ==, MLX5_CQE_RESP_ERR);
    g_assert_cmphex(cqe[CQE_ERR_SYNDROME], ==, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR);
    expect_req(o.e, MLX5_OPCODE_SEND, MLX5_CQE_SYNDROME_REMOTE_OP_ERR);
    g_assert_cmpuint(h_query_qp_state(h, s.num), ==, MLX5_QP_STATE_ERR);
    env_free(o.e);
}

/* The RDMA page-fault event of b for a WRITE of 0x40 bytes (subtype 1:
 * the rkey, address, length; the token is b's QPN). */
static void expect_write_fault(OdpEnv *o, uint32_t rkey, uint64_t va, uint32_t op_len,
                               uint16_t pkt_len)
{
    const uint8_t *eqe = h_eq_next(o->e->h, &o->pf_eq);

    g_assert_nonnull(eqe);
    g_assert_cmphex(eqe[EQE_SUB_TYPE], ==, 1);
    g_assert_cmphex(prm_be32(eqe + EQE_DATA + 0x04), ==, rkey);
    g_assert_cmphex(prm_be64(eqe + EQE_DATA + 0x10), ==, va);
    g_assert_cmpuint(prm_be32(eqe + EQE_DATA + 0x0c), ==, op_len);
    g_assert_cmpuint(prm_be16(eqe + EQE_DATA + 0x0a), ==, pkt_len);
    g_assert_cmphex(prm_be32(eqe + EQE_DATA + 0x18), ==,
                    (MLX5_PF_RDMA | MLX5_PF_RDMA_WRITE) << 24 | o->e->b.num);
}

/* The driver resumed b's WRITE fault: a's retry lands at A_BUF + PAGE +
 * 0x10 and completes. */
static void resume_write_lands(OdpEnv *o)
{
    Harness *h = o->e->h;

    resume_wq(o, MLX5_PF_RDMA | MLX5_PF_RDMA_WRITE, o->e->b.num, o->e->b.num, false);
    fire_timer(o->e);
    wire(o->e, false);
    wire(o->e, false);
    expect_req(o->e, MLX5_OPCODE_RDMA_WRITE, 0);
    g_assert_cmpmem(h_gpa(h, A_BUF + PAGE + 0x10), 0x40, h_gpa(h, A_BUF), 0x40);
}

/* An RDMA WRITE whose target page is not present: an RDMA event (subtype
 * 1: the rkey, address, length; the token is b's QPN), an RNR NAK; after
 * the resume the retry lands. */
static void test_odp_rdma_write_fault(void)
{
    OdpEnv o;

    odp_env(&o, true);
    fill(o.e, 0x40);
    post_send_rkey(o.e, MLX5_OPCODE_RDMA_WRITE, 0x40, VA + PAGE + 0x10, o.key);
    wire(o.e, false);
    expect_write_fault(&o, o.key, VA + PAGE + 0x10, 0x40, 0x40);
    map_page(&o);
    resume_write_lands(&o);
    env_free(o.e);
}

/* b's driver could not map the WRITE's target (resume with error): a's
 * retry meets the same absent page and b does not fault again - a remote
 * access NAK, a's WRITE fails REMOTE_ACCESS_ERR, b goes to ERR.  A resume
 * with error=0 that mapped nothing (mlx5_ib on a racing invalidation)
 * only lets the retry fault again.  With no EQ, a NAK at once. */
static void test_odp_rdma_write_fault_refused(void)
{
    for (int eq = 0; eq <= 1; eq++) {
        OdpEnv o;
        Harness *h;
        unsigned type = MLX5_PF_RDMA | MLX5_PF_RDMA_WRITE;

        odp_env(&o, eq);
        h = o.e->h;
        fill(o.e, 0x40);
        post_send_rkey(o.e, MLX5_OPCODE_RDMA_WRITE, 0x40, VA + PAGE + 0x10, o.key);
        wire(o.e, false);
        if (eq) {
            expect_write_fault(&o, o.key, VA + PAGE + 0x10, 0x40, 0x40);
            resume_wq(&o, type, o.e->b.num, o.e->b.num, false);    /* nothing mapped */
            fire_timer(o.e);
            wire(o.e, false);
            expect_write_fault(&o, o.key, VA + PAGE + 0x10, 0x40, 0x40);
            resume_wq(&o, type, o.e->b.num, o.e->b.num, true);
            fire_timer(o.e);
            wire(o.e, false);
            g_assert_null(h_eq_next(h, &o.pf_eq));
        }
        expect_req(o.e, MLX5_OPCODE_RDMA_WRITE, MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
        g_assert_cmpuint(h_query_qp_state(h, o.e->b.num), ==, MLX5_QP_STATE_ERR);
        env_free(o.e);
    }
}

/* A WRITE of two packets (MTU 1024) into the paged key, page 1 there when
 * its first packet comes; the kernel takes page 1 back before the second
 * packet comes. */
static void write_second_page_taken(OdpEnv *o)
{
    Harness *h = o->e->h;

    map_page(o);
    fill(o->e, 2048);
    post_send_rkey(o->e, MLX5_OPCODE_RDMA_WRITE, 2048, VA + PAGE - 1024, o->key);
    g_assert_cmpuint(h->frames->len - o->e->fed, ==, 2);   /* FIRST, LAST */
    feed_one(o->e);
    zap_page(o);
    feed_one(o->e);
}

/* The second packet faults at its own address with what is left of the
 * message (odp.c mlx5_ib_mr_rdma_pfault_handler maps from rdma_va on),
 * gets an RNR NAK, and after the resume a sends it again: the whole
 * message lands, once, with no access error. */
static void test_odp_rdma_write_later_packet_fault(void)
{
    OdpEnv o;
    Harness *h;

    odp_env(&o, true);
    h = o.e->h;
    write_second_page_taken(&o);
    expect_write_fault(&o, o.key, VA + PAGE, 1024, 1024);
    g_assert_null(h_cq_next(h, &o.e->scq));
    wire(o.e, false);                       /* b's RNR NAK reaches a */
    map_page(&o);
    resume_wq(&o, MLX5_PF_RDMA | MLX5_PF_RDMA_WRITE, o.e->b.num, o.e->b.num, false);
    fire_timer(o.e);                        /* the RNR wait: a resends the LAST packet */
    wire(o.e, false);
    wire(o.e, false);
    expect_req(o.e, MLX5_OPCODE_RDMA_WRITE, 0);
    g_assert_cmpmem(h_gpa(h, A_BUF + PAGE - 1024), 2048, h_gpa(h, A_BUF), 2048);
    g_assert_null(h_eq_next(h, &o.pf_eq));
    env_free(o.e);
}

/* The same with no EQ for page faults: nobody can map the page, so the
 * packet is an access error (NAK remote access), a's WRITE fails with
 * REMOTE_ACCESS_ERR and b places nothing of the second page. */
static void test_odp_rdma_write_later_packet_no_eq(void)
{
    OdpEnv o;
    Harness *h;

    odp_env(&o, false);
    h = o.e->h;
    memset(h_gpa(h, A_BUF + PAGE), 0, 1024);
    write_second_page_taken(&o);
    wire(o.e, false);                       /* b's NAK reaches a */
    expect_req(o.e, MLX5_OPCODE_RDMA_WRITE, MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
    g_assert_cmpmem(h_gpa(h, A_BUF + PAGE - 1024), 1024, h_gpa(h, A_BUF), 1024);
    g_assert_true(((const uint8_t *)h_gpa(h, A_BUF + PAGE))[0] == 0);
    env_free(o.e);
}

/* --- implicit ODP: the null mkey inside a KSM key ------------------------- */

#define SLOT (1ull << 30)           /* an implicit MR's KSM entity (odp.c MLX5_KSM_PAGE_SHIFT) */

/* An implicit ODP MR as mlx5_ib makes one (odp.c mlx5_ib_alloc_implicit_mr):
 * a KSM key over all addresses, 1 GiB an entry, each entry naming the null
 * mkey (populate_klm with ZAP) until the driver maps the slot. */
static uint32_t implicit_key(Harness *h)
{
    uint32_t base = PRM_BYTE_OFF(create_mkey_in, klm_pas_mtt);
    g_autoptr(HCmd) c = hcmd_new(OP_CREATE_MKEY, 0);
    uint8_t *mkc;

    hcmd_grow_in(c, base + 4 * 8);
    mkc = IN_PTR(c, create_mkey_in, memory_key_mkey_entry);
    mkc_all_rights(mkc, h->pd);
    PRM_SET(mkc, access_mode_1_0, mkc, MLX5_MKC_ACCESS_MODE_KSM);
    PRM_SET(mkc, length64, mkc, 1);
    PRM_SET(mkc, log_page_size, mkc, 30);
    PRM_SET(mkc, translations_octword_size, mkc, 2);
    IN_SET(c, create_mkey_in, translations_octword_actual_size, 2);
    for (unsigned i = 0; i < 2; i++) {
        prm_put_be64(c->in + base + 16 * i, SLOT << 32 | MLX5_NULL_MKEY);
        prm_put_be64(c->in + base + 16 * i + 8, 0);
    }
    h_ok(h, c);
    return OUT_GET(c, create_mkey_out, mkey_index) << 8;
}

/* The driver maps slot 1 (odp.c pagefault_implicit_mr): a child MTT key
 * at 1 GiB whose first page is A_BUF + PAGE, written into the KSM entry. */
static void map_slot(Harness *h, uint32_t parent)
{
    const uint64_t page[] = { (A_BUF + PAGE) | MLX5_MTT_RD_EN | MLX5_MTT_WR_EN };
    uint32_t child = mtt_key_of(h, SLOT, page, 1, true);
    Mlx5Mkey *mk = mlx5_table_get(&h->fw->mkey, parent >> 8);

    mk->mtt[2] = SLOT << 32 | child;
    mk->mtt[3] = SLOT;
    mlx5_mkey_list_changed(mk);
}

/* QUERY_SPECIAL_CONTEXTS names the null mkey, with the caps that make
 * mlx5_ib offer implicit ODP (odp.c internal_fill_odp_caps); the key is
 * no key of its own: a gather naming it is a protection error. */
static void test_odp_special_contexts(void)
{
    OdpEnv o;
    Harness *h;
    const uint8_t *cap;
    g_autoptr(HCmd) c = hcmd_new(OP_QUERY_SPECIAL_CONTEXTS, 0);

    odp_env(&o, true);
    h = o.e->h;
    cap = MLX5_CAP_CUR(h->fw, MLX5_CAP_GENERAL);
    g_assert_true(PRM_GET(cmd_hca_cap, null_mkey, cap) &&
                  PRM_GET(cmd_hca_cap, fixed_buffer_size, cap) &&
                  PRM_GET(cmd_hca_cap, umr_extended_translation_offset, cap) &&
                  !PRM_GET(cmd_hca_cap, umr_indirect_mkey_disabled, cap));
    h_ok(h, c);
    g_assert_cmphex(OUT_GET(c, query_special_contexts_out, null_mkey), ==, MLX5_NULL_MKEY);
    g_assert_cmphex(OUT_GET(c, query_special_contexts_out, resd_lkey), ==, 0);
    o.key = MLX5_NULL_MKEY;
    post_paged(&o, MLX5_OPCODE_SEND, 0, 0x40);
    wire(o.e, false);
    g_assert_null(h_eq_next(h, &o.pf_eq));
    expect_req(o.e, MLX5_OPCODE_SEND, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR);
    env_free(o.e);
}

/* An RDMA WRITE into a slot of an implicit MR that names the null mkey:
 * an RDMA page fault on the parent's key and the address asked for; the
 * driver maps the slot and resumes; the retry lands in the child's page.
 * A SEND gathering from the other slot, still null, stalls a's queue
 * behind a WQE fault. */
static void test_odp_implicit_null_mkey(void)
{
    OdpEnv o;
    Harness *h;
    uint32_t parent;

    odp_env(&o, true);
    h = o.e->h;
    h_trace_watch(h, "mlx5_mkey_null");
    parent = implicit_key(h);
    fill(o.e, 0x40);
    post_send_rkey(o.e, MLX5_OPCODE_RDMA_WRITE, 0x40, SLOT + 0x10, parent);
    wire(o.e, false);
    expect_write_fault(&o, parent, SLOT + 0x10, 0x40, 0x40);
    g_assert_cmpuint(h_traced(h, "mlx5_mkey_null"), >=, 1);
    map_slot(h, parent);
    resume_write_lands(&o);
    o.key = parent;
    post_paged(&o, MLX5_OPCODE_SEND, 0x100, 0x40);
    expect_fault(&o, MLX5_PF_TYPE_REQ_SEND_OR_WRITE, 1);
    env_free(o.e);
}

/* Without paging an entry naming the null mkey reaches nothing: a remote
 * access error, and no event. */
static void test_odp_null_mkey_not_paging(void)
{
    OdpEnv o;
    uint32_t parent;

    odp_env(&o, true);
    PRM_SET(cmd_hca_cap, pg, MLX5_CAP_CUR(o.e->h->fw, MLX5_CAP_GENERAL), 0);
    parent = implicit_key(o.e->h);
    fill(o.e, 0x40);
    post_send_rkey(o.e, MLX5_OPCODE_RDMA_WRITE, 0x40, SLOT + 0x10, parent);
    wire(o.e, false);
    wire(o.e, false);
    expect_req(o.e, MLX5_OPCODE_RDMA_WRITE, MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
    g_assert_null(h_eq_next(o.e->h, &o.pf_eq));
    env_free(o.e);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/odp/send-fault-resume", test_odp_send_fault_resume);
    g_test_add_func("/odp/read-scatter-fault", test_odp_read_scatter_fault);
    g_test_add_func("/odp/fault-fails", test_odp_fault_fails);
    g_test_add_func("/odp/fault-dropped-at-err", test_odp_fault_dropped_at_err);
    g_test_add_func("/odp/not-paging", test_odp_not_paging);
    g_test_add_func("/odp/recv-fault", test_odp_recv_fault);
    g_test_add_func("/odp/recv-fault-refused", test_odp_recv_fault_refused);
    g_test_add_func("/odp/srq-recv-fault", test_odp_srq_recv_fault);
    g_test_add_func("/odp/srq-recv-fault-refused", test_odp_srq_recv_fault_refused);
    g_test_add_func("/odp/rdma-write-fault", test_odp_rdma_write_fault);
    g_test_add_func("/odp/rdma-write-fault-refused", test_odp_rdma_write_fault_refused);
    g_test_add_func("/odp/rdma-write-later-packet-fault", test_odp_rdma_write_later_packet_fault);
    g_test_add_func("/odp/rdma-write-later-packet-no-eq", test_odp_rdma_write_later_packet_no_eq);
    g_test_add_func("/odp/special-contexts", test_odp_special_contexts);
    g_test_add_func("/odp/implicit-null-mkey", test_odp_implicit_null_mkey);
    g_test_add_func("/odp/null-mkey-not-paging", test_odp_null_mkey_not_paging);
    return g_test_run();
}
