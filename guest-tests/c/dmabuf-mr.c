/*
 * A DMA-BUF memory region between two guests, through the verbs API.
 *
 * Node 0 exports 64 MiB of memfd pages as a DMA-BUF (the udmabuf driver
 * stands in for a GPU's exporter, the series' part 11) and registers it
 * with ibv_reg_dmabuf_mr; node 1 WRITEs 64 MiB into it over RC.  Node 0
 * checks the bytes through the exporter's own mapping (mmap of the
 * DMA-BUF) by SHA-256 against the writer's.  Then node 1 keeps writing
 * while node 0 deregisters the MR: node 1 must get a remote access error,
 * and no write may land after deregistration (node 0 fills the buffer
 * after ibv_dereg_mr returns and finds it unchanged at the end).
 *
 * Run in two guests (scripts/vm --nodes 2; the programs of guest-tests/c
 * are on PATH):  dmabuf-mr
 * Environment: NODE, PEER_IP, IBDEV, GID_INDEX (guest-tests/init);
 * DMABUF_KIB, the MR's size (default 65536: 64 MiB; lab 11 takes 16).
 * Each step is also said in the trace buffer (lab_mark) for lab 11.
 * Prints PASS/FAIL/SKIP lines; exit 1 on FAIL.
 * A device whose driver refuses the registration (mlx5_ib on Linux 6.12+
 * wants on-demand paging for a DMA-BUF MR it can be told to move) prints
 * SKIP with the errno, on both nodes; so does a kernel without udmabuf
 * (Debian's 6.1).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/udmabuf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lab.h"
#include "pair.h"

#define PORT 5410
#define CHUNK (1u << 20)            /* one WRITE, at most */
#define DEPTH 16                    /* WRITEs in flight */
#define MARK 0xa5                   /* what node 0 writes after deregistering */

/* --- node 0: the DMA-BUF's exporter and the MR's owner ---------------- */

/* 64 MiB of memfd pages as a DMA-BUF, and the exporter's mapping of it;
 * -1 if the kernel has no udmabuf (Debian's 6.1 is built without it). */
static int udmabuf_export(size_t size, uint8_t **map)
{
    struct udmabuf_create c = { .flags = UDMABUF_FLAGS_CLOEXEC, .size = size };
    int memfd = memfd_create("dmabuf-mr", MFD_ALLOW_SEALING);
    int dev = open("/dev/udmabuf", O_RDWR);
    int fd;

    if (dev < 0) {
        return -1;
    }
    if (memfd < 0 || ftruncate(memfd, (off_t)size) ||
        fcntl(memfd, F_ADD_SEALS, F_SEAL_SHRINK)) {
        die("memfd");
    }
    c.memfd = (uint32_t)memfd;
    fd = ioctl(dev, UDMABUF_CREATE, &c);
    if (fd < 0) {
        die("UDMABUF_CREATE");
    }
    *map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (*map == MAP_FAILED) {
        die("mmap of the DMA-BUF");
    }
    close(dev);
    return fd;
}

static bool all_mark(const uint8_t *p, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        if (p[i] != MARK) {
            say("FAIL dmabuf-mr dereg: byte %zu changed to 0x%02x after deregistration", i, p[i]);
            return false;
        }
    }
    return true;
}

static int run_owner(Rc *c, size_t size)
{
    char line[512], digest[65], mine[65];
    uint8_t *map;
    int fd = udmabuf_export(size, &map);
    struct ibv_mr *mr;
    bool ok = true;

    if (fd < 0) {
        say("SKIP dmabuf-mr: no /dev/udmabuf in this kernel (CONFIG_UDMABUF), no exporter");
        peer_send("skip no-udmabuf");
        return 0;
    }
    lab_mark("app: udmabuf exported %zu bytes of memfd pages as DMA-BUF fd %d; "
             "ibv_reg_dmabuf_mr on it", size, fd);
    memset(map, 0, size);
    mr = ibv_reg_dmabuf_mr(c->r->pd, 0, size, 0, fd, IBV_ACCESS_LOCAL_WRITE |
                           IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
    if (!mr) {
        int e = errno;

        say("SKIP dmabuf-mr: ibv_reg_dmabuf_mr on %s: %s (errno %d)",
            ibv_get_device_name(c->r->ctx->device), strerror(e), e);
        peer_send("skip %d", e);
        return 0;
    }
    lab_mark("app: DMA-BUF MR lkey 0x%x rkey 0x%x; QP 0x%x", mr->lkey, mr->rkey, c->qp->qp_num);
    peer_send("mr %u %zu", mr->rkey, size);
    rc_exchange(c, 0x1234);
    peer_send("ready");
    peer_recv(line, sizeof(line));
    if (sscanf(line, "written %64s", digest) != 1) {
        say("FAIL dmabuf-mr write: the writer says '%s'", line);
        return 1;
    }
    sha256_hex(map, size, mine);
    if (strcmp(mine, digest)) {
        say("FAIL dmabuf-mr write: SHA-256 through the exporter's mapping %s, the writer's %s",
            mine, digest);
        ok = false;
    } else {
        say("PASS dmabuf-mr write: %zu KiB written by the peer, SHA-256 %.16s... through the "
            "exporter's mapping", size >> 10, mine);
        lab_mark("app: the peer's bytes read through the exporter's mapping: SHA-256 matches");
    }
    /* The peer writes on; the MR goes away under it. */
    peer_send("keep-writing");
    peer_recv(line, sizeof(line));
    lab_mark("app: ibv_dereg_mr of the DMA-BUF MR while the peer writes");
    if (ibv_dereg_mr(mr)) {
        die("ibv_dereg_mr");
    }
    lab_mark("app: deregistered");
    memset(map, MARK, size);
    peer_send("deregistered");
    peer_recv(line, sizeof(line));
    ok = all_mark(map, size) && ok;
    if (!strncmp(line, "refused", 7)) {
        say("PASS dmabuf-mr dereg: %s; nothing landed after deregistration", line);
    } else {
        say("FAIL dmabuf-mr dereg: the writer says '%s'", line);
        ok = false;
    }
    munmap(map, size);
    close(fd);
    return ok ? 0 : 1;
}

/* --- node 1: the writer ------------------------------------------------ */

/* WRITEs of 4 KiB, one at a time, until one fails; how many succeeded
 * after `deregistered` arrived is reported. */
static void write_until_refused(Rc *c, struct ibv_mr *mr, uint32_t rkey, size_t size)
{
    char line[512];
    unsigned before = 0, after = 0;
    bool told = false;
    int st = IBV_WC_SUCCESS;

    for (unsigned i = 0; st == IBV_WC_SUCCESS && after < 100000; i++) {
        uint64_t id;

        if (rc_post(c, IBV_WR_RDMA_WRITE, mr, 0, 4096, (uint64_t)(i % (size / 4096)) * 4096,
                    rkey, i)) {
            die("ibv_post_send");
        }
        st = rc_poll(c, &id);
        if (st == IBV_WC_SUCCESS) {
            told ? after++ : before++;
        }
        if (before == 16 && !told) {
            peer_send("writing");
            peer_recv(line, sizeof(line));      /* "deregistered" */
            told = true;
        }
    }
    lab_mark("app: WRITE completed %s (%u WRITEs before deregistration, %u after)",
             wc_status(st), before, after);
    if (st == IBV_WC_REM_ACCESS_ERR && after == 0) {
        peer_send("refused: %u WRITEs before, the first after it %s", before, wc_status(st));
    } else {
        peer_send("not refused: %s after %u WRITEs (%u after deregistration)", wc_status(st),
                  before + after, after);
    }
}

static int run_writer(Rc *c, size_t size)
{
    char line[512], digest[65];
    uint32_t rkey;
    size_t len;
    uint8_t *buf = aligned_alloc(4096, size);
    struct ibv_mr *mr;
    int st;

    peer_recv(line, sizeof(line));
    if (!strncmp(line, "skip", 4)) {
        say("SKIP dmabuf-mr: the peer could not register its DMA-BUF (%s)", line);
        return 0;
    }
    if (!buf || sscanf(line, "mr %u %zu", &rkey, &len) != 2 || len != size) {
        die("peer said '%s'", line);
    }
    fill_pattern(buf, size, 0);
    mr = ibv_reg_mr(c->r->pd, buf, size, IBV_ACCESS_LOCAL_WRITE);
    if (!mr) {
        die("ibv_reg_mr");
    }
    rc_exchange(c, 0x1234);
    peer_recv(line, sizeof(line));                      /* "ready" */
    lab_mark("app: QP 0x%x: RDMA WRITE %zu bytes into the peer's DMA-BUF MR (rkey 0x%x)",
             c->qp->qp_num, size, rkey);
    st = rc_write_all(c, mr, size, 0, rkey, size < CHUNK ? (uint32_t)size : CHUNK, DEPTH);
    if (st != IBV_WC_SUCCESS) {
        peer_send("failed %s", wc_status(st));
        say("FAIL dmabuf-mr write: %s", wc_status(st));
        return 1;
    }
    sha256_hex(buf, size, digest);
    peer_send("written %s", digest);
    peer_recv(line, sizeof(line));                      /* "keep-writing" */
    write_until_refused(c, mr, rkey, size);
    say("dmabuf-mr: writer done (node 0 reports)");
    return 0;
}

int main(void)
{
    const char *env_node = getenv("NODE"), *peer = getenv("PEER_IP");
    size_t size = (size_t)(getenv("DMABUF_KIB") ? atoi(getenv("DMABUF_KIB")) : 65536) << 10;
    Rdma r = { 0 };
    Rc c;

    pair_prog = "dmabuf-mr";
    pair_node = env_node ? atoi(env_node) : 0;
    if (!peer || size == 0 || size % 4096 || (size > CHUNK && size % CHUNK)) {
        die("needs NODE, PEER_IP (scripts/vm --nodes 2) and DMABUF_KIB whole pages, whole MiB "
            "above 1 MiB");
    }
    rdma_open(&r);
    rc_create(&c, &r, 2 * DEPTH);
    peer_connect(peer, PORT);
    return pair_node == 0 ? run_owner(&c, size) : run_writer(&c, size);
}
