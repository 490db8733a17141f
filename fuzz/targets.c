/* The fuzz targets: see targets.h. */
#include <string.h>

#include "targets.h"

const FuzzTarget fuzz_targets[] = {
    { "fuzz-ops", "the operation stream", FUZZ_PLAIN, FUZZ_OPS_ALL },
    { "fuzz-ops-loopback", "the operation stream; every frame sent comes back in",
      FUZZ_LOOPBACK, FUZZ_OPS_ALL },
    { "fuzz-ops-reenter", "the operation stream; DMA below RAM is the device's own BAR0",
      FUZZ_REENTER, FUZZ_OPS_ALL },
    { "fuzz-rx", "received frames only (RX_RAW, RX_ROCE, REFEED; time, polling, receives)",
      FUZZ_PLAIN, FUZZ_OPS_RX },
    { "fuzz-cmd", "one command's input bytes through mlx5_fw_exec", FUZZ_PLAIN, 0 },
};
const unsigned fuzz_ntargets = G_N_ELEMENTS(fuzz_targets);

const FuzzTarget *fuzz_target_find(const char *name)
{
    for (unsigned i = 0; i < fuzz_ntargets; i++) {
        if (strcmp(fuzz_targets[i].name, name) == 0) {
            return &fuzz_targets[i];
        }
    }
    return NULL;
}

/* fuzz-cmd: the input is a command (mbox_in and what follows), its output
 * as long as the command's layout or its input, whichever is longer (an
 * ACCESS_REG answers as much as it was given). */
static void run_one_command(FuzzWorld *w, const uint8_t *data, size_t size)
{
    uint8_t hdr[16] = { 0 };
    const Mlx5CmdDesc *d;
    uint32_t inlen = (uint32_t)MIN(size, (size_t)MLX5_CMD_MAX_LEN);

    memcpy(hdr, data, MIN(size, sizeof(hdr)));
    d = mlx5_cmd_lookup(PRM_GET(mbox_in, opcode, hdr));
    fuzz_dev_exec(w->f, data, inlen, MAX(d ? d->out_bytes : 16u, MIN(inlen, 1u << 16)));
}

/* After the input, the world is used once more: a NOP on every send
 * queue, a SEND_ONLY to every QP, the timers due, every CQ and EQ polled.
 * Whatever the input freed or broke is touched here (ASan sees a stale
 * pointer even when the input itself did not use it again). */
static void epilogue(FuzzWorld *w)
{
    for (unsigned i = 0; i < w->nsq; i++) {
        uint8_t nop[] = { FUZZ_OP_POST_SEND, (uint8_t)i, 0 /* NOP */, 0,
                          MLX5_WQE_CTRL_CQ_UPDATE };
        fuzz_ops_run(w, FUZZ_OPS_ALL, nop, sizeof(nop));
    }
    for (unsigned i = 0; i < w->nqp; i++) {
        uint8_t send[] = { FUZZ_OP_RX_ROCE, (uint8_t)i, 0x04 /* SEND_ONLY */ };
        fuzz_ops_run(w, FUZZ_OPS_ALL, send, sizeof(send));
    }
    fuzz_ops_run(w, FUZZ_OPS_ALL, (const uint8_t[]){ FUZZ_OP_CLOCK, 0xff, 0xff }, 3);
    fuzz_ops_run(w, FUZZ_OPS_ALL, (const uint8_t[]){ FUZZ_OP_DRAIN }, 1);
}

void fuzz_target_run(const FuzzTarget *t, const uint8_t *data, size_t size,
                     void (*world_built)(void))
{
    FuzzWorld *w = fuzz_world_new(t->mode);

    if (world_built) {
        world_built();
    }

    if (t->ops) {
        fuzz_ops_run(w, t->ops, data, size);
    } else {
        run_one_command(w, data, size);
    }
    epilogue(w);
    fuzz_world_free(w);
}
