/*
 * On-demand paging between two guests, through the verbs API.
 *
 * Node 0 registers memory it has never touched with IBV_ACCESS_ON_DEMAND;
 * node 1 WRITEs into it over RC.  No page is pinned or mapped for the
 * device beforehand: each WRITE that reaches a page the device has no
 * translation for raises a page fault, which mlx5_ib resolves (it maps
 * the pages and writes them into the key through its UMR QP) while the
 * peer waits behind RNR NAKs (docs/odp-driver-map.md).  Shown:
 *   explicit  an ODP MR over 256 MiB of untouched anonymous memory is
 *             written by the peer and checked by SHA-256; the faults are
 *             counted (mlx5_ib counts them per MR, not per port:
 *             `rdma statistic mr`); then madvise(MADV_DONTNEED) takes the
 *             pages away (mlx5_ib zaps the translation through UMR: an
 *             invalidation counted) and the peer writes again: new
 *             faults, new bytes, checked;
 *   implicit  the same through an implicit ODP MR (the whole address
 *             space, ibv_reg_mr(NULL, SIZE_MAX)), a fresh 256 MiB region;
 *   storm     while one QP WRITEs 4 KiB into each page of 16 MiB never
 *             touched (a fault each), another QP of the same two guests
 *             keeps doing RDMA READs: they all complete while the storm
 *             is still faulting - a fault stalls its QP, not the device.
 *
 * Run in two guests (scripts/vm --nodes 2; the programs of guest-tests/c
 * are on PATH):  odp-mr
 * Environment: NODE, PEER_IP, IBDEV, GID_INDEX (guest-tests/init);
 * ODP_MIB (default 256), STORM_MIB (default 16).  Prints PASS/FAIL/SKIP
 * lines; exit 1 on FAIL.  A device or kernel without ODP (or without
 * implicit ODP) prints SKIP for what it lacks.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "pair.h"

#define PORT 5411
#define CHUNK (1u << 20)            /* one WRITE of a phase */
#define DEPTH 16                    /* WRITEs in flight */
#define PAGE 4096u
#define READS 200                   /* the storm's bystander: READs on another QP */
#define ODP_ACCESS (IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | \
                    IBV_ACCESS_REMOTE_READ | IBV_ACCESS_ON_DEMAND)

/* A counter mlx5_ib keeps on every ODP MR (restrack.c fill_stat_mr_entry:
 * page_faults, page_invalidations, ...), summed over this node's MRs,
 * through iproute2's `rdma statistic mr`; -1 if nothing says. */
static long mr_counter(const char *name)
{
    FILE *p = popen("rdma statistic mr 2>/dev/null", "r");
    char tok[128];
    long sum = -1;

    if (!p) {
        return -1;
    }
    while (fscanf(p, "%127s", tok) == 1) {
        long n;

        if (!strcmp(tok, name) && fscanf(p, "%ld", &n) == 1) {
            sum = (sum < 0 ? 0 : sum) + n;
        }
    }
    pclose(p);
    return sum;
}

static uint8_t *untouched(size_t size)
{
    uint8_t *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

    if (p == MAP_FAILED) {
        die("mmap %zu MiB", size >> 20);
    }
    return p;
}

static bool all_zero(const uint8_t *p, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        if (p[i]) {
            return false;
        }
    }
    return true;
}

/* --- node 0: the memory's owner ------------------------------------------ */

/* One round of a phase: the peer's WRITEs have landed (or not); check. */
static bool check_round(const char *name, int round, const uint8_t *buf, size_t size,
                        long *faults)
{
    char line[512], digest[65], mine[65];
    long now;

    peer_recv(line, sizeof(line));
    if (sscanf(line, "written %64s", digest) != 1) {
        say("FAIL odp-mr %s round %d: the writer says '%s'", name, round, line);
        return false;
    }
    sha256_hex(buf, size, mine);
    now = mr_counter("page_faults");
    if (strcmp(mine, digest)) {
        say("FAIL odp-mr %s round %d: SHA-256 %s here, the writer's %s", name, round, mine,
            digest);
        return false;
    }
    if (now < 0 || now <= *faults) {
        say("FAIL odp-mr %s round %d: bytes right but no page faults counted (rdma statistic mr: "
            "%ld, before %ld)", name, round, now, *faults);
        return false;
    }
    say("PASS odp-mr %s round %d: %zu MiB written by the peer into pages never mapped for the "
        "device, SHA-256 %.16s...; %ld page faults", name, round, size >> 20, mine, now - *faults);
    *faults = now;
    return true;
}

/* A phase: `mr` (NULL: an explicit ODP MR over the region) is the key the
 * peer writes a fresh untouched region through, twice - MADV_DONTNEED in
 * between. */
static bool owner_phase(Rc *c, const char *name, struct ibv_mr *mr, size_t size)
{
    uint8_t *buf = untouched(size);
    struct ibv_mr *own = mr ? NULL : ibv_reg_mr(c->r->pd, buf, size, ODP_ACCESS);
    long faults = mr_counter("page_faults"), inval;
    bool ok;

    if (!mr && !own) {
        die("ibv_reg_mr with IBV_ACCESS_ON_DEMAND over %zu MiB", size >> 20);
    }
    peer_send("target %s %lx %u %zu", name, (unsigned long)buf, (mr ? mr : own)->rkey, size);
    ok = check_round(name, 1, buf, size, &faults);
    if (madvise(buf, size, MADV_DONTNEED)) {
        die("madvise(MADV_DONTNEED)");
    }
    /* An implicit MR's invalidations are its children's, which have no
     * counters of their own to show (odp.c mlx5_ib_invalidate_range). */
    inval = mr_counter("page_invalidations");
    if (!all_zero(buf, size) || (own && inval <= 0)) {
        say("FAIL odp-mr %s: MADV_DONTNEED took %s, %ld invalidations counted", name,
            all_zero(buf, size) ? "the pages" : "not all pages", inval);
        ok = false;
    } else if (own) {
        say("odp-mr %s: MADV_DONTNEED: %ld page invalidations", name, inval);
    }
    peer_send("again");
    ok = check_round(name, 2, buf, size, &faults) && ok;
    if (own && ibv_dereg_mr(own)) {
        die("ibv_dereg_mr");
    }
    munmap(buf, size);
    return ok;
}

/* The storm: 4 KiB into each page of `size` untouched bytes through the
 * implicit MR on the peer's first QP, READs of `bystander` on its second. */
static bool owner_storm(Rc *c2, struct ibv_mr *imr, size_t size)
{
    char line[512], mine[65];
    uint8_t *storm = untouched(size);
    uint8_t *src = aligned_alloc(PAGE, PAGE);
    struct ibv_mr *bystander;
    bool ok;

    fill_pattern(src, PAGE, 7);
    bystander = ibv_reg_mr(c2->r->pd, src, PAGE, IBV_ACCESS_REMOTE_READ);
    if (!bystander) {
        die("ibv_reg_mr");
    }
    peer_send("storm %lx %u %zu %lx %u", (unsigned long)storm, imr->rkey, size,
              (unsigned long)src, bystander->rkey);
    peer_recv(line, sizeof(line));
    ok = !strncmp(line, "stormed", 7);
    say("%s odp-mr storm: %s", ok ? "PASS" : "FAIL", line + (ok ? 8 : 0));
    peer_recv(line, sizeof(line));                      /* "digest <hex>" */
    sha256_hex(storm, size, mine);
    if (strncmp(line, "digest ", 7) || strcmp(line + 7, mine)) {
        say("FAIL odp-mr storm: the stormed pages' SHA-256 %s here, the writer says '%s'",
            mine, line);
        ok = false;
    }
    ibv_dereg_mr(bystander);
    munmap(storm, size);
    return ok;
}

static int run_owner(Rc *c1, Rc *c2, size_t size, size_t storm)
{
    struct ibv_device_attr_ex da;
    struct ibv_mr *imr;
    bool ok;

    if (ibv_query_device_ex(c1->r->ctx, NULL, &da) ||
        !(da.odp_caps.general_caps & IBV_ODP_SUPPORT) ||
        !(da.odp_caps.per_transport_caps.rc_odp_caps & IBV_ODP_SUPPORT_WRITE)) {
        say("SKIP odp-mr: %s offers no on-demand paging for RC WRITEs",
            ibv_get_device_name(c1->r->ctx->device));
        peer_send("done");
        return 0;
    }
    ok = owner_phase(c1, "explicit", NULL, size);
    if (!(da.odp_caps.general_caps & IBV_ODP_SUPPORT_IMPLICIT)) {
        say("SKIP odp-mr implicit, storm: %s offers no implicit ODP",
            ibv_get_device_name(c1->r->ctx->device));
        peer_send("done");
        return ok ? 0 : 1;
    }
    imr = ibv_reg_mr(c1->r->pd, NULL, SIZE_MAX, ODP_ACCESS);
    if (!imr) {
        die("implicit ODP MR (ibv_reg_mr(NULL, SIZE_MAX))");
    }
    ok = owner_phase(c1, "implicit", imr, size) && ok;
    ok = owner_storm(c2, imr, storm) && ok;
    peer_send("done");
    ibv_dereg_mr(imr);
    return ok ? 0 : 1;
}

/* --- node 1: the writer ---------------------------------------------------- */

static void writer_phase(Rc *c, struct ibv_mr *mr, const char *args)
{
    char name[32], line[512], digest[65];
    unsigned long addr;
    uint32_t rkey;
    size_t size;

    if (sscanf(args, "%31s %lx %u %zu", name, &addr, &rkey, &size) != 4 ||
        size > mr->length || size % CHUNK) {
        die("target '%s'", args);
    }
    for (int round = 1; round <= 2; round++) {
        int st;

        fill_pattern(mr->addr, size, (uint32_t)(round * 1000 + name[0]));
        st = rc_write_all(c, mr, size, addr, rkey, CHUNK, DEPTH);
        if (st != IBV_WC_SUCCESS) {
            peer_send("failed %s", wc_status(st));
        } else {
            sha256_hex(mr->addr, size, digest);
            peer_send("written %s", digest);
        }
        if (round == 1) {
            peer_recv(line, sizeof(line));              /* "again" */
        }
    }
}

typedef struct Storm {
    Rc *c1, *c2;
    struct ibv_mr *mr;              /* the writer's pages (and READ landing) */
    unsigned long addr, raddr;
    uint32_t rkey, rrkey;
    size_t pages;
} Storm;

/* The storm's WRITEs on c1, DEPTH in flight, and READS READs on c2 one
 * after the other; how many WRITEs had completed when the last READ did. */
static bool storm_run(Storm *s, char *report, size_t rsize)
{
    size_t posted = 0, done = 0, done_at_reads = 0;
    unsigned reads = 0;
    bool reading = false;
    double t0 = now_s(), rt = 0, worst = 0, until = t0 + 600;
    struct ibv_wc wc;

    while (done < s->pages && now_s() < until) {
        while (posted < s->pages && posted - done < DEPTH) {
            if (rc_post(s->c1, IBV_WR_RDMA_WRITE, s->mr, posted * PAGE, PAGE,
                        s->addr + posted * PAGE, s->rkey, posted)) {
                die("ibv_post_send (storm)");
            }
            posted++;
        }
        if (reads < READS && !reading) {
            if (rc_post(s->c2, IBV_WR_RDMA_READ, s->mr, s->pages * PAGE, PAGE, s->raddr,
                        s->rrkey, reads)) {
                die("ibv_post_send (READ)");
            }
            reading = true;
            rt = now_s();
        }
        if (ibv_poll_cq(s->c2->cq, 1, &wc) == 1) {
            if (wc.status != IBV_WC_SUCCESS) {
                snprintf(report, rsize, "READ %u on the other QP: %s", reads,
                         ibv_wc_status_str(wc.status));
                return false;
            }
            worst = now_s() - rt > worst ? now_s() - rt : worst;
            reading = false;
            if (++reads == READS) {
                done_at_reads = done;
            }
        }
        if (ibv_poll_cq(s->c1->cq, 1, &wc) == 1) {
            if (wc.status != IBV_WC_SUCCESS) {
                snprintf(report, rsize, "storm WRITE %zu: %s", done,
                         ibv_wc_status_str(wc.status));
                return false;
            }
            done++;
        }
    }
    if (done < s->pages || reads < READS) {
        snprintf(report, rsize, "not done in 600 s: %zu of %zu WRITEs, %u of %u READs", done,
                 s->pages, reads, READS);
        return false;
    }
    snprintf(report, rsize, "%u READs on a second QP done (slowest %.1f ms) while %zu of %zu "
             "faulting 4 KiB WRITEs of the first were still to complete; the storm took %.1f s",
             READS, worst * 1e3, s->pages - done_at_reads, s->pages, now_s() - t0);
    return done_at_reads < s->pages;
}

static void writer_storm(Rc *c1, Rc *c2, struct ibv_mr *mr, const char *args)
{
    Storm s = { .c1 = c1, .c2 = c2, .mr = mr };
    char report[400], digest[65];
    size_t size;

    if (sscanf(args, "%lx %u %zu %lx %u", &s.addr, &s.rkey, &size, &s.raddr, &s.rrkey) != 5 ||
        size % PAGE || size + PAGE > mr->length) {
        die("storm '%s'", args);
    }
    s.pages = size / PAGE;
    fill_pattern(mr->addr, size, 4242);
    if (storm_run(&s, report, sizeof(report))) {
        peer_send("stormed %s", report);
    } else {
        peer_send("storm failed: %s", report);
    }
    sha256_hex(mr->addr, size, digest);
    peer_send("digest %s", digest);
}

static int run_writer(Rc *c1, Rc *c2, size_t size)
{
    char line[512];
    uint8_t *buf = aligned_alloc(PAGE, size + PAGE);
    struct ibv_mr *mr = buf ? ibv_reg_mr(c1->r->pd, buf, size + PAGE,
                                         IBV_ACCESS_LOCAL_WRITE) : NULL;

    if (!mr) {
        die("ibv_reg_mr of %zu MiB", size >> 20);
    }
    for (;;) {
        peer_recv(line, sizeof(line));
        if (!strncmp(line, "target ", 7)) {
            writer_phase(c1, mr, line + 7);
        } else if (!strncmp(line, "storm ", 6)) {
            writer_storm(c1, c2, mr, line + 6);
        } else if (!strcmp(line, "done")) {
            say("odp-mr: writer done (node 0 reports)");
            return 0;
        } else {
            die("the owner said '%s'", line);
        }
    }
}

int main(void)
{
    const char *env_node = getenv("NODE"), *peer = getenv("PEER_IP");
    size_t size = (size_t)(getenv("ODP_MIB") ? atoi(getenv("ODP_MIB")) : 256) << 20;
    size_t storm = (size_t)(getenv("STORM_MIB") ? atoi(getenv("STORM_MIB")) : 16) << 20;
    Rdma r = { 0 };
    Rc c1, c2;

    pair_prog = "odp-mr";
    pair_node = env_node ? atoi(env_node) : 0;
    if (!peer || size == 0 || size % CHUNK || storm == 0 || storm > size) {
        die("needs NODE, PEER_IP (scripts/vm --nodes 2); ODP_MIB whole MiB, STORM_MIB <= it");
    }
    rdma_open(&r);
    rc_create(&c1, &r, 2 * DEPTH);
    rc_create(&c2, &r, 4);
    peer_connect(peer, PORT);
    rc_exchange(&c1, 0x2345);
    rc_exchange(&c2, 0x3456);
    return pair_node == 0 ? run_owner(&c1, &c2, size, storm) : run_writer(&c1, &c2, size);
}
