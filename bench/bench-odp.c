/*
 * Benchmark of the responder's page checks while the device pages
 * (scripts/bench odp): what the probes for absent pages cost an RDMA
 * WRITE whose pages are all there.  While cmd_hca_cap.pg is set, a WRITE's
 * first packet probes the whole target and each later packet probes its
 * own bytes again before placing them (rc-responder.c check_rdma_pages,
 * check_write_later_pages: the kernel may take a page back between two
 * packets), so each later packet walks its key twice.  The baseline is
 * the same WRITE through the same MTT key on a device that does not page.
 * It measures and prints; it asserts nothing about speed, but exits
 * non-zero if a WRITE did not land.
 *
 * a's packets are made first (one doorbell: rc-env's window, 512
 * packets); then b receives them through the platform's entry point
 * (mlx5_dev_receive), and only that is timed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "harness-dev.h"
#include "rc-env.h"

#define VA 0x7000000ull             /* where the MTT key's addresses start */

enum { PAGES = 128, LEN = PAGES * PAGE, REPS = 100 };

typedef enum { KEY_MTT, KEY_MTT_PAGED, KEY_PA } KeyKind;

/* An MTT key over B_BUF's first PAGES pages, all present. */
static uint32_t target_key(Harness *h, bool pg_access)
{
    uint64_t pages[PAGES];

    for (unsigned i = 0; i < PAGES; i++) {
        pages[i] = (B_BUF + (uint64_t)i * PAGE) | MLX5_MTT_RD_EN | MLX5_MTT_WR_EN;
    }
    return mtt_key_of(h, VA, pages, PAGES, pg_access);
}

/* One WRITE of LEN bytes into B_BUF through a key of `kind`: the time b
 * took to receive its packets (*packets of them); false if it did not
 * land. */
static bool timed_write(KeyKind kind, int64_t *ns, unsigned *packets)
{
    g_autoptr(RcEnv) e = env_new(1000);
    Harness *h = e->h;
    bool paging = kind == KEY_MTT_PAGED;
    uint32_t rkey = e->key;
    unsigned n;

    PRM_SET(cmd_hca_cap, pg, MLX5_CAP_CUR(h->fw, MLX5_CAP_GENERAL), paging);
    if (kind != KEY_PA) {
        rkey = target_key(h, paging);
    }
    fill(e, LEN);
    memset(h_gpa(h, B_BUF), 0, LEN);
    post_send_rkey(e, MLX5_OPCODE_RDMA_WRITE, LEN, kind == KEY_PA ? B_BUF : VA, rkey);
    n = h->frames->len;         /* b's ACKs go after them */
    for (unsigned i = 0; i < n; i++) {
        GBytes *f = g_ptr_array_index(h->frames, i);
        int64_t t0 = bench_now_ns();

        mlx5_dev_receive(h->dev, g_bytes_get_data(f, NULL), g_bytes_get_size(f));
        *ns += bench_now_ns() - t0;
    }
    *packets += n;
    return n * 1024u == LEN && memcmp(h_gpa(h, B_BUF), h_gpa(h, A_BUF), LEN) == 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

int main(void)
{
    static const struct {
        KeyKind kind;
        const char *what;
    } rows[] = {
        { KEY_MTT, "MTT key, device not paging (baseline)" },
        { KEY_MTT_PAGED, "MTT key with pg_access, device paging" },
        { KEY_PA, "PA key over all RAM, device not paging" },
    };
    static double per_rep[G_N_ELEMENTS(rows)][REPS];
    double ns[G_N_ELEMENTS(rows)];

    /* The rows take turns, so that the host's load falls on each alike;
     * each row's figure is the median of its repetitions. */
    for (unsigned r = 0; r < REPS; r++) {
        for (unsigned i = 0; i < G_N_ELEMENTS(rows); i++) {
            int64_t sum = 0;
            unsigned packets = 0;

            if (!timed_write(rows[i].kind, &sum, &packets)) {
                fprintf(stderr, "bench-odp: the WRITE through \"%s\" did not land\n",
                        rows[i].what);
                return 1;
            }
            per_rep[i][r] = (double)sum / packets;
        }
    }
    for (unsigned i = 0; i < G_N_ELEMENTS(rows); i++) {
        qsort(per_rep[i], REPS, sizeof(double), cmp_double);
        ns[i] = per_rep[i][REPS / 2];
    }
    printf("responder: an RDMA WRITE of %u KiB (%u packets of 1 KiB), %u repetitions;\n"
           "  the time b takes to receive each packet, all pages present (median)\n",
           LEN / 1024, LEN / 1024, REPS);
    printf("  %-45s %10s %9s\n", "target key", "ns/packet", "vs base");
    for (unsigned i = 0; i < G_N_ELEMENTS(rows); i++) {
        printf("  %-45s %10.0f %8.2fx\n", rows[i].what, ns[i], ns[i] / ns[0]);
    }
    return 0;
}
