/* Unit-test harness: see harness.h. */
#include <stdlib.h>
#include <fnmatch.h>
#include <string.h>

#include "harness.h"

#define OUT_GUARD 64u

/* --- platform -------------------------------------------------------- */

static bool in_ram(uint64_t a, size_t n)
{
    return a >= GUEST_BASE && n <= GUEST_SIZE && a - GUEST_BASE <= GUEST_SIZE - n;
}

static bool in_bar_window(Harness *h, uint64_t a, size_t n)
{
    return h->bar_dma && a >= h->bar_window && n <= MLX5_BAR0_SIZE &&
           a - h->bar_window <= MLX5_BAR0_SIZE - n;
}

static int p_dma_read(void *o, uint64_t a, void *buf, size_t n)
{
    Harness *h = o;
    if (in_bar_window(h, a, n)) {
        return h->bar_dma(h, a - h->bar_window, buf, n, false);
    }
    if (!in_ram(a, n)) {
        return -1;
    }
    memcpy(buf, h->ram + (a - GUEST_BASE), n);
    return 0;
}

static int p_dma_write(void *o, uint64_t a, const void *buf, size_t n)
{
    Harness *h = o;
    if (in_bar_window(h, a, n)) {
        return h->bar_dma(h, a - h->bar_window, (void *)buf, n, true);
    }
    if (!in_ram(a, n)) {
        return -1;
    }
    memcpy(h->ram + (a - GUEST_BASE), buf, n);
    return 0;
}

static void p_msix(void *o, unsigned vector)
{
    Harness *h = o;
    g_assert_cmpuint(vector, <, H_MSIX_VECTORS);
    g_array_append_val(h->msix, vector);
}

static void p_tx(void *o, const uint8_t *frame, size_t len, const Mlx5TxOffload *off)
{
    Harness *h = o;
    g_ptr_array_add(h->frames, g_bytes_new(frame, len));
    h->last_tx_offload = *off;
    if (h->tx_loop) {
        h->tx_loop(h, frame, len);
    }
}

static uint64_t p_clock(void *o)
{
    return ((Harness *)o)->clock_ns;
}

static void p_timer_set(void *o, uint64_t deadline_ns)
{
    ((Harness *)o)->timer_ns = deadline_ns;
}

static void p_guest_error(void *o, const char *msg)
{
    Harness *h = o;
    g_ptr_array_add(h->guest_errors, g_strdup(msg));
    if (g_test_verbose()) {
        g_test_message("guest error: %s", msg);
    }
}

static const Mlx5Platform h_platform = {
    .dma_read = p_dma_read, .dma_write = p_dma_write, .msix_notify = p_msix,
    .tx_frame = p_tx, .clock_ns = p_clock, .timer_set = p_timer_set,
    .guest_error = p_guest_error,
};

const Mlx5Platform *h_platform_table(void)
{
    return &h_platform;
}

void h_board_config(Mlx5FwConfig *cfg)
{
    *cfg = (Mlx5FwConfig) {
        .fw_major = 22, .fw_minor = 39, .fw_sub = 1002,
        .mac = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x01 },
        .msix_vectors = H_MSIX_VECTORS, .device_id = 0x101d,
        .psid = "MT_0000000359", .cq_moderation = true,
        /* off: tests carry the RoCE frames to our own MAC themselves
         * (h->frames); test-rc's loopback test turns it on */
        .roce_loopback = false,
    };
}

Harness *h_alloc_harness(void)
{
    return h_alloc_harness_on(NULL);
}

Harness *h_alloc_harness_on(uint8_t *ram)
{
    Harness *h = g_new0(Harness, 1);

    h->ram = ram ? ram : g_malloc0(GUEST_SIZE);
    h->ram_lent = ram != NULL;
    h->brk = GUEST_BASE;
    h->clock_ns = 1000000000ull;
    h->timer_ns = UINT64_MAX;
    h->msix = g_array_new(FALSE, FALSE, sizeof(unsigned));
    h->frames = g_ptr_array_new_with_free_func((GDestroyNotify)g_bytes_unref);
    h->guest_errors = g_ptr_array_new_with_free_func(g_free);
    return h;
}

Harness *h_new_board(const Mlx5FwConfig *cfg)
{
    Harness *h = h_alloc_harness();

    h->fw = g_new0(Mlx5Fw, 1);
    mlx5_fw_init(h->fw, &h_platform, h, cfg);
    h_cmdq_setup(h);
    return h;
}

Harness *h_new(void)
{
    Mlx5FwConfig cfg;

    h_board_config(&cfg);
    return h_new_board(&cfg);
}

/* The stderr trace backend's hook (tools/gen-trace.py): one harness at a
 * time watches. */
extern void (*mlx5emu_trace_hook)(const char *event, const char *text);
static Harness *h_watching;

static void h_trace_seen(const char *event, const char *text)
{
    Harness *h = h_watching;

    if (h && fnmatch(h->trace_glob, event, 0) == 0) {
        g_ptr_array_add(h->traced, g_strdup_printf("%s %s", event, text));
    }
}

void h_trace_watch(Harness *h, const char *glob)
{
    g_free(h->trace_glob);
    h->trace_glob = g_strdup(glob);
    if (!h->traced) {
        h->traced = g_ptr_array_new_with_free_func(g_free);
    }
    h_watching = h;
    mlx5emu_trace_hook = h_trace_seen;
}

unsigned h_traced(Harness *h, const char *substr)
{
    unsigned n = 0;

    for (guint i = 0; h->traced && i < h->traced->len; i++) {
        n += strstr(g_ptr_array_index(h->traced, i), substr) != NULL;
    }
    return n;
}

void h_free(Harness *h)
{
    if (h_watching == h) {
        h_watching = NULL;
        mlx5emu_trace_hook = NULL;
    }
    if (h->traced) {
        g_ptr_array_unref(h->traced);
    }
    g_free(h->trace_glob);
    if (h->free_device) {
        h->free_device(h);
    } else {
        mlx5_fw_fini(h->fw);
        g_free(h->fw);
    }
    g_array_unref(h->msix);
    g_ptr_array_unref(h->frames);
    g_ptr_array_unref(h->guest_errors);
    if (!h->ram_lent) {
        g_free(h->ram);
    }
    g_free(h);
}

uint64_t h_alloc(Harness *h, uint64_t bytes, uint64_t align)
{
    uint64_t a = (h->brk + align - 1) & ~(align - 1);

    g_assert_cmpuint(a + bytes, <=, MB_ARENA);
    h->brk = a + bytes;
    return a;
}

void *h_gpa(Harness *h, uint64_t gpa)
{
    g_assert_true(in_ram(gpa, 1));
    return h->ram + (gpa - GUEST_BASE);
}

void h_put32(Harness *h, uint64_t gpa, uint32_t v)
{
    prm_put_be32(h_gpa(h, gpa), v);
}

uint32_t h_get32(Harness *h, uint64_t gpa)
{
    return prm_be32(h_gpa(h, gpa));
}

unsigned h_msix_count(Harness *h, unsigned vector)
{
    unsigned n = 0;
    for (guint i = 0; i < h->msix->len; i++) {
        n += g_array_index(h->msix, unsigned, i) == vector;
    }
    return n;
}

unsigned h_nerrors(Harness *h)
{
    return h->guest_errors->len;
}

/* --- commands -------------------------------------------------------- */

HCmd *hcmd_new_len(uint16_t opcode, uint16_t op_mod, uint32_t inlen, uint32_t outlen)
{
    HCmd *c = g_new0(HCmd, 1);

    c->opcode = opcode;
    c->inlen = inlen;
    c->outlen = outlen;
    c->in_cap = MAX(inlen, 16u);
    c->out_cap = MAX(outlen, 16u) + OUT_GUARD;
    c->in = g_malloc0(c->in_cap);
    c->out = g_malloc0(c->out_cap);
    PRM_SET(mbox_in, opcode, c->in, opcode);
    PRM_SET(mbox_in, op_mod, c->in, op_mod);
    return c;
}

HCmd *hcmd_new(uint16_t opcode, uint16_t op_mod)
{
    const Mlx5CmdDesc *d = mlx5_cmd_lookup(opcode);
    return hcmd_new_len(opcode, op_mod, d ? d->in_bytes : 16, d ? d->out_bytes : 16);
}

void hcmd_grow_in(HCmd *c, uint32_t inlen)
{
    if (inlen > c->in_cap) {
        c->in = g_realloc(c->in, inlen);
        memset(c->in + c->in_cap, 0, inlen - c->in_cap);
        c->in_cap = inlen;
    }
    c->inlen = inlen;
}

void hcmd_free(HCmd *c)
{
    if (c) {
        g_free(c->in);
        g_free(c->out);
        g_free(c);
    }
}

/* The syndrome of the last failed command, from its guest-error line (for
 * outputs too short to carry it). */
static uint32_t last_logged_syndrome(Harness *h)
{
    const char *msg, *p;

    if (!h->guest_errors->len) {
        return 0;
    }
    msg = g_ptr_array_index(h->guest_errors, h->guest_errors->len - 1);
    p = strstr(msg, "syndrome 0x");
    return p ? (uint32_t)strtoul(p + strlen("syndrome "), NULL, 16) : 0;
}

static void record_result(Harness *h, HCmd *c)
{
    if (c->outlen >= 8) {
        c->status = PRM_GET(mbox_out, status, c->out);
        c->syndrome = PRM_GET(mbox_out, syndrome, c->out);
    } else {
        c->syndrome = c->status == MLX5_CMD_STAT_OK ? 0 : last_logged_syndrome(h);
    }
    if (c->status == MLX5_CMD_STAT_OK) {
        h->ok_ops[c->opcode & 0xfff] = 1;
    }
}

unsigned h_exec(Harness *h, HCmd *c)
{
    g_autofree uint8_t *in = NULL;

    if (h->via_cmdq) {
        return h_exec_cmdq(h, c, 0);
    }
    /* An exact-size copy: the sanitizers catch a read past inlen. */
    in = g_malloc(MAX(c->inlen, 1u));
    memcpy(in, c->in, MIN(c->inlen, c->in_cap));
    memset(c->out, POISON, c->out_cap);
    c->status = mlx5_fw_exec(h->fw, in, c->inlen, c->out, c->outlen);
    if (c->outlen) {
        g_assert_cmpuint(c->out[0], ==, c->status);
    }
    /* Nothing is written past outlen. */
    for (uint32_t i = c->outlen; i < c->out_cap; i++) {
        g_assert_cmphex(c->out[i], ==, POISON);
    }
    record_result(h, c);
    return c->status;
}

HCmd *h_ok(Harness *h, HCmd *c)
{
    if (h_exec(h, c) != MLX5_CMD_STAT_OK) {
        g_error("%s(0x%x) failed: status %s (0x%x) syndrome 0x%x (%s)",
                mlx5_cmd_name(c->opcode), c->opcode, mlx5_cmd_status_name(c->status),
                c->status, c->syndrome, mlx5_syndrome_text(c->syndrome));
    }
    return c;
}

void h_fail(Harness *h, HCmd *c, unsigned status, uint32_t syndrome)
{
    unsigned objs = mlx5_fw_object_count(h->fw);
    uint64_t held = h->fw->host_mem.used;
    unsigned errs = h_nerrors(h);

    h->clock_ns += 2000000000ull;       /* a fresh guest-error window */
    h_exec(h, c);
    if (c->status != status || c->syndrome != syndrome) {
        g_error("%s(0x%x): got status %s (0x%x) syndrome 0x%x (%s); "
                "expected %s (0x%x) syndrome 0x%x (%s)",
                mlx5_cmd_name(c->opcode), c->opcode,
                mlx5_cmd_status_name(c->status), c->status, c->syndrome,
                mlx5_syndrome_text(c->syndrome), mlx5_cmd_status_name(status), status,
                syndrome, mlx5_syndrome_text(syndrome));
    }
    for (uint32_t i = 8; i < c->outlen; i++) {
        g_assert_cmphex(c->out[i], ==, 0);          /* no half-filled output */
    }
    g_assert_cmpuint(mlx5_fw_object_count(h->fw), ==, objs);
    g_assert_cmpuint(h->fw->host_mem.used, ==, held);   /* nothing charged either */
    g_assert_cmpuint(h_nerrors(h), >, errs);
    h_assert_usable(h);
}

void h_assert_usable(Harness *h)
{
    g_autoptr(HCmd) q = hcmd_new(OP_QUERY_ISSI, 0);

    h_exec(h, q);
    if (h->fw->hca_state == MLX5_HCA_DISABLED) {
        g_assert_cmphex(q->status, ==, MLX5_CMD_STAT_BAD_SYS_STATE);
        g_assert_cmphex(q->syndrome, ==, MLX5_SYND_NOT_ENABLED);
    } else {
        g_assert_cmphex(q->status, ==, MLX5_CMD_STAT_OK);
        g_assert_cmpuint(OUT_GET(q, query_issi_out, supported_issi_dw0), ==, 0x3);
    }
}

/* --- command queue --------------------------------------------------- */

void h_cmdq_setup(Harness *h)
{
    if (!h->cmdq) {
        h->cmdq = h_alloc(h, PAGE, PAGE);
    }
    mlx5_iseg_write(h->fw, ISEG_CMDQ_H, (uint32_t)(h->cmdq >> 32), 4);
    mlx5_iseg_write(h->fw, ISEG_CMDQ_L, (uint32_t)h->cmdq, 4);
}

static uint64_t mbox_alloc(Harness *h)
{
    uint64_t a = h->mb_brk;

    g_assert_cmpuint(a + MBOX_STRIDE, <=, GUEST_BASE + GUEST_SIZE);
    h->mb_brk += MBOX_STRIDE;
    h->mb_top = MAX(h->mb_top, h->mb_brk);
    memset(h_gpa(h, a), POISON, MBOX_BYTES);
    return a;
}

static uint32_t nblocks(uint32_t len)
{
    return len > 16 ? (len - 16 + MBOX_DATA_BYTES - 1) / MBOX_DATA_BYTES : 0;
}

/* Chain n fresh mailboxes; `data` (may be NULL) fills their data areas. */
static uint64_t *mbox_chain(Harness *h, uint32_t n, const uint8_t *data, uint32_t len,
                            uint8_t token)
{
    uint64_t *mb = g_new0(uint64_t, MAX(n, 1u));

    for (uint32_t i = 0; i < n; i++) {
        mb[i] = mbox_alloc(h);
    }
    for (uint32_t i = 0; i < n; i++) {
        uint8_t *b = h_gpa(h, mb[i]);
        if (data) {
            uint32_t off = i * MBOX_DATA_BYTES;
            uint32_t chunk = MIN(len - off, (uint32_t)MBOX_DATA_BYTES);
            memset(b, 0, MBOX_DATA_BYTES);
            memcpy(b, data + off, chunk);
        }
        prm_put_be64(b + MBOX_NEXT, i + 1 < n ? mb[i + 1] : 0);
        prm_put_be32(b + MBOX_BLOCK_NUM, i);
        b[MBOX_TOKEN] = token;
    }
    return mb;
}

HPosted *h_cmdq_post(Harness *h, unsigned slot, const HCmd *c)
{
    HPosted *p = g_new0(HPosted, 1);
    uint8_t token = (uint8_t)(0x40 + slot);
    uint8_t *e;

    g_assert_cmpuint(slot, <, MLX5_CMDQ_SLOTS);
    if (h->posted++ == 0) {
        h->mb_brk = MB_ARENA;
    }
    p->slot = slot;
    p->ent = h->cmdq + ((uint64_t)slot << MLX5_CMDQ_LOG_STRIDE);
    p->n_in = nblocks(c->inlen);
    p->n_out = nblocks(c->outlen);
    p->in_mb = mbox_chain(h, p->n_in, c->in + 16, c->inlen > 16 ? c->inlen - 16 : 0, token);
    p->out_mb = mbox_chain(h, p->n_out, NULL, 0, token);

    e = h_gpa(h, p->ent);
    memset(e, 0, 64);
    e[CMD_ENT_TYPE] = 7;                        /* PCIe command transport */
    prm_put_be32(e + CMD_ENT_INLEN, c->inlen);
    prm_put_be64(e + CMD_ENT_IN_PTR, p->n_in ? p->in_mb[0] : 0);
    memcpy(e + CMD_ENT_IN, c->in, MIN(c->inlen, 16u));
    memset(e + CMD_ENT_OUT, POISON, 16);
    prm_put_be64(e + CMD_ENT_OUT_PTR, p->n_out ? p->out_mb[0] : 0);
    prm_put_be32(e + CMD_ENT_OUTLEN, c->outlen);
    e[CMD_ENT_TOKEN] = token;
    e[CMD_ENT_STATUS_OWN] = 1;                  /* owned by hardware */
    return p;
}

void h_cmdq_ring(Harness *h, uint32_t bits)
{
    mlx5_iseg_write(h->fw, ISEG_CMD_DBELL, bits, 4);
    mlx5_cmdif_run(h->fw);
}

unsigned h_cmdq_collect(Harness *h, HPosted *p, HCmd *c)
{
    const uint8_t *e = h_gpa(h, p->ent);
    unsigned deliv;

    g_assert_cmpuint(h->posted, >, 0);
    h->posted--;
    g_assert_cmphex(e[CMD_ENT_STATUS_OWN] & 1, ==, 0);     /* back to software */
    deliv = e[CMD_ENT_STATUS_OWN] >> 1;
    c->status = ~0u;
    c->syndrome = 0;
    if (deliv != MLX5_CMD_DELIV_OK) {
        return deliv;
    }
    memset(c->out, POISON, c->out_cap);
    memcpy(c->out, e + CMD_ENT_OUT, MIN(c->outlen, 16u));
    for (uint32_t i = 0; i < p->n_out; i++) {
        uint32_t off = i * MBOX_DATA_BYTES;
        uint32_t chunk = MIN(c->outlen - 16 - off, (uint32_t)MBOX_DATA_BYTES);
        memcpy(c->out + 16 + off, h_gpa(h, p->out_mb[i]), chunk);
    }
    c->status = c->outlen ? c->out[0] : 0;
    record_result(h, c);
    return deliv;
}

void h_posted_free(HPosted *p)
{
    if (p) {
        g_free(p->in_mb);
        g_free(p->out_mb);
        g_free(p);
    }
}

unsigned h_exec_cmdq(Harness *h, HCmd *c, unsigned slot)
{
    g_autoptr(HPosted) p = h_cmdq_post(h, slot, c);

    h_cmdq_ring(h, 1u << slot);
    g_assert_cmphex(h_cmdq_collect(h, p, c), ==, MLX5_CMD_DELIV_OK);
    return c->status;
}

/* --- bring-up -------------------------------------------------------- */

void h_ok_free(Harness *h, HCmd *c)
{
    h_ok(h, c);
    hcmd_free(c);
}

void h_enable(Harness *h)
{
    HCmd *c;
    uint8_t cap[MLX5_CAP_BYTES];

    h_ok_free(h, hcmd_new(OP_ENABLE_HCA, 0));
    c = h_ok(h, hcmd_new(OP_QUERY_ISSI, 0));
    g_assert_true(OUT_GET(c, query_issi_out, supported_issi_dw0) & 2);
    hcmd_free(c);
    c = hcmd_new(OP_SET_ISSI, 0);
    IN_SET(c, set_issi_in, current_issi, 1);
    h_ok_free(h, c);
    c = h_ok(h, hcmd_new(OP_QUERY_PAGES, 1));           /* boot pages */
    g_assert_cmpuint(OUT_GET(c, query_pages_out, num_pages), ==, 0);
    hcmd_free(c);
    h_ok_free(h, h_access_reg(h, 0, 0x7004, 16));           /* HOST_ENDIANNESS */
    c = h_ok(h, hcmd_new(OP_QUERY_HCA_CAP, MLX5_CAP_GENERAL << 1 | 1));
    memcpy(cap, OUT_PTR(c, query_hca_cap_out, capability), sizeof(cap));
    hcmd_free(c);
    c = hcmd_new(OP_SET_HCA_CAP, MLX5_CAP_GENERAL << 1);
    memcpy(IN_PTR(c, set_hca_cap_in, capability), cap, sizeof(cap));
    h_ok_free(h, c);
    h_ok_free(h, hcmd_new(OP_QUERY_PAGES, 2));             /* init pages */
}

void h_init(Harness *h)
{
    HCmd *c;

    h_enable(h);
    h_ok_free(h, hcmd_new(OP_INIT_HCA, 0));
    c = hcmd_new(OP_SET_DRIVER_VERSION, 0);
    strcpy((char *)IN_PTR(c, set_driver_version_in, driver_version), "linux,mlx5_core,6.12");
    h_ok_free(h, c);
}

void h_bringup(Harness *h)
{
    h_init(h);
    h->uar = h_alloc_simple(h, OP_ALLOC_UAR);
    /* what mlx5_core's async EQ takes (eq.c gather_async_events_mask) */
    h->async_eq = h_create_eq(h, 6, 0, 1ull << MLX5_EVENT_PORT_CHANGE |
                              1ull << MLX5_EVENT_CQ_ERROR | 1ull << MLX5_EVENT_COMM_EST |
                              1ull << MLX5_EVENT_WQ_INVAL_REQ_ERROR |
                              1ull << MLX5_EVENT_WQ_ACCESS_ERROR |
                              1ull << MLX5_EVENT_SRQ_LAST_WQE | 1ull << MLX5_EVENT_SRQ_RQ_LIMIT);
    h->comp_eq = h_create_eq(h, 6, 1, 0);
    h_eq_arm(h, &h->async_eq);
    h_eq_arm(h, &h->comp_eq);
    h->pd = h_alloc_simple(h, OP_ALLOC_PD);
    h->td = h_alloc_simple(h, OP_ALLOC_TRANSPORT_DOMAIN);
}

HCmd *h_access_reg(Harness *h, unsigned op_mod, uint16_t reg_id, uint32_t data_bytes)
{
    HCmd *c = hcmd_new_len(OP_ACCESS_REG, op_mod, 16 + data_bytes, 16 + data_bytes);

    (void)h;
    IN_SET(c, access_register_in, register_id, reg_id);
    return c;
}

HCmd *h_set_general_cap(Harness *h, const char *field, uint64_t v)
{
    HCmd *c = hcmd_new(OP_SET_HCA_CAP, MLX5_CAP_GENERAL << 1);
    uint8_t *cap = IN_PTR(c, set_hca_cap_in, capability);
    const PrmLayout *l = prm_layout_find("cmd_hca_cap");

    memcpy(cap, MLX5_CAP_CUR(h->fw, MLX5_CAP_GENERAL), MLX5_CAP_BYTES);
    for (unsigned i = 0; i < l->nfields; i++) {
        if (strcmp(l->fields[i].name, field) == 0) {
            prm_set_bits(cap, l->fields[i].off, l->fields[i].width, v);
            return c;
        }
    }
    g_error("no cmd_hca_cap field %s", field);
}

void h_port_up(Harness *h)
{
    HCmd *c = h_access_reg(h, 0, 0x5006, PRM_BYTES(paos_reg));
    uint8_t *d = c->in + 16;

    PRM_SET(paos_reg, local_port, d, 1);
    PRM_SET(paos_reg, admin_status, d, 1);
    PRM_SET(paos_reg, ase, d, 1);
    h_ok_free(h, c);
}

/* --- objects --------------------------------------------------------- */

uint32_t h_alloc_simple(Harness *h, uint16_t opcode)
{
    HCmd *c = h_ok(h, hcmd_new(opcode, 0));
    uint32_t id = 0;

    switch (opcode) {
    case OP_ALLOC_UAR: id = OUT_GET(c, alloc_uar_out, uar); break;
    case OP_ALLOC_PD: id = OUT_GET(c, alloc_pd_out, pd); break;
    case OP_ALLOC_TRANSPORT_DOMAIN:
        id = OUT_GET(c, alloc_transport_domain_out, transport_domain); break;
    case OP_ALLOC_XRCD: id = OUT_GET(c, alloc_xrcd_out, xrcd); break;
    case OP_ALLOC_Q_COUNTER: id = OUT_GET(c, alloc_q_counter_out, counter_set_id); break;
    default: g_assert_not_reached();
    }
    hcmd_free(c);
    return id;
}

HCmd *h_destroy_cmd(uint16_t opcode, uint32_t id)
{
    HCmd *c = hcmd_new(opcode, 0);

    switch (opcode) {
    case OP_DEALLOC_UAR: IN_SET(c, dealloc_uar_in, uar, id); break;
    case OP_DEALLOC_PD: IN_SET(c, dealloc_pd_in, pd, id); break;
    case OP_DEALLOC_TRANSPORT_DOMAIN:
        IN_SET(c, dealloc_transport_domain_in, transport_domain, id); break;
    case OP_DEALLOC_XRCD: IN_SET(c, dealloc_xrcd_in, xrcd, id); break;
    case OP_DEALLOC_Q_COUNTER: IN_SET(c, dealloc_q_counter_in, counter_set_id, id); break;
    case OP_DESTROY_MKEY: IN_SET(c, destroy_mkey_in, mkey_index, id); break;
    case OP_DESTROY_EQ: IN_SET(c, destroy_eq_in, eq_number, id); break;
    case OP_DESTROY_CQ: IN_SET(c, destroy_cq_in, cqn, id); break;
    case OP_DESTROY_SQ: IN_SET(c, destroy_sq_in, sqn, id); break;
    case OP_DESTROY_RQ: IN_SET(c, destroy_rq_in, rqn, id); break;
    case OP_DESTROY_TIS: IN_SET(c, destroy_tis_in, tisn, id); break;
    case OP_DESTROY_TIR: IN_SET(c, destroy_tir_in, tirn, id); break;
    case OP_DESTROY_RQT: IN_SET(c, destroy_rqt_in, rqtn, id); break;
    case OP_DESTROY_QP: IN_SET(c, destroy_qp_in, qpn, id); break;
    case OP_DESTROY_SRQ: IN_SET(c, destroy_srq_in, srqn, id); break;
    case OP_DESTROY_XRC_SRQ: IN_SET(c, destroy_xrc_srq_in, xrc_srqn, id); break;
    case OP_DESTROY_RMP: IN_SET(c, destroy_rmp_in, rmpn, id); break;
    default: g_assert_not_reached();
    }
    return c;
}

void h_destroy(Harness *h, uint16_t opcode, uint32_t id)
{
    h_ok_free(h, h_destroy_cmd(opcode, id));
}

HCmd *h_query_cmd(uint16_t opcode, uint32_t id)
{
    HCmd *c = hcmd_new(opcode, 0);

    switch (opcode) {
    case OP_QUERY_QP: IN_SET(c, query_qp_in, qpn, id); break;
    case OP_QUERY_SRQ: IN_SET(c, query_srq_in, srqn, id); break;
    case OP_QUERY_XRC_SRQ: IN_SET(c, query_xrc_srq_in, xrc_srqn, id); break;
    case OP_QUERY_RMP: IN_SET(c, query_rmp_in, rmpn, id); break;
    default: g_assert_not_reached();
    }
    return c;
}

/* A ring of 2^log_size entries of `stride` bytes; returns its page list. */
static uint32_t ring_alloc(Harness *h, HRing *r, uint32_t log_size, uint32_t stride)
{
    uint64_t bytes = (uint64_t)stride << log_size;
    uint32_t npages = (uint32_t)((bytes + PAGE - 1) / PAGE);

    memset(r, 0, sizeof(*r));
    r->log_size = log_size;
    r->stride = stride;
    r->gpa = h_alloc(h, (uint64_t)npages * PAGE, PAGE);
    return npages;
}

static void put_pas(uint8_t *pas, uint64_t gpa, uint32_t npages)
{
    for (uint32_t i = 0; i < npages; i++) {
        prm_put_be64(pas + 8 * i, gpa + (uint64_t)i * PAGE);
    }
}

HCmd *h_create_eq_cmd(Harness *h, HRing *eq, uint32_t log_size, unsigned intr,
                      uint64_t mask)
{
    uint32_t npages = ring_alloc(h, eq, log_size, MLX5_EQE_BYTES);
    uint32_t base = PRM_BYTES(create_eq_in);
    HCmd *c = hcmd_new(OP_CREATE_EQ, 0);
    uint8_t *eqc;

    for (uint32_t i = 0; i < (1u << log_size); i++) {
        ((uint8_t *)h_gpa(h, eq->gpa))[i * MLX5_EQE_BYTES + EQE_OWNER] = 1;
    }
    hcmd_grow_in(c, base + 8 * npages);
    eqc = IN_PTR(c, create_eq_in, eq_context_entry);
    PRM_SET(eqc, log_eq_size, eqc, log_size);
    PRM_SET(eqc, uar_page, eqc, h->uar);
    PRM_SET(eqc, intr, eqc, intr);
    prm_put_be64(IN_PTR(c, create_eq_in, event_bitmask), mask);
    put_pas(c->in + base, eq->gpa, npages);
    return c;
}

HRing h_create_eq(Harness *h, uint32_t log_size, unsigned intr, uint64_t mask)
{
    HRing eq;
    HCmd *c = h_ok(h, h_create_eq_cmd(h, &eq, log_size, intr, mask));

    eq.num = OUT_GET(c, create_eq_out, eq_number);
    hcmd_free(c);
    return eq;
}

HCmd *h_create_cq_cmd(Harness *h, HRing *cq, uint32_t eqn, uint32_t log_size)
{
    uint32_t npages = ring_alloc(h, cq, log_size, 64);
    uint32_t base = PRM_BYTES(create_cq_in);
    HCmd *c = hcmd_new(OP_CREATE_CQ, 0);
    uint8_t *cqc;

    for (uint32_t i = 0; i < (1u << log_size); i++) {
        ((uint8_t *)h_gpa(h, cq->gpa))[i * 64 + CQE_OP_OWN] = MLX5_CQE_INVALID << 4 | 1;
    }
    cq->dbr = h_alloc(h, 64, 64);
    hcmd_grow_in(c, base + 8 * npages);
    cqc = IN_PTR(c, create_cq_in, cq_context);
    PRM_SET(cqc, log_cq_size, cqc, log_size);
    PRM_SET(cqc, uar_page, cqc, h->uar);
    PRM_SET(cqc, c_eqn_or_apu_element, cqc, eqn);
    PRM_SET(cqc, dbr_addr, cqc, cq->dbr);
    put_pas(c->in + base, cq->gpa, npages);
    return c;
}

HCmd *h_resize_cq_cmd(Harness *h, const HRing *cq, uint32_t log_size, HRing *fresh)
{
    uint32_t npages = ring_alloc(h, fresh, log_size, cq->stride);
    uint32_t base = PRM_BYTES(modify_cq_in);
    HCmd *c = hcmd_new(OP_MODIFY_CQ, 1);
    uint8_t *cqc;

    for (uint32_t i = 0; i < (1u << log_size); i++) {
        ((uint8_t *)h_gpa(h, fresh->gpa))[(i + 1) * cq->stride - 1] = MLX5_CQE_INVALID << 4;
    }
    fresh->num = cq->num;
    fresh->dbr = cq->dbr;
    hcmd_grow_in(c, base + 8 * npages);
    cqc = IN_PTR(c, modify_cq_in, cq_context);
    IN_SET(c, modify_cq_in, cqn, cq->num);
    IN_SET(c, modify_cq_in, modify_field_select_resize_field_select, 0x7);
    PRM_SET(cqc, log_cq_size, cqc, log_size);
    PRM_SET(cqc, cqe_sz, cqc, cq->stride == 128);
    put_pas(c->in + base, fresh->gpa, npages);
    return c;
}

HRing h_create_cq(Harness *h, uint32_t eqn, uint32_t log_size)
{
    HRing cq;
    HCmd *c = h_ok(h, h_create_cq_cmd(h, &cq, eqn, log_size));

    cq.num = OUT_GET(c, create_cq_out, cqn);
    hcmd_free(c);
    return cq;
}

/* Fill the wq part of the SQ/RQ/RMP context at byte ctx_off (sqc, rqc and
 * rmpc put it at the same place) and append the ring's page list. */
_Static_assert(PRM_OFF(rqc, wq) == PRM_OFF(sqc, wq) && PRM_OFF(rmpc, wq) == PRM_OFF(sqc, wq),
               "wq placement");
static void wq_fill_ctx(Harness *h, HCmd *c, uint32_t ctx_off, HRing *q,
                        uint32_t log_size, uint32_t log_stride)
{
    uint32_t npages = ring_alloc(h, q, log_size, 1u << log_stride);
    uint32_t wq_off = ctx_off + PRM_BYTE_OFF(sqc, wq);
    uint32_t pas = wq_off + PRM_BYTE_OFF(wq, pas);
    uint8_t *wqc;

    q->dbr = h_alloc(h, 64, 64);
    hcmd_grow_in(c, pas + 8 * npages);
    wqc = c->in + wq_off;
    PRM_SET(wq, wq_type, wqc, 1);                        /* cyclic */
    PRM_SET(wq, pd, wqc, h->pd);
    PRM_SET(wq, uar_page, wqc, h->uar);
    PRM_SET(wq, dbr_addr, wqc, q->dbr);
    PRM_SET(wq, log_wq_stride, wqc, log_stride);
    PRM_SET(wq, log_wq_sz, wqc, log_size);
    put_pas(c->in + pas, q->gpa, npages);
}

HCmd *h_create_sq_cmd(Harness *h, HRing *sq, uint32_t cqn, uint32_t log_size)
{
    HCmd *c = hcmd_new(OP_CREATE_SQ, 0);
    uint32_t off = PRM_BYTE_OFF(create_sq_in, ctx);
    uint8_t *sqc;

    wq_fill_ctx(h, c, off, sq, log_size, 6);
    sqc = c->in + off;
    PRM_SET(sqc, cqn, sqc, cqn);
    PRM_SET(sqc, user_index, sqc, 0x1234);
    return c;
}

HRing h_create_sq(Harness *h, uint32_t cqn, uint32_t log_size)
{
    HRing sq;
    HCmd *c = h_ok(h, h_create_sq_cmd(h, &sq, cqn, log_size));

    sq.num = OUT_GET(c, create_sq_out, sqn);
    hcmd_free(c);
    return sq;
}

HCmd *h_create_rq_cmd(Harness *h, HRing *rq, uint32_t cqn, uint32_t log_size)
{
    HCmd *c = hcmd_new(OP_CREATE_RQ, 0);
    uint32_t off = PRM_BYTE_OFF(create_rq_in, ctx);
    uint8_t *rqc;

    wq_fill_ctx(h, c, off, rq, log_size, 6);
    rqc = c->in + off;
    PRM_SET(rqc, cqn, rqc, cqn);
    return c;
}

HRing h_create_rq(Harness *h, uint32_t cqn, uint32_t log_size)
{
    HRing rq;
    HCmd *c = h_ok(h, h_create_rq_cmd(h, &rq, cqn, log_size));

    rq.num = OUT_GET(c, create_rq_out, rqn);
    hcmd_free(c);
    return rq;
}

/* `bytes` of page-aligned guest memory whose page list goes at byte pas_off
 * of c (the input grows to hold it); returns its address. */
static uint64_t buf_fill(Harness *h, HCmd *c, uint32_t pas_off, uint64_t bytes)
{
    uint32_t npages = (uint32_t)((bytes + PAGE - 1) / PAGE);
    uint64_t gpa = h_alloc(h, (uint64_t)npages * PAGE, PAGE);

    hcmd_grow_in(c, pas_off + 8 * npages);
    put_pas(c->in + pas_off, gpa, npages);
    return gpa;
}

/* Run a CREATE command and return the number it made: CREATE_QP, _SRQ,
 * _XRC_SRQ and _RMP all return it at the same place. */
_Static_assert(PRM_OFF(create_qp_out, qpn) == PRM_OFF(create_srq_out, srqn) &&
               PRM_OFF(create_xrc_srq_out, xrc_srqn) == PRM_OFF(create_srq_out, srqn) &&
               PRM_OFF(create_rmp_out, rmpn) == PRM_OFF(create_srq_out, srqn), "created number");
static uint32_t created_num(Harness *h, HCmd *c)
{
    uint32_t num = PRM_GET(create_srq_out, srqn, h_ok(h, c)->out);

    hcmd_free(c);
    return num;
}

HCmd *h_create_qp_cmd(Harness *h, HRing *sq, unsigned st, uint32_t pd, uint32_t cqn_snd,
                      uint32_t cqn_rcv, uint32_t uar, uint32_t log_sq, uint32_t log_rq)
{
    uint64_t rq_bytes = (uint64_t)H_QP_RQ_STRIDE << log_rq;
    HCmd *c = hcmd_new(OP_CREATE_QP, 0);
    uint64_t buf = buf_fill(h, c, PRM_BYTE_OFF(create_qp_in, pas),
                            rq_bytes + ((uint64_t)MLX5_WQEBB_BYTES << log_sq));
    uint8_t *qpc = IN_PTR(c, create_qp_in, qpc);

    memset(sq, 0, sizeof(*sq));
    sq->gpa = buf + rq_bytes;
    sq->log_size = log_sq;
    sq->stride = MLX5_WQEBB_BYTES;
    sq->dbr = h_alloc(h, 64, 64);
    PRM_SET(qpc, st, qpc, st);
    PRM_SET(qpc, pd, qpc, pd);
    PRM_SET(qpc, cqn_snd, qpc, cqn_snd);
    PRM_SET(qpc, cqn_rcv, qpc, cqn_rcv);
    PRM_SET(qpc, uar_page, qpc, uar);
    PRM_SET(qpc, log_sq_size, qpc, log_sq);
    PRM_SET(qpc, log_rq_size, qpc, log_rq);
    PRM_SET(qpc, log_rq_stride, qpc, __builtin_ctz(H_QP_RQ_STRIDE) - 4);
    PRM_SET(qpc, user_index, qpc, 0x4321);
    PRM_SET(qpc, dbr_addr, qpc, sq->dbr);
    PRM_SET(qpc, fre, qpc, 1);      /* a kernel QP (mlx5_ib create_kernel_qp) */
    return c;
}

HRing h_create_qp(Harness *h, unsigned st, uint32_t pd, uint32_t cqn_snd, uint32_t cqn_rcv,
                  uint32_t uar, uint32_t log_sq, uint32_t log_rq)
{
    HRing sq;

    sq.num = created_num(h, h_create_qp_cmd(h, &sq, st, pd, cqn_snd, cqn_rcv, uar,
                                            log_sq, log_rq));
    return sq;
}

/* Every modify command puts qpn, opt_param_mask and qpc where RST2INIT does
 * (2ERR and 2RST end after qpn). */
_Static_assert(PRM_OFF(qp_2err_in, qpn) == PRM_OFF(rst2init_qp_in, qpn) &&
               PRM_OFF(qp_2rst_in, qpn) == PRM_OFF(rst2init_qp_in, qpn) &&
               PRM_OFF(rts2rts_qp_in, qpc) == PRM_OFF(rst2init_qp_in, qpc), "modify QP layout");
HCmd *h_modify_qp_cmd(uint16_t opcode, uint32_t qpn, uint32_t optpar)
{
    HCmd *c = hcmd_new(opcode, 0);   /* 2ERR/2RST: their 16 bytes, as Linux sends */

    IN_SET(c, rst2init_qp_in, qpn, qpn);
    if (opcode != OP_2ERR_QP && opcode != OP_2RST_QP) {
        IN_SET(c, rst2init_qp_in, opt_param_mask, optpar);
    }
    return c;
}

uint8_t *h_modify_qp_qpc(HCmd *c)
{
    return IN_PTR(c, rst2init_qp_in, qpc);
}

unsigned h_modify_qp(Harness *h, uint16_t opcode, uint32_t qpn)
{
    g_autoptr(HCmd) c = h_modify_qp_cmd(opcode, qpn, 0);

    return h_exec(h, c);
}

void h_qp_to_rts(Harness *h, uint32_t qpn)
{
    static const uint16_t ops[] = { OP_RST2INIT_QP, OP_INIT2RTR_QP, OP_RTR2RTS_QP };

    for (size_t i = 0; i < G_N_ELEMENTS(ops); i++) {
        h_ok_free(h, h_modify_qp_cmd(ops[i], qpn, 0));
    }
}

HCmd *h_query_qp(Harness *h, uint32_t qpn)
{
    return h_ok(h, h_query_cmd(OP_QUERY_QP, qpn));
}

unsigned h_query_qp_state(Harness *h, uint32_t qpn)
{
    g_autoptr(HCmd) c = h_query_qp(h, qpn);

    return PRM_GET(qpc, state, OUT_PTR(c, query_qp_out, qpc));
}

/* SRQ and XRC SRQ contexts: 2^log_size WQEs of 64 bytes (log_rq_stride
 * counts from 16 bytes), one page list after the context. */
HCmd *h_create_srq_cmd(Harness *h, uint32_t cqn, uint32_t log_size)
{
    HCmd *c = hcmd_new(OP_CREATE_SRQ, 0);
    uint8_t *srqc;

    buf_fill(h, c, PRM_BYTE_OFF(create_srq_in, pas), (uint64_t)H_QP_RQ_STRIDE << log_size);
    srqc = IN_PTR(c, create_srq_in, srq_context_entry);
    PRM_SET(srqc, log_srq_size, srqc, log_size);
    PRM_SET(srqc, log_rq_stride, srqc, __builtin_ctz(H_QP_RQ_STRIDE) - 4);
    PRM_SET(srqc, pd, srqc, h->pd);
    PRM_SET(srqc, cqn, srqc, cqn);
    PRM_SET(srqc, lwm, srqc, 3);
    PRM_SET(srqc, dbr_addr, srqc, h_alloc(h, 64, 64));
    return c;
}

uint32_t h_create_srq(Harness *h, uint32_t cqn, uint32_t log_size)
{
    return created_num(h, h_create_srq_cmd(h, cqn, log_size));
}

HCmd *h_create_xrc_srq_cmd(Harness *h, uint32_t xrcd, uint32_t cqn, uint32_t log_size)
{
    HCmd *c = hcmd_new(OP_CREATE_XRC_SRQ, 0);
    uint64_t dbr = h_alloc(h, 64, 64);
    uint8_t *x;

    buf_fill(h, c, PRM_BYTE_OFF(create_xrc_srq_in, pas), (uint64_t)H_QP_RQ_STRIDE << log_size);
    x = IN_PTR(c, create_xrc_srq_in, xrc_srq_context_entry);
    PRM_SET(xrc_srqc, log_xrc_srq_size, x, log_size);
    PRM_SET(xrc_srqc, log_rq_stride, x, __builtin_ctz(H_QP_RQ_STRIDE) - 4);
    PRM_SET(xrc_srqc, xrcd, x, xrcd);
    PRM_SET(xrc_srqc, cqn, x, cqn);
    PRM_SET(xrc_srqc, pd, x, h->pd);
    PRM_SET(xrc_srqc, user_index, x, 0x5678);
    PRM_SET(xrc_srqc, lwm, x, 5);
    PRM_SET(xrc_srqc, db_record_addr_h, x, dbr >> 32);
    PRM_SET(xrc_srqc, db_record_addr_l, x, (dbr & 0xffffffff) >> 2);
    return c;
}

uint32_t h_create_xrc_srq(Harness *h, uint32_t xrcd, uint32_t cqn, uint32_t log_size)
{
    return created_num(h, h_create_xrc_srq_cmd(h, xrcd, cqn, log_size));
}

HCmd *h_create_rmp_ring_cmd(Harness *h, HRing *ring, uint32_t log_size)
{
    HCmd *c = hcmd_new(OP_CREATE_RMP, 0);
    uint8_t *rmpc;

    wq_fill_ctx(h, c, PRM_BYTE_OFF(create_rmp_in, ctx), ring, log_size,
                __builtin_ctz(H_QP_RQ_STRIDE));
    rmpc = IN_PTR(c, create_rmp_in, ctx);
    PRM_SET(rmpc, state, rmpc, ST_RDY);
    PRM_SET(wq, lwm, PRM_PTR(rmpc, wq, rmpc), 7);
    return c;
}

HCmd *h_create_rmp_cmd(Harness *h, uint32_t log_size)
{
    HRing ring;

    return h_create_rmp_ring_cmd(h, &ring, log_size);
}

uint32_t h_create_rmp(Harness *h, uint32_t log_size)
{
    return created_num(h, h_create_rmp_cmd(h, log_size));
}

uint32_t h_create_rmp_ring(Harness *h, HRing *ring, uint32_t log_size)
{
    ring->num = created_num(h, h_create_rmp_ring_cmd(h, ring, log_size));
    return ring->num;
}

HCmd *h_modify_rmp_cmd(uint32_t rmpn, unsigned from, unsigned to)
{
    HCmd *c = hcmd_new(OP_MODIFY_RMP, 0);

    IN_SET(c, modify_rmp_in, rmpn, rmpn);
    IN_SET(c, modify_rmp_in, rmp_state, from);
    PRM_SET(rmpc, state, IN_PTR(c, modify_rmp_in, ctx), to);
    return c;
}

uint32_t h_create_tis(Harness *h)
{
    HCmd *c = hcmd_new(OP_CREATE_TIS, 0);
    uint8_t *ctx = IN_PTR(c, create_tis_in, ctx);
    uint32_t id;

    PRM_SET(tisc, transport_domain, ctx, h->td);
    h_ok(h, c);
    id = OUT_GET(c, create_tis_out, tisn);
    hcmd_free(c);
    return id;
}

uint32_t h_create_tir_direct(Harness *h, uint32_t rqn)
{
    HCmd *c = hcmd_new(OP_CREATE_TIR, 0);
    uint8_t *ctx = IN_PTR(c, create_tir_in, ctx);
    uint32_t id;

    PRM_SET(tirc, disp_type, ctx, 0);
    PRM_SET(tirc, inline_rqn, ctx, rqn);
    PRM_SET(tirc, transport_domain, ctx, h->td);
    h_ok(h, c);
    id = OUT_GET(c, create_tir_out, tirn);
    hcmd_free(c);
    return id;
}

uint32_t h_create_rqt(Harness *h, const uint32_t *rqns, uint32_t n, uint32_t max)
{
    uint32_t list = PRM_BYTE_OFF(create_rqt_in, rqt_context) + PRM_BYTE_OFF(rqtc, rq_num);
    HCmd *c = hcmd_new(OP_CREATE_RQT, 0);
    uint8_t *ctx;
    uint32_t id;

    hcmd_grow_in(c, list + 4 * n);
    ctx = IN_PTR(c, create_rqt_in, rqt_context);
    PRM_SET(rqtc, rqt_max_size, ctx, max);
    PRM_SET(rqtc, rqt_actual_size, ctx, n);
    for (uint32_t i = 0; i < n; i++) {
        prm_put_be32(c->in + list + 4 * i, rqns[i]);
    }
    h_ok(h, c);
    id = OUT_GET(c, create_rqt_out, rqtn);
    hcmd_free(c);
    return id;
}

uint32_t h_create_mkey(Harness *h, uint64_t start, uint64_t len, bool lr)
{
    HCmd *c = hcmd_new(OP_CREATE_MKEY, 0);
    uint8_t *mkc = IN_PTR(c, create_mkey_in, memory_key_mkey_entry);
    uint32_t key;

    PRM_SET(mkc, lr, mkc, lr);
    PRM_SET(mkc, lw, mkc, 1);
    PRM_SET(mkc, pd, mkc, h->pd);
    PRM_SET(mkc, mkey_7_0, mkc, 0x42);
    PRM_SET(mkc, qpn, mkc, 0xffffff);
    PRM_SET(mkc, start_addr, mkc, start);
    PRM_SET(mkc, len, mkc, len);
    h_ok(h, c);
    key = OUT_GET(c, create_mkey_out, mkey_index) << 8 | 0x42;
    hcmd_free(c);
    return key;
}

static unsigned modify_wq(Harness *h, uint16_t opcode, uint32_t num, unsigned from,
                          unsigned to)
{
    g_autoptr(HCmd) c = hcmd_new(opcode, 0);
    uint8_t *ctx;

    if (opcode == OP_MODIFY_SQ) {
        IN_SET(c, modify_sq_in, sq_state, from);
        IN_SET(c, modify_sq_in, sqn, num);
        ctx = IN_PTR(c, modify_sq_in, ctx);
        PRM_SET(sqc, state, ctx, to);
    } else {
        IN_SET(c, modify_rq_in, rq_state, from);
        IN_SET(c, modify_rq_in, rqn, num);
        ctx = IN_PTR(c, modify_rq_in, ctx);
        PRM_SET(rqc, state, ctx, to);
    }
    return h_exec(h, c);
}

unsigned h_modify_sq(Harness *h, uint32_t sqn, unsigned from, unsigned to)
{
    return modify_wq(h, OP_MODIFY_SQ, sqn, from, to);
}

unsigned h_modify_rq(Harness *h, uint32_t rqn, unsigned from, unsigned to)
{
    return modify_wq(h, OP_MODIFY_RQ, rqn, from, to);
}

unsigned h_query_sq_state(Harness *h, uint32_t sqn)
{
    g_autoptr(HCmd) c = hcmd_new(OP_QUERY_SQ, 0);
    uint8_t *ctx;

    IN_SET(c, query_sq_in, sqn, sqn);
    h_ok(h, c);
    ctx = OUT_PTR(c, query_sq_out, sq_context);
    return PRM_GET(sqc, state, ctx);
}

uint32_t h_create_flow_table(Harness *h, unsigned log_size, unsigned level)
{
    HCmd *c = hcmd_new(OP_CREATE_FLOW_TABLE, 0);
    uint8_t *ctx = IN_PTR(c, create_flow_table_in, flow_table_context);
    uint32_t id;

    PRM_SET(flow_table_context, log_size, ctx, log_size);
    PRM_SET(flow_table_context, level, ctx, level);
    h_ok(h, c);
    id = OUT_GET(c, create_flow_table_out, table_id);
    hcmd_free(c);
    return id;
}

uint32_t h_create_flow_group(Harness *h, uint32_t ft, uint32_t start, uint32_t end)
{
    HCmd *c = hcmd_new(OP_CREATE_FLOW_GROUP, 0);
    uint32_t id;

    IN_SET(c, create_flow_group_in, table_id, ft);
    IN_SET(c, create_flow_group_in, start_flow_index, start);
    IN_SET(c, create_flow_group_in, end_flow_index, end);
    IN_SET(c, create_flow_group_in, match_criteria_enable, 1);
    h_ok(h, c);
    id = OUT_GET(c, create_flow_group_out, group_id);
    hcmd_free(c);
    return id;
}

HCmd *h_fte_cmd(unsigned op_mod, uint32_t ft, uint32_t group, uint32_t index,
                uint16_t action, uint8_t dest_type, uint32_t dest_id, uint32_t ndest)
{
    uint32_t fc = PRM_BYTE_OFF(set_fte_in, flow_context);
    uint32_t dst = fc + PRM_BYTE_OFF(flow_context, destination);
    HCmd *c = hcmd_new(OP_SET_FLOW_TABLE_ENTRY, op_mod);
    uint8_t *ctx;

    hcmd_grow_in(c, dst + ndest * PRM_BYTES(dest_format_struct));
    IN_SET(c, set_fte_in, table_id, ft);
    IN_SET(c, set_fte_in, flow_index, index);
    ctx = c->in + fc;
    PRM_SET(flow_context, group_id, ctx, group);
    PRM_SET(flow_context, action, ctx, action);
    PRM_SET(flow_context, flow_tag, ctx, 0xabc);
    PRM_SET(flow_context, destination_list_size, ctx, ndest);
    for (uint32_t i = 0; i < ndest; i++) {
        uint8_t *d = c->in + dst + i * PRM_BYTES(dest_format_struct);
        PRM_SET(dest_format_struct, destination_type, d, dest_type);
        PRM_SET(dest_format_struct, destination_id, d, dest_id);
    }
    return c;
}

void h_match_ports(uint8_t *param, unsigned which, uint16_t dport, uint16_t sport)
{
    uint8_t *outer = PRM_PTR(fte_match_param, outer_headers, param);

    if (which & H_ON_DPORT) {
        PRM_SET(fte_match_set_lyr_2_4, udp_dport, outer, dport);
    }
    if (which & H_ON_SPORT) {
        PRM_SET(fte_match_set_lyr_2_4, udp_sport, outer, sport);
    }
}

uint32_t h_create_flow_group_ports(Harness *h, uint32_t ft, uint32_t start, uint32_t end,
                                   unsigned which)
{
    g_autoptr(HCmd) c = hcmd_new(OP_CREATE_FLOW_GROUP, 0);

    IN_SET(c, create_flow_group_in, table_id, ft);
    IN_SET(c, create_flow_group_in, start_flow_index, start);
    IN_SET(c, create_flow_group_in, end_flow_index, end);
    IN_SET(c, create_flow_group_in, match_criteria_enable, 1);     /* outer headers */
    h_match_ports(IN_PTR(c, create_flow_group_in, match_criteria), which, 0xffff, 0xffff);
    h_ok(h, c);
    return OUT_GET(c, create_flow_group_out, group_id);
}

HCmd *h_fte_ports_cmd(unsigned op_mod, uint32_t ft, uint32_t fg, uint32_t index,
                      uint16_t dport, uint16_t sport, uint32_t tir, uint32_t tag)
{
    HCmd *c = h_fte_cmd(op_mod, ft, fg, index, FT_ACTION_FWD, FT_DEST_TIR, tir, 1);
    uint8_t *ctx = IN_PTR(c, set_fte_in, flow_context);

    h_match_ports(PRM_PTR(flow_context, match_value, ctx), H_ON_DPORT | H_ON_SPORT,
                  dport, sport);
    PRM_SET(flow_context, flow_tag, ctx, tag);
    return c;
}

/* --- guest rings ----------------------------------------------------- */

const uint8_t *h_eq_next(Harness *h, HRing *eq)
{
    uint32_t idx = eq->ci & ((1u << eq->log_size) - 1);
    const uint8_t *e = (uint8_t *)h_gpa(h, eq->gpa) + idx * MLX5_EQE_BYTES;

    if ((e[EQE_OWNER] & 1) != ((eq->ci >> eq->log_size) & 1)) {
        return NULL;
    }
    eq->ci++;
    return e;
}

void h_eq_arm(Harness *h, HRing *eq)
{
    mlx5_eq_doorbell(h->fw, h->uar, eq->num << 24 | (eq->ci & 0xffffff), true);
}

const uint8_t *h_cq_next(Harness *h, HRing *cq)
{
    uint32_t idx = cq->ci & ((1u << cq->log_size) - 1);
    const uint8_t *e = (uint8_t *)h_gpa(h, cq->gpa) + idx * cq->stride +
                       (cq->stride - MLX5_CQE_BYTES);   /* 128-byte CQEs: the second half */
    uint8_t op_own = e[CQE_OP_OWN];

    if (op_own >> 4 == MLX5_CQE_INVALID ||
        (op_own & 1) != ((cq->ci >> cq->log_size) & 1)) {
        return NULL;
    }
    cq->ci++;
    h_put32(h, cq->dbr, cq->ci & 0xffffff);
    return e;
}

const uint8_t *h_expect_cqe(Harness *h, HRing *cq, unsigned opcode, uint16_t wqe_counter,
                            uint32_t qpn)
{
    const uint8_t *cqe = h_cq_next(h, cq);

    g_assert_nonnull(cqe);
    g_assert_cmphex(cqe[CQE_OP_OWN] >> 4, ==, opcode);
    g_assert_cmpuint(prm_be16(cqe + CQE_WQE_COUNTER), ==, wqe_counter);
    g_assert_cmphex(prm_be32(cqe + CQE_SOP_DROP_QPN) & 0xffffff, ==, qpn);
    return cqe;
}

uint8_t *h_sq_wqe(Harness *h, HRing *sq, uint8_t opcode, uint8_t ds, uint8_t fm_ce_se)
{
    uint32_t nent = 1u << sq->log_size;
    uint32_t idx = sq->ci & (nent - 1);
    uint32_t nbb = mlx5_wqe_blocks(ds);
    uint8_t *w = (uint8_t *)h_gpa(h, sq->gpa) + idx * MLX5_WQEBB_BYTES;

    g_assert_cmpuint(idx + nbb, <=, nent);      /* tests do not wrap a WQE */
    memset(w, 0, nbb * MLX5_WQEBB_BYTES);
    prm_put_be32(w + WQE_CTRL_OPMOD_IDX_OPCODE, (sq->ci & 0xffff) << 8 | opcode);
    prm_put_be32(w + WQE_CTRL_QPN_DS, sq->num << 8 | ds);
    w[WQE_CTRL_FM_CE_SE] = fm_ce_se;
    sq->last = sq->ci;
    sq->ci += nbb;
    return w;
}

void h_data_seg(uint8_t *seg, uint32_t byte_count, uint32_t lkey, uint64_t addr)
{
    prm_put_be32(seg + WQE_DATA_BYTE_COUNT, byte_count);
    prm_put_be32(seg + WQE_DATA_LKEY, lkey);
    prm_put_be64(seg + WQE_DATA_ADDR, addr);
}

uint64_t h_uar_addr(uint32_t uar, uint32_t off)
{
    return (uint64_t)uar * PAGE + off;
}

/* --- isolated tests -------------------------------------------------- */

typedef struct Isolated {
    GTestFunc fn;
    GTestDataFunc data_fn;      /* instead of fn: called with data */
    gconstpointer data;
    unsigned timeout_s;
    const char *known_bug;      /* a failure is this bug: incomplete, not failed */
} Isolated;

static void run_isolated(gconstpointer p)
{
    const Isolated *t = p;

    if (g_test_subprocess()) {
        if (t->fn) {
            t->fn();
        } else {
            t->data_fn(t->data);
        }
        return;
    }
    g_test_trap_subprocess(NULL, (guint64)t->timeout_s * G_USEC_PER_SEC,
                           G_TEST_SUBPROCESS_INHERIT_STDERR);
    if (t->known_bug && !g_test_trap_has_passed()) {
        g_test_incomplete(t->known_bug);
    } else if (g_test_trap_reached_timeout()) {
        g_test_fail_printf("did not finish in %u s (hang)", t->timeout_s);
    } else if (!g_test_trap_has_passed()) {
        g_test_fail_printf("failed in its subprocess (see stderr)");
    }
}

static void add_isolated(const char *path, const Isolated *how)
{
    Isolated *t = g_memdup2(how, sizeof(*how));     /* lives as long as the program */

    g_test_add_data_func_full(path, t, run_isolated, g_free);
}

void h_add_known_bug(const char *path, GTestFunc fn, unsigned timeout_s, const char *bug)
{
    Isolated t = { .fn = fn, .timeout_s = timeout_s, .known_bug = bug };

    add_isolated(path, &t);
}

void h_add_isolated(const char *path, GTestFunc fn, unsigned timeout_s)
{
    h_add_known_bug(path, fn, timeout_s, NULL);
}

void h_add_isolated_data(const char *path, GTestDataFunc fn, gconstpointer data,
                         unsigned timeout_s)
{
    h_add_known_bug_data(path, fn, data, timeout_s, NULL);
}

void h_add_known_bug_data(const char *path, GTestDataFunc fn, gconstpointer data,
                          unsigned timeout_s, const char *bug)
{
    Isolated t = { .data_fn = fn, .data = data, .timeout_s = timeout_s, .known_bug = bug };

    add_isolated(path, &t);
}
