/*
 * The libFuzzer entry of one target (targets.c), compiled once per target
 * with -DFUZZ_TARGET_NAME="fuzz-...".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "targets.h"

#ifndef FUZZ_TARGET_NAME
#error "FUZZ_TARGET_NAME names the target"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The core's edge counters (-fsanitize-coverage=inline-8bit-counters puts
 * them in this section; the linker names its ends).  This file is built
 * without coverage (meson.build): in a file with coverage the compiler's
 * own module constructor, which hands these to libFuzzer, declares them
 * too, and with this declaration beside it that constructor passed 0 and
 * libFuzzer saw no counters at all. */
extern uint8_t __start___sancov_cntrs[], __stop___sancov_cntrs[];

/* Building the world runs the same commands every time, so the edges it
 * takes say nothing about the input.  libFuzzer zeroes the counters before
 * each input and reads them after; zeroing them again once the world
 * stands leaves what the input and the epilogue reached, with their own
 * hit counts (libFuzzer's features bucket them: 1, 2, 3, 4-7, ...) rather
 * than the world's added in.  libFuzzer also weighs fewer features per
 * execution (perf, fuzz-ops: 9 % of the time in collecting them, from
 * 11 %). */
static void forget_world_coverage(void)
{
    memset(__start___sancov_cntrs, 0, (size_t)(__stop___sancov_cntrs - __start___sancov_cntrs));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const FuzzTarget *t;

    if (!t) {
        t = fuzz_target_find(FUZZ_TARGET_NAME);
        if (!t) {
            fprintf(stderr, "no fuzz target %s\n", FUZZ_TARGET_NAME);
            abort();
        }
    }
    fuzz_target_run(t, data, size, forget_world_coverage);
    return 0;
}
