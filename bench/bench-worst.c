/*
 * Benchmark of the device's worst cases (scripts/bench worst): how long one
 * call of an entry point (a doorbell, a received frame, a command, the
 * timer that carries on sliced work, sched.c) holds the device when a
 * guest or a peer asks for the most work one action can ask for.  It
 * measures and prints; it asserts nothing about speed.  Each row is set
 * against a baseline of the same run: a one-packet doorbell, a one-packet
 * frame, a one-WQE command.
 *
 * The rows go through the device's entry points as a platform calls them
 * (mlx5_dev_mmio_write, mlx5_dev_receive, mlx5_dev_timer; commands inside
 * a slice as mlx5_dev_run_commands runs them), on two RC QPs of one
 * function (rc-env.h) with fake guest RAM: the time is the core's, not
 * QEMU's (an LSO WQE's segments are cut by the platform, see
 * docs/security.md).  A row's figure is the longest single call over its
 * repetitions; "calls" is how many entry-point calls the work took.
 */
#include <stdio.h>

#include "bench.h"
#include "harness-dev.h"
#include "rc-env.h"

enum { MTU = 1024, REPS = 20, BIG = 6u << 20 };     /* rc-env's path MTU; 6 MiB */

typedef struct Stat {
    unsigned reps;              /* repetitions of the row */
    unsigned calls;
    unsigned long frames;       /* sent in all */
    int64_t max_ns, sum_ns;
} Stat;

static void stat_add(Stat *s, int64_t t0)
{
    int64_t d = bench_now_ns() - t0;

    s->calls++;
    s->sum_ns += d;
    s->max_ns = MAX(s->max_ns, d);
}

/* The frames sent so far are counted and not looked at again. */
static void frames_forget(RcEnv *e, Stat *s)
{
    s->frames += e->h->frames->len;
    g_ptr_array_set_size(e->h->frames, 0);
    e->fed = 0;
}

/* The timer, each call timed, while the device asks for it now. */
static void timed_due(RcEnv *e, Stat *s)
{
    Harness *h = e->h;

    while (h->timer_ns <= h->clock_ns) {
        int64_t t0 = bench_now_ns();

        h->timer_ns = UINT64_MAX;
        mlx5_dev_timer(h->dev);
        stat_add(s, t0);
        frames_forget(e, s);            /* a platform sends them on */
    }
}

static void timed_doorbell(RcEnv *e, HRing *sq, Stat *s)
{
    int64_t t0 = bench_now_ns();

    h_sq_doorbell(e->h, sq);
    stat_add(s, t0);
    frames_forget(e, s);
    timed_due(e, s);
}

/* Frame `i` of the ones sent, received as the platform delivers it. */
static void timed_receive(RcEnv *e, unsigned i, Stat *s)
{
    GBytes *f = g_bytes_ref(g_ptr_array_index(e->h->frames, i));
    Stat ignore = { 0 };
    int64_t t0;

    frames_forget(e, &ignore);
    t0 = bench_now_ns();
    mlx5_dev_receive(e->h->dev, g_bytes_get_data(f, NULL), g_bytes_get_size(f));
    stat_add(s, t0);
    g_bytes_unref(f);
    frames_forget(e, s);
    timed_due(e, s);
}

/* An RDMA WRITE of `len` bytes from A_BUF to B_BUF, one doorbell. */
static void write_doorbell(RcEnv *e, uint32_t len, Stat *s)
{
    Harness *h = e->h;
    uint8_t *w = h_sq_wqe(h, &e->a, MLX5_OPCODE_RDMA_WRITE, 3, MLX5_WQE_CTRL_CQ_UPDATE);

    h_data_seg(w + 2 * MLX5_DS_BYTES, len, e->key, A_BUF);
    prm_put_be64(w + MLX5_DS_BYTES + WQE_RADDR_VA, B_BUF);
    prm_put_be32(w + MLX5_DS_BYTES + WQE_RADDR_RKEY, e->key);
    timed_doorbell(e, &e->a, s);
}

static void row_write(uint32_t len, Stat *s)
{
    for (unsigned r = 0; r < REPS; r++) {
        g_autoptr(RcEnv) e = env_new(1000);

        s->reps++;
        write_doorbell(e, len, s);
    }
}

/* A peer's RDMA READ of `len` bytes (what a's request asks of b), and if
 * `dup`, the same request again once the responses went. */
static void row_read(uint32_t len, bool dup, Stat *s)
{
    for (unsigned r = 0; r < REPS; r++) {
        g_autoptr(RcEnv) e = env_new(2000);
        GBytes *req;
        Stat first = { 0 };

        s->reps++;
        post_send(e, MLX5_OPCODE_RDMA_READ, len, B_BUF);
        req = g_bytes_ref(g_ptr_array_index(e->h->frames, 0));
        frames_forget(e, &first);
        g_ptr_array_add(e->h->frames, g_bytes_ref(req));
        timed_receive(e, 0, dup ? &first : s);
        if (dup) {
            g_ptr_array_add(e->h->frames, g_bytes_ref(req));
            timed_receive(e, 0, s);
        }
        g_bytes_unref(req);
    }
}

/* MODIFY_QP to ERR of a QP with 2^log_rq receives posted: each flushes. */
static void row_err_flush(unsigned log_rq, Stat *s)
{
    for (unsigned r = 0; r < REPS; r++) {
        g_autoptr(RcEnv) e = env_new(3000);
        Harness *h = e->h;
        HRing cq = h_create_cq(h, h->comp_eq.num, log_rq);
        HRing q = h_create_qp(h, MLX5_QP_ST_RC, h->pd, e->scq.num, cq.num, h->uar, 4, log_rq);
        uint64_t rq = q.gpa - ((uint64_t)H_QP_RQ_STRIDE << log_rq);
        uint32_t n = 1u << log_rq;
        int64_t t0;

        s->reps++;
        for (uint32_t i = 0; i < n; i++) {
            h_data_seg(h_gpa(h, rq + (uint64_t)i * H_QP_RQ_STRIDE), 64, e->key, B_BUF);
        }
        h_put32(h, q.dbr, n);
        connect_qp(e, q.num, e->b.num, 3000);
        t0 = bench_now_ns();
        mlx5_slice_open(h_dp(h));       /* as inside mlx5_dev_run_commands */
        h_modify_qp(h, OP_2ERR_QP, q.num);
        mlx5_slice_close(h_dp(h));
        stat_add(s, t0);
        timed_due(e, s);
    }
}

/* TEARDOWN_HCA of a function still holding rc-env's objects and up to
 * `nqp` QPs more (a driver that never destroyed them), then the timer
 * calls that free what the command retired; *objects: how many there
 * were. */
static void row_teardown(unsigned nqp, unsigned reps, Stat *s, unsigned *objects)
{
    for (unsigned r = 0; r < reps; r++) {
        g_autoptr(RcEnv) e = env_new(4000);
        Harness *h = e->h;
        int64_t t0;

        s->reps++;
        env_add_qps(e, nqp);
        *objects = mlx5_fw_object_count(h->fw);
        t0 = bench_now_ns();
        mlx5_slice_open(h_dp(h));       /* as inside mlx5_dev_run_commands */
        h_ok_free(h, hcmd_new(OP_TEARDOWN_HCA, 0));
        mlx5_slice_close(h_dp(h));
        stat_add(s, t0);
        timed_due(e, s);
        g_assert_cmpuint(mlx5_fw_retired_count(h->fw), ==, 0);
    }
}

/* `nqp` RC QPs to rc-env's b, each with a SEND whose packet was lost,
 * their ack timers all due at once: the timer calls that resend.  The
 * QPs share one ring in fake RAM (env_add_qps): each WQE is copied at its
 * doorbell, before the next QP writes its own there. */
static void row_ack_timers(unsigned nqp, unsigned reps, Stat *s)
{
    for (unsigned r = 0; r < reps; r++) {
        g_autoptr(RcEnv) e = env_new(5000);
        Harness *h = e->h;
        uint64_t brk = h->brk;

        s->reps++;
        e->retry = 3;
        e->timeout = 14;                /* 67 ms */
        for (unsigned i = 0; i < nqp; i++) {
            HRing q;

            h->brk = brk;
            q = h_create_qp(h, MLX5_QP_ST_RC, h->pd, e->scq.num, e->rcq.num, h->uar, 2, 0);

            connect_qp(e, q.num, e->b.num, 5000);
            post_send_on(h, &q, e->key, MLX5_OPCODE_SEND, 64, 0, 0);
        }
        frames_forget(e, &(Stat) { 0 });
        h->clock_ns += 100 * 1000 * 1000ull;
        timed_due(e, s);
    }
}

static void print_row(const char *what, const Stat *s, const Stat *base)
{
    printf("  %-50s %6u %8lu %9.1f %9.1f %8.1fx\n", what, s->calls, s->frames / MAX(s->reps, 1u),
           s->max_ns / 1e3,
           s->calls ? s->sum_ns / 1e3 / s->calls : 0.0,
           base->max_ns ? (double)s->max_ns / base->max_ns : 0.0);
}

int main(void)
{
    Stat db_base = { 0 }, db_big = { 0 }, rx_base = { 0 }, rx_big = { 0 }, rx_dup = { 0 };
    Stat cmd_base = { 0 }, cmd_big = { 0 }, td_base = { 0 }, td_4k = { 0 }, td_full = { 0 };
    Stat tm_base = { 0 }, tm_big = { 0 };
    unsigned n_base, n_4k, n_full;
    char what[3][64];

    row_write(64, &db_base);
    row_write(BIG, &db_big);
    row_read(64, false, &rx_base);
    row_read(BIG, false, &rx_big);
    row_read(BIG, true, &rx_dup);
    row_err_flush(0, &cmd_base);
    row_err_flush(13, &cmd_big);
    row_teardown(0, REPS, &td_base, &n_base);
    row_teardown(1u << 12, REPS, &td_4k, &n_4k);
    row_teardown(1u << 18, 2, &td_full, &n_full);      /* the caps' QPs, or the budget's */
    row_ack_timers(1, REPS, &tm_base);
    row_ack_timers(1u << 14, 2, &tm_big);

    printf("worst cases: the longest single entry-point call, %u repetitions each\n"
           "  (the full teardown and the 16384 timers: 2)\n", REPS);
    printf("  (slices of %u units, sched.c; \"calls\": entry-point calls in all,\n"
           "   \"frames\": sent per repetition)\n",
           MLX5_SLICE_UNITS);
    printf("  %-50s %6s %8s %9s %9s %9s\n", "case", "calls", "frames", "max us", "mean us",
           "vs base");
    print_row("doorbell: RDMA WRITE of 64 B (baseline)", &db_base, &db_base);
    print_row("doorbell: RDMA WRITE of 6 MiB (window: 512 packets)", &db_big, &db_base);
    print_row("frame: READ request of 64 B (baseline)", &rx_base, &rx_base);
    print_row("frame: READ request of 6 MiB (6144 responses)", &rx_big, &rx_base);
    print_row("frame: the same READ request again (duplicate)", &rx_dup, &rx_base);
    print_row("command: MODIFY_QP to ERR, 1 receive (baseline)", &cmd_base, &cmd_base);
    print_row("command: MODIFY_QP to ERR, 8192 receives flushed", &cmd_big, &cmd_base);
    snprintf(what[0], sizeof(what[0]), "command: TEARDOWN_HCA, %u objects (baseline)", n_base);
    snprintf(what[1], sizeof(what[1]), "command: TEARDOWN_HCA, %u objects", n_4k);
    snprintf(what[2], sizeof(what[2]), "command: TEARDOWN_HCA, %u objects (full)", n_full);
    print_row(what[0], &td_base, &td_base);
    print_row(what[1], &td_4k, &td_base);
    print_row(what[2], &td_full, &td_base);
    print_row("timer: 1 ack timer due (baseline)", &tm_base, &tm_base);
    print_row("timer: 16384 ack timers due at once", &tm_big, &tm_base);
    return 0;
}
