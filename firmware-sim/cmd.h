/*
 * Command dispatch (firmware-internal).
 *
 * Concepts
 * --------
 * One handler per opcode, behind one table (cmd-table.c).  Each row names
 * the opcode as the PRM does, its handler, the input and output layouts
 * (whose sizes are the minimum inlen/outlen the device accepts) and the
 * HCA state the command needs.  The dispatcher checks all of that before a
 * handler runs, so a handler sees an input buffer of at least its
 * layout's size and an output buffer it may fill up to its layout's size.
 * Handlers return a command status and, on error, set a syndrome that
 * names the failed check (syndromes.h).
 *
 * What commands on objects have in common is done once, below: finding
 * the object a command names or failing BAD_RES (mlx5_cmd_find), giving a
 * new object its number or freeing it (mlx5_cmd_add, _add_built), freeing
 * one (mlx5_cmd_remove, _remove_found), and a QUERY's context from the
 * object's table of context fields (mlx5_cmd_query, objects.h).
 */
#ifndef MLX5EMU_CMD_H
#define MLX5EMU_CMD_H

#include "fw.h"
#include "syndromes.h"

typedef struct Mlx5Cmd {
    const uint8_t *in;
    uint32_t inlen;
    uint8_t *out;               /* room for max(outlen, layout size) bytes */
    uint32_t outlen;
    uint16_t opcode, op_mod;
    uint32_t syndrome;
    uint32_t obj;               /* object the command created or named */
} Mlx5Cmd;

typedef unsigned (*Mlx5CmdHandler)(Mlx5Fw *fw, Mlx5Cmd *c);

enum { MLX5_NEEDS_NONE, MLX5_NEEDS_ENABLED, MLX5_NEEDS_INIT };

typedef struct Mlx5CmdDesc {
    uint16_t opcode;
    const char *name;
    Mlx5CmdHandler handler;
    uint32_t in_bytes, out_bytes;
    uint8_t needs;
} Mlx5CmdDesc;

const Mlx5CmdDesc *mlx5_cmd_lookup(uint16_t opcode);
const char *mlx5_cmd_name(uint16_t opcode);
/* A command's input (or output) as text, field by field, with the
 * contexts inside it and a capability page in the layout of its type
 * (the mlx5_cmd_fields trace event); false if there is nothing to decode. */
bool mlx5_cmd_decode(GString *out, uint16_t opcode, uint16_t op_mod, bool input,
                     const uint8_t *buf, size_t len);

/* Fail a command: record the syndrome and return the status. */
static inline unsigned mlx5_cmd_fail(Mlx5Cmd *c, unsigned status, uint32_t synd)
{
    c->syndrome = synd;
    return status;
}
#define CMD_FAIL(c, status, synd) \
    mlx5_cmd_fail((c), MLX5_CMD_STAT_##status, MLX5_SYND_##synd)

/* Input bytes that hold an array of n elements of `elem` bytes from byte
 * `off`; false if the command is too short (guest-supplied count). */
static inline bool mlx5_cmd_has(const Mlx5Cmd *c, uint64_t off, uint64_t n,
                                uint64_t elem)
{
    return off + n * elem <= c->inlen;
}

/* The answer to a table's refusal (objects.h): no number left is NO_RES
 * (as before there were limits); more objects than the capabilities allow
 * or than the host-memory budget holds is LIM_ERR, which real ConnectX
 * firmware answers when it runs out of QP resources (CREATE_QP "limits
 * exceeded(0x8)") and mlx5_core turns into -ENOMEM (cmd.c
 * cmd_status_to_err). */
static inline unsigned mlx5_cmd_table_fail(Mlx5Cmd *c, Mlx5TableStatus ts)
{
    switch (ts) {
    case MLX5_TABLE_OK:
        return MLX5_CMD_STAT_OK;
    case MLX5_TABLE_LIMIT:
        return CMD_FAIL(c, LIM_ERR, OBJECT_LIMIT);
    case MLX5_TABLE_NO_MEM:
        return CMD_FAIL(c, LIM_ERR, HOST_MEMORY);
    default:
        return CMD_FAIL(c, NO_RES, NO_RESOURCE);
    }
}

/* Give a new object its number in table `t` (*id and c->obj).  When the
 * table refuses it (mlx5_table_add) the object is freed with the table's
 * destructor and the command fails (mlx5_cmd_table_fail). */
static inline unsigned mlx5_cmd_add(Mlx5Cmd *c, Mlx5Table *t, void *obj, uint32_t *id)
{
    Mlx5TableStatus ts = mlx5_table_add(t, obj, id);

    if (ts != MLX5_TABLE_OK) {
        t->destroy(obj);
        return mlx5_cmd_table_fail(c, ts);
    }
    c->obj = *id;
    return MLX5_CMD_STAT_OK;
}

/* A new object whose building answered `st`: its number as mlx5_cmd_add
 * gives it if that is OK, else the object is freed with the table's
 * destructor and the command fails with `st`. */
static inline unsigned mlx5_cmd_add_built(Mlx5Cmd *c, unsigned st, Mlx5Table *t, void *obj,
                                          uint32_t *id)
{
    if (st != MLX5_CMD_STAT_OK) {
        t->destroy(obj);
        return st;
    }
    return mlx5_cmd_add(c, t, obj, id);
}

/* Free object `id` of table `t` (c->obj = id); BAD_RES with syndrome
 * `synd` if there is none. */
static inline unsigned mlx5_cmd_remove(Mlx5Cmd *c, Mlx5Table *t, uint32_t id, uint32_t synd)
{
    c->obj = id;
    if (!mlx5_table_remove(t, id)) {
        return mlx5_cmd_fail(c, MLX5_CMD_STAT_BAD_RES, synd);
    }
    return MLX5_CMD_STAT_OK;
}

/* The object a command names by number `id` (c->obj = id): `obj`, as the
 * handler looked it up; with none, NULL, and the command fails BAD_RES
 * with `synd` (*st). */
static inline void *mlx5_cmd_find(Mlx5Cmd *c, void *obj, uint32_t id, uint32_t synd,
                                  unsigned *st)
{
    c->obj = id;
    *st = obj ? MLX5_CMD_STAT_OK : mlx5_cmd_fail(c, MLX5_CMD_STAT_BAD_RES, synd);
    return obj;
}

/* Free `obj`, number `id` of table `t`, which the handler found with the
 * kind the command names (NULL: BAD_RES with `synd`). */
static inline unsigned mlx5_cmd_remove_found(Mlx5Cmd *c, Mlx5Table *t, void *obj, uint32_t id,
                                             uint32_t synd)
{
    unsigned st;

    return mlx5_cmd_find(c, obj, id, synd, &st) ? mlx5_cmd_remove(c, t, id, synd) : st;
}

/* QUERY_<object>: the fields `f` of `obj` (number `id`) into the context
 * at `ctx` of the output; BAD_RES with `synd` when the command names none.
 * What a context computes rather than keeps the handler adds itself. */
static inline unsigned mlx5_cmd_query(Mlx5Cmd *c, const void *obj, uint32_t id, uint32_t synd,
                                      uint8_t *ctx, const Mlx5CtxField *f, size_t n)
{
    unsigned st;

    if (mlx5_cmd_find(c, (void *)obj, id, synd, &st)) {
        mlx5_ctx_store(ctx, obj, f, n);
    }
    return st;
}
/* A table of context fields as mlx5_cmd_query and mlx5_ctx_load take it. */
#define MLX5_CTX_FIELDS(table) (table), G_N_ELEMENTS(table)

/* Two commands (or contexts) place a field alike, so one reads both. */
#define MLX5_SAME_FIELD(L1, f1, L2, f2) \
    _Static_assert(PRM_OFF(L1, f1) == PRM_OFF(L2, f2) && PRM_W(L1, f1) == PRM_W(L2, f2), \
                   #L2 "." #f2 " is placed as " #L1 "." #f1);

/* cqc.cqe_sz: 64-byte CQEs, 128-byte ones, or 128-byte ones "padded" (the
 * 64 bytes in the second half always, never scattered data in the first:
 * mlx5_ib's MLX5_IB_CREATE_CQ_FLAGS_CQE_128B_PAD, cap cqe_128_always) -
 * the device writes every 128-byte CQE that way. */
enum { MLX5_CQE_SIZE_64 = 0, MLX5_CQE_SIZE_128 = 1, MLX5_CQE_SIZE_128_PAD = 2 };
static inline unsigned mlx5_cqe_log_stride(unsigned cqe_sz)
{
    return cqe_sz == MLX5_CQE_SIZE_64 ? 6 : 7;
}
/* CREATE_EQ and CREATE_CQ (eq.c): the ring their context `ctx` (eqc or
 * cqc) asks for, checked in two steps around the references each kind
 * checks in between: first its size (at most 2^log_max entries), entry
 * size (`cqe_sz`: MLX5_CQE_SIZE_*; an EQ's is 0) and page size, then its
 * UAR and the page list at byte `pas_off` of the command. */
unsigned mlx5_ring_ctx_check(Mlx5Cmd *c, const uint8_t *ctx, unsigned log_max, unsigned cqe_sz);
unsigned mlx5_ring_ctx_init(Mlx5Fw *fw, Mlx5Cmd *c, const uint8_t *ctx, Mlx5Ring *r,
                            uint32_t pas_off, unsigned cqe_sz);

/* An SQ's packet pacing rate index is 0 or names a rate (qos.c). */
unsigned mlx5_sq_check_rate(Mlx5Fw *fw, Mlx5Cmd *c, uint32_t sqn, uint16_t index);

/* Handlers, one per opcode (the files named in cmd-list.h). */
#define MLX5_HANDLER_DECL_(name, op, fn, in, out, needs) \
    unsigned fn(Mlx5Fw *fw, Mlx5Cmd *c);
#include "cmd-list.h"
MLX5_CMD_LIST(MLX5_HANDLER_DECL_)
#undef MLX5_HANDLER_DECL_

#endif
