/*
 * The fuzz targets: each one entry function over the same world
 * (world.h), run by libFuzzer (libfuzzer.c, one executable per target)
 * and by the replay of the corpus and the findings in the unit tests
 * (replay.c).  fuzz/README.md describes them.
 */
#ifndef MLX5EMU_FUZZ_TARGETS_H
#define MLX5EMU_FUZZ_TARGETS_H

#include "ops.h"

typedef struct FuzzTarget {
    const char *name;           /* the executable, fuzz/corpus/<name>, fuzz/findings/<name> */
    const char *what;
    FuzzMode mode;
    FuzzOpSet ops;              /* 0: the input is one command (fuzz-cmd) */
} FuzzTarget;

extern const FuzzTarget fuzz_targets[];
extern const unsigned fuzz_ntargets;

const FuzzTarget *fuzz_target_find(const char *name);
/* One input, from a fresh world to its end; `world_built` (may be NULL)
 * is called once the world stands, before the input runs. */
void fuzz_target_run(const FuzzTarget *t, const uint8_t *data, size_t size,
                     void (*world_built)(void));

#endif
