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

/* Give a new object its number in table `t` (*id and c->obj).  When every
 * number is taken the object is freed with the table's destructor and the
 * command fails with NO_RES. */
static inline unsigned mlx5_cmd_add(Mlx5Cmd *c, Mlx5Table *t, void *obj, uint32_t *id)
{
    if (!mlx5_table_alloc(t, obj, id)) {
        t->destroy(obj);
        return CMD_FAIL(c, NO_RES, NO_RESOURCE);
    }
    c->obj = *id;
    return MLX5_CMD_STAT_OK;
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

/* Handlers, one per opcode (the files named in cmd-list.h). */
#define MLX5_HANDLER_DECL_(name, op, fn, in, out, needs) \
    unsigned fn(Mlx5Fw *fw, Mlx5Cmd *c);
#include "cmd-list.h"
MLX5_CMD_LIST(MLX5_HANDLER_DECL_)
#undef MLX5_HANDLER_DECL_

#endif
