/* The fuzzers' platform: see platform.h. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "platform.h"

void fuzz_fail(const char *fmt, ...)
{
    va_list ap;

    fputs("mlx5emu fuzz: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    __builtin_trap();
}

/* --- the platform table -------------------------------------------------- */

static bool in_ram(uint64_t a, size_t n)
{
    return a >= GUEST_BASE && n <= GUEST_SIZE && a - GUEST_BASE <= GUEST_SIZE - n;
}

static bool in_window(const FuzzDev *f, uint64_t a, size_t n)
{
    return f->mode == FUZZ_REENTER && n <= FUZZ_WINDOW_SIZE && a <= FUZZ_WINDOW_SIZE - n;
}

/* FUZZ_REENTER: DMA into the window is BAR0 access, in 8-byte (aligned)
 * or 4-byte register writes, big-endian as the device's registers are. */
static void window_write(FuzzDev *f, uint64_t a, const uint8_t *buf, size_t n)
{
    size_t i = 0;

    f->depth++;
    while (i + 4 <= n) {
        if ((a + i) % 8 == 0 && i + 8 <= n) {
            mlx5_dev_mmio_write(f->h->dev, a + i, prm_be64(buf + i), 8);
            i += 8;
        } else {
            mlx5_dev_mmio_write(f->h->dev, a + i, prm_be32(buf + i), 4);
            i += 4;
        }
    }
    f->depth--;
}

static void window_read(FuzzDev *f, uint64_t a, uint8_t *buf, size_t n)
{
    memset(buf, 0, n);
    f->depth++;
    for (size_t i = 0; i + 4 <= n; i += 4) {
        prm_put_be32(buf + i, (uint32_t)mlx5_dev_mmio_read(f->h->dev, a + i, 4));
    }
    f->depth--;
}

/* Guest memory: RAM, or in FUZZ_REENTER the BAR0 window; anything else
 * is not memory (-1: the device answers the PRM way). */
static int dma(FuzzDev *f, uint64_t a, uint8_t *buf, const uint8_t *src, size_t n)
{
    fuzz_budget_charge(&f->budget, FUZZ_DMA_BYTES, n);
    if (in_window(f, a, n)) {
        if (src) {
            window_write(f, a, src, n);
        } else {
            window_read(f, a, buf, n);
        }
        return 0;
    }
    if (!in_ram(a, n)) {
        return -1;
    }
    if (src) {
        memcpy(f->h->ram + (a - GUEST_BASE), src, n);
        fuzz_ram_written(f, a, n);
    } else {
        memcpy(buf, f->h->ram + (a - GUEST_BASE), n);
    }
    return 0;
}

static int p_dma_read(void *o, uint64_t a, void *buf, size_t n)
{
    return dma(o, a, buf, NULL, n);
}

static int p_dma_write(void *o, uint64_t a, const void *buf, size_t n)
{
    return dma(o, a, NULL, buf, n);
}

static void p_msix(void *o, unsigned vector)
{
    FuzzDev *f = o;

    fuzz_budget_charge(&f->budget, FUZZ_MSIX, 1);
    if (vector >= f->msix_vectors) {
        fuzz_fail("MSI-X vector %u of %u raised (platform.h: the core bounds it)", vector,
                  f->msix_vectors);
    }
}

static void p_tx(void *o, const uint8_t *frame, size_t len, const Mlx5TxOffload *off)
{
    FuzzDev *f = o;
    GBytes *b;

    (void)off;
    fuzz_budget_charge(&f->budget, FUZZ_FRAMES, 1);
    if (len < ETH_HLEN || len > FUZZ_MAX_FRAME) {
        fuzz_fail("tx_frame of %zu bytes", len);
    }
    f->budget.paused = true;            /* the platform's copies are not the device's */
    b = g_bytes_new(frame, len);
    if (f->sent[f->nsent % FUZZ_TX_KEEP]) {
        g_bytes_unref(f->sent[f->nsent % FUZZ_TX_KEEP]);
    }
    f->sent[f->nsent++ % FUZZ_TX_KEEP] = g_bytes_ref(b);
    if (f->mode == FUZZ_LOOPBACK) {
        g_queue_push_tail(f->wire, g_bytes_ref(b));
    }
    g_bytes_unref(b);
    f->budget.paused = false;
}

static uint64_t p_clock(void *o)
{
    return ((FuzzDev *)o)->h->clock_ns;
}

static void p_timer_set(void *o, uint64_t deadline_ns)
{
    ((FuzzDev *)o)->h->timer_ns = deadline_ns;
}

static void p_guest_error(void *o, const char *msg)
{
    FuzzDev *f = o;

    fuzz_budget_charge(&f->budget, FUZZ_GUEST_ERRORS, 1);
    if (!msg || !*msg) {
        fuzz_fail("empty guest-error message");
    }
}

static const Mlx5Platform fuzz_platform = {
    .dma_read = p_dma_read, .dma_write = p_dma_write, .msix_notify = p_msix,
    .tx_frame = p_tx, .clock_ns = p_clock, .timer_set = p_timer_set,
    .guest_error = p_guest_error,
};

/* --- life cycle ------------------------------------------------------------ */

/* Guest RAM: one mapping per process, kept from input to input.  An input
 * writes a few dozen of its 4096 pages; handing all of it back to the
 * kernel after each input (MADV_DONTNEED) and faulting it in again was a
 * quarter of every execution, so only the pages written are cleared: the
 * device's DMA writes and the operations' writes (fuzz_ram_written), and
 * the harness's allocations, where the set-up writes ([GUEST_BASE, brk)
 * and the mailbox arena up to its high-water mark).  Every 256th input
 * (each, when replayed) then checks that all of RAM reads zero: a write
 * nobody recorded is a finding of the fuzzer's own, not bytes leaking
 * silently from one input into the next. */
static uint8_t *fuzz_ram;
static unsigned fuzz_ram_uses, fuzz_ram_audit = 256;
/* The device memory the platform lends (Mlx5FwConfig.memic), as QEMU's
 * glue does: cleared by the firmware, not allocated per input. */
static uint8_t fuzz_memic[MLX5_MEMIC_BAR_BYTES];

static uint8_t *ram_take(void)
{
    if (!fuzz_ram) {
        void *p = mmap(NULL, GUEST_SIZE, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        g_assert_true(p != MAP_FAILED);
        fuzz_ram = p;
    }
    return fuzz_ram;
}

void fuzz_ram_written(FuzzDev *f, uint64_t gpa, uint64_t n)
{
    uint64_t first, last;

    if (n == 0 || gpa < GUEST_BASE || gpa - GUEST_BASE >= GUEST_SIZE) {
        return;
    }
    first = (gpa - GUEST_BASE) / PAGE;
    last = (gpa - GUEST_BASE + MIN(n, (uint64_t)GUEST_SIZE) - 1) / PAGE;
    for (uint64_t p = first; p <= last && p < GUEST_SIZE / PAGE; p++) {
        f->ram_dirty[p / 64] |= 1ull << (p % 64);
    }
}

static void ram_audit(const uint8_t *ram)
{
    static const uint8_t zero[PAGE];

    for (uint64_t off = 0; off < GUEST_SIZE; off += PAGE) {
        if (memcmp(ram + off, zero, PAGE) != 0) {
            fuzz_fail("fake RAM at %#" PRIx64 " kept what an input wrote: a write "
                      "went unrecorded (fuzz_ram_written)", (uint64_t)(GUEST_BASE + off));
        }
    }
}

void fuzz_ram_audit_each(void)
{
    fuzz_ram_audit = 1;
}

static void ram_clear_written(FuzzDev *f)
{
    Harness *h = f->h;

    fuzz_ram_written(f, GUEST_BASE, h->brk - GUEST_BASE);
    if (h->mb_top > MB_ARENA) {
        fuzz_ram_written(f, MB_ARENA, h->mb_top - MB_ARENA);
    }
    for (unsigned w = 0; w < G_N_ELEMENTS(f->ram_dirty); w++) {
        for (uint64_t bits = f->ram_dirty[w]; bits; bits &= bits - 1) {
            memset(h->ram + ((uint64_t)w * 64 + (unsigned)__builtin_ctzll(bits)) * PAGE, 0,
                   PAGE);
        }
        f->ram_dirty[w] = 0;
    }
    if (++fuzz_ram_uses % fuzz_ram_audit == 0) {
        ram_audit(h->ram);
    }
}

FuzzDev *fuzz_dev_new(FuzzMode mode)
{
    FuzzDev *f = g_new0(FuzzDev, 1);
    Mlx5FwConfig cfg;

    f->mode = mode;
    f->wire = g_queue_new();
    /* the set-up is ours: no limits until fuzz_dev_setup_done() */
    memset(f->budget.max_call, 0xff, sizeof(f->budget.max_call));
    memset(f->budget.max_input, 0xff, sizeof(f->budget.max_input));
    f->h = h_alloc_harness_on(ram_take());
    h_board_config(&cfg);
    cfg.memic = fuzz_memic;
    f->msix_vectors = cfg.msix_vectors;
    h_attach_device(f->h, &fuzz_platform, f, &cfg);
    return f;
}

void fuzz_dev_setup_done(FuzzDev *f)
{
    fuzz_budget_init(&f->budget);
    /* What the set-up sent stays lost (FUZZ_LOOPBACK too), but may be
     * fed again (FUZZ_OP_REFEED). */
    g_queue_clear_full(f->wire, (GDestroyNotify)g_bytes_unref);
}

void fuzz_dev_free(FuzzDev *f)
{
    ram_clear_written(f);
    h_free(f->h);
    g_queue_free_full(f->wire, (GDestroyNotify)g_bytes_unref);
    for (unsigned i = 0; i < FUZZ_TX_KEEP; i++) {
        if (f->sent[i]) {
            g_bytes_unref(f->sent[i]);
        }
    }
    if (f->held) {
        g_bytes_unref(f->held);
    }
    g_free(f);
}

GBytes *fuzz_dev_sent(FuzzDev *f, unsigned back)
{
    if (back >= FUZZ_TX_KEEP || back >= f->nsent) {
        return NULL;
    }
    return f->sent[(f->nsent - 1 - back) % FUZZ_TX_KEEP];
}

/* --- calls into the device --------------------------------------------------- */

static void call_begin(FuzzDev *f, const char *entry)
{
    if (f->depth++ == 0) {
        fuzz_budget_call_begin(&f->budget, entry);
    }
}

static void call_end(FuzzDev *f)
{
    if (--f->depth == 0) {
        fuzz_budget_call_end(&f->budget);
    }
}

/* One frame into the device; a frame it cannot take yet is held (one, as
 * a lossless link's queue would) until mlx5_dev_rx_retry() says so. */
static void receive_one(FuzzDev *f, GBytes *b)
{
    gsize len;
    const uint8_t *p = g_bytes_get_data(b, &len);
    bool taken;

    call_begin(f, "mlx5_dev_receive");
    taken = mlx5_dev_receive(f->h->dev, p, len);
    call_end(f);
    if (!taken && !f->held) {
        f->held = g_bytes_ref(b);
    }
}

/* What follows every call, as QEMU's glue and net queue do it: the held
 * frame again if the device asks for it, rung command slots, then the
 * frames on the looped-back wire (which may send more: the budget ends
 * a conversation that does not). */
static void after_call(FuzzDev *f)
{
    GBytes *b;

    if (f->depth) {
        return;
    }
    if (f->held && mlx5_dev_rx_retry(f->h->dev)) {
        b = f->held;
        f->held = NULL;
        receive_one(f, b);
        g_bytes_unref(b);
    }
    if (mlx5_dev_commands_pending(f->h->dev)) {
        call_begin(f, "mlx5_dev_run_commands");
        mlx5_dev_run_commands(f->h->dev);
        call_end(f);
    }
    while ((b = g_queue_pop_head(f->wire))) {
        receive_one(f, b);
        g_bytes_unref(b);
    }
}

void fuzz_dev_mmio_write(FuzzDev *f, uint64_t addr, uint64_t val, unsigned size)
{
    call_begin(f, "mlx5_dev_mmio_write");
    mlx5_dev_mmio_write(f->h->dev, addr, val, size);
    call_end(f);
    after_call(f);
}

uint64_t fuzz_dev_mmio_read(FuzzDev *f, uint64_t addr, unsigned size)
{
    uint64_t v;

    call_begin(f, "mlx5_dev_mmio_read");
    v = mlx5_dev_mmio_read(f->h->dev, addr, size);
    call_end(f);
    after_call(f);
    return v;
}

void fuzz_dev_receive(FuzzDev *f, const uint8_t *frame, size_t len)
{
    GBytes *b = g_bytes_new(frame, len);

    receive_one(f, b);
    g_bytes_unref(b);
    after_call(f);
}

void fuzz_dev_set_link(FuzzDev *f, bool up)
{
    call_begin(f, "mlx5_dev_set_link");
    mlx5_dev_set_link(f->h->dev, up);
    call_end(f);
    after_call(f);
}

void fuzz_dev_reset(FuzzDev *f)
{
    call_begin(f, "mlx5_dev_reset");
    mlx5_dev_reset(f->h->dev, "fuzz");
    call_end(f);
    if (f->held) {                      /* QEMU purges the queue on reset */
        g_bytes_unref(f->held);
        f->held = NULL;
    }
    h_cmdq_setup(f->h);                 /* the driver's next probe */
    after_call(f);
}

void fuzz_dev_advance(FuzzDev *f, uint64_t ns)
{
    Harness *h = f->h;
    unsigned n = 0;

    h->clock_ns += ns;
    while (h->timer_ns <= h->clock_ns) {
        /* Each expiry must make progress: a timer asking for "now" again
         * and again would stall the vCPU's main loop. */
        if (++n > FUZZ_MAX_EXPIRIES) {
            fuzz_fail("the timer fired %u times without the clock moving", n - 1);
        }
        h->timer_ns = UINT64_MAX;
        call_begin(f, "mlx5_dev_timer");
        mlx5_dev_timer(h->dev);
        call_end(f);
        after_call(f);
    }
}

/* --- commands ------------------------------------------------------------------ */

#define OUT_GUARD 64u

/* The rules every answer keeps (harness.h h_fail: the same for tests). */
static void check_answer(FuzzDev *f, const uint8_t *out, uint32_t outlen, unsigned st,
                         unsigned objs_before)
{
    for (uint32_t i = outlen; i < outlen + OUT_GUARD; i++) {
        if (out[i] != POISON) {
            fuzz_fail("command output written at byte %u past outlen %u", i, outlen);
        }
    }
    if (outlen && out[0] != st) {
        fuzz_fail("status byte 0x%x, returned 0x%x", out[0], st);
    }
    if (st == MLX5_CMD_STAT_OK) {
        return;
    }
    for (uint32_t i = 8; i < outlen; i++) {
        if (out[i]) {
            fuzz_fail("failed command (status 0x%x): output byte %u is 0x%x, not 0", st, i,
                      out[i]);
        }
    }
    if (mlx5_fw_object_count(f->h->fw) != objs_before) {
        fuzz_fail("failed command (status 0x%x) changed the object count %u -> %u", st,
                  objs_before, mlx5_fw_object_count(f->h->fw));
    }
}

unsigned fuzz_dev_exec(FuzzDev *f, const uint8_t *in, uint32_t inlen, uint32_t outlen)
{
    /* exact-size copies: ASan sees a read past inlen or a write past outlen */
    g_autofree uint8_t *copy = g_malloc(MAX(inlen, 1u));
    g_autofree uint8_t *out = g_malloc(outlen + OUT_GUARD);
    unsigned objs = mlx5_fw_object_count(f->h->fw);
    unsigned st;

    memcpy(copy, in, inlen);
    memset(out, POISON, outlen + OUT_GUARD);
    call_begin(f, "mlx5_fw_exec");
    st = mlx5_fw_exec(f->h->fw, copy, inlen, out, outlen);
    call_end(f);
    check_answer(f, out, outlen, st, objs);
    after_call(f);
    return st;
}
