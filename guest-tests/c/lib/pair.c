/* The shared part of the two-guest programs (pair.h). */
#define _GNU_SOURCE
#include "pair.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

int pair_node;
const char *pair_prog = "pair";

void say(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
}

void die(const char *fmt, ...)
{
    int e = errno;
    va_list ap;

    printf("FAIL %s (node %d): ", pair_prog, pair_node);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("%s%s\n", e ? ": " : "", e ? strerror(e) : "");
    exit(1);
}

double now_s(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
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

void sha256_hex(const uint8_t *p, size_t len, char out[65])
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

void fill_pattern(uint8_t *p, size_t len, uint32_t seed)
{
    for (size_t i = 0; i < len; i++) {
        p[i] = (uint8_t)(((i + seed) * 2654435761u) >> 13);
    }
}

/* --- the TCP line ------------------------------------------------------ */

static int peer_fd = -1;

void peer_connect(const char *peer_ip, int port)
{
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
    int one = 1;

    if (pair_node == 0) {
        int l = socket(AF_INET, SOCK_STREAM, 0);

        setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
        a.sin_addr.s_addr = htonl(INADDR_ANY);
        if (bind(l, (struct sockaddr *)&a, sizeof(a)) || listen(l, 1)) {
            die("listen on port %d", port);
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

void peer_send(const char *fmt, ...)
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

void peer_recv(char *line, size_t size)
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

void rdma_open(Rdma *r)
{
    const char *ibdev = getenv("IBDEV"), *gidx = getenv("GID_INDEX");
    struct ibv_device **list = ibv_get_device_list(NULL);

    if (!ibdev || !gidx) {
        die("needs IBDEV and GID_INDEX (guest-tests/init)");
    }
    r->gid_index = atoi(gidx);
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
    if (!r->pd || ibv_query_gid(r->ctx, 1, r->gid_index, &r->gid)) {
        die("verbs set-up");
    }
}

void rc_create(Rc *c, Rdma *r, unsigned depth)
{
    struct ibv_qp_init_attr qia = { 0 };

    c->r = r;
    c->cq = ibv_create_cq(r->ctx, (int)(2 * depth), NULL, NULL, 0);
    qia.send_cq = qia.recv_cq = c->cq;
    qia.qp_type = IBV_QPT_RC;
    qia.cap = (struct ibv_qp_cap) { .max_send_wr = depth, .max_recv_wr = depth,
                                    .max_send_sge = 1, .max_recv_sge = 1 };
    c->qp = c->cq ? ibv_create_qp(r->pd, &qia) : NULL;
    if (!c->qp) {
        die("create an RC QP");
    }
}

/* RESET -> INIT -> RTR -> RTS towards the peer's QPN and GID. */
static void rc_connect(Rc *c, uint32_t qpn, const union ibv_gid *gid, uint32_t psn)
{
    struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT, .port_num = 1,
                             .qp_access_flags = IBV_ACCESS_REMOTE_WRITE |
                                                IBV_ACCESS_REMOTE_READ |
                                                IBV_ACCESS_REMOTE_ATOMIC };

    if (ibv_modify_qp(c->qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
                      IBV_QP_ACCESS_FLAGS)) {
        die("modify QP to INIT");
    }
    memset(&a, 0, sizeof(a));
    a.qp_state = IBV_QPS_RTR;
    a.path_mtu = IBV_MTU_1024;
    a.dest_qp_num = qpn;
    a.rq_psn = psn;
    a.max_dest_rd_atomic = 4;
    a.min_rnr_timer = 12;
    a.ah_attr.is_global = 1;
    a.ah_attr.grh.dgid = *gid;
    a.ah_attr.grh.sgid_index = (uint8_t)c->r->gid_index;
    a.ah_attr.grh.hop_limit = 64;
    a.ah_attr.port_num = 1;
    if (ibv_modify_qp(c->qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
                      IBV_QP_DEST_QPN | IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC |
                      IBV_QP_MIN_RNR_TIMER)) {
        die("modify QP to RTR");
    }
    a.qp_state = IBV_QPS_RTS;
    a.sq_psn = psn;
    a.timeout = 14;
    a.retry_cnt = 7;
    a.rnr_retry = 7;
    a.max_rd_atomic = 4;
    if (ibv_modify_qp(c->qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_TIMEOUT |
                      IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC)) {
        die("modify QP to RTS");
    }
}

void rc_exchange(Rc *c, uint32_t psn)
{
    char line[512], hex[33];
    union ibv_gid g;
    uint32_t qpn;

    for (int i = 0; i < 16; i++) {
        sprintf(hex + 2 * i, "%02x", c->r->gid.raw[i]);
    }
    peer_send("qp %u %s", c->qp->qp_num, hex);
    peer_recv(line, sizeof(line));
    if (sscanf(line, "qp %u %32s", &qpn, hex) != 2) {
        die("the peer said '%s' for its QP", line);
    }
    for (int i = 0; i < 16; i++) {
        unsigned b;

        sscanf(hex + 2 * i, "%2x", &b);
        g.raw[i] = (uint8_t)b;
    }
    rc_connect(c, qpn, &g, psn);
}

int rc_poll(Rc *c, uint64_t *wr_id)
{
    double until = now_s() + PAIR_POLL_S;
    struct ibv_wc wc;

    while (now_s() < until) {
        int n = ibv_poll_cq(c->cq, 1, &wc);

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

int rc_post(Rc *c, enum ibv_wr_opcode op, struct ibv_mr *mr, uint64_t off, uint32_t len,
            uint64_t raddr, uint32_t rkey, uint64_t wr_id)
{
    struct ibv_sge sge = { .addr = (uintptr_t)mr->addr + off, .length = len, .lkey = mr->lkey };
    struct ibv_send_wr wr = { .wr_id = wr_id, .sg_list = &sge, .num_sge = 1,
                              .opcode = op, .send_flags = IBV_SEND_SIGNALED };
    struct ibv_send_wr *bad;

    wr.wr.rdma.remote_addr = raddr;
    wr.wr.rdma.rkey = rkey;
    return ibv_post_send(c->qp, &wr, &bad);
}

int rc_post_recv(Rc *c, struct ibv_mr *mr, uint64_t off, uint32_t len, uint64_t wr_id)
{
    struct ibv_sge sge = { .addr = (uintptr_t)mr->addr + off, .length = len, .lkey = mr->lkey };
    struct ibv_recv_wr wr = { .wr_id = wr_id, .sg_list = &sge, .num_sge = 1 }, *bad;

    return ibv_post_recv(c->qp, &wr, &bad);
}

int rc_write_all(Rc *c, struct ibv_mr *mr, size_t size, uint64_t raddr, uint32_t rkey,
                 uint32_t chunk, unsigned depth)
{
    size_t next = 0, done = 0;
    unsigned inflight = 0;

    while (done < size) {
        uint64_t id;
        int st;

        while (inflight < depth && next < size) {
            if (rc_post(c, IBV_WR_RDMA_WRITE, mr, next, chunk, raddr + next, rkey, next)) {
                die("ibv_post_send");
            }
            next += chunk;
            inflight++;
        }
        st = rc_poll(c, &id);
        if (st != IBV_WC_SUCCESS) {
            return st;
        }
        inflight--;
        done += chunk;
    }
    return IBV_WC_SUCCESS;
}

const char *wc_status(int st)
{
    return st < 0 ? "no completion" : ibv_wc_status_str((enum ibv_wc_status)st);
}
