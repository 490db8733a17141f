/*
 * The fuzzers' inputs as unit tests: every file of fuzz/corpus/<target>/
 * runs through its target (one subprocess per target: all must pass),
 * and every finding of fuzz/findings/<target>/ runs alone as a known bug,
 * named by its line in fuzz/findings/README, until the core is fixed
 * (then it passes, and its line and file may go).  $MLX5EMU_FUZZ_DIR is
 * the source tree's fuzz/ (meson sets it).
 *
 * `fuzz-replay --run TARGET FILE...` runs inputs by hand (e.g. under gdb).
 */
#include <string.h>

#include "targets.h"

typedef struct Replay {
    const FuzzTarget *t;
    char *path;                 /* a directory (the corpus) or a file */
    char *bug;                  /* a finding: what it is */
} Replay;

static void run_file(const FuzzTarget *t, const char *path)
{
    g_autofree char *data = NULL;
    gsize len;

    g_assert_true(g_file_get_contents(path, &data, &len, NULL));
    if (g_test_verbose()) {
        g_test_message("%s %s (%zu bytes)", t->name, path, (size_t)len);
    }
    fuzz_target_run(t, (const uint8_t *)data, len, NULL);
}

static void replay_corpus(gconstpointer p)
{
    const Replay *r = p;
    g_autoptr(GDir) dir = g_dir_open(r->path, 0, NULL);
    g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
    const char *name;

    while (dir && (name = g_dir_read_name(dir))) {
        g_ptr_array_add(names, g_build_filename(r->path, name, NULL));
    }
    g_ptr_array_sort(names, (GCompareFunc)g_strcmp0);
    for (guint i = 0; i < names->len; i++) {
        run_file(r->t, g_ptr_array_index(names, i));
    }
}

static void replay_finding(gconstpointer p)
{
    const Replay *r = p;

    run_file(r->t, r->path);
}

/* Every test's Replay, for as long as the tests run (a subprocess ends
 * inside g_test_run: the array keeps them reachable for LeakSanitizer). */
static GPtrArray *replays;

static void replay_free(gpointer p)
{
    Replay *r = p;

    g_free(r->path);
    g_free(r->bug);
    g_free(r);
}

static Replay *replay_new(const FuzzTarget *t, char *path)
{
    Replay *r = g_new0(Replay, 1);

    r->t = t;
    r->path = path;
    g_ptr_array_add(replays, r);
    return r;
}

/* fuzz/findings/README: "<target>/<file>  <what it is>" per finding. */
static void add_findings(const char *fuzz_dir)
{
    g_autofree char *readme = g_build_filename(fuzz_dir, "findings", "README", NULL);
    g_autofree char *text = NULL;
    g_auto(GStrv) lines = NULL;

    if (!g_file_get_contents(readme, &text, NULL, NULL)) {
        return;
    }
    lines = g_strsplit(text, "\n", -1);
    for (char **l = lines; *l; l++) {
        g_auto(GStrv) f = g_strsplit_set(*l, " \t", 2);
        g_auto(GStrv) tn = NULL;
        const FuzzTarget *t;
        g_autofree char *test = NULL;
        Replay *r;

        if (**l == '#' || !f[0] || !f[1] || !strchr(f[0], '/')) {
            continue;
        }
        tn = g_strsplit(f[0], "/", 2);
        t = fuzz_target_find(tn[0]);
        g_assert_nonnull(t);
        test = g_strdup_printf("/replay/%s/finding/%s", tn[0], tn[1]);
        r = replay_new(t, g_build_filename(fuzz_dir, "findings", f[0], NULL));
        r->bug = g_strdup(g_strstrip(f[1]));
        h_add_known_bug_data(test, replay_finding, r, 120, r->bug);
    }
}

int main(int argc, char **argv)
{
    const char *fuzz_dir = g_getenv("MLX5EMU_FUZZ_DIR");
    int rc;

    fuzz_ram_audit_each();
    if (argc >= 4 && strcmp(argv[1], "--run") == 0) {      /* --run TARGET FILE... */
        const FuzzTarget *t = fuzz_target_find(argv[2]);

        g_assert_nonnull(t);
        for (int i = 3; i < argc; i++) {
            run_file(t, argv[i]);
        }
        return 0;
    }
    g_test_init(&argc, &argv, NULL);
    if (!fuzz_dir) {
        g_printerr("MLX5EMU_FUZZ_DIR: the source tree's fuzz/ directory\n");
        return 1;
    }
    replays = g_ptr_array_new_with_free_func(replay_free);
    for (unsigned i = 0; i < fuzz_ntargets; i++) {
        const FuzzTarget *t = &fuzz_targets[i];
        g_autofree char *test = g_strdup_printf("/replay/%s/corpus", t->name);

        h_add_isolated_data(test, replay_corpus,
                            replay_new(t, g_build_filename(fuzz_dir, "corpus", t->name, NULL)),
                            600);
    }
    add_findings(fuzz_dir);
    rc = g_test_run();
    g_ptr_array_unref(replays);
    return rc;
}
