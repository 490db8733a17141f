/*
 * Command interface: dispatch checks every command shares (lengths, HCA
 * state, unknown opcodes), the command queue with its mailbox chains and
 * delivery statuses, and event-mode completion (EQE type 0x0a).
 */
#include <string.h>

#include "harness.h"

typedef struct CmdRow {
    const char *name;
    uint16_t op;
    uint32_t in, out;
    int needs;
} CmdRow;

#define ROW_(name, op, fn, in, out, needs) { #name, op, PRM_BYTES(in), PRM_BYTES(out), needs },
static const CmdRow rows[] = { MLX5_CMD_LIST(ROW_) };
#undef ROW_

/* --- checks shared by every command ----------------------------------- */

static void test_inlen_below_layout(gconstpointer p)
{
    const CmdRow *r = p;
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) c = hcmd_new(r->op, 0);

    h_init(h);
    c->inlen = r->in - 1;
    h_fail(h, c, MLX5_CMD_STAT_BAD_INP_LEN, MLX5_SYND_IN_TOO_SHORT);
}

static void test_outlen_below_layout(gconstpointer p)
{
    const CmdRow *r = p;
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) c = hcmd_new(r->op, 0);

    h_init(h);
    c->outlen = r->out - 1;
    h_fail(h, c, MLX5_CMD_STAT_BAD_OUTP_LEN, MLX5_SYND_OUT_TOO_SHORT);
}

static void test_refused_before_enable_hca(gconstpointer p)
{
    const CmdRow *r = p;
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) c = hcmd_new(r->op, 0);

    h_fail(h, c, MLX5_CMD_STAT_BAD_SYS_STATE, MLX5_SYND_NOT_ENABLED);
}

static void test_refused_before_init_hca(gconstpointer p)
{
    const CmdRow *r = p;
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) c = hcmd_new(r->op, 0);

    h_enable(h);
    h_fail(h, c, MLX5_CMD_STAT_BAD_SYS_STATE, MLX5_SYND_NOT_INITIALIZED);
}

static void test_refused_after_teardown(void)
{
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) c = hcmd_new(OP_ALLOC_PD, 0);

    h_bringup(h);
    h_ok_free(h, hcmd_new(OP_TEARDOWN_HCA, 0));
    h_fail(h, c, MLX5_CMD_STAT_BAD_SYS_STATE, MLX5_SYND_NOT_INITIALIZED);
}

static void test_unknown_opcode_is_bad_op(void)
{
    static const uint16_t ops[] = { 0x000, 0x106, 0x50d, 0x7ff, 0xa00, 0xffff };
    g_autoptr(Harness) h = h_new();

    for (int state = 0; state < 2; state++) {
        for (size_t i = 0; i < G_N_ELEMENTS(ops); i++) {
            g_autoptr(HCmd) c = hcmd_new_len(ops[i], 0, 64, 64);
            g_assert_null(mlx5_cmd_lookup(ops[i]));
            h_fail(h, c, MLX5_CMD_STAT_BAD_OP, MLX5_SYND_BAD_OPCODE);
        }
        h_init(h);
    }
}

static void test_inlen_below_header(void)
{
    g_autoptr(Harness) h = h_new();

    h_init(h);
    for (uint32_t len = 0; len < 8; len++) {
        g_autoptr(HCmd) c = hcmd_new(OP_QUERY_ISSI, 0);
        c->inlen = len;
        h_fail(h, c, MLX5_CMD_STAT_BAD_INP_LEN, MLX5_SYND_IN_TOO_SHORT);
    }
}

static void test_outlen_zero(void)
{
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) c = hcmd_new(OP_QUERY_ISSI, 0);

    h_init(h);
    c->outlen = 0;
    h_fail(h, c, MLX5_CMD_STAT_BAD_OUTP_LEN, MLX5_SYND_OUT_TOO_SHORT);
}

static void test_outlen_longer_than_layout_is_zero_padded(void)
{
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) c = hcmd_new_len(OP_QUERY_ISSI, 0, 8, PRM_BYTES(query_issi_out) + 100);

    h_init(h);
    h_ok(h, c);
    for (uint32_t i = PRM_BYTES(query_issi_out); i < c->outlen; i++) {
        g_assert_cmphex(c->out[i], ==, 0);
    }
}

static void test_guest_errors_rate_limited(void)
{
    g_autoptr(Harness) h = h_new();

    for (int i = 0; i < 30; i++) {
        g_autoptr(HCmd) c = hcmd_new(OP_ALLOC_PD, 0);
        g_assert_cmphex(h_exec(h, c), ==, MLX5_CMD_STAT_BAD_SYS_STATE);
    }
    g_assert_cmpuint(h_nerrors(h), ==, 20);
    h->clock_ns += 1500000000ull;
    {
        g_autoptr(HCmd) c = hcmd_new(OP_ALLOC_PD, 0);
        h_exec(h, c);
    }
    g_assert_cmpuint(h_nerrors(h), ==, 21);
}

/* --- command queue ---------------------------------------------------- */

static uint8_t *entry(Harness *h, unsigned slot)
{
    return h_gpa(h, h->cmdq + ((uint64_t)slot << MLX5_CMDQ_LOG_STRIDE));
}

static void test_queue_small_command(void)
{
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) c = hcmd_new(OP_ENABLE_HCA, 0);

    g_assert_cmphex(h_exec_cmdq(h, c, 0), ==, MLX5_CMD_STAT_OK);
    g_assert_cmpint(h->fw->hca_state, ==, MLX5_HCA_ENABLED);
}

static void test_queue_bringup(void)
{
    g_autoptr(Harness) h = h_new();

    h->via_cmdq = true;
    h_bringup(h);
    g_assert_cmpint(h->fw->hca_state, ==, MLX5_HCA_INITIALIZED);
    g_assert_cmpuint(mlx5_fw_object_count(h->fw), ==, 5);
}

/* A 4 KiB capability goes in and out through 8-mailbox chains. */
static void test_queue_long_chains_match_exec(void)
{
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) set = hcmd_new(OP_SET_HCA_CAP, MLX5_CAP_GENERAL << 1);
    g_autoptr(HCmd) qq = hcmd_new(OP_QUERY_HCA_CAP, MLX5_CAP_GENERAL << 1 | 1);
    g_autoptr(HCmd) qe = hcmd_new(OP_QUERY_HCA_CAP, MLX5_CAP_GENERAL << 1 | 1);
    uint8_t *cap = IN_PTR(set, set_hca_cap_in, capability);

    h_enable(h);
    memcpy(cap, MLX5_CAP_CUR(h->fw, MLX5_CAP_GENERAL), MLX5_CAP_BYTES);
    PRM_SET(cmd_hca_cap, log_max_qp, cap, 10);          /* in the 1st mailbox */
    PRM_SET(cmd_hca_cap, max_wqe_sz_sq, cap, 512);      /* further down */
    g_assert_cmphex(h_exec_cmdq(h, set, 5), ==, MLX5_CMD_STAT_OK);
    g_assert_cmphex(h_exec_cmdq(h, qq, 6), ==, MLX5_CMD_STAT_OK);
    h_ok(h, qe);
    g_assert_cmpmem(qq->out, qq->outlen, qe->out, qe->outlen);
    cap = OUT_PTR(qq, query_hca_cap_out, capability);
    g_assert_cmpuint(PRM_GET(cmd_hca_cap, log_max_qp, cap), ==, 10);
    g_assert_cmpuint(PRM_GET(cmd_hca_cap, max_wqe_sz_sq, cap), ==, 512);
}

/* Post a SET_HCA_CAP that would change log_max_qp, let `corrupt` damage
 * the posting, and check the delivery status and that nothing ran. */
static void queue_bad_delivery(void (*corrupt)(Harness *, HPosted *), unsigned deliv)
{
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) c = hcmd_new(OP_SET_HCA_CAP, MLX5_CAP_GENERAL << 1);
    g_autoptr(HCmd) ok = hcmd_new(OP_QUERY_ISSI, 0);
    g_autoptr(HPosted) p = NULL;
    uint8_t *cap = IN_PTR(c, set_hca_cap_in, capability);
    unsigned errs;

    h_enable(h);
    memcpy(cap, MLX5_CAP_CUR(h->fw, MLX5_CAP_GENERAL), MLX5_CAP_BYTES);
    PRM_SET(cmd_hca_cap, log_max_qp, cap, 3);
    p = h_cmdq_post(h, 2, c);
    g_assert_cmpuint(p->n_in, ==, 8);
    corrupt(h, p);
    errs = h_nerrors(h);
    h_cmdq_ring(h, 1u << 2);
    g_assert_cmphex(h_cmdq_collect(h, p, c), ==, deliv);
    g_assert_cmpuint(h_nerrors(h), >, errs);
    g_assert_cmpuint(MLX5_CAP_GET(h->fw, MLX5_CAP_GENERAL, cmd_hca_cap, log_max_qp),
                     ==, 18);
    g_assert_cmphex(h_exec_cmdq(h, ok, 2), ==, MLX5_CMD_STAT_OK);
}

static void corrupt_block_num(Harness *h, HPosted *p)
{
    prm_put_be32((uint8_t *)h_gpa(h, p->in_mb[2]) + MBOX_BLOCK_NUM, 7);
}

static void corrupt_chain_loops_back(Harness *h, HPosted *p)
{
    /* Four blocks, then back to block 0: shorter than inlen. */
    prm_put_be64((uint8_t *)h_gpa(h, p->in_mb[3]) + MBOX_NEXT, p->in_mb[0]);
}

static void corrupt_chain_loops_on_itself(Harness *h, HPosted *p)
{
    /* Block 1 names itself as the next: a chain without end. */
    prm_put_be64((uint8_t *)h_gpa(h, p->in_mb[1]) + MBOX_NEXT, p->in_mb[1]);
}

static void corrupt_chain_ends_early(Harness *h, HPosted *p)
{
    prm_put_be64((uint8_t *)h_gpa(h, p->in_mb[3]) + MBOX_NEXT, 0);
}

static void corrupt_in_ptr_unaligned(Harness *h, HPosted *p)
{
    prm_put_be64((uint8_t *)h_gpa(h, p->ent) + CMD_ENT_IN_PTR, p->in_mb[0] + 4);
}

static void corrupt_in_ptr_outside_ram(Harness *h, HPosted *p)
{
    prm_put_be64((uint8_t *)h_gpa(h, p->ent) + CMD_ENT_IN_PTR, GUEST_BASE + GUEST_SIZE);
}

static void corrupt_type(Harness *h, HPosted *p)
{
    ((uint8_t *)h_gpa(h, p->ent))[CMD_ENT_TYPE] = 0;
}

static void corrupt_inlen_huge(Harness *h, HPosted *p)
{
    prm_put_be32((uint8_t *)h_gpa(h, p->ent) + CMD_ENT_INLEN, MLX5_CMD_MAX_LEN + 1);
}

static void corrupt_outlen_huge(Harness *h, HPosted *p)
{
    prm_put_be32((uint8_t *)h_gpa(h, p->ent) + CMD_ENT_OUTLEN, 0xffffffff);
}

static void test_queue_wrong_block_num(void)
{
    queue_bad_delivery(corrupt_block_num, MLX5_CMD_DELIV_BAD_BLK_NUM);
}

static void test_queue_chain_shorter_than_inlen(void)
{
    queue_bad_delivery(corrupt_chain_loops_back, MLX5_CMD_DELIV_BAD_BLK_NUM);
}

/* A chain that loops is read no further than inlen asks (8 blocks here)
 * and fails at the first block out of sequence. */
static void test_queue_chain_loops_on_itself(void)
{
    queue_bad_delivery(corrupt_chain_loops_on_itself, MLX5_CMD_DELIV_BAD_BLK_NUM);
}

static void test_queue_chain_ends_early(void)
{
    queue_bad_delivery(corrupt_chain_ends_early, MLX5_CMD_DELIV_FW_ERR);
}

static void test_queue_in_ptr_unaligned(void)
{
    queue_bad_delivery(corrupt_in_ptr_unaligned, MLX5_CMD_DELIV_IN_PTR_ALIGN);
}

static void test_queue_in_ptr_outside_ram(void)
{
    queue_bad_delivery(corrupt_in_ptr_outside_ram, MLX5_CMD_DELIV_FW_ERR);
}

static void test_queue_bad_type(void)
{
    queue_bad_delivery(corrupt_type, MLX5_CMD_DELIV_CMD_DESCR);
}

static void test_queue_inlen_too_large(void)
{
    queue_bad_delivery(corrupt_inlen_huge, MLX5_CMD_DELIV_IN_LENGTH);
}

static void test_queue_outlen_too_large(void)
{
    queue_bad_delivery(corrupt_outlen_huge, MLX5_CMD_DELIV_OUT_LENGTH);
}

/* Post a QUERY_HCA_CAP (9 output mailboxes), let `corrupt` damage the
 * output chain, and check the delivery status and that no byte went to
 * a mailbox from `untouched` on. */
static void queue_bad_out_chain(void (*corrupt)(Harness *, HPosted *), unsigned untouched)
{
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) c = hcmd_new(OP_QUERY_HCA_CAP, MLX5_CAP_GENERAL << 1);
    g_autoptr(HPosted) p = NULL;

    h_enable(h);
    p = h_cmdq_post(h, 0, c);
    for (uint32_t i = untouched; i < p->n_out; i++) {
        memset(h_gpa(h, p->out_mb[i]), POISON, MBOX_DATA_BYTES);
    }
    corrupt(h, p);
    h_cmdq_ring(h, 1);
    g_assert_cmphex(h_cmdq_collect(h, p, c), ==, MLX5_CMD_DELIV_BAD_BLK_NUM);
    for (uint32_t i = untouched; i < p->n_out; i++) {
        const uint8_t *mb = h_gpa(h, p->out_mb[i]);
        for (unsigned b = 0; b < MBOX_DATA_BYTES; b++) {
            g_assert_cmphex(mb[b], ==, POISON);
        }
    }
    h->via_cmdq = true;
    h_assert_usable(h);
}

static void corrupt_out_block_num(Harness *h, HPosted *p)
{
    prm_put_be32((uint8_t *)h_gpa(h, p->out_mb[4]) + MBOX_BLOCK_NUM, 0);
}

static void corrupt_out_chain_loops_on_itself(Harness *h, HPosted *p)
{
    prm_put_be64((uint8_t *)h_gpa(h, p->out_mb[0]) + MBOX_NEXT, p->out_mb[0]);
}

/* The output chain is checked too; the command has run by then. */
static void test_queue_out_chain_wrong_block_num(void)
{
    queue_bad_out_chain(corrupt_out_block_num, 4);
}

/* A looping output chain: nothing is written past its first block. */
static void test_queue_out_chain_loops_on_itself(void)
{
    queue_bad_out_chain(corrupt_out_chain_loops_on_itself, 1);
}

static void test_queue_out_ptr_unaligned(void)
{
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) c = hcmd_new(OP_QUERY_HCA_CAP, MLX5_CAP_GENERAL << 1);
    g_autoptr(HPosted) p = NULL;

    h_enable(h);
    p = h_cmdq_post(h, 0, c);
    prm_put_be64((uint8_t *)h_gpa(h, p->ent) + CMD_ENT_OUT_PTR, p->out_mb[0] + 1);
    h_cmdq_ring(h, 1);
    g_assert_cmphex(h_cmdq_collect(h, p, c), ==, MLX5_CMD_DELIV_OUT_PTR_ALIGN);
}

/* Only outlen bytes go back: the rest of the mailbox and its chaining
 * fields keep what the driver left there. */
static void test_queue_output_stops_at_outlen(void)
{
    static const uint32_t extra[] = { 0, 40, 16 + 512 - PRM_BYTES(query_issi_out) };
    g_autoptr(Harness) h = h_new();

    h_enable(h);
    for (size_t i = 0; i < G_N_ELEMENTS(extra); i++) {
        g_autoptr(HCmd) c = hcmd_new_len(OP_QUERY_ISSI, 0, 16,
                                         PRM_BYTES(query_issi_out) + extra[i]);
        g_autoptr(HPosted) p = h_cmdq_post(h, 1, c);
        const uint8_t *mb = h_gpa(h, p->out_mb[0]);
        uint32_t written = c->outlen - 16;

        g_assert_cmpuint(p->n_out, ==, 1);
        h_cmdq_ring(h, 1u << 1);
        g_assert_cmphex(h_cmdq_collect(h, p, c), ==, MLX5_CMD_DELIV_OK);
        g_assert_cmphex(c->status, ==, MLX5_CMD_STAT_OK);
        for (uint32_t b = written; b < MBOX_DATA_BYTES; b++) {
            g_assert_cmphex(mb[b], ==, POISON);
        }
        g_assert_cmphex(prm_be64(mb + MBOX_NEXT), ==, 0);
        g_assert_cmphex(prm_be32(mb + MBOX_BLOCK_NUM), ==, 0);
    }
}

static void test_queue_short_outlen_leaves_entry_tail(void)
{
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) c = hcmd_new_len(OP_ENABLE_HCA, 0, 16, 8);
    g_autoptr(HPosted) p = h_cmdq_post(h, 0, c);

    g_assert_cmpuint(p->n_out, ==, 0);
    h_cmdq_ring(h, 1);
    g_assert_cmphex(h_cmdq_collect(h, p, c), ==, MLX5_CMD_DELIV_OK);
    g_assert_cmphex(c->status, ==, MLX5_CMD_STAT_OK);
    for (unsigned b = 8; b < 16; b++) {
        g_assert_cmphex(entry(h, 0)[CMD_ENT_OUT + b], ==, POISON);
    }
}

/* Input blocks beyond what inlen needs are not read (the driver reuses
 * longer cached chains): a broken 2nd block does not matter. */
static void test_queue_reads_only_needed_blocks(void)
{
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) c = hcmd_new_len(OP_SET_ISSI, 0, PRM_BYTES(set_issi_in) + 512, 16);
    g_autoptr(HPosted) p = NULL;

    h_enable(h);
    IN_SET(c, set_issi_in, current_issi, 1);
    c->inlen = 16 + 512;                        /* exactly one mailbox */
    p = h_cmdq_post(h, 0, c);
    g_assert_cmpuint(p->n_in, ==, 1);
    prm_put_be64((uint8_t *)h_gpa(h, p->in_mb[0]) + MBOX_NEXT, 0x3);   /* junk */
    h_cmdq_ring(h, 1);
    g_assert_cmphex(h_cmdq_collect(h, p, c), ==, MLX5_CMD_DELIV_OK);
    g_assert_cmphex(c->status, ==, MLX5_CMD_STAT_OK);
    g_assert_cmpuint(h->fw->issi, ==, 1);
}

static void test_queue_slot_not_owned_is_not_run(void)
{
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) c = hcmd_new(OP_ENABLE_HCA, 0);
    g_autoptr(HPosted) p = h_cmdq_post(h, 4, c);
    unsigned errs = h_nerrors(h);

    (void)p;                            /* posted, never collected: freed at the end */
    entry(h, 4)[CMD_ENT_STATUS_OWN] = 0;
    h_cmdq_ring(h, 1u << 4);
    g_assert_cmphex(entry(h, 4)[CMD_ENT_OUT], ==, POISON);
    g_assert_cmpint(h->fw->hca_state, ==, MLX5_HCA_DISABLED);
    g_assert_cmpuint(h_nerrors(h), ==, errs + 1);
    h->posted--;
    h_assert_usable(h);
}

static void test_queue_doorbell_before_address(void)
{
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) c = hcmd_new(OP_ENABLE_HCA, 0);
    g_autoptr(HPosted) p = h_cmdq_post(h, 0, c);

    mlx5_iseg_write(h->fw, ISEG_CMDQ_H, 0, 4);
    mlx5_iseg_write(h->fw, ISEG_CMDQ_L, 0, 4);
    h_cmdq_ring(h, 1);
    g_assert_cmpuint(h_nerrors(h), ==, 1);
    g_assert_cmphex(entry(h, 0)[CMD_ENT_STATUS_OWN], ==, 1);
    g_assert_cmpint(h->fw->hca_state, ==, MLX5_HCA_DISABLED);
    h_cmdq_setup(h);
    h_cmdq_ring(h, 1);
    g_assert_cmphex(h_cmdq_collect(h, p, c), ==, MLX5_CMD_DELIV_OK);
    g_assert_cmpint(h->fw->hca_state, ==, MLX5_HCA_ENABLED);
}

static void test_queue_page_outside_ram(void)
{
    g_autoptr(Harness) h = h_new();

    mlx5_iseg_write(h->fw, ISEG_CMDQ_L, 0x7ffff000, 4);
    h_cmdq_ring(h, 0xffffffff);
    g_assert_cmpuint(h_nerrors(h), >=, 1);
    g_assert_false(mlx5_cmdif_pending(h->fw));
}

/* One doorbell, several slots: run in slot order, each answered. */
static void test_queue_several_slots_one_doorbell(void)
{
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) en = hcmd_new(OP_ENABLE_HCA, 0);
    g_autoptr(HCmd) q1 = hcmd_new(OP_QUERY_ISSI, 0);
    g_autoptr(HCmd) q2 = hcmd_new(OP_QUERY_PAGES, 1);
    g_autoptr(HPosted) p0 = h_cmdq_post(h, 0, en);
    g_autoptr(HPosted) p1 = h_cmdq_post(h, 7, q1);
    g_autoptr(HPosted) p2 = h_cmdq_post(h, 31, q2);

    mlx5_iseg_write(h->fw, ISEG_CMD_DBELL, 1u << 0 | 1u << 7 | 1u << 31, 4);
    g_assert_true(mlx5_cmdif_pending(h->fw));
    mlx5_cmdif_run(h->fw);
    g_assert_false(mlx5_cmdif_pending(h->fw));
    g_assert_cmphex(h_cmdq_collect(h, p0, en), ==, MLX5_CMD_DELIV_OK);
    g_assert_cmphex(h_cmdq_collect(h, p1, q1), ==, MLX5_CMD_DELIV_OK);
    g_assert_cmphex(h_cmdq_collect(h, p2, q2), ==, MLX5_CMD_DELIV_OK);
    g_assert_cmphex(en->status | q1->status | q2->status, ==, MLX5_CMD_STAT_OK);
}

/* cmd_dbell (init segment 0x18) only queues; mlx5_cmdif_run runs, as the
 * platform does off the MMIO path (hw/mlx5.c: a bottom half). */
static void test_queue_mmio_doorbell_deferred(void)
{
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) c = hcmd_new(OP_ENABLE_HCA, 0);
    g_autoptr(HPosted) p = h_cmdq_post(h, 3, c);

    mlx5_iseg_write(h->fw, ISEG_CMD_DBELL, 1u << 3, 4);
    g_assert_cmphex(entry(h, 3)[CMD_ENT_STATUS_OWN], ==, 1);
    mlx5_cmdif_run(h->fw);
    g_assert_cmphex(h_cmdq_collect(h, p, c), ==, MLX5_CMD_DELIV_OK);
}

static void test_queue_failed_command_status_in_entry(void)
{
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) c = hcmd_new(OP_ALLOC_PD, 0);

    g_assert_cmphex(h_exec_cmdq(h, c, 9), ==, MLX5_CMD_STAT_BAD_SYS_STATE);
    g_assert_cmphex(c->syndrome, ==, MLX5_SYND_NOT_ENABLED);
}

/* --- event-mode completion -------------------------------------------- */

#define CMD_EVENTS (1ull << MLX5_EVENT_CMD)

/* The command EQ, created through the queue: its own CREATE_EQ is polled. */
static HRing make_cmd_eq(Harness *h)
{
    HRing eq;
    g_autoptr(HCmd) c = h_create_eq_cmd(h, &eq, 4, 2, CMD_EVENTS);

    g_assert_cmphex(h_exec_cmdq(h, c, 0), ==, MLX5_CMD_STAT_OK);
    eq.num = OUT_GET(c, create_eq_out, eq_number);
    return eq;
}

static void run_slot(Harness *h, unsigned slot)
{
    g_autoptr(HCmd) c = hcmd_new(OP_QUERY_ISSI, 0);
    g_assert_cmphex(h_exec_cmdq(h, c, slot), ==, MLX5_CMD_STAT_OK);
}

static void test_event_create_cmd_eq_gets_no_eqe(void)
{
    g_autoptr(Harness) h = h_new();
    HRing eq;

    h_bringup(h);
    eq = make_cmd_eq(h);
    g_assert_null(h_eq_next(h, &eq));
    g_assert_null(h_eq_next(h, &h->async_eq));
    g_assert_cmpuint(h->msix->len, ==, 0);
}

static void test_event_eqe_names_the_slot(void)
{
    g_autoptr(Harness) h = h_new();
    const uint8_t *eqe;
    HRing eq;

    h_bringup(h);
    eq = make_cmd_eq(h);
    run_slot(h, 5);
    eqe = h_eq_next(h, &eq);
    g_assert_nonnull(eqe);
    g_assert_cmphex(eqe[EQE_TYPE], ==, MLX5_EVENT_CMD);
    g_assert_cmphex(prm_be32(eqe + EQE_CMD_VECTOR), ==, 1u << 5);
    g_assert_null(h_eq_next(h, &eq));
    /* The top slot: bit 31. */
    run_slot(h, 31);
    eqe = h_eq_next(h, &eq);
    g_assert_nonnull(eqe);
    g_assert_cmphex(prm_be32(eqe + EQE_CMD_VECTOR), ==, 1u << 31);
}

static void test_event_msix_only_when_armed(void)
{
    g_autoptr(Harness) h = h_new();
    HRing eq;

    h_bringup(h);
    eq = make_cmd_eq(h);
    run_slot(h, 1);                             /* EQ not armed yet */
    g_assert_cmpuint(h_msix_count(h, 2), ==, 0);
    g_assert_nonnull(h_eq_next(h, &eq));
    h_eq_arm(h, &eq);                           /* all consumed: arm */
    g_assert_cmpuint(h_msix_count(h, 2), ==, 0);
    run_slot(h, 1);
    g_assert_cmpuint(h_msix_count(h, 2), ==, 1);
    run_slot(h, 1);                             /* fired: disarmed */
    g_assert_cmpuint(h_msix_count(h, 2), ==, 1);
    g_assert_nonnull(h_eq_next(h, &eq));
    h_eq_arm(h, &eq);                           /* one EQE still unread */
    g_assert_cmpuint(h_msix_count(h, 2), ==, 2);
    g_assert_nonnull(h_eq_next(h, &eq));
    g_assert_null(h_eq_next(h, &eq));
    g_assert_cmpuint(h_msix_count(h, 0) + h_msix_count(h, 1), ==, 0);
}

/* Direct mlx5_fw_exec is not the queue: no EQE. */
static void test_event_not_for_direct_exec(void)
{
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) c = hcmd_new(OP_QUERY_ISSI, 0);
    HRing eq;

    h_bringup(h);
    eq = make_cmd_eq(h);
    h_ok(h, c);
    g_assert_null(h_eq_next(h, &eq));
}

static void test_event_stops_after_cmd_eq_destroyed(void)
{
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) d = NULL;
    HRing eq;

    h_bringup(h);
    eq = make_cmd_eq(h);
    d = h_destroy_cmd(OP_DESTROY_EQ, eq.num);
    g_assert_cmphex(h_exec_cmdq(h, d, 3), ==, MLX5_CMD_STAT_OK);
    run_slot(h, 4);
    g_assert_null(h_eq_next(h, &eq));
    g_assert_null(h_eq_next(h, &h->async_eq));
    g_assert_null(h_eq_next(h, &h->comp_eq));
    g_assert_cmpuint(h->msix->len, ==, 0);
}

/* An EQ that takes command events and was created by exec (no queue) is
 * the command EQ too; a second one is not. */
static void test_event_goes_to_first_cmd_eq_only(void)
{
    g_autoptr(Harness) h = h_new();
    HRing first, second;

    h_bringup(h);
    first = h_create_eq(h, 4, 2, CMD_EVENTS);
    second = h_create_eq(h, 4, 3, CMD_EVENTS);
    run_slot(h, 0);
    g_assert_nonnull(h_eq_next(h, &first));
    g_assert_null(h_eq_next(h, &second));
}

/* An EQ the driver does not drain loses events; it never wraps onto
 * entries the driver has not consumed. */
static void test_event_eq_overrun_drops_event(void)
{
    g_autoptr(Harness) h = h_new();
    g_autoptr(HCmd) c = NULL;
    HRing eq;
    unsigned errs;

    h_bringup(h);
    c = h_create_eq_cmd(h, &eq, 1, 2, CMD_EVENTS);              /* 2 entries */
    g_assert_cmphex(h_exec_cmdq(h, c, 0), ==, MLX5_CMD_STAT_OK);
    eq.num = OUT_GET(c, create_eq_out, eq_number);
    run_slot(h, 1);
    run_slot(h, 2);
    errs = h_nerrors(h);
    run_slot(h, 3);                                             /* no room */
    g_assert_cmpuint(h_nerrors(h), ==, errs + 1);
    g_assert_cmpuint(((Mlx5Eq *)mlx5_table_get(&h->fw->eq, eq.num))->overflows, ==, 1);
    g_assert_cmphex(prm_be32(h_eq_next(h, &eq) + EQE_CMD_VECTOR), ==, 1u << 1);
    g_assert_cmphex(prm_be32(h_eq_next(h, &eq) + EQE_CMD_VECTOR), ==, 1u << 2);
    g_assert_null(h_eq_next(h, &eq));
}

static void add_per_command(const char *what, GTestDataFunc fn, int min_needs)
{
    for (size_t i = 0; i < G_N_ELEMENTS(rows); i++) {
        if (rows[i].needs >= min_needs) {
            g_autofree char *path = g_strdup_printf("/cmdif/%s/%s", what, rows[i].name);
            g_test_add_data_func(path, &rows[i], fn);
        }
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    add_per_command("inlen-below-layout", test_inlen_below_layout, MLX5_NEEDS_NONE);
    add_per_command("outlen-below-layout", test_outlen_below_layout, MLX5_NEEDS_NONE);
    add_per_command("refused-before-enable-hca", test_refused_before_enable_hca,
                    MLX5_NEEDS_ENABLED);
    add_per_command("refused-before-init-hca", test_refused_before_init_hca,
                    MLX5_NEEDS_INIT);
    g_test_add_func("/cmdif/refused-after-teardown", test_refused_after_teardown);
    g_test_add_func("/cmdif/unknown-opcode-is-bad-op", test_unknown_opcode_is_bad_op);
    g_test_add_func("/cmdif/inlen-below-header", test_inlen_below_header);
    g_test_add_func("/cmdif/outlen-zero", test_outlen_zero);
    g_test_add_func("/cmdif/outlen-longer-than-layout-is-zero-padded",
                    test_outlen_longer_than_layout_is_zero_padded);
    g_test_add_func("/cmdif/guest-errors-rate-limited", test_guest_errors_rate_limited);
    g_test_add_func("/cmdif/queue/small-command", test_queue_small_command);
    g_test_add_func("/cmdif/queue/bringup", test_queue_bringup);
    g_test_add_func("/cmdif/queue/long-chains-match-exec", test_queue_long_chains_match_exec);
    g_test_add_func("/cmdif/queue/wrong-block-num", test_queue_wrong_block_num);
    g_test_add_func("/cmdif/queue/chain-shorter-than-inlen", test_queue_chain_shorter_than_inlen);
    g_test_add_func("/cmdif/queue/chain-ends-early", test_queue_chain_ends_early);
    g_test_add_func("/cmdif/queue/chain-loops-on-itself", test_queue_chain_loops_on_itself);
    g_test_add_func("/cmdif/queue/out-chain-loops-on-itself", test_queue_out_chain_loops_on_itself);
    g_test_add_func("/cmdif/queue/in-ptr-unaligned", test_queue_in_ptr_unaligned);
    g_test_add_func("/cmdif/queue/in-ptr-outside-ram", test_queue_in_ptr_outside_ram);
    g_test_add_func("/cmdif/queue/bad-type", test_queue_bad_type);
    g_test_add_func("/cmdif/queue/inlen-too-large", test_queue_inlen_too_large);
    g_test_add_func("/cmdif/queue/outlen-too-large", test_queue_outlen_too_large);
    g_test_add_func("/cmdif/queue/out-chain-wrong-block-num", test_queue_out_chain_wrong_block_num);
    g_test_add_func("/cmdif/queue/out-ptr-unaligned", test_queue_out_ptr_unaligned);
    g_test_add_func("/cmdif/queue/output-stops-at-outlen", test_queue_output_stops_at_outlen);
    g_test_add_func("/cmdif/queue/short-outlen-leaves-entry-tail",
                    test_queue_short_outlen_leaves_entry_tail);
    g_test_add_func("/cmdif/queue/reads-only-needed-blocks", test_queue_reads_only_needed_blocks);
    g_test_add_func("/cmdif/queue/slot-not-owned-is-not-run", test_queue_slot_not_owned_is_not_run);
    g_test_add_func("/cmdif/queue/doorbell-before-address", test_queue_doorbell_before_address);
    g_test_add_func("/cmdif/queue/page-outside-ram", test_queue_page_outside_ram);
    g_test_add_func("/cmdif/queue/several-slots-one-doorbell",
                    test_queue_several_slots_one_doorbell);
    g_test_add_func("/cmdif/queue/mmio-doorbell-deferred", test_queue_mmio_doorbell_deferred);
    g_test_add_func("/cmdif/queue/failed-command-status-in-entry",
                    test_queue_failed_command_status_in_entry);
    g_test_add_func("/cmdif/event/create-cmd-eq-gets-no-eqe", test_event_create_cmd_eq_gets_no_eqe);
    g_test_add_func("/cmdif/event/eqe-names-the-slot", test_event_eqe_names_the_slot);
    g_test_add_func("/cmdif/event/msix-only-when-armed", test_event_msix_only_when_armed);
    g_test_add_func("/cmdif/event/not-for-direct-exec", test_event_not_for_direct_exec);
    g_test_add_func("/cmdif/event/stops-after-cmd-eq-destroyed",
                    test_event_stops_after_cmd_eq_destroyed);
    g_test_add_func("/cmdif/event/goes-to-first-cmd-eq-only", test_event_goes_to_first_cmd_eq_only);
    g_test_add_func("/cmdif/event/eq-overrun-drops-event", test_event_eq_overrun_drops_event);
    return g_test_run();
}
