/* The command table (cmd-list.h) and status / syndrome names. */
#include "cmd.h"

#define MLX5_CMD_ROW_(name, op, fn, in, out, needs) \
    { op, #name, fn, PRM_BYTES(in), PRM_BYTES(out), needs },
static const Mlx5CmdDesc mlx5_cmds[] = {
    MLX5_CMD_LIST(MLX5_CMD_ROW_)
};

/* Each command's row, and a switch the compiler turns into a jump table:
 * every command the driver sends is looked up (and named for its trace
 * event) once, and a linear scan of the table was a visible part of the
 * bring-up's cost.  An opcode listed twice is a duplicate case: it does
 * not compile. */
#define MLX5_CMD_ROW_NUM_(name, op, fn, in, out, needs) MLX5_CMD_ROW_##name,
enum { MLX5_CMD_LIST(MLX5_CMD_ROW_NUM_) };

const Mlx5CmdDesc *mlx5_cmd_lookup(uint16_t opcode)
{
#define MLX5_CMD_CASE_(name, op, fn, in, out, needs) \
    case op: return &mlx5_cmds[MLX5_CMD_ROW_##name];
    switch (opcode) {
    MLX5_CMD_LIST(MLX5_CMD_CASE_)
    }
    return NULL;
}

const char *mlx5_cmd_name(uint16_t opcode)
{
    const Mlx5CmdDesc *d = mlx5_cmd_lookup(opcode);

    if (d) {
        return d->name;
    }
#define MLX5_UNIMPL_NAME_(name, op) case op: return #name;
    switch (opcode) {
    MLX5_CMD_UNIMPLEMENTED_LIST(MLX5_UNIMPL_NAME_)
    }
    return "UNKNOWN";
}

const char *mlx5_cmd_status_name(unsigned status)
{
#define MLX5_STATUS_NAME_(n, v) case v: return #n;
    switch (status) {
    MLX5_CMD_STATUS_LIST(MLX5_STATUS_NAME_)
    }
    return "UNKNOWN";
}

const char *mlx5_syndrome_text(uint32_t syndrome)
{
#define MLX5_SYND_TEXT_(n, v, d) case v: return d;
    switch (syndrome) {
    MLX5_SYNDROME_LIST(MLX5_SYND_TEXT_)
    }
    return "unknown syndrome";
}
