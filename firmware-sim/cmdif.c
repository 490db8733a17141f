/*
 * Command interface: the command queue, mailbox chains and dispatch
 * (PRM "Command Interface"; Linux drivers/.../mlx5/core/cmd.c is the peer).
 *
 * The driver writes a 64-byte entry per slot in one 4 KiB queue page, sets
 * the ownership bit and rings cmd_dbell with 1 << slot.  Input beyond the
 * 16 inline bytes comes from a chain of 576-byte mailboxes (512 data bytes
 * each); output goes back the same way.  Only ceil((inlen - 16) / 512)
 * input blocks are read (the driver reuses longer cached chains) and never
 * more than outlen bytes are written.
 */
#include <string.h>

#include "cmd.h"
#include "prm-decode.h"

enum {
    ENTRY_TYPE = 0x00, ENTRY_INLEN = 0x04, ENTRY_IN_PTR = 0x08, ENTRY_IN = 0x10,
    ENTRY_OUT = 0x20, ENTRY_OUT_PTR = 0x30, ENTRY_OUTLEN = 0x38,
    ENTRY_STATUS_OWN = 0x3f, ENTRY_BYTES = 0x40,
    MBOX_DATA = 512, MBOX_NEXT = 0x230, MBOX_BLOCK_NUM = 0x238,
    MBOX_BYTES = 0x240,
    MLX5_PCI_CMD_XPORT = 7,
};

static bool cmd_state_ok(const Mlx5Fw *fw, const Mlx5CmdDesc *d, Mlx5Cmd *c,
                         unsigned *st)
{
    if (d->needs >= MLX5_NEEDS_ENABLED && fw->hca_state == MLX5_HCA_DISABLED) {
        *st = CMD_FAIL(c, BAD_SYS_STATE, NOT_ENABLED);
        return false;
    }
    if (d->needs == MLX5_NEEDS_INIT && fw->hca_state != MLX5_HCA_INITIALIZED) {
        *st = CMD_FAIL(c, BAD_SYS_STATE, NOT_INITIALIZED);
        return false;
    }
    return true;
}

static unsigned cmd_dispatch(Mlx5Fw *fw, Mlx5Cmd *c, const Mlx5CmdDesc *d)
{
    unsigned st;

    if (!d) {
        return CMD_FAIL(c, BAD_OP, BAD_OPCODE);
    }
    if (c->inlen < d->in_bytes) {
        return CMD_FAIL(c, BAD_INP_LEN, IN_TOO_SHORT);
    }
    if (c->outlen < d->out_bytes) {
        return CMD_FAIL(c, BAD_OUTP_LEN, OUT_TOO_SHORT);
    }
    if (!cmd_state_ok(fw, d, c, &st)) {
        return st;
    }
    return d->handler(fw, c);
}

/* The capability page QUERY_HCA_CAP answers and SET_HCA_CAP carries, in
 * the layout of its type (op_mod >> 1); both hold it at the same offset. */
static void decode_cap_page(GString *out, const char *layout, uint16_t op_mod,
                            const uint8_t *buf, size_t len)
{
    size_t at = PRM_BYTE_OFF(query_hca_cap_out, capability);
    const char *page = mlx5_cap_layout_name(op_mod >> 1);
    g_autofree char *label = NULL;

    G_STATIC_ASSERT(PRM_OFF(query_hca_cap_out, capability) == PRM_OFF(set_hca_cap_in, capability));
    if (!page || len <= at ||
        (strcmp(layout, "query_hca_cap_out") && strcmp(layout, "set_hca_cap_in"))) {
        return;
    }
    label = g_strdup_printf("capability(%s%s)", page, op_mod & 1 ? ", current" : "");
    prm_decode_nested(out, label, page, buf + at, len - at);
}

/* Its layout is named after the command (CREATE_QP's are create_qp_in and
 * create_qp_out); a command without one shows its header. */
bool mlx5_cmd_decode(GString *out, uint16_t opcode, uint16_t op_mod, bool input,
                     const uint8_t *buf, size_t len)
{
    g_autofree char *layout = g_strdup_printf("%s_%s", mlx5_cmd_name(opcode),
                                              input ? "in" : "out");

    for (char *p = layout; *p; p++) {
        *p = g_ascii_tolower(*p);
    }
    if (!prm_decode(out, layout, buf, len) &&
        !prm_decode(out, input ? "mbox_in" : "mbox_out", buf, len)) {
        return false;
    }
    decode_cap_page(out, layout, op_mod, buf, len);
    return true;
}

/* For whoever traces mlx5_cmd_fields. */
static void cmd_trace_fields(const Mlx5Cmd *c, bool input, const uint8_t *buf, size_t len)
{
    g_autoptr(GString) text = g_string_new(NULL);

    if (mlx5_cmd_decode(text, c->opcode, c->op_mod, input, buf, len)) {
        mlx5emu_trace_cmd_fields(mlx5_cmd_name(c->opcode), input ? "in" : "out", text->str);
    }
}

unsigned mlx5_fw_exec(Mlx5Fw *fw, const uint8_t *in, uint32_t inlen,
                      uint8_t *out, uint32_t outlen)
{
    uint8_t hdr[16] = { 0 };
    Mlx5Cmd c = { .in = in, .inlen = inlen, .outlen = outlen };
    const Mlx5CmdDesc *d;
    uint32_t room;
    unsigned st;

    memcpy(hdr, in, MIN(inlen, sizeof(hdr)));
    c.opcode = PRM_GET(mbox_in, opcode, hdr);
    c.op_mod = PRM_GET(mbox_in, op_mod, hdr);
    d = mlx5_cmd_lookup(c.opcode);
    /* Handlers may fill their whole output layout; only outlen goes back. */
    room = MAX(outlen, d ? d->out_bytes : 0);
    room = MAX(room, (uint32_t)PRM_BYTES(mbox_out));
    c.out = g_malloc0(room);
    if (inlen < PRM_BYTES(mbox_in)) {
        st = CMD_FAIL(&c, BAD_INP_LEN, IN_TOO_SHORT);
    } else {
        mlx5emu_trace_cmd_exec(mlx5_cmd_name(c.opcode), c.opcode, c.op_mod,
                               inlen, outlen);
        if (mlx5emu_trace_cmd_fields_enabled()) {
            cmd_trace_fields(&c, true, in, inlen);
        }
        st = cmd_dispatch(fw, &c, d);
    }
    if (st != MLX5_CMD_STAT_OK) {
        memset(c.out, 0, room);
        mlx5emu_trace_cmd_err(mlx5_cmd_name(c.opcode), c.opcode, c.op_mod,
                              mlx5_cmd_status_name(st), c.syndrome,
                              mlx5_syndrome_text(c.syndrome));
        mlx5_guest_error(fw, "%s(0x%x) op_mod 0x%x: %s, syndrome 0x%x (%s)",
                         mlx5_cmd_name(c.opcode), c.opcode, c.op_mod,
                         mlx5_cmd_status_name(st), c.syndrome,
                         mlx5_syndrome_text(c.syndrome));
    } else {
        mlx5emu_trace_cmd_done(mlx5_cmd_name(c.opcode), c.op_mod, c.obj);
        if (mlx5emu_trace_cmd_fields_enabled()) {
            cmd_trace_fields(&c, false, c.out, MIN(outlen, room));
        }
    }
    PRM_SET(mbox_out, status, c.out, st);
    PRM_SET(mbox_out, syndrome, c.out, c.syndrome);
    memcpy(out, c.out, outlen);
    g_free(c.out);
    return st;
}

/* Copy the command input out of the entry and its mailbox chain. */
static unsigned cmd_gather(Mlx5Fw *fw, const uint8_t *ent, uint8_t *buf,
                           uint32_t inlen)
{
    uint64_t ptr = prm_be64(ent + ENTRY_IN_PTR);
    uint32_t done = MIN(inlen, 16u);
    uint8_t blk[MBOX_BYTES];

    memcpy(buf, ent + ENTRY_IN, done);
    for (uint32_t n = 0; done < inlen; n++) {
        uint32_t chunk = MIN(inlen - done, (uint32_t)MBOX_DATA);
        if (ptr & 0x7) {
            return MLX5_CMD_DELIV_IN_PTR_ALIGN;
        }
        if (mlx5_dma_read(fw, ptr, blk, sizeof(blk))) {
            return MLX5_CMD_DELIV_FW_ERR;
        }
        if (prm_be32(blk + MBOX_BLOCK_NUM) != n) {
            return MLX5_CMD_DELIV_BAD_BLK_NUM;
        }
        memcpy(buf + done, blk, chunk);
        done += chunk;
        ptr = prm_be64(blk + MBOX_NEXT);
    }
    return MLX5_CMD_DELIV_OK;
}

/* Write the command output into the entry and the output mailbox chain. */
static unsigned cmd_scatter(Mlx5Fw *fw, uint64_t ent_addr, const uint8_t *ent,
                            const uint8_t *buf, uint32_t outlen)
{
    uint64_t ptr = prm_be64(ent + ENTRY_OUT_PTR);
    uint32_t done = MIN(outlen, 16u);
    uint8_t tail[16];

    for (uint32_t n = 0; done < outlen; n++) {
        uint32_t chunk = MIN(outlen - done, (uint32_t)MBOX_DATA);
        if (ptr & 0x7) {
            return MLX5_CMD_DELIV_OUT_PTR_ALIGN;
        }
        if (mlx5_dma_read(fw, ptr + MBOX_NEXT, tail, sizeof(tail))) {
            return MLX5_CMD_DELIV_FW_ERR;
        }
        if (prm_be32(tail + (MBOX_BLOCK_NUM - MBOX_NEXT)) != n) {
            return MLX5_CMD_DELIV_BAD_BLK_NUM;
        }
        if (mlx5_dma_write(fw, ptr, buf + done, chunk)) {
            return MLX5_CMD_DELIV_FW_ERR;
        }
        done += chunk;
        ptr = prm_be64(tail);
    }
    if (mlx5_dma_write(fw, ent_addr + ENTRY_OUT, buf, MIN(outlen, 16u))) {
        return MLX5_CMD_DELIV_FW_ERR;
    }
    return MLX5_CMD_DELIV_OK;
}

static unsigned cmd_run_entry(Mlx5Fw *fw, uint64_t ent_addr, uint8_t *ent)
{
    uint32_t inlen = prm_be32(ent + ENTRY_INLEN);
    uint32_t outlen = prm_be32(ent + ENTRY_OUTLEN);
    g_autofree uint8_t *in = NULL;
    g_autofree uint8_t *out = NULL;
    unsigned deliv;

    if (ent[ENTRY_TYPE] != MLX5_PCI_CMD_XPORT) {
        return MLX5_CMD_DELIV_CMD_DESCR;
    }
    if (inlen > MLX5_CMD_MAX_LEN) {
        return MLX5_CMD_DELIV_IN_LENGTH;
    }
    if (outlen > MLX5_CMD_MAX_LEN) {
        return MLX5_CMD_DELIV_OUT_LENGTH;
    }
    in = g_malloc0(MAX(inlen, 16u));
    deliv = cmd_gather(fw, ent, in, inlen);
    if (deliv != MLX5_CMD_DELIV_OK) {
        return deliv;
    }
    out = g_malloc0(MAX(outlen, 16u));
    mlx5_fw_exec(fw, in, inlen, out, outlen);
    return cmd_scatter(fw, ent_addr, ent, out, outlen);
}

static void cmd_complete_slot(Mlx5Fw *fw, unsigned slot, bool event)
{
    uint64_t base = (uint64_t)fw->cmdq_addr_h << 32 | (fw->cmdq_addr_l & ~0xfffu);
    uint64_t ent_addr = base + ((uint64_t)slot << MLX5_CMDQ_LOG_STRIDE);
    uint8_t ent[ENTRY_BYTES];
    unsigned deliv;
    uint8_t own;

    if (mlx5_dma_read(fw, ent_addr, ent, sizeof(ent))) {
        mlx5_guest_error(fw, "command slot %u: queue page 0x%" PRIx64
                         " is not guest memory", slot, base);
        return;
    }
    if (!(ent[ENTRY_STATUS_OWN] & 1)) {
        /* Rung without handing the slot to hardware: nothing to run. */
        mlx5emu_trace_ub_cmd_not_owned(slot);
        mlx5_guest_error(fw, "command slot %u rung but not owned by hardware", slot);
        return;
    }
    deliv = cmd_run_entry(fw, ent_addr, ent);
    if (deliv != MLX5_CMD_DELIV_OK) {
        mlx5emu_trace_cmd_deliv_err(slot, deliv);
        mlx5_guest_error(fw, "command slot %u: delivery status 0x%x", slot, deliv);
    }
    /* Ordering point: output and mailboxes are written before ownership
     * returns to software, and the completion EQE after that. */
    own = (uint8_t)(deliv << 1);
    mlx5_dma_write(fw, ent_addr + ENTRY_STATUS_OWN, &own, 1);
    if (event && fw->have_cmd_eq) {
        Mlx5Eq *eq = mlx5_table_get(&fw->eq, fw->cmd_eqn);
        uint8_t data[EQE_DATA_BYTES] = { 0 };

        prm_put_be32(data + (EQE_CMD_VECTOR - EQE_DATA), 1u << slot);
        if (eq) {
            mlx5emu_trace_cmd_eqe(slot, eq->eqn);
            mlx5_eq_post(fw, eq, MLX5_EVENT_CMD, 0, data);
        }
    }
}

void mlx5_cmdif_doorbell(Mlx5Fw *fw, uint32_t bits)
{
    mlx5emu_trace_cmd_doorbell(bits);
    fw->cmd_pending |= bits;
    /* The completion EQE goes out only if the command EQ existed when the
     * command was submitted: the CREATE_EQ that makes it runs polled. */
    if (fw->have_cmd_eq) {
        fw->cmd_pending_event |= bits;
    } else {
        fw->cmd_pending_event &= ~bits;
    }
}

bool mlx5_cmdif_pending(const Mlx5Fw *fw)
{
    return fw->cmd_pending != 0;
}

void mlx5_cmdif_run(Mlx5Fw *fw)
{
    while (fw->cmd_pending) {
        unsigned slot = (unsigned)__builtin_ctz(fw->cmd_pending);
        bool event = fw->cmd_pending_event & (1u << slot);

        fw->cmd_pending &= ~(1u << slot);
        fw->cmd_pending_event &= ~(1u << slot);
        if (fw->cmdq_addr_h == 0 && (fw->cmdq_addr_l & ~0xfffu) == 0) {
            mlx5emu_trace_ub_cmd_no_queue(slot);
            mlx5_guest_error(fw, "command doorbell before the queue address was set");
            continue;
        }
        cmd_complete_slot(fw, slot, event);
    }
}
