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
 * Environment: NODE, MY_IP, PEER_IP, IBDEV, GID_INDEX (guest-tests/init);
 * DMABUF_MIB (default 64).  Prints PASS/FAIL/SKIP lines; exit 1 on FAIL.
 * A device whose driver refuses the registration (mlx5_ib on Linux 6.12+
 * wants on-demand paging for a DMA-BUF MR it can be told to move) prints
 * SKIP with the errno, on both nodes; so does a kernel without udmabuf
 * (Debian's 6.1).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/udmabuf.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <infiniband/verbs.h>

#define PORT 5410
#define CHUNK (1u << 20)            /* one WRITE */
#define DEPTH 16                    /* WRITEs in flight */
#define POLL_S 30                   /* deadline for any one completion */
#define MARK 0xa5                   /* what node 0 writes after deregistering */

static int node;

static void say(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
}

static void die(const char *fmt, ...)
{
    va_list ap;

    printf("FAIL dmabuf-mr (node %d): ", node);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("%s%s\n", errno ? ": " : "", errno ? strerror(errno) : "");
    exit(1);
}

/* --- SHA-256 (FIPS 180-4) -------------------------------------------- */

typedef struct Sha256 {
    uint32_t h[8];
} Sha256;

static const uint32_t sha_k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
    0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
    0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
    0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
    0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
    0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
    0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
    0xc67178f2,
};

static uint32_t ror(uint32_t x, unsigned n)
{
    return x >> n | x << (32 - n);
}

static void sha256_block(Sha256 *s, const uint8_t *p)
{
    uint32_t w[64], v[8];

    for (int i = 0; i < 16; i++) {
        w[i] = (uint32_t)p[4 * i] << 24 | p[4 * i + 1] << 16 | p[4 * i + 2] << 8 | p[4 * i + 3];
    }
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ w[i - 15] >> 3;
        uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ w[i - 2] >> 10;

        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    memcpy(v, s->h, sizeof(v));
    for (int i = 0; i < 64; i++) {
        uint32_t t1 = v[7] + (ror(v[4], 6) ^ ror(v[4], 11) ^ ror(v[4], 25)) +
                      ((v[4] & v[5]) ^ (~v[4] & v[6])) + sha_k[i] + w[i];
        uint32_t t2 = (ror(v[0], 2) ^ ror(v[0], 13) ^ ror(v[0], 22)) +
                      ((v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]));

        memmove(v + 1, v, 7 * sizeof(v[0]));
        v[4] += t1;
        v[0] = t1 + t2;
    }
    for (int i = 0; i < 8; i++) {
        s->h[i] += v[i];
    }
}

/* The digest of `len` bytes, as 64 hex digits. */
static void sha256_hex(const uint8_t *p, size_t len, char out[65])
{
    Sha256 s = { { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c,
                   0x1f83d9ab, 0x5be0cd19 } };
    uint8_t tail[128] = { 0 };
    size_t rest = len % 64, n = rest < 56 ? 64 : 128;
    uint64_t bits = (uint64_t)len * 8;

    for (size_t i = 0; i + 64 <= len; i += 64) {
        sha256_block(&s, p + i);
    }
    memcpy(tail, p + len - rest, rest);
    tail[rest] = 0x80;
    for (int i = 0; i < 8; i++) {
        tail[n - 1 - i] = (uint8_t)(bits >> (8 * i));
    }
    for (size_t i = 0; i < n; i += 64) {
        sha256_block(&s, tail + i);
    }
    for (int i = 0; i < 8; i++) {
        sprintf(out + 8 * i, "%08x", s.h[i]);
    }
}

/* --- the two guests agree over TCP: one line per message ------------ */

static int peer_fd = -1;

static void peer_connect(const char *peer_ip)
{
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(PORT) };
    int one = 1;

    if (node == 0) {
        int l = socket(AF_INET, SOCK_STREAM, 0);

        setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
        a.sin_addr.s_addr = htonl(INADDR_ANY);
        if (bind(l, (struct sockaddr *)&a, sizeof(a)) || listen(l, 1)) {
            die("listen on port %d", PORT);
        }
        peer_fd = accept(l, NULL, NULL);
        close(l);
    } else {
        inet_pton(AF_INET, peer_ip, &a.sin_addr);
        for (int i = 0; i < 300; i++) {
            peer_fd = socket(AF_INET, SOCK_STREAM, 0);
            if (connect(peer_fd, (struct sockaddr *)&a, sizeof(a)) == 0) {
                break;
            }
            close(peer_fd);
            peer_fd = -1;
            usleep(100000);
        }
    }
    if (peer_fd < 0) {
        die("no connection to the peer");
    }
    setsockopt(peer_fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

static void peer_send(const char *fmt, ...)
{
    char line[512];
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
    va_end(ap);
    line[n++] = '\n';
    if (write(peer_fd, line, (size_t)n) != n) {
        die("send to the peer");
    }
}

/* The next line from the peer (without its newline). */
static void peer_recv(char *line, size_t size)
{
    size_t n = 0;

    while (n + 1 < size) {
        char c;

        if (read(peer_fd, &c, 1) != 1) {
            die("the peer went away");
        }
        if (c == '\n') {
            break;
        }
        line[n++] = c;
    }
    line[n] = 0;
}

/* --- verbs ------------------------------------------------------------ */

typedef struct Rdma {
    struct ibv_context *ctx;
    struct ibv_pd *pd;
    struct ibv_cq *cq;
    struct ibv_qp *qp;
    union ibv_gid gid;
    int gid_index;
} Rdma;

static void rdma_open(Rdma *r, const char *ibdev)
{
    struct ibv_device **list = ibv_get_device_list(NULL);
    struct ibv_qp_init_attr qia = { 0 };

    for (int i = 0; list && list[i]; i++) {
        if (!strcmp(ibv_get_device_name(list[i]), ibdev)) {
            r->ctx = ibv_open_device(list[i]);
        }
    }
    if (!r->ctx) {
        die("cannot open %s", ibdev);
    }
    ibv_free_device_list(list);
    r->pd = ibv_alloc_pd(r->ctx);
    r->cq = ibv_create_cq(r->ctx, 2 * DEPTH, NULL, NULL, 0);
    qia.send_cq = qia.recv_cq = r->cq;
    qia.qp_type = IBV_QPT_RC;
    qia.cap = (struct ibv_qp_cap) { .max_send_wr = 2 * DEPTH, .max_recv_wr = 1,
                                    .max_send_sge = 1, .max_recv_sge = 1 };
    r->qp = r->pd && r->cq ? ibv_create_qp(r->pd, &qia) : NULL;
    if (!r->qp || ibv_query_gid(r->ctx, 1, r->gid_index, &r->gid)) {
        die("verbs set-up");
    }
}

/* RESET -> INIT -> RTR -> RTS towards the peer's QPN and GID. */
static void rdma_connect(Rdma *r, uint32_t qpn, const union ibv_gid *gid, uint32_t psn)
{
    struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT, .port_num = 1,
                             .qp_access_flags = IBV_ACCESS_REMOTE_WRITE };

    if (ibv_modify_qp(r->qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
                      IBV_QP_ACCESS_FLAGS)) {
        die("modify QP to INIT");
    }
    memset(&a, 0, sizeof(a));
    a.qp_state = IBV_QPS_RTR;
    a.path_mtu = IBV_MTU_1024;
    a.dest_qp_num = qpn;
    a.rq_psn = psn;
    a.max_dest_rd_atomic = 1;
    a.min_rnr_timer = 12;
    a.ah_attr.is_global = 1;
    a.ah_attr.grh.dgid = *gid;
    a.ah_attr.grh.sgid_index = (uint8_t)r->gid_index;
    a.ah_attr.grh.hop_limit = 64;
    a.ah_attr.port_num = 1;
    if (ibv_modify_qp(r->qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
                      IBV_QP_DEST_QPN | IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC |
                      IBV_QP_MIN_RNR_TIMER)) {
        die("modify QP to RTR");
    }
    a.qp_state = IBV_QPS_RTS;
    a.sq_psn = psn;
    a.timeout = 14;
    a.retry_cnt = 7;
    a.rnr_retry = 7;
    a.max_rd_atomic = 1;
    if (ibv_modify_qp(r->qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_TIMEOUT |
                      IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC)) {
        die("modify QP to RTS");
    }
}

static void gid_hex(const union ibv_gid *g, char out[33])
{
    for (int i = 0; i < 16; i++) {
        sprintf(out + 2 * i, "%02x", g->raw[i]);
    }
}

static void gid_parse(const char *hex, union ibv_gid *g)
{
    for (int i = 0; i < 16; i++) {
        unsigned b;

        sscanf(hex + 2 * i, "%2x", &b);
        g->raw[i] = (uint8_t)b;
    }
}

static double now_s(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* One completion within POLL_S: its status, or -1 if none came. */
static int poll_one(Rdma *r, uint64_t *wr_id)
{
    double until = now_s() + POLL_S;
    struct ibv_wc wc;

    while (now_s() < until) {
        int n = ibv_poll_cq(r->cq, 1, &wc);

        if (n < 0) {
            die("poll CQ");
        }
        if (n == 1) {
            *wr_id = wc.wr_id;
            return wc.status;
        }
    }
    return -1;
}

static int post_write(Rdma *r, struct ibv_mr *mr, uint64_t off, uint32_t len, uint64_t raddr,
                      uint32_t rkey, uint64_t wr_id)
{
    struct ibv_sge sge = { .addr = (uintptr_t)mr->addr + off, .length = len, .lkey = mr->lkey };
    struct ibv_send_wr wr = { .wr_id = wr_id, .sg_list = &sge, .num_sge = 1,
                              .opcode = IBV_WR_RDMA_WRITE, .send_flags = IBV_SEND_SIGNALED };
    struct ibv_send_wr *bad;

    wr.wr.rdma.remote_addr = raddr;
    wr.wr.rdma.rkey = rkey;
    return ibv_post_send(r->qp, &wr, &bad);
}

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

static int run_owner(Rdma *r, size_t size)
{
    char line[512], gid[33], digest[65];
    uint8_t *map;
    int fd = udmabuf_export(size, &map);
    struct ibv_mr *mr;
    uint32_t qpn, psn = 0x1234;
    bool ok = true;

    if (fd < 0) {
        say("SKIP dmabuf-mr: no /dev/udmabuf in this kernel (CONFIG_UDMABUF), no exporter");
        peer_send("skip no-udmabuf");
        return 0;
    }
    memset(map, 0, size);
    mr = ibv_reg_dmabuf_mr(r->pd, 0, size, 0, fd, IBV_ACCESS_LOCAL_WRITE |
                           IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
    if (!mr) {
        int e = errno;

        say("SKIP dmabuf-mr: ibv_reg_dmabuf_mr on %s: %s (errno %d)", ibv_get_device_name(r->ctx->device),
            strerror(e), e);
        peer_send("skip %d", e);
        return 0;
    }
    gid_hex(&r->gid, gid);
    peer_send("hello %u %s %u %u %zu", r->qp->qp_num, gid, psn, mr->rkey, size);
    peer_recv(line, sizeof(line));
    if (sscanf(line, "hello %u %32s", &qpn, gid) != 2) {
        die("peer said '%s'", line);
    }
    {
        union ibv_gid g;

        gid_parse(gid, &g);
        rdma_connect(r, qpn, &g, psn);
    }
    peer_send("ready");
    peer_recv(line, sizeof(line));
    if (sscanf(line, "written %64s", digest) != 1) {
        say("FAIL dmabuf-mr write: the writer says '%s'", line);
        return 1;
    }
    {
        char mine[65];

        sha256_hex(map, size, mine);
        if (strcmp(mine, digest)) {
            say("FAIL dmabuf-mr write: SHA-256 through the exporter's mapping %s, the writer's %s",
                mine, digest);
            ok = false;
        } else {
            say("PASS dmabuf-mr write: %zu MiB written by the peer, SHA-256 %.16s... through the "
                "exporter's mapping", size >> 20, mine);
        }
    }
    /* The peer writes on; the MR goes away under it. */
    peer_send("keep-writing");
    peer_recv(line, sizeof(line));
    if (ibv_dereg_mr(mr)) {
        die("ibv_dereg_mr");
    }
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

static int write_all(Rdma *r, struct ibv_mr *mr, size_t size, uint32_t rkey)
{
    size_t next = 0, done = 0;
    unsigned inflight = 0;

    while (done < size) {
        uint64_t id;
        int st;

        while (inflight < DEPTH && next < size) {
            if (post_write(r, mr, next, CHUNK, next, rkey, next)) {
                die("ibv_post_send");
            }
            next += CHUNK;
            inflight++;
        }
        st = poll_one(r, &id);
        if (st != IBV_WC_SUCCESS) {
            return st;
        }
        inflight--;
        done += CHUNK;
    }
    return IBV_WC_SUCCESS;
}

/* WRITEs of 4 KiB, one at a time, until one fails; how many succeeded
 * after `deregistered` arrived is reported. */
static void write_until_refused(Rdma *r, struct ibv_mr *mr, uint32_t rkey)
{
    char line[512];
    unsigned before = 0, after = 0;
    bool told = false;
    int st = IBV_WC_SUCCESS;

    for (unsigned i = 0; st == IBV_WC_SUCCESS && after < 100000; i++) {
        uint64_t id;

        if (post_write(r, mr, 0, 4096, (uint64_t)(i % 1024) * 4096, rkey, i)) {
            die("ibv_post_send");
        }
        st = poll_one(r, &id);
        if (st == IBV_WC_SUCCESS) {
            told ? after++ : before++;
        }
        if (before == 16 && !told) {
            peer_send("writing");
            peer_recv(line, sizeof(line));      /* "deregistered" */
            told = true;
        }
    }
    if (st == IBV_WC_REM_ACCESS_ERR && after == 0) {
        peer_send("refused: %u WRITEs before, the first after it %s", before,
                  ibv_wc_status_str(st));
    } else {
        peer_send("not refused: %s after %u WRITEs (%u after deregistration)",
                  st < 0 ? "no completion" : ibv_wc_status_str(st), before + after, after);
    }
}

static int run_writer(Rdma *r, size_t size)
{
    char line[512], gid[33], digest[65];
    uint32_t qpn, psn, rkey;
    size_t len;
    uint8_t *buf = aligned_alloc(4096, size);
    struct ibv_mr *mr;
    union ibv_gid g;
    int st;

    peer_recv(line, sizeof(line));
    if (!strncmp(line, "skip", 4)) {
        say("SKIP dmabuf-mr: the peer could not register its DMA-BUF (%s)", line);
        return 0;
    }
    if (!buf || sscanf(line, "hello %u %32s %u %u %zu", &qpn, gid, &psn, &rkey, &len) != 5 ||
        len != size) {
        die("peer said '%s'", line);
    }
    for (size_t i = 0; i < size; i++) {
        buf[i] = (uint8_t)((i * 2654435761u) >> 13);
    }
    mr = ibv_reg_mr(r->pd, buf, size, IBV_ACCESS_LOCAL_WRITE);
    if (!mr) {
        die("ibv_reg_mr");
    }
    gid_parse(gid, &g);
    rdma_connect(r, qpn, &g, psn);
    gid_hex(&r->gid, gid);
    peer_send("hello %u %s", r->qp->qp_num, gid);
    peer_recv(line, sizeof(line));                      /* "ready" */
    st = write_all(r, mr, size, rkey);
    if (st != IBV_WC_SUCCESS) {
        peer_send("failed %s", st < 0 ? "no completion" : ibv_wc_status_str(st));
        say("FAIL dmabuf-mr write: %s", st < 0 ? "no completion" : ibv_wc_status_str(st));
        return 1;
    }
    sha256_hex(buf, size, digest);
    peer_send("written %s", digest);
    peer_recv(line, sizeof(line));                      /* "keep-writing" */
    write_until_refused(r, mr, rkey);
    say("dmabuf-mr: writer done (node 0 reports)");
    return 0;
}

int main(void)
{
    const char *env_node = getenv("NODE"), *peer = getenv("PEER_IP");
    const char *ibdev = getenv("IBDEV"), *gidx = getenv("GID_INDEX");
    size_t size = (size_t)(getenv("DMABUF_MIB") ? atoi(getenv("DMABUF_MIB")) : 64) << 20;
    Rdma r = { 0 };

    node = env_node ? atoi(env_node) : 0;
    if (!peer || !ibdev || !gidx || size == 0 || size % CHUNK) {
        die("needs NODE, PEER_IP, IBDEV, GID_INDEX (scripts/vm --nodes 2)");
    }
    r.gid_index = atoi(gidx);
    rdma_open(&r, ibdev);
    peer_connect(peer);
    return node == 0 ? run_owner(&r, size) : run_writer(&r, size);
}
