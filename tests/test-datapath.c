/*
 * The data path as mlx5e drives it: send WQEs rung through the UAR
 * (BlueFlame doorbell, 64-bit or split in two 32-bit writes), CQEs with
 * the owner bit, completion EQEs when the CQ is armed, MSI-X when the EQ
 * is armed; error CQEs and the SQ error state for malformed WQEs; frames
 * on the wire and the port counters.
 */
#include <string.h>

#include "harness-dev.h"

#define CQ_UPDATE MLX5_WQE_CTRL_CQ_UPDATE
#define DATA_GPA (GUEST_BASE + (8u << 20))      /* payloads live here */

typedef struct SqEnv {
    Harness *h;
    HRing cq, sq;
    uint32_t lkey;
} SqEnv;

/* A key for all of memory (length64, as mlx5e's), so only the DMA itself
 * can fail. */
static uint32_t mkey_everything(Harness *h, uint32_t pd)
{
    g_autoptr(HCmd) c = hcmd_new(OP_CREATE_MKEY, 0);
    uint8_t *mkc = IN_PTR(c, create_mkey_in, memory_key_mkey_entry);

    PRM_SET(mkc, pd, mkc, pd);
    PRM_SET(mkc, lr, mkc, 1);
    PRM_SET(mkc, length64, mkc, 1);
    h_ok(h, c);
    return OUT_GET(c, create_mkey_out, mkey_index) << 8;
}

static SqEnv *env_new_sized(uint32_t cq_log, uint32_t sq_log)
{
    SqEnv *e = g_new0(SqEnv, 1);

    e->h = h_new_device();
    h_bringup(e->h);
    e->lkey = mkey_everything(e->h, e->h->pd);
    e->cq = h_create_cq(e->h, e->h->comp_eq.num, cq_log);
    e->sq = h_create_sq(e->h, e->cq.num, sq_log);
    g_assert_cmphex(h_modify_sq(e->h, e->sq.num, ST_RST, ST_RDY), ==, MLX5_CMD_STAT_OK);
    return e;
}

static SqEnv *env_new(void)
{
    return env_new_sized(4, 6);
}

static void env_free(SqEnv *e)
{
    h_free(e->h);
    g_free(e);
}
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SqEnv, env_free)

static void nop(SqEnv *e, HRing *sq, uint8_t ds, uint8_t flags)
{
    h_sq_wqe(e->h, sq, MLX5_OPCODE_NOP, ds, flags);
    h_sq_ring(e->h, sq);
}

static const uint8_t *expect_cqe(SqEnv *e, unsigned opcode, uint16_t wqe_counter, uint32_t qpn)
{
    return h_expect_cqe(e->h, &e->cq, opcode, wqe_counter, qpn);
}

static void expect_error_cqe(SqEnv *e, HRing *sq, uint16_t wqe_counter, uint8_t syndrome)
{
    const uint8_t *cqe = expect_cqe(e, MLX5_CQE_REQ_ERR, wqe_counter, sq->num);

    g_assert_cmphex(cqe[CQE_ERR_SYNDROME], ==, syndrome);
    g_assert_cmpuint(h_query_sq_state(e->h, sq->num), ==, ST_ERR);
}

static uint32_t hw_counter(SqEnv *e, uint32_t sqn)
{
    g_autoptr(HCmd) c = hcmd_new(OP_QUERY_SQ, 0);
    uint8_t *ctx;

    IN_SET(c, query_sq_in, sqn, sqn);
    h_ok(e->h, c);
    ctx = OUT_PTR(c, query_sq_out, sq_context);
    return PRM_GET(wq, hw_counter, PRM_PTR(sqc, wq, ctx));
}

/* --- completions ------------------------------------------------------ */

static void test_nop_with_cq_update_gives_cqe(void)
{
    g_autoptr(SqEnv) e = env_new();
    const uint8_t *cqe;

    nop(e, &e->sq, 1, CQ_UPDATE);
    cqe = expect_cqe(e, MLX5_CQE_REQ, 0, e->sq.num);
    g_assert_cmphex(cqe[CQE_OP_OWN] & 1, ==, 0);                 /* first pass */
    g_assert_null(h_cq_next(e->h, &e->cq));
    g_assert_cmpuint(hw_counter(e, e->sq.num), ==, 1);
    g_assert_cmpuint(h_nerrors(e->h), ==, 0);
}

static void test_unsignaled_wqes_are_silent(void)
{
    g_autoptr(SqEnv) e = env_new();

    h_sq_wqe(e->h, &e->sq, MLX5_OPCODE_NOP, 1, 0);
    h_sq_wqe(e->h, &e->sq, MLX5_OPCODE_NOP, 1, 0);
    h_sq_wqe(e->h, &e->sq, MLX5_OPCODE_NOP, 1, CQ_UPDATE);
    h_sq_ring(e->h, &e->sq);
    expect_cqe(e, MLX5_CQE_REQ, 2, e->sq.num);
    g_assert_null(h_cq_next(e->h, &e->cq));
}

static void test_multi_block_wqe_advances_counter(void)
{
    g_autoptr(SqEnv) e = env_new();

    h_sq_wqe(e->h, &e->sq, MLX5_OPCODE_NOP, 5, CQ_UPDATE);      /* 80 bytes: 2 WQEBBs */
    h_sq_wqe(e->h, &e->sq, MLX5_OPCODE_NOP, 1, CQ_UPDATE);
    h_sq_ring(e->h, &e->sq);
    expect_cqe(e, MLX5_CQE_REQ, 0, e->sq.num);
    expect_cqe(e, MLX5_CQE_REQ, 2, e->sq.num);
    g_assert_cmpuint(hw_counter(e, e->sq.num), ==, 3);
}

static void test_cqe_owner_bit_flips_on_wrap(void)
{
    g_autoptr(SqEnv) e = env_new_sized(1, 6);                     /* 2 CQEs */

    for (unsigned i = 0; i < 6; i++) {
        const uint8_t *cqe;
        nop(e, &e->sq, 1, CQ_UPDATE);
        cqe = expect_cqe(e, MLX5_CQE_REQ, i, e->sq.num);
        g_assert_cmphex(cqe[CQE_OP_OWN] & 1, ==, (i >> 1) & 1);
    }
}

static void test_completion_event_needs_armed_cq(void)
{
    g_autoptr(SqEnv) e = env_new();
    HRing *eq = &e->h->comp_eq;
    const uint8_t *eqe;

    nop(e, &e->sq, 1, CQ_UPDATE);                               /* CQ not armed */
    g_assert_null(h_eq_next(e->h, eq));
    g_assert_nonnull(h_cq_next(e->h, &e->cq));
    h_cq_arm(e->h, &e->cq);
    g_assert_null(h_eq_next(e->h, eq));                         /* nothing new yet */
    nop(e, &e->sq, 1, CQ_UPDATE);
    eqe = h_eq_next(e->h, eq);
    g_assert_nonnull(eqe);
    g_assert_cmphex(eqe[EQE_TYPE], ==, MLX5_EVENT_COMP);
    g_assert_cmphex(prm_be32(eqe + EQE_COMP_CQN) & 0xffffff, ==, e->cq.num);
    g_assert_cmpuint(h_msix_count(e->h, 1), ==, 1);             /* comp EQ vector */
    nop(e, &e->sq, 1, CQ_UPDATE);                               /* CQ fired: disarmed */
    g_assert_null(h_eq_next(e->h, eq));
}

/* MODIFY_CQ moderation as mlx5_core_modify_cq_moderation sends it. */
static void set_moderation_mode(SqEnv *e, uint16_t period_us, uint16_t max_count, uint8_t mode)
{
    HCmd *c = hcmd_new(OP_MODIFY_CQ, 0);
    uint8_t *cqc = IN_PTR(c, modify_cq_in, cq_context);

    IN_SET(c, modify_cq_in, cqn, e->cq.num);
    IN_SET(c, modify_cq_in, modify_field_select_resize_field_select, 0x13);
    PRM_SET(cqc, cq_period, cqc, period_us);
    PRM_SET(cqc, cq_max_count, cqc, max_count);
    PRM_SET(cqc, cq_period_mode, cqc, mode);
    h_ok_free(e->h, c);
}

static void set_moderation(SqEnv *e, uint16_t period_us, uint16_t max_count)
{
    set_moderation_mode(e, period_us, max_count, MLX5_CQ_PERIOD_MODE_START_FROM_EQE);
}

/* The event waits for cq_max_count CQEs ... */
static void test_moderation_by_count(void)
{
    g_autoptr(SqEnv) e = env_new();
    HRing *eq = &e->h->comp_eq;

    set_moderation(e, 50, 3);
    h_cq_arm(e->h, &e->cq);
    nop(e, &e->sq, 1, CQ_UPDATE);
    nop(e, &e->sq, 1, CQ_UPDATE);
    g_assert_null(h_eq_next(e->h, eq));
    g_assert_cmpuint(e->h->timer_ns, ==, e->h->clock_ns + 50000);
    nop(e, &e->sq, 1, CQ_UPDATE);
    g_assert_nonnull(h_eq_next(e->h, eq));
    e->h->clock_ns += 50000;                        /* the timer finds it done */
    mlx5_dev_timer(e->h->dev);
    g_assert_null(h_eq_next(e->h, eq));
    g_assert_true(h_dp(e->h)->timer_deadline == UINT64_MAX);     /* not re-armed */
}

/* ... or for cq_period after the first CQE; period 0 is no moderation. */
static void test_moderation_by_period(void)
{
    g_autoptr(SqEnv) e = env_new();
    HRing *eq = &e->h->comp_eq;

    set_moderation(e, 8, 64);
    h_cq_arm(e->h, &e->cq);
    nop(e, &e->sq, 1, CQ_UPDATE);
    e->h->clock_ns += 7999;
    mlx5_dev_timer(e->h->dev);                     /* early: still held */
    g_assert_null(h_eq_next(e->h, eq));
    g_assert_cmpuint(e->h->timer_ns, ==, e->h->clock_ns + 1);
    e->h->clock_ns += 1;
    mlx5_dev_timer(e->h->dev);
    g_assert_nonnull(h_eq_next(e->h, eq));
    g_assert_cmpuint(h_msix_count(e->h, 1), ==, 1);
    set_moderation(e, 0, 64);
    h_cq_arm(e->h, &e->cq);
    nop(e, &e->sq, 1, CQ_UPDATE);
    g_assert_nonnull(h_eq_next(e->h, eq));
}

/* START_FROM_CQE: each CQE restarts the period. */
static void test_moderation_period_from_cqe(void)
{
    g_autoptr(SqEnv) e = env_new();
    HRing *eq = &e->h->comp_eq;

    set_moderation_mode(e, 8, 0, MLX5_CQ_PERIOD_MODE_START_FROM_CQE);
    h_cq_arm(e->h, &e->cq);
    nop(e, &e->sq, 1, CQ_UPDATE);
    e->h->clock_ns += 6000;
    nop(e, &e->sq, 1, CQ_UPDATE);
    e->h->clock_ns += 2000;                         /* 8 us after the first */
    mlx5_dev_timer(e->h->dev);
    g_assert_null(h_eq_next(e->h, eq));
    g_assert_cmpuint(e->h->timer_ns, ==, e->h->clock_ns + 6000);
    e->h->clock_ns += 6000;
    mlx5_dev_timer(e->h->dev);
    g_assert_nonnull(h_eq_next(e->h, eq));
}

/* A held event whose CQ is destroyed, or whose device is reset, is
 * dropped when the timer fires. */
static void test_moderation_cq_gone(void)
{
    g_autoptr(SqEnv) e = env_new();

    set_moderation(e, 8, 0);
    h_cq_arm(e->h, &e->cq);
    nop(e, &e->sq, 1, CQ_UPDATE);
    g_assert_cmpuint(mlx5_deadlines_len(&h_dp(e->h)->cq_moderated), ==, 1);
    mlx5_dev_reset(e->h->dev, "test");
    e->h->clock_ns += 8000;
    mlx5_dev_timer(e->h->dev);
    g_assert_cmpuint(mlx5_deadlines_len(&h_dp(e->h)->cq_moderated), ==, 0);
    g_assert_true(h_dp(e->h)->timer_deadline == UINT64_MAX);
}

/* What libmlx5 does after MODIFY_CQ resize (mlx5_cq_resize_copy_cqes):
 * the CQEs it has not polled, old[i] -> new[i + 1] with the new owner bit,
 * up to the RESIZE CQE, which must be there; then one past it. */
static void cq_resize_copy(SqEnv *e, HRing *fresh)
{
    uint32_t i = e->cq.ci;

    for (;; i++) {
        const uint8_t *old = (uint8_t *)h_gpa(e->h, e->cq.gpa) +
                             (i & ((1u << e->cq.log_size) - 1)) * e->cq.stride;
        uint8_t *to = (uint8_t *)h_gpa(e->h, fresh->gpa) +
                      ((i + 1) & ((1u << fresh->log_size) - 1)) * fresh->stride;

        g_assert_cmpuint(old[CQE_OP_OWN] & 1, ==, (i >> e->cq.log_size) & 1);  /* sw's */
        if (old[CQE_OP_OWN] >> 4 == 0x5) {                                     /* RESIZE_CQ */
            break;
        }
        memcpy(to, old, MLX5_CQE_BYTES);
        to[CQE_OP_OWN] = (uint8_t)((to[CQE_OP_OWN] & 0xfe) | (((i + 1) >> fresh->log_size) & 1));
    }
    fresh->ci = e->cq.ci + 1;
    e->cq = *fresh;
}

/* MODIFY_CQ op_mod 1 (ibv_resize_cq): a 4-entry CQ with two CQEs not
 * polled grows to 8 entries; the RESIZE CQE is where the third CQE would
 * have gone, the two are polled from the new ring after the copy, and
 * every later CQE goes there; QUERY_CQ reports the new size. */
static void test_cq_resize(void)
{
    g_autoptr(SqEnv) e = env_new_sized(2, 6);
    HRing fresh;
    g_autoptr(HCmd) q = hcmd_new(OP_QUERY_CQ, 0);
    uint8_t *cqc;

    nop(e, &e->sq, 1, CQ_UPDATE);
    nop(e, &e->sq, 1, CQ_UPDATE);
    h_ok_free(e->h, h_resize_cq_cmd(e->h, &e->cq, 3, &fresh));
    cq_resize_copy(e, &fresh);
    for (uint16_t n = 0; n < 7; n++) {
        if (n >= 2) {
            nop(e, &e->sq, 1, CQ_UPDATE);
        }
        expect_cqe(e, MLX5_CQE_REQ, n, e->sq.num);
    }
    IN_SET(q, query_cq_in, cqn, e->cq.num);
    h_ok(e->h, q);
    cqc = OUT_PTR(q, query_cq_out, cq_context);
    g_assert_cmpuint(PRM_GET(cqc, log_cq_size, cqc), ==, 3);
    g_assert_cmpuint(PRM_GET(cqc, producer_counter, cqc), ==, 8);   /* 7 CQEs + RESIZE */
}

/* Resizes the device refuses, each leaving the CQ as it was: more CQEs
 * not polled than the new ring holds (the third CQE still goes to the old
 * ring, no RESIZE CQE there), a CQE size of its own, a size beyond the
 * capability, a page list short of the ring, a field select for a umem,
 * another op_mod, a CQ that does not exist.  A failed resize charges no
 * host memory. */
static void test_cq_resize_refused(void)
{
    g_autoptr(SqEnv) e = env_new_sized(2, 6);
    Harness *h = e->h;
    uint64_t used = h->fw->host_mem.used;
    HRing fresh;
    HCmd *c[7];

    nop(e, &e->sq, 1, CQ_UPDATE);
    nop(e, &e->sq, 1, CQ_UPDATE);
    c[0] = h_resize_cq_cmd(h, &e->cq, 1, &fresh);           /* 2 entries, 2 CQEs */
    h_fail(h, c[0], MLX5_CMD_STAT_BAD_SIZE_OUTS_CQES, MLX5_SYND_CQES_OUTSTANDING);
    c[1] = h_resize_cq_cmd(h, &e->cq, 3, &fresh);
    PRM_SET(cqc, cqe_sz, IN_PTR(c[1], modify_cq_in, cq_context), 1);
    h_fail(h, c[1], MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_STRIDE);
    c[2] = h_resize_cq_cmd(h, &e->cq, 3, &fresh);
    PRM_SET(cqc, log_cq_size, IN_PTR(c[2], modify_cq_in, cq_context), 23);
    h_fail(h, c[2], MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_SIZE);
    c[3] = h_resize_cq_cmd(h, &e->cq, 8, &fresh);           /* 16 KiB: 4 pages */
    c[3]->inlen -= 8;
    h_fail(h, c[3], MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_PAS_TOO_SHORT);
    c[4] = h_resize_cq_cmd(h, &e->cq, 3, &fresh);
    IN_SET(c[4], modify_cq_in, modify_field_select_resize_field_select, 0xf);
    h_fail(h, c[4], MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_OP_MOD);
    c[5] = h_resize_cq_cmd(h, &e->cq, 3, &fresh);
    IN_SET(c[5], mbox_in, op_mod, 2);
    h_fail(h, c[5], MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_BAD_OP_MOD);
    c[6] = h_resize_cq_cmd(h, &e->cq, 3, &fresh);
    IN_SET(c[6], modify_cq_in, cqn, 0xabcd);
    h_fail(h, c[6], MLX5_CMD_STAT_BAD_RES, MLX5_SYND_BAD_CQ);
    for (unsigned i = 0; i < G_N_ELEMENTS(c); i++) {
        hcmd_free(c[i]);
    }
    g_assert_cmpuint(h->fw->host_mem.used, ==, used);
    nop(e, &e->sq, 1, CQ_UPDATE);                           /* still the old ring */
    for (uint16_t n = 0; n < 3; n++) {
        expect_cqe(e, MLX5_CQE_REQ, n, e->sq.num);
    }
}

/* A resize to a page list on the heap charges it to the host-memory
 * budget, and destroying the CQ gives back what it holds then. */
static void test_cq_resize_charged(void)
{
    g_autoptr(SqEnv) e = env_new_sized(2, 6);
    Harness *h = e->h;
    uint64_t before = h->fw->host_mem.used;
    HRing fresh;
    g_autoptr(HCmd) d = hcmd_new(OP_DESTROY_CQ, 0);
    HRing cq = h_create_cq(h, h->comp_eq.num, 2);
    uint64_t with_cq = h->fw->host_mem.used;

    g_assert_cmpuint(with_cq, >, before);
    h_ok_free(h, h_resize_cq_cmd(h, &cq, 12, &fresh));      /* 256 KiB: 64 pages */
    g_assert_cmpuint(h->fw->host_mem.used, ==, with_cq + 64 * 8);
    h_ok_free(h, h_resize_cq_cmd(h, &fresh, 2, &cq));
    g_assert_cmpuint(h->fw->host_mem.used, ==, with_cq);
    IN_SET(d, destroy_cq_in, cqn, cq.num);
    h_ok(h, d);
    g_assert_cmpuint(h->fw->host_mem.used, ==, before);
}

/* 300 CQs with moderation, their events held from times in the reverse
 * order of the CQs: once due, the timer raises them soonest first, a
 * slice's worth per call.  Before: each call scanned every held event and
 * raised all the due ones at once. */
static void test_moderation_many_cqs(void)
{
    g_autoptr(SqEnv) e = env_new();
    enum { NCQ = 300 };
    HRing eq = h_create_eq(e->h, 10, 1, 0), cq[NCQ], sq[NCQ];
    unsigned calls = 0, raised = 0;
    const uint8_t *eqe;

    for (unsigned i = 0; i < NCQ; i++) {
        cq[i] = e->cq = h_create_cq(e->h, eq.num, 2);
        sq[i] = h_create_sq(e->h, cq[i].num, 2);
        g_assert_cmphex(h_modify_sq(e->h, sq[i].num, ST_RST, ST_RDY), ==, MLX5_CMD_STAT_OK);
        set_moderation(e, 8, 0);
    }
    for (unsigned i = NCQ; i-- > 0;) {                  /* CQ 299's event first */
        e->h->clock_ns += 10;
        h_cq_arm(e->h, &cq[i]);
        nop(e, &sq[i], 1, CQ_UPDATE);
    }
    g_assert_cmpuint(mlx5_deadlines_len(&h_dp(e->h)->cq_moderated), ==, NCQ);
    g_assert_null(h_eq_next(e->h, &eq));
    e->h->clock_ns += 8000;
    while (raised < NCQ) {
        unsigned n = 0;

        e->h->timer_ns = UINT64_MAX;
        mlx5_dev_timer(e->h->dev);
        while ((eqe = h_eq_next(e->h, &eq))) {
            g_assert_cmphex(prm_be32(eqe + EQE_COMP_CQN) & 0xffffff, ==,
                            cq[NCQ - 1 - raised].num);
            raised++;
            n++;
        }
        g_assert_cmpuint(n, <=, MLX5_SLICE_UNITS);
        g_assert_cmpuint(++calls, <, 10);
    }
    g_assert_cmpuint(calls, >, 2);
    g_assert_cmpuint(g_hash_table_size(h_dp(e->h)->cq_held_at), ==, 0);
}

/* Re-arming a CQ whose event is held, again and again, keeps one held
 * event for it (issue 13: the list used to grow on every re-arm), and many
 * CQs held at once are each found again by their CQEs. */
static void test_moderation_rearm_keeps_one(void)
{
    g_autoptr(SqEnv) e = env_new();

    set_moderation(e, 8, 0);
    for (int i = 0; i < 50; i++) {
        while (h_cq_next(e->h, &e->cq)) {
        }
        h_cq_arm(e->h, &e->cq);
        nop(e, &e->sq, 1, CQ_UPDATE);
    }
    g_assert_cmpuint(mlx5_deadlines_len(&h_dp(e->h)->cq_moderated), ==, 1);
    g_assert_cmpuint(g_hash_table_size(h_dp(e->h)->cq_held_at), ==, 1);
    e->h->clock_ns += 8000;
    mlx5_dev_timer(e->h->dev);
    g_assert_cmpuint(mlx5_deadlines_len(&h_dp(e->h)->cq_moderated), ==, 0);
    g_assert_cmpuint(g_hash_table_size(h_dp(e->h)->cq_held_at), ==, 0);
    g_assert_nonnull(h_eq_next(e->h, &e->h->comp_eq));
}

static void test_msix_needs_armed_eq(void)
{
    g_autoptr(SqEnv) e = env_new();
    HRing *eq = &e->h->comp_eq;

    h_cq_arm(e->h, &e->cq);
    nop(e, &e->sq, 1, CQ_UPDATE);                               /* EQ armed: MSI-X */
    g_assert_cmpuint(h_msix_count(e->h, 1), ==, 1);
    g_assert_nonnull(h_cq_next(e->h, &e->cq));
    h_cq_arm(e->h, &e->cq);
    nop(e, &e->sq, 1, CQ_UPDATE);                               /* EQ not re-armed */
    g_assert_cmpuint(h_msix_count(e->h, 1), ==, 1);
    g_assert_nonnull(h_eq_next(e->h, eq));
    g_assert_nonnull(h_eq_next(e->h, eq));
    h_eq_arm(e->h, eq);                                         /* all read: just arm */
    g_assert_cmpuint(h_msix_count(e->h, 1), ==, 1);
    g_assert_nonnull(h_cq_next(e->h, &e->cq));
    h_cq_arm(e->h, &e->cq);
    nop(e, &e->sq, 1, CQ_UPDATE);
    g_assert_cmpuint(h_msix_count(e->h, 1), ==, 2);
}

/* Arming with CQEs already past the consumer index notifies at once. */
static void test_arm_behind_producer_notifies_at_once(void)
{
    g_autoptr(SqEnv) e = env_new();

    nop(e, &e->sq, 1, CQ_UPDATE);
    h_cq_arm(e->h, &e->cq);                                     /* ci 0, pi 1 */
    g_assert_nonnull(h_eq_next(e->h, &e->h->comp_eq));
    g_assert_cmpuint(h_msix_count(e->h, 1), ==, 1);
}

static void test_solicited_arm_waits_for_solicited(void)
{
    g_autoptr(SqEnv) e = env_new();
    uint32_t dw0 = 1u << 24;                                    /* cmd 1: solicited */

    mlx5_cq_arm_doorbell(h_dp(e->h), e->h->uar, e->cq.num, dw0);
    nop(e, &e->sq, 1, CQ_UPDATE);
    g_assert_null(h_eq_next(e->h, &e->h->comp_eq));
    nop(e, &e->sq, 1, CQ_UPDATE | MLX5_WQE_CTRL_SOLICITED);
    g_assert_nonnull(h_eq_next(e->h, &e->h->comp_eq));
}

static void test_cq_overrun_gives_cq_error(void)
{
    g_autoptr(SqEnv) e = env_new_sized(1, 6);
    g_autoptr(HCmd) q = hcmd_new(OP_QUERY_CQ, 0);
    const uint8_t *eqe;
    uint8_t *cqc;

    for (int i = 0; i < 3; i++) {
        nop(e, &e->sq, 1, CQ_UPDATE);                           /* nobody consumes */
    }
    eqe = h_eq_next(e->h, &e->h->async_eq);
    g_assert_nonnull(eqe);
    g_assert_cmphex(eqe[EQE_TYPE], ==, MLX5_EVENT_CQ_ERROR);
    g_assert_cmphex(prm_be32(eqe + EQE_CQ_ERR_CQN) & 0xffffff, ==, e->cq.num);
    g_assert_cmphex(eqe[EQE_CQ_ERR_SYNDROME], ==, 1);           /* overrun */
    IN_SET(q, query_cq_in, cqn, e->cq.num);
    h_ok(e->h, q);
    cqc = OUT_PTR(q, query_cq_out, cq_context);
    g_assert_cmphex(PRM_GET(cqc, status, cqc), ==, 0x9);
    g_assert_cmpuint(PRM_GET(cqc, producer_counter, cqc), ==, 2);
}

static void test_128_byte_cqe_in_second_half(void)
{
    g_autoptr(Harness) h = h_new_device();
    g_autoptr(HCmd) c = NULL;
    HRing cq, sq;
    const uint8_t *ring;

    h_bringup(h);
    h_create_mkey(h, GUEST_BASE, GUEST_SIZE, true);
    c = h_create_cq_cmd(h, &cq, h->comp_eq.num, 4);
    PRM_SET(cqc, cqe_sz, IN_PTR(c, create_cq_in, cq_context), 1);
    h_ok(h, c);
    cq.num = OUT_GET(c, create_cq_out, cqn);
    sq = h_create_sq(h, cq.num, 4);
    g_assert_cmphex(h_modify_sq(h, sq.num, ST_RST, ST_RDY), ==, 0);
    h_sq_wqe(h, &sq, MLX5_OPCODE_NOP, 1, CQ_UPDATE);
    h_sq_ring(h, &sq);
    ring = h_gpa(h, cq.gpa);
    g_assert_cmphex(ring[CQE_OP_OWN], ==, MLX5_CQE_INVALID << 4 | 1);  /* 1st half */
    g_assert_cmphex(ring[MLX5_CQE_BYTES + CQE_OP_OWN] >> 4, ==, MLX5_CQE_REQ);
    g_assert_cmphex(prm_be32(ring + MLX5_CQE_BYTES + CQE_SOP_DROP_QPN), ==, sq.num);
}

/* --- malformed WQEs --------------------------------------------------- */

static void test_bad_ds_gives_error_cqe(void)
{
    g_autoptr(SqEnv) e = env_new();

    nop(e, &e->sq, 1, CQ_UPDATE);
    expect_cqe(e, MLX5_CQE_REQ, 0, e->sq.num);
    nop(e, &e->sq, 0, 0);                                       /* ds 0, unsignaled */
    expect_error_cqe(e, &e->sq, 1, MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR);
    g_assert_cmpuint(h_nerrors(e->h), ==, 1);
    nop(e, &e->sq, 1, CQ_UPDATE);                               /* ERR: flushed */
    g_assert_cmphex(expect_cqe(e, MLX5_CQE_REQ_ERR, 2, e->sq.num)[CQE_ERR_SYNDROME], ==,
                    MLX5_CQE_SYNDROME_WR_FLUSH_ERR);
    g_assert_null(h_cq_next(e->h, &e->cq));
    g_assert_cmpuint(h_nerrors(e->h), ==, 1);
}

/* An SQ in ERR completes every WQE posted behind the failed one, signaled
 * or not, with WR_FLUSH_ERR: mlx5e's TX recovery waits for them
 * (mlx5e_wait_for_sq_flush) before ERR -> RST -> RDY, and times out on a
 * device that keeps them. */
static void test_err_sq_flushes_posted(void)
{
    g_autoptr(SqEnv) e = env_new();

    h_sq_wqe(e->h, &e->sq, MLX5_OPCODE_NOP, 0, 0);              /* fails */
    h_sq_wqe(e->h, &e->sq, MLX5_OPCODE_NOP, 1, 0);
    h_sq_wqe(e->h, &e->sq, MLX5_OPCODE_NOP, 1, CQ_UPDATE);
    h_sq_ring(e->h, &e->sq);
    expect_error_cqe(e, &e->sq, 0, MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR);
    for (uint16_t i = 1; i <= 2; i++) {
        g_assert_cmphex(expect_cqe(e, MLX5_CQE_REQ_ERR, i, e->sq.num)[CQE_ERR_SYNDROME], ==,
                        MLX5_CQE_SYNDROME_WR_FLUSH_ERR);
    }
    g_assert_null(h_cq_next(e->h, &e->cq));
    g_assert_cmpuint(hw_counter(e, e->sq.num), ==, 3);
    g_assert_cmphex(h_modify_sq(e->h, e->sq.num, ST_ERR, ST_RST), ==, 0);
    g_assert_cmphex(h_modify_sq(e->h, e->sq.num, ST_RST, ST_RDY), ==, 0);
    e->sq.ci = 0;
    nop(e, &e->sq, 1, CQ_UPDATE);
    expect_cqe(e, MLX5_CQE_REQ, 0, e->sq.num);
}

/* A SEND of one data segment: ctrl, eth (no inline), data = ds 3. */
static uint8_t *send_wqe(SqEnv *e, HRing *sq, uint32_t lkey, uint64_t addr, uint32_t len)
{
    uint8_t *w = h_sq_wqe(e->h, sq, MLX5_OPCODE_SEND, 3, CQ_UPDATE);
    uint8_t *d = w + 2 * MLX5_DS_BYTES;

    h_data_seg(d, len, lkey, addr);
    return w;
}

/* An MTT key (as mlx5_ib reg_create makes for a user MR): virtual range
 * [va, va + npages * 4 KiB) over the guest pages `pages`. */
static HCmd *mtt_mkey_cmd(SqEnv *e, uint64_t va, uint64_t len, const uint64_t *pages,
                          unsigned npages)
{
    HCmd *c = hcmd_new_len(OP_CREATE_MKEY, 0, PRM_BYTES(create_mkey_in) + npages * 8,
                           PRM_BYTES(create_mkey_out));
    uint8_t *mkc = IN_PTR(c, create_mkey_in, memory_key_mkey_entry);

    PRM_SET(mkc, access_mode_1_0, mkc, MLX5_MKC_ACCESS_MODE_MTT);
    PRM_SET(mkc, lr, mkc, 1);
    PRM_SET(mkc, lw, mkc, 1);
    PRM_SET(mkc, pd, mkc, e->h->pd);
    PRM_SET(mkc, mkey_7_0, mkc, 0x77);
    PRM_SET(mkc, start_addr, mkc, va);
    PRM_SET(mkc, len, mkc, len);
    PRM_SET(mkc, log_page_size, mkc, 12);
    PRM_SET(mkc, translations_octword_size, mkc, (npages + 1) / 2);
    for (unsigned i = 0; i < npages; i++) {
        prm_put_be64(IN_PTR(c, create_mkey_in, klm_pas_mtt) + i * 8, pages[i] | 3);
    }
    return c;
}

/* A send gathers through an MTT key across two guest pages that are not
 * adjacent (and in reverse order); outside the key's range is a
 * protection error. */
static void test_send_through_mtt_key(void)
{
    g_autoptr(SqEnv) e = env_new();
    static const uint64_t pages[] = { DATA_GPA + 5 * PAGE, DATA_GPA + 2 * PAGE };
    g_autoptr(HCmd) c = mtt_mkey_cmd(e, 0x7f0000001800ull, 2 * PAGE - 0x800, pages, 2);
    uint8_t *ram0 = h_gpa(e->h, pages[0] + 0x800), *ram1 = h_gpa(e->h, pages[1]);
    uint32_t key;
    const uint8_t *b;
    gsize len;

    h_ok(e->h, c);
    key = OUT_GET(c, create_mkey_out, mkey_index) << 8 | 0x77;
    memset(ram0, 0xa1, PAGE - 0x800);
    memset(ram1, 0xb2, 0x100);
    h_port_up(e->h);
    send_wqe(e, &e->sq, key, 0x7f0000001f00ull, 0x100 + 0x100);     /* spans the page edge */
    h_sq_ring(e->h, &e->sq);
    expect_cqe(e, MLX5_CQE_REQ, 0, e->sq.num);
    b = g_bytes_get_data(g_ptr_array_index(e->h->frames, 0), &len);
    g_assert_cmpuint(len, ==, 0x200);
    g_assert_cmphex(b[0], ==, 0xa1);
    g_assert_cmphex(b[0xff], ==, 0xa1);
    g_assert_cmphex(b[0x100], ==, 0xb2);
    g_assert_cmphex(b[0x1ff], ==, 0xb2);
    send_wqe(e, &e->sq, key, 0x7f0000001800ull + 2 * PAGE - 0x800 - 0x10, 0x20);
    h_sq_ring(e->h, &e->sq);
    expect_error_cqe(e, &e->sq, 1, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR);
}

/* CREATE_MKEY MTT: a page list that does not cover the range, a bad page
 * size, a umem, a list longer than the command: the PRM refusals. */
static void mtt_page_size_11(HCmd *c)
{
    PRM_SET(mkc, log_page_size, IN_PTR(c, create_mkey_in, memory_key_mkey_entry), 11);
}

static void mtt_umem(HCmd *c)
{
    IN_SET(c, create_mkey_in, mkey_umem_valid, 1);
}

static void mtt_one_octoword(HCmd *c)
{
    PRM_SET(mkc, translations_octword_size, IN_PTR(c, create_mkey_in, memory_key_mkey_entry), 1);
}

static void test_mtt_mkey_bad_input(void)
{
    static const uint64_t pages[] = { DATA_GPA, DATA_GPA + PAGE };
    static const struct {
        uint64_t len;
        unsigned npages;
        void (*edit)(HCmd *c);
        uint32_t syndrome;
    } t[] = {
        { 3 * PAGE, 2, NULL, MLX5_SYND_BAD_LIST_SIZE },                 /* needs 3 pages */
        { PAGE, 2, mtt_page_size_11, MLX5_SYND_BAD_PAGE_SIZE },
        { PAGE, 2, mtt_umem, MLX5_SYND_NO_UMEM },
        { 2 * PAGE, 1, mtt_one_octoword, MLX5_SYND_BAD_LIST_SIZE },     /* list cut short */
    };
    g_autoptr(SqEnv) e = env_new();

    for (size_t i = 0; i < G_N_ELEMENTS(t); i++) {
        g_autoptr(HCmd) c = mtt_mkey_cmd(e, 0x1000, t[i].len, pages, t[i].npages);

        if (t[i].edit) {
            t[i].edit(c);
        }
        h_fail(e->h, c, MLX5_CMD_STAT_BAD_PARAM, t[i].syndrome);
    }
}

/* A SEND whose one data segment the device cannot gather: the key it
 * names (made by `key`), its address and length; the error CQE's syndrome. */
typedef struct SendBad {
    const char *name;
    uint32_t (*key)(SqEnv *e);
    uint64_t addr;
    uint32_t len;
    uint8_t syndrome;
    unsigned isolated_s;        /* run in a child with this timeout (0: not) */
} SendBad;

static uint32_t key_everything(SqEnv *e)
{
    return e->lkey;
}

static uint32_t key_no_such_index(SqEnv *e)
{
    return e->lkey + 0x100;
}

static uint32_t key_wrong_byte(SqEnv *e)
{
    return e->lkey ^ 0x01;
}

static uint32_t key_without_local_read(SqEnv *e)
{
    return h_create_mkey(e->h, GUEST_BASE, GUEST_SIZE, false);
}

static uint32_t key_destroyed(SqEnv *e)
{
    h_destroy(e->h, OP_DESTROY_MKEY, e->lkey >> 8);
    return e->lkey;
}

static uint32_t key_one_page(SqEnv *e)
{
    return h_create_mkey(e->h, DATA_GPA, PAGE, true);
}

static uint32_t key_other_pd(SqEnv *e)
{
    return mkey_everything(e->h, h_alloc_simple(e->h, OP_ALLOC_PD));
}

static const SendBad send_bad[] = {
    { "bad-lkey-gives-protection-error", key_no_such_index, DATA_GPA, 64,
      MLX5_CQE_SYNDROME_LOCAL_PROT_ERR },
    { "wrong-key-byte-gives-protection-error", key_wrong_byte, DATA_GPA, 64,
      MLX5_CQE_SYNDROME_LOCAL_PROT_ERR },
    { "mkey-without-local-read", key_without_local_read, DATA_GPA, 64,
      MLX5_CQE_SYNDROME_LOCAL_PROT_ERR },
    { "destroyed-mkey-is-stale", key_destroyed, DATA_GPA, 64, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR },
    /* MKey access checks: the address range of a non-length64 key. */
    { "send-outside-mkey-range", key_one_page, DATA_GPA + 4 * PAGE, 64,
      MLX5_CQE_SYNDROME_LOCAL_PROT_ERR, 30 },
    /* MKey access checks: the key's PD is the queue's PD. */
    { "send-mkey-of-other-pd", key_other_pd, DATA_GPA, 64, MLX5_CQE_SYNDROME_LOCAL_PROT_ERR, 30 },
    { "send-data-outside-ram", key_everything, GUEST_BASE + GUEST_SIZE - 32, 64,
      MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR },
    { "send-frame-too-long", key_everything, DATA_GPA, 0x7fffffff,
      MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR },
    { "send-shorter-than-l2-header", key_everything, DATA_GPA, 13,
      MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR },
};

static void test_send_bad(gconstpointer p)
{
    const SendBad *t = p;
    g_autoptr(SqEnv) e = env_new();

    send_wqe(e, &e->sq, t->key(e), t->addr, t->len);
    h_sq_ring(e->h, &e->sq);
    expect_error_cqe(e, &e->sq, 0, t->syndrome);
}

static void test_unsupported_opcode(void)
{
    g_autoptr(SqEnv) e = env_new();

    h_sq_wqe(e->h, &e->sq, MLX5_OPCODE_RDMA_WRITE, 1, CQ_UPDATE);  /* not on an SQ */
    h_sq_ring(e->h, &e->sq);
    expect_error_cqe(e, &e->sq, 0, MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR);
}

static void test_send_without_eth_segment(void)
{
    g_autoptr(SqEnv) e = env_new();

    h_sq_wqe(e->h, &e->sq, MLX5_OPCODE_SEND, 1, CQ_UPDATE);
    h_sq_ring(e->h, &e->sq);
    expect_error_cqe(e, &e->sq, 0, MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR);
}

static void test_send_inline_header_beyond_wqe(void)
{
    g_autoptr(SqEnv) e = env_new();
    uint8_t *w = h_sq_wqe(e->h, &e->sq, MLX5_OPCODE_SEND, 2, CQ_UPDATE);

    prm_put_be16(w + MLX5_DS_BYTES + WQE_ETH_INLINE_HDR_SZ, 0xffff);
    h_sq_ring(e->h, &e->sq);
    expect_error_cqe(e, &e->sq, 0, MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR);
}

static void test_other_sqs_keep_working(void)
{
    g_autoptr(SqEnv) e = env_new();
    HRing sq2 = h_create_sq(e->h, e->cq.num, 4);

    g_assert_cmphex(h_modify_sq(e->h, sq2.num, ST_RST, ST_RDY), ==, 0);
    nop(e, &e->sq, 0, CQ_UPDATE);
    expect_error_cqe(e, &e->sq, 0, MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR);
    nop(e, &sq2, 1, CQ_UPDATE);
    expect_cqe(e, MLX5_CQE_REQ, 0, sq2.num);
    g_assert_cmpuint(h_query_sq_state(e->h, sq2.num), ==, ST_RDY);
}

/* The driver's recovery: ERR -> RST -> RDY, counters back to 0. */
static void test_err_sq_recovers_through_reset(void)
{
    g_autoptr(SqEnv) e = env_new();

    nop(e, &e->sq, 1, 0);
    nop(e, &e->sq, 0, 0);
    expect_error_cqe(e, &e->sq, 1, MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR);
    g_assert_cmphex(h_modify_sq(e->h, e->sq.num, ST_ERR, ST_RST), ==, 0);
    g_assert_cmphex(h_modify_sq(e->h, e->sq.num, ST_RST, ST_RDY), ==, 0);
    g_assert_cmpuint(hw_counter(e, e->sq.num), ==, 0);
    e->sq.ci = 0;
    nop(e, &e->sq, 1, CQ_UPDATE);
    expect_cqe(e, MLX5_CQE_REQ, 0, e->sq.num);
}

static void test_sq_in_reset_does_not_execute(void)
{
    g_autoptr(SqEnv) e = env_new();
    HRing sq2 = h_create_sq(e->h, e->cq.num, 4);                /* left in RST */

    nop(e, &sq2, 1, CQ_UPDATE);
    g_assert_null(h_cq_next(e->h, &e->cq));
    g_assert_cmpuint(hw_counter(e, sq2.num), ==, 0);
}

/* A WQE must not run past the producer counter: a 2-block NOP rung with
 * pc = 1 on a 2-entry ring must not make the device spin. */
static void test_wqe_overrunning_producer_counter(void)
{
    g_autoptr(SqEnv) e = env_new_sized(4, 1);
    uint8_t *w = h_sq_wqe(e->h, &e->sq, MLX5_OPCODE_NOP, 5, 0);   /* 2 WQEBBs */

    (void)w;
    h_put32(e->h, e->sq.dbr + 4, 1);
    mlx5_sq_doorbell(h_dp(e->h), e->h->uar, e->sq.num, 1);
    /* Returning at all is the point; the WQE is malformed for this pc. */
    g_assert_cmpuint(hw_counter(e, e->sq.num), <=, 2);
}

/* --- frames ----------------------------------------------------------- */

static const uint8_t l2_hdr[ETH_HLEN] = {
    0x02, 0, 0, 0, 0, 0x02, 0x02, 0, 0, 0, 0, 0x01, 0x08, 0x00,
};

/* At h: l2_hdr's addresses, an IPv4 header and a TCP header of doff
 * 32-bit words for `payload` bytes after them; returns their length. */
static unsigned put_tcp4_headers(uint8_t *h, unsigned doff, uint32_t payload)
{
    unsigned hlen = ETH_HLEN + IPV4_HLEN + doff * 4;
    uint8_t *ip = h + ETH_HLEN, *tcp = ip + IPV4_HLEN;

    memset(h, 0, hlen);
    memcpy(h, l2_hdr, ETH_TYPE);
    prm_put_be16(h + ETH_TYPE, ETH_P_IP);
    ip[0] = 0x45;
    prm_put_be16(ip + IPV4_TOT_LEN, IPV4_HLEN + doff * 4 + payload);
    ip[IPV4_TTL] = 64;
    ip[IPV4_PROTOCOL] = IP_PROTO_TCP;
    tcp[TCP_DOFF] = doff << 4;
    return hlen;
}

/* SEND with the L2 header inline and the payload through the mkey. */
static void send_frame(SqEnv *e, const uint8_t dst[6], uint32_t payload)
{
    uint8_t *w = h_sq_wqe(e->h, &e->sq, MLX5_OPCODE_SEND, 4, CQ_UPDATE);
    uint8_t *eth = w + MLX5_DS_BYTES;
    uint8_t *d = w + 3 * MLX5_DS_BYTES;
    uint8_t *data = h_gpa(e->h, DATA_GPA);

    for (uint32_t i = 0; i < payload; i++) {
        data[i] = (uint8_t)i;
    }
    prm_put_be16(eth + WQE_ETH_INLINE_HDR_SZ, sizeof(l2_hdr));
    memcpy(eth + WQE_ETH_INLINE_HDR, l2_hdr, sizeof(l2_hdr));
    memcpy(eth + WQE_ETH_INLINE_HDR, dst, 6);
    h_data_seg(d, payload, e->lkey, DATA_GPA);
    h_sq_ring(e->h, &e->sq);
}

/* A SEND or LSO WQE with the L2 header inline, the given ethertype, the
 * Ethernet segment's cs_flags and mss, and 50 bytes of payload. */
static void send_offload(SqEnv *e, uint8_t opcode, uint16_t ethertype, uint8_t cs, uint16_t mss)
{
    uint8_t *w = h_sq_wqe(e->h, &e->sq, opcode, 4, CQ_UPDATE);
    uint8_t *eth = w + MLX5_DS_BYTES;
    uint8_t *d = w + 3 * MLX5_DS_BYTES;

    eth[WQE_ETH_CS_FLAGS] = cs;
    prm_put_be16(eth + WQE_ETH_MSS, mss);
    prm_put_be16(eth + WQE_ETH_INLINE_HDR_SZ, sizeof(l2_hdr));
    memcpy(eth + WQE_ETH_INLINE_HDR, l2_hdr, sizeof(l2_hdr));
    prm_put_be16(eth + WQE_ETH_INLINE_HDR + ETH_TYPE, ethertype);
    h_data_seg(d, 50, e->lkey, DATA_GPA);
    h_sq_ring(e->h, &e->sq);
}

/* cs_flags reach the platform; the L3 flag only for IPv4 (IPv6 has no
 * header checksum); LSO passes its MSS. */
static void test_send_offload_flags(void)
{
    g_autoptr(SqEnv) e = env_new();
    const Mlx5TxOffload *o = &e->h->last_tx_offload;

    h_port_up(e->h);
    send_offload(e, MLX5_OPCODE_SEND, ETH_P_IP, MLX5_ETH_WQE_L3_CSUM | MLX5_ETH_WQE_L4_CSUM, 0);
    g_assert_true(o->ip_csum && o->l4_csum);
    g_assert_cmpuint(o->mss, ==, 0);
    send_offload(e, MLX5_OPCODE_SEND, ETH_P_IPV6, MLX5_ETH_WQE_L3_CSUM | MLX5_ETH_WQE_L4_CSUM, 0);
    g_assert_true(!o->ip_csum && o->l4_csum);
    send_offload(e, MLX5_OPCODE_LSO, ETH_P_IP, MLX5_ETH_WQE_L3_CSUM | MLX5_ETH_WQE_L4_CSUM,
                 1448);
    g_assert_cmpuint(o->mss, ==, 1448);
    g_assert_cmpuint(e->h->frames->len, ==, 3);
}

/* An LSO WQE as mlx5e builds it: Ethernet + IPv4 + TCP headers (doff
 * 32-bit words) inline, `payload` bytes in one data segment; its inline
 * headers (post_lso: not rung yet). */
static uint8_t *post_lso(SqEnv *e, unsigned doff, uint32_t payload, uint16_t mss)
{
    uint8_t *w = h_sq_wqe(e->h, &e->sq, MLX5_OPCODE_LSO, 7, CQ_UPDATE);
    uint8_t *eth = w + MLX5_DS_BYTES, *h = eth + WQE_ETH_INLINE_HDR;
    uint8_t *d = w + 6 * MLX5_DS_BYTES;

    prm_put_be16(eth + WQE_ETH_MSS, mss);
    eth[WQE_ETH_CS_FLAGS] = MLX5_ETH_WQE_L3_CSUM | MLX5_ETH_WQE_L4_CSUM;
    prm_put_be16(eth + WQE_ETH_INLINE_HDR_SZ, put_tcp4_headers(h, doff, payload));
    h_data_seg(d, payload, e->lkey, DATA_GPA);
    return h;
}

static void send_lso(SqEnv *e, unsigned doff, uint32_t payload, uint16_t mss)
{
    post_lso(e, doff, payload, mss);
    h_sq_ring(e->h, &e->sq);
}

/* The port counts the segments TSO puts on the wire, each with its own
 * copy of the headers: payload not a multiple of the MSS, an exact
 * multiple, less than one MSS, TCP options in the header. */
static void test_lso_counts_wire_segments(void)
{
    static const struct { unsigned doff; uint32_t payload; uint16_t mss; uint64_t segs; } t[] = {
        { 5, 3000, 1448, 3 }, { 5, 2896, 1448, 2 }, { 5, 100, 1448, 1 }, { 8, 4000, 1000, 4 },
    };

    for (unsigned i = 0; i < G_N_ELEMENTS(t); i++) {
        g_autoptr(SqEnv) e = env_new();
        const Mlx5Traffic *k = &e->h->fw->counters.phy_tx;
        unsigned hdr = ETH_HLEN + IPV4_HLEN + t[i].doff * 4;

        h_port_up(e->h);
        send_lso(e, t[i].doff, t[i].payload, t[i].mss);
        expect_cqe(e, MLX5_CQE_REQ, 0, e->sq.num);
        g_assert_cmpuint(e->h->last_tx_offload.mss, ==, t[i].mss);
        g_assert_cmpuint(mlx5_traffic_frames(k), ==, t[i].segs);
        g_assert_cmpuint(mlx5_traffic_octets(k), ==, t[i].payload + t[i].segs * hdr);
        g_assert_cmpuint(mlx5_traffic_frames(&e->h->fw->counters.vport_tx), ==, t[i].segs);
    }
}

/* Any MSS but 0 goes: 36 is what Linux TCP sends at tcp_min_snd_mss with
 * timestamps (mlx5e after a reload), 1 is the most frames a WQE can make;
 * each segment is counted on the wire. */
static void test_lso_small_mss(void)
{
    static const uint16_t mss[] = { 36, 1 };

    for (size_t i = 0; i < G_N_ELEMENTS(mss); i++) {
        g_autoptr(SqEnv) e = env_new();

        h_port_up(e->h);
        send_lso(e, 5, 360, mss[i]);
        expect_cqe(e, MLX5_CQE_REQ, 0, e->sq.num);
        g_assert_cmpuint(mlx5_traffic_frames(&e->h->fw->counters.phy_tx), ==, 360 / mss[i]);
        g_assert_cmpuint(h_nerrors(e->h), ==, 0);
    }
}

/* An LSO of more segments than a chunk (MSS 1: 64,000 of them) goes out
 * as chunks of MLX5_LSO_CHUNK_SEGS segments, as far as each entry point's
 * slice goes: the doorbell sends a slice's worth and no CQE, the timer the
 * rest, then one CQE.  Each chunk carries the headers its first segment
 * would (IPv4 ID + segments before it, sequence + bytes before it, FIN and
 * PSH on the last only, CWR on the first only) and the payload follows on;
 * the port counts every wire segment once. */
static void test_lso_chunks_across_slices(void)
{
    enum { PAYLOAD = 64000, MSS = 1, STEP = MLX5_LSO_CHUNK_SEGS * MSS };
    g_autoptr(SqEnv) e = env_new();
    uint8_t *data = h_gpa(e->h, DATA_GPA);
    uint8_t *h;
    unsigned n_doorbell, calls;

    h_port_up(e->h);
    for (unsigned i = 0; i < PAYLOAD; i++) {
        data[i] = (uint8_t)(i * 7 + i / 251);
    }
    h = post_lso(e, 5, PAYLOAD, MSS);
    prm_put_be16(h + ETH_HLEN + IPV4_ID, 0xfff0);              /* wraps */
    prm_put_be32(h + ETH_HLEN + IPV4_HLEN + TCP_SEQ, 0xffffff00);
    h[ETH_HLEN + IPV4_HLEN + TCP_FLAGS] = 0x80 | 0x10 | 0x08 | 0x01; /* CWR ACK PSH FIN */
    h_sq_doorbell(e->h, &e->sq);
    n_doorbell = e->h->frames->len;
    g_assert_cmpuint(n_doorbell, >=, 1);
    g_assert_cmpuint(n_doorbell * MLX5_LSO_CHUNK_SEGS, <=, MLX5_SLICE_UNITS + MLX5_LSO_CHUNK_SEGS);
    g_assert_null(h_cq_next(e->h, &e->cq));
    calls = h_run_due(e->h);
    g_assert_cmpuint(calls, >=, PAYLOAD / STEP / (MLX5_SLICE_UNITS / MLX5_LSO_CHUNK_SEGS + 1));
    expect_cqe(e, MLX5_CQE_REQ, 0, e->sq.num);
    g_assert_null(h_cq_next(e->h, &e->cq));
    g_assert_cmpuint(e->h->frames->len, ==, (PAYLOAD + STEP - 1) / STEP);
    for (unsigned k = 0; k < e->h->frames->len; k++) {
        gsize len;
        const uint8_t *f = g_bytes_get_data(g_ptr_array_index(e->h->frames, k), &len);
        const uint8_t *ip = f + ETH_HLEN, *tcp = ip + IPV4_HLEN;
        unsigned at = k * STEP, n = MIN(STEP, PAYLOAD - at);
        bool last = at + n == PAYLOAD;

        g_assert_cmpuint(len, ==, ETH_HLEN + IPV4_HLEN + 20 + n);
        g_assert_cmpuint(prm_be16(ip + IPV4_TOT_LEN), ==, IPV4_HLEN + 20 + n);
        g_assert_cmphex(prm_be16(ip + IPV4_ID), ==, (uint16_t)(0xfff0 + at / MSS));
        g_assert_cmphex(prm_be32(tcp + TCP_SEQ), ==, (uint32_t)(0xffffff00u + at));
        g_assert_cmphex(tcp[TCP_FLAGS], ==, 0x10 | (k == 0 ? 0x80 : 0) | (last ? 0x09 : 0));
        g_assert_cmpmem(tcp + 20, n, data + at, n);
    }
    g_assert_cmpuint(e->h->last_tx_offload.mss, ==, MSS);
    g_assert_cmpuint(mlx5_traffic_frames(&e->h->fw->counters.phy_tx), ==, PAYLOAD / MSS);
    g_assert_cmpuint(h_nerrors(e->h), ==, 0);
}

/* An SQ moved to ERR while an LSO is half out: nothing more is sent, the
 * WQE completes once, flushed; after RST and RDY the next LSO starts from
 * its first byte. */
static void test_lso_half_out_then_err(void)
{
    enum { PAYLOAD = 20000, MSS = 2 };
    g_autoptr(SqEnv) e = env_new();
    unsigned sent;

    h_port_up(e->h);
    post_lso(e, 5, PAYLOAD, MSS);
    h_sq_doorbell(e->h, &e->sq);
    sent = e->h->frames->len;
    g_assert_cmpuint(sent, >=, 1);
    g_assert_cmphex(h_modify_sq(e->h, e->sq.num, ST_RDY, ST_ERR), ==, 0);
    h_sq_ring(e->h, &e->sq);            /* a doorbell in ERR flushes (sq.c) */
    g_assert_cmpuint(e->h->frames->len, ==, sent);
    g_assert_cmphex(expect_cqe(e, MLX5_CQE_REQ_ERR, 0, e->sq.num)[CQE_ERR_SYNDROME], ==,
                    MLX5_CQE_SYNDROME_WR_FLUSH_ERR);
    g_assert_null(h_cq_next(e->h, &e->cq));
    g_assert_cmphex(h_modify_sq(e->h, e->sq.num, ST_ERR, ST_RST), ==, 0);
    g_assert_cmphex(h_modify_sq(e->h, e->sq.num, ST_RST, ST_RDY), ==, 0);
    e->sq.ci = 0;
    g_ptr_array_set_size(e->h->frames, 0);
    send_lso(e, 5, PAYLOAD, MSS);
    expect_cqe(e, MLX5_CQE_REQ, 0, e->sq.num);
    g_assert_cmpuint(e->h->frames->len, ==, (PAYLOAD / MSS + MLX5_LSO_CHUNK_SEGS - 1) / MLX5_LSO_CHUNK_SEGS);
    g_assert_cmphex(prm_be32(g_bytes_get_data(g_ptr_array_index(e->h->frames, 0), NULL) +
                             ETH_HLEN + IPV4_HLEN + TCP_SEQ), ==, 0);
}

/* A TCP checksum 0xffff out of the platform's offload engine becomes the
 * 0x0000 a NIC computes; UDP's 0xffff stays; truncated frames are left. */
static void test_tx_finish_segment_checksum_zero(void)
{
    uint8_t f[ETH_HLEN + IPV4_HLEN + 20];
    uint8_t *ip = f + ETH_HLEN, *l4 = ip + IPV4_HLEN;

    put_tcp4_headers(f, 5, 0);
    prm_put_be16(l4 + TCP_CHECK, 0xffff);
    mlx5_tx_finish_segment(f, sizeof(f));
    g_assert_cmphex(prm_be16(l4 + TCP_CHECK), ==, 0);
    prm_put_be16(l4 + TCP_CHECK, 0x1234);
    mlx5_tx_finish_segment(f, sizeof(f));
    g_assert_cmphex(prm_be16(l4 + TCP_CHECK), ==, 0x1234);
    ip[IPV4_PROTOCOL] = IP_PROTO_UDP;               /* UDP: 0xffff is right */
    prm_put_be16(l4 + UDP_LEN, 20);
    prm_put_be16(l4 + UDP_CHECK, 0xffff);
    prm_put_be16(l4 + TCP_CHECK, 0xffff);           /* UDP payload: not a checksum */
    mlx5_tx_finish_segment(f, sizeof(f));
    g_assert_cmphex(prm_be16(l4 + UDP_CHECK), ==, 0xffff);
    g_assert_cmphex(prm_be16(l4 + TCP_CHECK), ==, 0xffff);
    ip[IPV4_PROTOCOL] = IP_PROTO_TCP;
    for (size_t n = 0; n < ETH_HLEN + IPV4_HLEN + TCP_CHECK + 2; n++) {
        mlx5_tx_finish_segment(f, n);               /* cut before the checksum: untouched */
    }
    g_assert_cmphex(prm_be16(l4 + TCP_CHECK), ==, 0xffff);
}

/* INSERT_VLAN in the Ethernet segment: no inline data, a tag to insert. */
static void test_send_vlan_insert(void)
{
    g_autoptr(SqEnv) e = env_new();
    uint8_t *w, *eth, *d;
    uint8_t *data = h_gpa(e->h, DATA_GPA);

    h_port_up(e->h);
    memcpy(data, l2_hdr, sizeof(l2_hdr));
    w = h_sq_wqe(e->h, &e->sq, MLX5_OPCODE_SEND, 3, CQ_UPDATE);
    eth = w + MLX5_DS_BYTES;
    d = w + 2 * MLX5_DS_BYTES;
    prm_put_be16(eth + WQE_ETH_INSERT_TYPE, MLX5_ETH_WQE_INSERT_VLAN);
    prm_put_be16(eth + WQE_ETH_INSERT_VLAN_TCI, 0x2000 | 10);
    h_data_seg(d, 64, e->lkey, DATA_GPA);
    h_sq_ring(e->h, &e->sq);
    expect_cqe(e, MLX5_CQE_REQ, 0, e->sq.num);
    g_assert_true(e->h->last_tx_offload.vlan_insert);
    g_assert_cmphex(e->h->last_tx_offload.vlan_tci, ==, 0x2000 | 10);
}

/* LSO with MSS 0 cannot be segmented: error CQE, SQ in error. */
static void test_lso_mss_zero(void)
{
    g_autoptr(SqEnv) e = env_new();

    h_port_up(e->h);
    send_offload(e, MLX5_OPCODE_LSO, ETH_P_IP, MLX5_ETH_WQE_L4_CSUM, 0);
    expect_error_cqe(e, &e->sq, 0, MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR);
    g_assert_cmpuint(e->h->frames->len, ==, 0);
}

static void test_send_transmits_frame(void)
{
    g_autoptr(SqEnv) e = env_new();
    GBytes *f;
    const uint8_t *b;
    gsize len;

    h_port_up(e->h);
    send_frame(e, l2_hdr, 50);
    expect_cqe(e, MLX5_CQE_REQ, 0, e->sq.num);
    g_assert_cmpuint(e->h->frames->len, ==, 1);
    f = g_ptr_array_index(e->h->frames, 0);
    b = g_bytes_get_data(f, &len);
    g_assert_cmpuint(len, ==, 64);
    g_assert_cmpmem(b, ETH_HLEN, l2_hdr, ETH_HLEN);
    g_assert_cmphex(b[ETH_HLEN], ==, 0);
    g_assert_cmphex(b[63], ==, 49);
    g_assert_cmpuint(mlx5_traffic_frames(&e->h->fw->counters.phy_tx), ==, 1);
    g_assert_cmpuint(e->h->fw->counters.phy_tx.frames[MLX5_CAST_UNICAST], ==, 1);
    g_assert_cmpuint(mlx5_traffic_octets(&e->h->fw->counters.phy_tx), ==, 64);
}

static void test_send_counts_broadcast_and_multicast(void)
{
    static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
    static const uint8_t mcast[6] = { 0x01, 0x00, 0x5e, 0x00, 0x00, 0x01 };
    g_autoptr(SqEnv) e = env_new();

    h_port_up(e->h);
    send_frame(e, bcast, 50);
    send_frame(e, mcast, 50);
    g_assert_cmpuint(e->h->fw->counters.phy_tx.frames[MLX5_CAST_BROADCAST], ==, 1);
    g_assert_cmpuint(e->h->fw->counters.phy_tx.frames[MLX5_CAST_MULTICAST], ==, 1);
    g_assert_cmpuint(e->h->fw->counters.phy_tx.frames[MLX5_CAST_UNICAST], ==, 0);
}

static void test_send_while_port_down_completes_without_frame(void)
{
    g_autoptr(SqEnv) e = env_new();

    send_frame(e, l2_hdr, 50);
    expect_cqe(e, MLX5_CQE_REQ, 0, e->sq.num);
    g_assert_cmpuint(e->h->frames->len, ==, 0);
    g_assert_cmpuint(mlx5_traffic_frames(&e->h->fw->counters.phy_tx), ==, 0);
}

static void test_receive_counts_drop(void)
{
    g_autoptr(SqEnv) e = env_new();
    uint8_t frame[64] = { 0 };

    mlx5_dev_receive(e->h->dev, frame, sizeof(frame));
    g_assert_cmpuint(mlx5_traffic_frames(&e->h->fw->counters.phy_rx), ==, 0);
}

/* --- doorbells through BAR0 ------------------------------------------- */

static uint64_t bf_value(SqEnv *e)
{
    return h_sq_bf_value(e->h, &e->sq);
}

static void test_bf_doorbell_split_in_two_writes(void)
{
    g_autoptr(SqEnv) e = env_new();
    uint64_t bf = h_uar_addr(e->h->uar, 0x900);                 /* 2nd BlueFlame half */

    h_sq_wqe(e->h, &e->sq, MLX5_OPCODE_NOP, 1, CQ_UPDATE);
    h_put32(e->h, e->sq.dbr + 4, e->sq.ci);
    mlx5_dev_mmio_write(e->h->dev, bf, bf_value(e) >> 32, 4);
    g_assert_null(h_cq_next(e->h, &e->cq));                     /* half a doorbell */
    mlx5_dev_mmio_write(e->h->dev, bf + 4, (uint32_t)bf_value(e), 4);
    expect_cqe(e, MLX5_CQE_REQ, 0, e->sq.num);
}

/* The rest of a BlueFlame WQE copy is not a doorbell. */
static void test_bf_copy_chunks_ignored(void)
{
    g_autoptr(SqEnv) e = env_new();

    h_sq_wqe(e->h, &e->sq, MLX5_OPCODE_NOP, 1, CQ_UPDATE);
    h_put32(e->h, e->sq.dbr + 4, e->sq.ci);
    mlx5_dev_mmio_write(e->h->dev, h_uar_addr(e->h->uar, 0x808), bf_value(e), 8);
    g_assert_null(h_cq_next(e->h, &e->cq));
    g_assert_cmpuint(h_nerrors(e->h), ==, 0);
}

static void test_cq_arm_through_uar_split(void)
{
    g_autoptr(SqEnv) e = env_new();
    uint64_t db = h_uar_addr(e->h->uar, MLX5_UAR_CQ_DOORBELL);

    nop(e, &e->sq, 1, CQ_UPDATE);
    mlx5_dev_mmio_write(e->h->dev, db, 0, 4);                  /* sn 0, cmd 0, ci 0 */
    g_assert_null(h_eq_next(e->h, &e->h->comp_eq));
    mlx5_dev_mmio_write(e->h->dev, db + 4, e->cq.num, 4);
    g_assert_nonnull(h_eq_next(e->h, &e->h->comp_eq));          /* pi 1 > ci 0 */
}

static void test_cq_arm_through_uar_64bit(void)
{
    g_autoptr(SqEnv) e = env_new();

    nop(e, &e->sq, 1, CQ_UPDATE);
    mlx5_dev_mmio_write(e->h->dev, h_uar_addr(e->h->uar, MLX5_UAR_CQ_DOORBELL), e->cq.num, 8);
    g_assert_nonnull(h_eq_next(e->h, &e->h->comp_eq));
}

static void test_eq_doorbell_through_uar(void)
{
    g_autoptr(SqEnv) e = env_new();
    HRing *eq = &e->h->comp_eq;

    h_cq_arm(e->h, &e->cq);
    nop(e, &e->sq, 1, CQ_UPDATE);                               /* fires, EQ disarms */
    g_assert_cmpuint(h_msix_count(e->h, 1), ==, 1);
    /* +0x48: update ci without arming; +0x40: arm. */
    mlx5_dev_mmio_write(e->h->dev, h_uar_addr(e->h->uar, MLX5_UAR_EQ_DOORBELL), eq->num << 24, 4);
    g_assert_cmpuint(h_msix_count(e->h, 1), ==, 1);
    mlx5_dev_mmio_write(e->h->dev, h_uar_addr(e->h->uar, MLX5_UAR_EQ_DOORBELL_ARM), eq->num << 24, 4);
    g_assert_cmpuint(h_msix_count(e->h, 1), ==, 2);             /* EQE 0 still unread */
}

static void test_reset_drops_latched_half(void)
{
    g_autoptr(SqEnv) e = env_new();
    uint64_t bf = h_uar_addr(e->h->uar, MLX5_UAR_BF_BASE);

    h_sq_wqe(e->h, &e->sq, MLX5_OPCODE_NOP, 1, CQ_UPDATE);
    h_put32(e->h, e->sq.dbr + 4, e->sq.ci);
    mlx5_dev_mmio_write(e->h->dev, bf, bf_value(e) >> 32, 4);
    g_assert_cmpuint(mlx5_dev_reset(e->h->dev, "flr"), >, 0);
    mlx5_dev_mmio_write(e->h->dev, bf + 4, (uint32_t)bf_value(e), 4);
    g_assert_cmpuint(mlx5_fw_object_count(e->h->fw), ==, 0);
}

/* --- guest mistakes on the data path ---------------------------------- */

static void test_doorbell_on_unallocated_uar(void)
{
    g_autoptr(SqEnv) e = env_new();

    h_sq_wqe(e->h, &e->sq, MLX5_OPCODE_NOP, 1, CQ_UPDATE);
    h_put32(e->h, e->sq.dbr + 4, e->sq.ci);
    mlx5_dev_mmio_write(e->h->dev, h_uar_addr(e->h->uar + 1, MLX5_UAR_BF_BASE), bf_value(e), 8);
    mlx5_dev_mmio_write(e->h->dev, h_uar_addr(e->h->uar + 1, MLX5_UAR_EQ_DOORBELL_ARM),
                        e->h->comp_eq.num << 24, 4);
    g_assert_null(h_cq_next(e->h, &e->cq));
    g_assert_cmpuint(h_nerrors(e->h), ==, 2);                  /* each refused, logged */
}

static void test_doorbell_for_missing_sq(void)
{
    g_autoptr(SqEnv) e = env_new();

    mlx5_dev_mmio_write(e->h->dev, h_uar_addr(e->h->uar, MLX5_UAR_BF_BASE),
                        (uint64_t)(e->sq.num + 1) << 8, 8);
    mlx5_sq_doorbell(h_dp(e->h), e->h->uar, e->cq.num, 0);                   /* not an SQ number */
    g_assert_cmpuint(h_nerrors(e->h), ==, 2);
}

static void test_producer_counter_beyond_ring(void)
{
    g_autoptr(SqEnv) e = env_new();

    h_put32(e->h, e->sq.dbr + 4, (1u << e->sq.log_size) + 1);
    mlx5_sq_doorbell(h_dp(e->h), e->h->uar, e->sq.num, 0);
    g_assert_cmpuint(h_nerrors(e->h), ==, 1);
    g_assert_cmpuint(hw_counter(e, e->sq.num), ==, 0);
    g_assert_cmpuint(h_query_sq_state(e->h, e->sq.num), ==, ST_RDY);
}

static void test_doorbell_record_outside_ram(void)
{
    g_autoptr(SqEnv) e = env_new();
    g_autoptr(HCmd) c = NULL;
    HRing sq;

    c = h_create_sq_cmd(e->h, &sq, e->cq.num, 4);
    PRM_SET(wq, dbr_addr, PRM_PTR(sqc, wq, IN_PTR(c, create_sq_in, ctx)), 0x40);
    h_ok(e->h, c);
    sq.num = OUT_GET(c, create_sq_out, sqn);
    g_assert_cmphex(h_modify_sq(e->h, sq.num, ST_RST, ST_RDY), ==, 0);
    mlx5_sq_doorbell(h_dp(e->h), e->h->uar, sq.num, 1);
    g_assert_cmpuint(h_nerrors(e->h), ==, 1);
    g_assert_null(h_cq_next(e->h, &e->cq));
}

static void test_wqe_ring_outside_ram(void)
{
    g_autoptr(SqEnv) e = env_new();
    g_autoptr(HCmd) c = NULL;
    HRing sq;

    c = h_create_sq_cmd(e->h, &sq, e->cq.num, 4);
    prm_put_be64(c->in + c->inlen - 8, 0x7f000000);             /* the one page */
    h_ok(e->h, c);
    sq.num = OUT_GET(c, create_sq_out, sqn);
    g_assert_cmphex(h_modify_sq(e->h, sq.num, ST_RST, ST_RDY), ==, 0);
    h_put32(e->h, sq.dbr + 4, 1);
    mlx5_sq_doorbell(h_dp(e->h), e->h->uar, sq.num, 1);
    g_assert_cmpuint(h_nerrors(e->h), ==, 1);
    g_assert_cmpuint(h_query_sq_state(e->h, sq.num), ==, ST_ERR);
}

static void test_eq_doorbell_mistakes(void)
{
    g_autoptr(SqEnv) e = env_new();
    uint32_t eqn = e->h->comp_eq.num;

    mlx5_eq_doorbell(e->h->fw, e->h->uar, 200u << 24, true);               /* no such EQ */
    mlx5_eq_doorbell(e->h->fw, e->h->uar, eqn << 24 | 5, true);            /* ci beyond pi */
    g_assert_cmpuint(h_nerrors(e->h), ==, 2);
    h_cq_arm(e->h, &e->cq);
    nop(e, &e->sq, 1, CQ_UPDATE);
    g_assert_nonnull(h_eq_next(e->h, &e->h->comp_eq));          /* EQ still works */
}

static void test_cq_arm_mistakes(void)
{
    g_autoptr(SqEnv) e = env_new();

    mlx5_cq_arm_doorbell(h_dp(e->h), e->h->uar, e->cq.num + 50, 0);          /* no such CQ */
    mlx5_cq_arm_doorbell(h_dp(e->h), e->h->uar, e->cq.num, 2u << 24);        /* bad command */
    g_assert_cmpuint(h_nerrors(e->h), ==, 1);
    nop(e, &e->sq, 1, CQ_UPDATE);
    g_assert_null(h_eq_next(e->h, &e->h->comp_eq));             /* not armed */
}

/* Objects the queue points at are gone: nothing to post to, no crash. */
static void test_completion_with_destroyed_cq_or_eq(void)
{
    g_autoptr(SqEnv) e = env_new();
    HRing eq = h_create_eq(e->h, 2, 3, 0);
    HRing cq2 = h_create_cq(e->h, eq.num, 2);
    HRing sq2 = h_create_sq(e->h, cq2.num, 2);

    g_assert_cmphex(h_modify_sq(e->h, sq2.num, ST_RST, ST_RDY), ==, 0);
    h_cq_arm(e->h, &cq2);
    h_destroy(e->h, OP_DESTROY_EQ, eq.num);
    nop(e, &sq2, 1, CQ_UPDATE);                                 /* CQE, no EQ */
    g_assert_nonnull(h_cq_next(e->h, &cq2));
    h_destroy(e->h, OP_DESTROY_CQ, cq2.num);
    nop(e, &sq2, 1, CQ_UPDATE);                                 /* no CQ */
    nop(e, &e->sq, 1, CQ_UPDATE);
    expect_cqe(e, MLX5_CQE_REQ, 0, e->sq.num);
}

static void test_unused_bar_offsets(void)
{
    g_autoptr(SqEnv) e = env_new();

    mlx5_dev_mmio_write(e->h->dev, 0x3000, 1, 4);              /* below the UARs */
    mlx5_dev_mmio_write(e->h->dev, MLX5_BAR0_SIZE, 1, 4);
    mlx5_dev_mmio_write(e->h->dev, h_uar_addr(e->h->uar, 0x100), 1, 8);
    mlx5_dev_mmio_write(e->h->dev, h_uar_addr(e->h->uar, 0x2), 1, 2);
    mlx5_dev_mmio_write(e->h->dev, h_uar_addr(e->h->uar, 0x24), 1, 4);  /* no high half */
    g_assert_cmpuint(e->h->msix->len + e->h->frames->len, ==, 0);
}

/* BAR0 below 0x2010 is the init segment (firmware-sim/iseg.c, test-iseg):
 * an 8-byte read there is its two words; the UAR pages above it are
 * write-only and read as 0. */
static void test_bar0_reads(void)
{
    g_autoptr(SqEnv) e = env_new();
    uint64_t cmdq = mlx5_dev_mmio_read(e->h->dev, ISEG_CMDQ_H, 8);

    g_assert_cmphex(cmdq >> 32, ==, e->h->cmdq >> 32);
    g_assert_cmphex((uint32_t)cmdq & ~0xfffu, ==, (uint32_t)e->h->cmdq);
    g_assert_cmphex(mlx5_dev_mmio_read(e->h->dev, h_uar_addr(e->h->uar, MLX5_UAR_CQ_DOORBELL), 8), ==, 0);
}

/* --- packet pacing (firmware-sim/qos.c, hw-rdma/pacing.c) ------------------- */

/* SET_PP_RATE_LIMIT of entry `index`: `kbps` (0 clears) and a burst. */
static HCmd *pp_rate_cmd(unsigned index, uint32_t kbps, uint32_t burst)
{
    HCmd *c = hcmd_new(OP_SET_PP_RATE_LIMIT, 0);
    uint8_t *ctx = IN_PTR(c, set_pp_rate_limit_in, ctx);

    IN_SET(c, set_pp_rate_limit_in, rate_limit_index, index);
    PRM_SET(set_pp_rate_limit_context, rate_limit, ctx, kbps);
    PRM_SET(set_pp_rate_limit_context, burst_upper_bound, ctx, burst);
    return c;
}

/* MODIFY_SQ RDY -> RDY naming rate `index` (modify_bitmask bit 0, as
 * mlx5e_set_sq_maxrate sends it). */
static HCmd *sq_rate_cmd(uint32_t sqn, unsigned index)
{
    HCmd *c = hcmd_new(OP_MODIFY_SQ, 0);
    uint8_t *sqc = IN_PTR(c, modify_sq_in, ctx);

    IN_SET(c, modify_sq_in, sqn, sqn);
    IN_SET(c, modify_sq_in, sq_state, ST_RDY);
    IN_SET(c, modify_sq_in, modify_bitmask, 1);
    PRM_SET(sqc, state, sqc, ST_RDY);
    PRM_SET(sqc, packet_pacing_rate_limit_index, sqc, index);
    return c;
}

/* The QoS page says what mlx5_core's rate table reads (rl.c
 * mlx5_init_rl_table); SET_PP_RATE_LIMIT takes a rate within the range
 * at an index of the table, refuses index 0, an index past it, a rate
 * outside the range, and clears with a rate of 0. */
static void test_pp_rate_table(void)
{
    g_autoptr(SqEnv) e = env_new();
    g_autoptr(HCmd) q = hcmd_new(OP_QUERY_HCA_CAP, MLX5_CAP_QOS << 1 | 1);
    const uint8_t *cap;
    const uint32_t bad[][2] = { { 0, 5000 }, { MLX5_PP_RATE_TABLE_SIZE, 5000 }, { 1, 999 },
                                { 1, 100000001 } };

    h_ok(e->h, q);
    cap = OUT_PTR(q, query_hca_cap_out, capability);
    g_assert_true(PRM_GET(cmd_hca_cap, qos, MLX5_CAP_CUR(e->h->fw, MLX5_CAP_GENERAL)));
    g_assert_true(PRM_GET(qos_cap, packet_pacing, cap));
    g_assert_cmpuint(PRM_GET(qos_cap, packet_pacing_rate_table_size, cap), ==,
                     MLX5_PP_RATE_TABLE_SIZE);
    g_assert_cmpuint(PRM_GET(qos_cap, packet_pacing_min_rate, cap), ==, 1000);
    g_assert_cmpuint(PRM_GET(qos_cap, packet_pacing_max_rate, cap), ==, 100000000);
    h_ok_free(e->h, pp_rate_cmd(1, 5000, 0));
    g_assert_cmpuint(mlx5_pp_rate(e->h->fw, 1)->rate_kbps, ==, 5000);
    for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
        g_autoptr(HCmd) c = pp_rate_cmd(bad[i][0], bad[i][1], 0);

        h_fail(e->h, c, MLX5_CMD_STAT_BAD_PARAM,
               i < 2 ? MLX5_SYND_PP_RATE_INDEX : MLX5_SYND_PP_RATE);
    }
    g_assert_cmpuint(mlx5_pp_rate(e->h->fw, 1)->rate_kbps, ==, 5000);
    h_ok_free(e->h, pp_rate_cmd(1, 0, 0));
    g_assert_null(mlx5_pp_rate(e->h->fw, 1));
}

/* An SQ names a rate that holds one, or none: CREATE_SQ or MODIFY_SQ
 * naming an entry not set is refused and changes nothing; QUERY_SQ
 * reports the index. */
static void test_sq_rate_index(void)
{
    g_autoptr(SqEnv) e = env_new();
    g_autoptr(HCmd) unset = sq_rate_cmd(e->sq.num, 2);
    g_autoptr(HCmd) q = hcmd_new(OP_QUERY_SQ, 0);
    HRing other;
    g_autoptr(HCmd) create = h_create_sq_cmd(e->h, &other, e->cq.num, 2);

    PRM_SET(sqc, packet_pacing_rate_limit_index, IN_PTR(create, create_sq_in, ctx), 2);
    h_fail(e->h, create, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_PP_RATE_NOT_SET);

    h_ok_free(e->h, pp_rate_cmd(1, 5000, 0));
    h_fail(e->h, unset, MLX5_CMD_STAT_BAD_PARAM, MLX5_SYND_PP_RATE_NOT_SET);
    h_ok_free(e->h, sq_rate_cmd(e->sq.num, 1));
    IN_SET(q, query_sq_in, sqn, e->sq.num);
    h_ok(e->h, q);
    g_assert_cmpuint(PRM_GET(sqc, packet_pacing_rate_limit_index,
                             OUT_PTR(q, query_sq_out, sq_context)), ==, 1);
    g_assert_cmpuint(h_query_sq_state(e->h, e->sq.num), ==, ST_RDY);
}

/* At 8,000 kbit/s a 64-byte frame takes 64 us.  With no burst the first
 * of three leaves at once, each next one when its time has come - the
 * queue waits for the device's timer, not for another doorbell; an
 * unlimited SQ beside it sends at once.  With a burst of 128 bytes the
 * queue may run that far ahead: three leave together, the fourth waits. */
static void test_sq_paced(void)
{
    g_autoptr(SqEnv) e = env_new();
    HRing other = h_create_sq(e->h, e->cq.num, 6);

    g_assert_cmphex(h_modify_sq(e->h, other.num, ST_RST, ST_RDY), ==, MLX5_CMD_STAT_OK);
    h_port_up(e->h);
    h_ok_free(e->h, pp_rate_cmd(1, 8000, 0));
    h_ok_free(e->h, pp_rate_cmd(2, 8000, 128));
    h_ok_free(e->h, sq_rate_cmd(e->sq.num, 1));
    for (int i = 0; i < 3; i++) {
        send_frame(e, l2_hdr, 50);
    }
    g_assert_cmpuint(e->h->frames->len, ==, 1);
    {
        HRing mine = e->sq;             /* send_frame posts on e->sq */

        e->sq = other;
        send_frame(e, l2_hdr, 50);
        e->sq = mine;
    }
    g_assert_cmpuint(e->h->frames->len, ==, 2);
    e->h->clock_ns += 63999;
    h_run_due(e->h);
    g_assert_cmpuint(e->h->frames->len, ==, 2);
    e->h->clock_ns += 1;
    h_run_due(e->h);
    g_assert_cmpuint(e->h->frames->len, ==, 3);
    e->h->clock_ns += 64000;
    h_run_due(e->h);
    g_assert_cmpuint(e->h->frames->len, ==, 4);
    e->h->clock_ns += 1000000;          /* idle long enough: the bucket is full */
    h_run_due(e->h);
    h_ok_free(e->h, sq_rate_cmd(e->sq.num, 2));
    for (int i = 0; i < 4; i++) {
        send_frame(e, l2_hdr, 50);
    }
    g_assert_cmpuint(e->h->frames->len, ==, 7);
    e->h->clock_ns += 64000;
    h_run_due(e->h);
    g_assert_cmpuint(e->h->frames->len, ==, 8);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/datapath/nop-with-cq-update-gives-cqe", test_nop_with_cq_update_gives_cqe);
    g_test_add_func("/datapath/unsignaled-wqes-are-silent", test_unsignaled_wqes_are_silent);
    g_test_add_func("/datapath/multi-block-wqe-advances-counter",
                    test_multi_block_wqe_advances_counter);
    g_test_add_func("/datapath/cqe-owner-bit-flips-on-wrap", test_cqe_owner_bit_flips_on_wrap);
    g_test_add_func("/datapath/completion-event-needs-armed-cq",
                    test_completion_event_needs_armed_cq);
    g_test_add_func("/datapath/msix-needs-armed-eq", test_msix_needs_armed_eq);
    g_test_add_func("/datapath/moderation-by-count", test_moderation_by_count);
    g_test_add_func("/datapath/moderation-by-period", test_moderation_by_period);
    g_test_add_func("/datapath/moderation-cq-gone", test_moderation_cq_gone);
    g_test_add_func("/datapath/moderation-period-from-cqe", test_moderation_period_from_cqe);
    g_test_add_func("/datapath/arm-behind-producer-notifies-at-once",
                    test_arm_behind_producer_notifies_at_once);
    g_test_add_func("/datapath/solicited-arm-waits-for-solicited",
                    test_solicited_arm_waits_for_solicited);
    g_test_add_func("/datapath/cq-overrun-gives-cq-error", test_cq_overrun_gives_cq_error);
    g_test_add_func("/datapath/128-byte-cqe-in-second-half", test_128_byte_cqe_in_second_half);
    g_test_add_func("/datapath/bad-ds-gives-error-cqe", test_bad_ds_gives_error_cqe);
    g_test_add_func("/datapath/err-sq-flushes-posted", test_err_sq_flushes_posted);
    g_test_add_func("/datapath/send-through-mtt-key", test_send_through_mtt_key);
    g_test_add_func("/datapath/mtt-mkey-bad-input", test_mtt_mkey_bad_input);
    for (size_t i = 0; i < G_N_ELEMENTS(send_bad); i++) {
        g_autofree char *path = g_strdup_printf("/datapath/%s", send_bad[i].name);

        if (send_bad[i].isolated_s) {
            h_add_isolated_data(path, test_send_bad, &send_bad[i], send_bad[i].isolated_s);
        } else {
            g_test_add_data_func(path, &send_bad[i], test_send_bad);
        }
    }
    g_test_add_func("/datapath/unsupported-opcode", test_unsupported_opcode);
    g_test_add_func("/datapath/send-without-eth-segment", test_send_without_eth_segment);
    g_test_add_func("/datapath/send-inline-header-beyond-wqe",
                    test_send_inline_header_beyond_wqe);
    g_test_add_func("/datapath/other-sqs-keep-working", test_other_sqs_keep_working);
    g_test_add_func("/datapath/err-sq-recovers-through-reset", test_err_sq_recovers_through_reset);
    g_test_add_func("/datapath/sq-in-reset-does-not-execute", test_sq_in_reset_does_not_execute);
    h_add_isolated("/datapath/wqe-overrunning-producer-counter",
                   test_wqe_overrunning_producer_counter, 3);
    g_test_add_func("/datapath/send-transmits-frame", test_send_transmits_frame);
    g_test_add_func("/datapath/send-offload-flags", test_send_offload_flags);
    g_test_add_func("/datapath/send-vlan-insert", test_send_vlan_insert);
    g_test_add_func("/datapath/lso-counts-wire-segments", test_lso_counts_wire_segments);
    g_test_add_func("/datapath/lso-small-mss", test_lso_small_mss);
    g_test_add_func("/datapath/lso-chunks-across-slices", test_lso_chunks_across_slices);
    g_test_add_func("/datapath/lso-half-out-then-err", test_lso_half_out_then_err);
    g_test_add_func("/datapath/moderation-rearm-keeps-one", test_moderation_rearm_keeps_one);
    g_test_add_func("/datapath/moderation-many-cqs", test_moderation_many_cqs);
    g_test_add_func("/datapath/cq-resize", test_cq_resize);
    g_test_add_func("/datapath/cq-resize-refused", test_cq_resize_refused);
    g_test_add_func("/datapath/cq-resize-charged", test_cq_resize_charged);
    g_test_add_func("/datapath/tx-finish-segment-checksum-zero",
                    test_tx_finish_segment_checksum_zero);
    g_test_add_func("/datapath/lso-mss-zero", test_lso_mss_zero);
    g_test_add_func("/datapath/send-counts-broadcast-and-multicast",
                    test_send_counts_broadcast_and_multicast);
    g_test_add_func("/datapath/send-while-port-down-completes-without-frame",
                    test_send_while_port_down_completes_without_frame);
    g_test_add_func("/datapath/receive-counts-drop", test_receive_counts_drop);
    g_test_add_func("/datapath/bf-doorbell-split-in-two-writes",
                    test_bf_doorbell_split_in_two_writes);
    g_test_add_func("/datapath/bf-copy-chunks-ignored", test_bf_copy_chunks_ignored);
    g_test_add_func("/datapath/cq-arm-through-uar-split", test_cq_arm_through_uar_split);
    g_test_add_func("/datapath/cq-arm-through-uar-64bit", test_cq_arm_through_uar_64bit);
    g_test_add_func("/datapath/eq-doorbell-through-uar", test_eq_doorbell_through_uar);
    g_test_add_func("/datapath/reset-drops-latched-half", test_reset_drops_latched_half);
    g_test_add_func("/datapath/doorbell-on-unallocated-uar", test_doorbell_on_unallocated_uar);
    g_test_add_func("/datapath/doorbell-for-missing-sq", test_doorbell_for_missing_sq);
    g_test_add_func("/datapath/producer-counter-beyond-ring", test_producer_counter_beyond_ring);
    g_test_add_func("/datapath/doorbell-record-outside-ram", test_doorbell_record_outside_ram);
    g_test_add_func("/datapath/wqe-ring-outside-ram", test_wqe_ring_outside_ram);
    g_test_add_func("/datapath/eq-doorbell-mistakes", test_eq_doorbell_mistakes);
    g_test_add_func("/datapath/cq-arm-mistakes", test_cq_arm_mistakes);
    g_test_add_func("/datapath/completion-with-destroyed-cq-or-eq",
                    test_completion_with_destroyed_cq_or_eq);
    g_test_add_func("/datapath/unused-bar-offsets", test_unused_bar_offsets);
    g_test_add_func("/datapath/bar0-reads", test_bar0_reads);
    g_test_add_func("/datapath/pp-rate-table", test_pp_rate_table);
    g_test_add_func("/datapath/sq-rate-index", test_sq_rate_index);
    g_test_add_func("/datapath/sq-paced", test_sq_paced);
    return g_test_run();
}
