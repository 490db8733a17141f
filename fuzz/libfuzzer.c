/*
 * The libFuzzer entry of one target (targets.c), compiled once per target
 * with -DFUZZ_TARGET_NAME="fuzz-...".
 */
#include <stdio.h>
#include <stdlib.h>

#include "targets.h"

#ifndef FUZZ_TARGET_NAME
#error "FUZZ_TARGET_NAME names the target"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
    fuzz_target_run(t, data, size);
    return 0;
}
