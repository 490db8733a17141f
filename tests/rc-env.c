/* The RC/UD/UMR test environment: see rc-env.h. */
#include <string.h>

#include "rc-env.h"

void gid_set_v4(uint8_t *gid, uint32_t ip)
{
    gid[10] = gid[11] = 0xff;
    prm_put_be32(gid + 12, ip);
}

/* GID 0 of the port: RoCE v2, IPv4 `ip`, MAC 02:00:00:00:00:mac_lo. */
void set_gid_addr(Harness *h, uint32_t ip, uint32_t mac_lo)
{
    HCmd *c = hcmd_new(OP_SET_ROCE_ADDRESS, 0);
    uint8_t *a = IN_PTR(c, set_roce_address_in, roce_address);
    uint8_t *l3 = PRM_PTR(roce_addr_layout, source_l3_address, a);

    IN_SET(c, set_roce_address_in, roce_address_index, 0);
    gid_set_v4(l3, ip);
    PRM_SET(roce_addr_layout, source_mac_47_32, a, 0x0200);
    PRM_SET(roce_addr_layout, source_mac_31_0, a, mac_lo);
    PRM_SET(roce_addr_layout, roce_version, a, 2);
    PRM_SET(roce_addr_layout, roce_l3_type, a, 0);
    h_ok_free(h, c);
}

void set_gid(Harness *h)
{
    set_gid_addr(h, MY_GID_V4, 1);
}


/* RST -> INIT -> RTR -> RTS, connected to `remote` at o's address. */
void connect_qp_to(Harness *h, uint32_t qpn, uint32_t remote, uint32_t psn,
                          const QpOpts *o)
{
    static const uint16_t ops[] = { OP_RST2INIT_QP, OP_INIT2RTR_QP, OP_RTR2RTS_QP };

    for (size_t i = 0; i < G_N_ELEMENTS(ops); i++) {
        HCmd *c = h_modify_qp_cmd(ops[i], qpn, 0);
        uint8_t *qpc = h_modify_qp_qpc(c);
        uint8_t *ap = PRM_PTR(qpc, primary_address_path, qpc);
        uint8_t *rgid = PRM_PTR(ads, rgid_rip, ap);

        PRM_SET(qpc, rwe, qpc, 1);
        PRM_SET(qpc, rre, qpc, 1);
        PRM_SET(qpc, rae, qpc, 1);
        PRM_SET(qpc, log_sra_max, qpc, 2);
        PRM_SET(qpc, retry_count, qpc, o->retry);
        PRM_SET(qpc, rnr_retry, qpc, o->rnr_retry);
        PRM_SET(qpc, min_rnr_nak, qpc, 1);         /* 0.01 ms */
        PRM_SET(ads, ack_timeout, ap, o->timeout);
        PRM_SET(qpc, mtu, qpc, 3);                  /* 1024 */
        PRM_SET(qpc, remote_qpn, qpc, remote);
        PRM_SET(qpc, next_rcv_psn, qpc, psn);
        PRM_SET(qpc, next_send_psn, qpc, psn);
        PRM_SET(ads, rmac_47_32, ap, 0x0200);
        PRM_SET(ads, rmac_31_0, ap, o->rmac_lo);
        PRM_SET(ads, hop_limit, ap, 64);
        PRM_SET(ads, udp_sport, ap, 0xc123);
        if (ops[i] == OP_RST2INIT_QP) {
            PRM_SET(qpc, counter_set_id, qpc, o->counter_set);
        }
        gid_set_v4(rgid, o->rip);
        h_ok_free(h, c);
    }
}

/* Both QPs of one device, connected to each other at its own address. */
void connect_qp(RcEnv *e, uint32_t qpn, uint32_t remote, uint32_t psn)
{
    QpOpts o = { MY_GID_V4, 1, e->retry, e->rnr_retry, e->timeout, e->counter_set };

    connect_qp_to(e->h, qpn, remote, psn, &o);
}

/* A PA key over all guest RAM with local and remote read and write. */
uint32_t all_rights_key(Harness *h)
{
    return all_rights_key_over(h, GUEST_BASE, GUEST_SIZE);
}

void mkc_all_rights(uint8_t *mkc, uint32_t pd)
{
    PRM_SET(mkc, lr, mkc, 1);
    PRM_SET(mkc, lw, mkc, 1);
    PRM_SET(mkc, rr, mkc, 1);
    PRM_SET(mkc, rw, mkc, 1);
    PRM_SET(mkc, a, mkc, 1);
    PRM_SET(mkc, pd, mkc, pd);
}

uint32_t all_rights_key_over(Harness *h, uint64_t start, uint64_t len)
{
    g_autoptr(HCmd) c = hcmd_new(OP_CREATE_MKEY, 0);
    uint8_t *mkc = IN_PTR(c, create_mkey_in, memory_key_mkey_entry);

    mkc_all_rights(mkc, h->pd);
    PRM_SET(mkc, mkey_7_0, mkc, 0x5a);
    PRM_SET(mkc, start_addr, mkc, start);
    PRM_SET(mkc, len, mkc, len);
    h_ok(h, c);
    return OUT_GET(c, create_mkey_out, mkey_index) << 8 | 0x5a;
}

uint32_t mtt_key_of(Harness *h, uint64_t va, const uint64_t *entries, unsigned n,
                    bool pg_access)
{
    uint32_t base = PRM_BYTE_OFF(create_mkey_in, klm_pas_mtt);
    g_autoptr(HCmd) c = hcmd_new(OP_CREATE_MKEY, 0);
    uint8_t *mkc;

    hcmd_grow_in(c, base + 8 * ((n + 1) & ~1u));
    mkc = IN_PTR(c, create_mkey_in, memory_key_mkey_entry);
    mkc_all_rights(mkc, h->pd);
    PRM_SET(mkc, access_mode_1_0, mkc, MLX5_MKC_ACCESS_MODE_MTT);
    PRM_SET(mkc, start_addr, mkc, va);
    PRM_SET(mkc, len, mkc, (uint64_t)n * PAGE);
    PRM_SET(mkc, log_page_size, mkc, 12);
    PRM_SET(mkc, translations_octword_size, mkc, (n + 1) / 2);
    IN_SET(c, create_mkey_in, translations_octword_actual_size, (n + 1) / 2);
    IN_SET(c, create_mkey_in, pg_access, pg_access);
    for (unsigned i = 0; i < n; i++) {
        prm_put_be64(c->in + base + 8 * i, entries[i]);
    }
    h_ok(h, c);
    return OUT_GET(c, create_mkey_out, mkey_index) << 8;
}

/* A device with its port up and GID 0 set, two CQs, QPs a (st_a) and b
 * (st_b) in RST, and a key over all RAM. */
RcEnv *env_create(unsigned st_a, unsigned st_b)
{
    return env_create_on(h_new_device(), st_a, st_b);
}

RcEnv *env_create_on(Harness *h, unsigned st_a, unsigned st_b)
{
    RcEnv *e = g_new0(RcEnv, 1);

    e->h = h;
    h_bringup(h);
    h_port_up(h);
    set_gid(h);
    e->scq = h_create_cq(h, h->comp_eq.num, 4);
    e->rcq = h_create_cq(h, h->comp_eq.num, 4);
    e->a = h_create_qp(h, st_a, h->pd, e->scq.num, e->rcq.num, h->uar, 4, 4);
    e->b = h_create_qp(h, st_b, h->pd, e->scq.num, e->rcq.num, h->uar, 4, 4);
    e->key = all_rights_key(h);
    return e;
}

/* retry and rnr_retry: the QPs' budgets; timeout: ack_timeout (14: 67 ms) */
RcEnv *env_new_retry(uint32_t psn, uint8_t retry, uint8_t rnr_retry)
{
    RcEnv *e = env_create(MLX5_QP_ST_RC, MLX5_QP_ST_RC);

    e->retry = retry;
    e->rnr_retry = rnr_retry;
    e->timeout = 14;
    connect_qp(e, e->a.num, e->b.num, psn);
    connect_qp(e, e->b.num, e->a.num, psn);
    return e;
}

unsigned env_add_qps(RcEnv *e, unsigned max)
{
    Harness *h = e->h;
    uint64_t brk = h->brk;
    unsigned n = 0;

    for (; n < max; n++) {
        HRing q;
        g_autoptr(HCmd) c = h_create_qp_cmd(h, &q, MLX5_QP_ST_RC, h->pd, e->scq.num,
                                            e->rcq.num, h->uar, 0, 0);

        h->brk = brk;
        if (h_exec(h, c) != MLX5_CMD_STAT_OK) {
            break;
        }
    }
    return n;
}

RcEnv *env_new(uint32_t psn)
{
    return env_new_retry(psn, 0, 0);
}

void env_free(RcEnv *e)
{
    h_free(e->h);
    g_free(e);
}

/* Feed every frame the device sent since the last call back into it,
 * until it stops sending (requests, then the ACKs they cause). */
void wire(RcEnv *e, bool drop_first)
{
    while (e->fed < e->h->frames->len) {
        gsize len;
        const uint8_t *f = g_bytes_get_data(g_ptr_array_index(e->h->frames, e->fed++), &len);
        if (drop_first) {
            drop_first = false;
            continue;
        }
        g_assert_true(mlx5_rx_frame(h_dp(e->h), f, len, false));
    }
}

/* A receive WQE on QP `qp` of h (its RQ has 16 entries): one data
 * segment of `len` bytes at B_BUF + off; *pc is the RQ producer counter. */
void post_recv_on(Harness *h, const HRing *qp, uint32_t *pc, uint32_t key,
                         uint32_t off, uint32_t len)
{
    uint64_t rq = qp->gpa - (uint64_t)H_QP_RQ_STRIDE * 16;
    uint64_t wqe = rq + (uint64_t)(*pc % 16) * H_QP_RQ_STRIDE;

    h_data_seg(h_gpa(h, wqe), len, key, B_BUF + off);
    h_put32(h, wqe + MLX5_DS_BYTES + WQE_DATA_LKEY, MLX5_INVALID_LKEY);     /* end of list */
    ++*pc;
    h_put32(h, qp->dbr, *pc);
}

void post_recv(RcEnv *e, uint32_t off, uint32_t len)
{
    post_recv_on(e->h, &e->b, &e->b_rq_pc, e->key, off, len);
}

/* A send WQE on `qp` of h: opcode, immediate, an optional remote address
 * (and rkey), one data segment of len bytes at A_BUF (gathered, or for a
 * READ scattered). */
void post_send_on(Harness *h, HRing *qp, uint32_t key, uint8_t opcode, uint32_t len,
                         uint64_t raddr, uint32_t rkey)
{
    unsigned ds = raddr ? 3 : 2;
    uint8_t *w = h_sq_wqe(h, qp, opcode, ds, MLX5_WQE_CTRL_CQ_UPDATE);
    uint8_t *raddr_seg = w + MLX5_DS_BYTES;

    prm_put_be32(w + WQE_CTRL_IMM, 0xfeedf00d);
    if (raddr) {
        prm_put_be64(raddr_seg + WQE_RADDR_VA, raddr);
        prm_put_be32(raddr_seg + WQE_RADDR_RKEY, rkey);
    }
    h_data_seg(w + (ds - 1) * MLX5_DS_BYTES, len, key, A_BUF);
    h_sq_ring(h, qp);
}

void post_send_rkey(RcEnv *e, uint8_t opcode, uint32_t len, uint64_t raddr, uint32_t rkey)
{
    post_send_on(e->h, &e->a, e->key, opcode, len, raddr, rkey);
}

void post_send(RcEnv *e, uint8_t opcode, uint32_t len, uint64_t raddr)
{
    post_send_rkey(e, opcode, len, raddr, e->key);
}

void post_atomic_on(Harness *h, HRing *qp, uint32_t key, uint8_t opcode, uint64_t raddr,
                    uint64_t swap_add, uint64_t cmp)
{
    uint8_t *w = h_sq_wqe(h, qp, opcode, 4, MLX5_WQE_CTRL_CQ_UPDATE);
    uint8_t *raddr_seg = w + MLX5_DS_BYTES, *atomic = w + 2 * MLX5_DS_BYTES;
    uint8_t *data = w + 3 * MLX5_DS_BYTES;

    prm_put_be64(raddr_seg + WQE_RADDR_VA, raddr);
    prm_put_be32(raddr_seg + WQE_RADDR_RKEY, key);
    prm_put_be64(atomic + WQE_ATOMIC_SWAP_ADD, swap_add);
    prm_put_be64(atomic + WQE_ATOMIC_COMPARE, cmp);
    h_data_seg(data, 8, key, A_BUF);
    h_sq_ring(h, qp);
}

void post_atomic(RcEnv *e, uint8_t opcode, uint64_t raddr, uint64_t swap_add, uint64_t cmp)
{
    post_atomic_on(e->h, &e->a, e->key, opcode, raddr, swap_add, cmp);
}

void fill(RcEnv *e, uint32_t len)
{
    uint8_t *p = h_gpa(e->h, A_BUF);

    for (uint32_t i = 0; i < len; i++) {
        p[i] = (uint8_t)(i * 7 + 3);
    }
}

void feed_one(RcEnv *e)
{
    gsize len;
    const uint8_t *f = g_bytes_get_data(g_ptr_array_index(e->h->frames, e->fed++), &len);

    g_assert_true(mlx5_rx_frame(h_dp(e->h), f, len, false));
}

void frame_take(RcEnv *e, unsigned i, RcFrame *f)
{
    gsize len;
    const uint8_t *raw;

    g_assert_cmpuint(i, <, e->h->frames->len);
    raw = g_bytes_get_data(g_ptr_array_index(e->h->frames, i), &len);
    g_assert_cmpint(mlx5_roce_parse(raw, len, &f->pkt), ==, MLX5_ROCE_OK);
    g_assert_cmpuint(f->pkt.payload_len, <=, sizeof(f->payload));
    f->len = f->pkt.payload_len;
    memcpy(f->payload, f->pkt.payload, f->len);
    f->pkt.payload = NULL;
}

void frame_feed(RcEnv *e, const RcFrame *f)
{
    uint8_t buf[4096 + 128];
    size_t n = mlx5_roce_build(&f->pkt, f->len ? f->payload : NULL, f->len, buf, sizeof(buf));

    g_assert_cmpuint(n, >, 0);
    g_assert_true(mlx5_rx_frame(h_dp(e->h), buf, n, false));
}

/* Let the device's timer fire (ack or RNR timer), then carry what it sent. */
void fire_timer(RcEnv *e)
{
    g_assert_cmpuint(e->h->timer_ns, !=, UINT64_MAX);
    e->h->clock_ns = MAX(e->h->clock_ns, e->h->timer_ns);
    mlx5_dev_timer(e->h->dev);
}

const uint8_t *expect_req(RcEnv *e, uint8_t op, uint8_t syndrome)
{
    const uint8_t *cqe = h_cq_next(e->h, &e->scq);

    g_assert_nonnull(cqe);
    g_assert_cmphex(cqe[CQE_OP_OWN] >> 4, ==, syndrome ? MLX5_CQE_REQ_ERR : MLX5_CQE_REQ);
    if (syndrome) {         /* a completion has its timestamp there */
        g_assert_cmphex(cqe[CQE_ERR_SYNDROME], ==, syndrome);
    }
    g_assert_cmphex(prm_be32(cqe + CQE_SOP_DROP_QPN), ==, (uint32_t)op << 24 | e->a.num);
    return cqe;
}

/* Two datagram QPs of one device, a (st `st_a`) and b (UD), in RTS with
 * Q_Key UD_QKEY (a GSI QP gets 0x80010000, as ib_mad sets it). */
RcEnv *ud_env_new(unsigned st_a)
{
    RcEnv *e = env_create(st_a, MLX5_QP_ST_UD);

    ud_qp_to_rts(e->h, e->a.num, st_a == MLX5_QP_ST_QP1 ? 0x80010000u : UD_QKEY);
    ud_qp_to_rts(e->h, e->b.num, UD_QKEY);
    return e;
}

void ud_qp_to_rts(Harness *h, uint32_t qpn, uint32_t qkey)
{
    static const uint16_t ops[] = { OP_RST2INIT_QP, OP_INIT2RTR_QP, OP_RTR2RTS_QP };

    for (size_t i = 0; i < G_N_ELEMENTS(ops); i++) {
        HCmd *c = h_modify_qp_cmd(ops[i], qpn, 0);
        PRM_SET(qpc, q_key, h_modify_qp_qpc(c), qkey);
        h_ok_free(h, c);
    }
}

/* --- shared receive queues (hw-rdma/rq.c) ---------------------------------- */

void srq_wqe(RcEnv *e, const HRing *srq, uint16_t i, uint16_t next, uint32_t off,
             uint32_t len)
{
    uint8_t *w = h_gpa(e->h, srq->gpa + (uint64_t)i * srq->stride);
    uint8_t *data = w + MLX5_SRQ_NEXT_SEG_BYTES;

    memset(w, 0, srq->stride);
    prm_put_be16(w + WQE_SRQ_NEXT_WQE_INDEX, next);
    h_data_seg(data, len, e->key, B_BUF + off);
    prm_put_be32(data + MLX5_DS_BYTES + WQE_DATA_LKEY, MLX5_INVALID_LKEY);
}

HRing srq_qp_of(RcEnv *e, unsigned st, uint32_t srqn, uint32_t target_xrcd)
{
    HRing q;
    HCmd *c = h_create_qp_cmd(e->h, &q, st, e->h->pd, e->scq.num, e->rcq.num,
                              e->h->uar, 4, 0);
    uint8_t *qpc = IN_PTR(c, create_qp_in, qpc);

    PRM_SET(qpc, rq_type, qpc, 1);
    PRM_SET(qpc, srqn_rmpn_xrqn, qpc, srqn);
    if (target_xrcd) {
        PRM_SET(qpc, no_sq, qpc, 1);
        PRM_SET(qpc, xrcd, qpc, target_xrcd);
        PRM_SET(qpc, user_index, qpc, 0xffffff);
        PRM_SET(qpc, uar_page, qpc, 0);             /* nothing to ring */
    }
    h_ok(e->h, c);
    q.num = OUT_GET(c, create_qp_out, qpn);
    q.gpa -= H_QP_RQ_STRIDE;
    hcmd_free(c);
    return q;
}

uint32_t xrc_srq_ring(RcEnv *e, uint32_t xrcd, HRing *ring)
{
    HCmd *c = h_create_xrc_srq_cmd(e->h, xrcd, e->rcq.num, 3);
    const uint8_t *x = IN_PTR(c, create_xrc_srq_in, xrc_srq_context_entry);
    uint32_t num;

    memset(ring, 0, sizeof(*ring));
    ring->gpa = prm_be64(IN_PTR(c, create_xrc_srq_in, pas));
    ring->stride = H_QP_RQ_STRIDE;
    ring->log_size = 3;
    ring->dbr = (uint64_t)PRM_GET(xrc_srqc, db_record_addr_h, x) << 32 |
                PRM_GET(xrc_srqc, db_record_addr_l, x) << 2;
    h_ok(e->h, c);
    num = OUT_GET(c, create_xrc_srq_out, xrc_srqn);
    hcmd_free(c);
    return num;
}
