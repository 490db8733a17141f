/*
 * Per-input limits: what one fuzz input may cost the device.
 *
 * Concepts
 * --------
 * The device must bound every cost a guest or a peer can cause (DESIGN.md
 * "Rules of the device"): a doorbell, a command or a frame may make only
 * so many frames, DMA bytes, interrupts and allocations.  The fuzzers
 * count them twice: per call into the device (one entry point: a BAR0
 * write, a command run, a received frame, a timer expiry) and per input.
 * A count past its limit is a finding: fuzz_budget_charge() prints the
 * limit's name and the numbers, then executes __builtin_trap(), so
 * libFuzzer saves the input like any crash and its stack shows who spent.
 *
 * Each limit has a default for a call and one for an input, both
 * overridable by an environment variable named in fuzz_limits[]
 * (MLX5EMU_FUZZ_<NAME>_PER_CALL, MLX5EMU_FUZZ_<NAME>_PER_INPUT, a number
 * with an optional K, M or G suffix: 1024-based).
 *
 * Allocations are counted by the sanitizer allocator's hooks
 * (__sanitizer_install_malloc_and_free_hooks) while a call is under way;
 * built without ASan (the gcc unit build replaying the corpus) they are
 * not counted.
 */
#ifndef MLX5EMU_FUZZ_BUDGET_H
#define MLX5EMU_FUZZ_BUDGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
    FUZZ_FRAMES,        /* frames handed to Mlx5Platform.tx_frame */
    FUZZ_DMA_BYTES,     /* bytes read and written through dma_read/dma_write */
    FUZZ_MSIX,          /* MSI-X messages */
    FUZZ_GUEST_ERRORS,  /* guest-error log lines (the core rate-limits them) */
    FUZZ_ALLOCS,        /* malloc/calloc/realloc calls */
    FUZZ_ALLOC_BYTES,   /* bytes those asked for */
    FUZZ_NLIMITS
} FuzzLimit;

typedef struct FuzzLimitDesc {
    const char *name;           /* in the trap message and the variables */
    const char *env_call, *env_input;
    uint64_t per_call, per_input;       /* defaults */
} FuzzLimitDesc;

extern const FuzzLimitDesc fuzz_limits[FUZZ_NLIMITS];

typedef struct FuzzBudget {
    uint64_t max_call[FUZZ_NLIMITS], max_input[FUZZ_NLIMITS];
    uint64_t call[FUZZ_NLIMITS], input[FUZZ_NLIMITS];
    const char *entry;          /* the entry point being called, or NULL */
    bool paused;                /* the platform's own allocations: not counted */
} FuzzBudget;

/* Limits from the environment (read once per process), counts at zero. */
void fuzz_budget_init(FuzzBudget *b);
/* A call into the device begins (`entry` names it for the message) and
 * ends; allocations count in between. */
void fuzz_budget_call_begin(FuzzBudget *b, const char *entry);
void fuzz_budget_call_end(FuzzBudget *b);
/* Count n of `what`; over either limit: the message, then a trap. */
void fuzz_budget_charge(FuzzBudget *b, FuzzLimit what, uint64_t n);

#endif
