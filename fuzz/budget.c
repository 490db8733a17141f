/* Per-input limits: see budget.h. */
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>

#include "budget.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FUZZ_HAVE_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define FUZZ_HAVE_ASAN 1
#endif
#ifdef FUZZ_HAVE_ASAN
/* sanitizer/allocator_interface.h (clang's; gcc does not ship the header,
 * its libasan has the function) */
int __sanitizer_install_malloc_and_free_hooks(void (*malloc_hook)(const volatile void *, size_t),
                                              void (*free_hook)(const volatile void *));
#endif

#define KiB 1024ull
#define MiB (1024ull * KiB)
#define GiB (1024ull * MiB)

#define LIMIT(id, n, call, input) \
    [FUZZ_##id] = { n, "MLX5EMU_FUZZ_" #id "_PER_CALL", "MLX5EMU_FUZZ_" #id "_PER_INPUT", call, input }
/* A call: one BAR0 access, command run, frame or timer expiry.  The
 * defaults sit above what the set-up and the corpus need (the largest
 * command moves 2 MiB of mailboxes) and far below what stalls a vCPU:
 * a single doorbell that makes 4096 frames or moves 64 MiB is a cost the
 * device should have split or refused.
 *
 * An input: what its operations may ask for in earnest, with room to
 * spare.  A READ WQE over all of the world's 16 MiB of RAM is 16 Ki
 * responses at its MTU of 1024 (its responder reads 16 MiB, its requester
 * writes them), and an input of a few KiB can post a dozen, each answered
 * whole and in part again when the requester's timer expires meanwhile:
 * ~10^5 frames and a few hundred MiB that are no defect.  A per-input
 * limit is for what no input asks for - work that feeds itself (a frame
 * sent to itself through a loop of flow tables, a stream that never ends);
 * libFuzzer's -timeout catches an input merely slow. */
const FuzzLimitDesc fuzz_limits[FUZZ_NLIMITS] = {
    LIMIT(FRAMES, "frames", 4096, 1 * MiB),
    LIMIT(DMA_BYTES, "DMA bytes", 64 * MiB, 4 * GiB),
    LIMIT(MSIX, "MSI-X messages", 4096, 64 * KiB),
    LIMIT(GUEST_ERRORS, "guest-error lines", 64, 16 * KiB),
    LIMIT(ALLOCS, "allocations", 64 * KiB, 4 * MiB),
    LIMIT(ALLOC_BYTES, "allocated bytes", 256 * MiB, 4 * GiB),
};
#undef LIMIT

static uint64_t env_limit(const char *var, uint64_t dflt)
{
    const char *s = getenv(var);
    char *end;
    uint64_t v;

    if (!s || !*s) {
        return dflt;
    }
    v = g_ascii_strtoull(s, &end, 0);
    switch (*end) {
    case 'k': case 'K': v *= KiB; break;
    case 'm': case 'M': v *= MiB; break;
    case 'g': case 'G': v *= GiB; break;
    default: break;
    }
    return v;
}

void fuzz_budget_charge(FuzzBudget *b, FuzzLimit what, uint64_t n)
{
    const FuzzLimitDesc *d = &fuzz_limits[what];

    b->call[what] += n;
    b->input[what] += n;
    if (b->call[what] > b->max_call[what]) {
        fprintf(stderr, "mlx5emu fuzz: limit exceeded: %s per call (%s): %llu > %llu in %s\n",
                d->name, d->env_call, (unsigned long long)b->call[what],
                (unsigned long long)b->max_call[what], b->entry ? b->entry : "set-up");
        __builtin_trap();
    }
    if (b->input[what] > b->max_input[what]) {
        fprintf(stderr, "mlx5emu fuzz: limit exceeded: %s per input (%s): %llu > %llu in %s\n",
                d->name, d->env_input, (unsigned long long)b->input[what],
                (unsigned long long)b->max_input[what], b->entry ? b->entry : "set-up");
        __builtin_trap();
    }
}

/* --- allocations ------------------------------------------------------- */

/* The sanitizer's hooks take no context: the budget of the call under
 * way, if any (one device runs at a time in a fuzzer process). */
static FuzzBudget *alloc_budget;

#ifdef FUZZ_HAVE_ASAN
static void malloc_hook(const volatile void *ptr, size_t size)
{
    static bool in_hook;
    FuzzBudget *b = alloc_budget;

    (void)ptr;
    if (!b || b->paused || in_hook) {
        return;
    }
    in_hook = true;
    fuzz_budget_charge(b, FUZZ_ALLOCS, 1);
    fuzz_budget_charge(b, FUZZ_ALLOC_BYTES, size);
    in_hook = false;
}

static void free_hook(const volatile void *ptr)
{
    (void)ptr;
}

static void hooks_install(void)
{
    __sanitizer_install_malloc_and_free_hooks(malloc_hook, free_hook);
}
#else
static void hooks_install(void)
{
}
#endif

void fuzz_budget_init(FuzzBudget *b)
{
    static FuzzBudget limits;
    static gsize once;

    if (g_once_init_enter(&once)) {
        for (unsigned i = 0; i < FUZZ_NLIMITS; i++) {
            limits.max_call[i] = env_limit(fuzz_limits[i].env_call, fuzz_limits[i].per_call);
            limits.max_input[i] = env_limit(fuzz_limits[i].env_input, fuzz_limits[i].per_input);
        }
        hooks_install();
        g_once_init_leave(&once, 1);
    }
    *b = limits;
}

void fuzz_budget_call_begin(FuzzBudget *b, const char *entry)
{
    for (unsigned i = 0; i < FUZZ_NLIMITS; i++) {
        b->call[i] = 0;
    }
    b->entry = entry;
    alloc_budget = b;
}

void fuzz_budget_call_end(FuzzBudget *b)
{
    alloc_budget = NULL;
    b->entry = NULL;
}
