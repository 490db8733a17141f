/*
 * Ethernet receive: steering -> TIR -> RQ -> CQE.
 *
 * A frame from the wire is parsed and steered (steering.c) to a TIR.  A
 * direct TIR names its RQ; an indirect one hashes the fields its
 * rx_hash_field_selector picks (Toeplitz with the TIR's key, PRM "RSS")
 * and indexes its RQT.  The RQ is a legacy cyclic RQ: the driver posts
 * receive WQEs (scatter lists through the PA mkey) and advances the RQ
 * doorbell record (dbr + 0), with no MMIO write (queue.c).  The device fills the
 * next WQE and writes a RESP_SEND CQE with the byte count, the WQE
 * counter, the RSS hash, the L3/L4 header types, checksum results
 * (hds_ip_ext L3_OK/L4_OK, check_sum = ones'-complement sum from the L3
 * header on, which mlx5e uses for CHECKSUM_COMPLETE) and a stripped VLAN.
 * No WQE posted: the frame is dropped and counted (out_of_buffer).
 */
#include <string.h>

#include "cqe.h"
#include "datapath.h"
#include "steering.h"
#include "toeplitz.h"

/* tirc rx_hash_field_selector: the fields RSS hashes (PRM "TIR Context"). */
enum {
    HASH_SEL_SRC_IP = 1 << 0, HASH_SEL_DST_IP = 1 << 1,
    HASH_SEL_L4_SPORT = 1 << 2, HASH_SEL_L4_DPORT = 1 << 3,
};

/* RSS: hash the selected fields if the frame has them (the TTC table sends
 * each traffic type to the TIR that hashes its fields). */
static uint32_t rss_hash(const Mlx5Tir *t, const Mlx5PktInfo *pi, uint8_t *type)
{
    uint32_t sel = t->hash_sel_outer;
    unsigned l3v6 = sel >> 31, l4udp = (sel >> 30) & 1, fields = sel & 0x3fffffff;
    unsigned ipn = pi->ip_version == 6 ? 16 : 4;
    uint8_t in[36];
    size_t n = 0;

    *type = 0;
    if (!fields || !pi->ip_version || (pi->ip_version == 6) != l3v6) {
        return 0;
    }
    if (fields & HASH_SEL_SRC_IP) {
        memcpy(in + n, pi->src_ip + 16 - ipn, ipn);
        n += ipn;
    }
    if (fields & HASH_SEL_DST_IP) {
        memcpy(in + n, pi->dst_ip + 16 - ipn, ipn);
        n += ipn;
    }
    if (fields & (HASH_SEL_L4_SPORT | HASH_SEL_L4_DPORT)) {
        if (!pi->l4_off || pi->ip_protocol != (l4udp ? 17 : 6)) {
            return 0;
        }
        if (fields & HASH_SEL_L4_SPORT) {
            prm_put_be16(in + n, pi->sport);
            n += 2;
        }
        if (fields & HASH_SEL_L4_DPORT) {
            prm_put_be16(in + n, pi->dport);
            n += 2;
        }
        *type |= l4udp ? CQE_RSS_UDP : CQE_RSS_TCP;
    }
    *type |= l3v6 ? CQE_RSS_IPV6 : CQE_RSS_IPV4;
    return mlx5_toeplitz(t->toeplitz_key, in, n);
}

static Mlx5Rq *tir_select_rq(Mlx5Fw *fw, uint32_t tirn, const Mlx5PktInfo *pi,
                             uint32_t *hash, uint8_t *htype)
{
    Mlx5Tir *t = mlx5_table_get(&fw->tir, tirn);
    uint32_t rqn;
    Mlx5Rqt *rqt;

    *hash = 0;
    *htype = 0;
    if (!t) {
        return NULL;
    }
    if (t->disp_type == 0) {
        rqn = t->inline_rqn;
    } else {
        rqt = mlx5_table_get(&fw->rqt, t->indirect_table);
        if (!rqt || !rqt->actual_size) {
            return NULL;
        }
        *hash = rss_hash(t, pi, htype);
        rqn = rqt->rqn[*hash % rqt->actual_size];
    }
    return mlx5_rq_get(fw, rqn);
}

/* Ones'-complement sum of n bytes (RFC 1071), not folded to 16 bits. */
static uint32_t csum_add(uint32_t sum, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i + 1 < n; i += 2) {
        sum += (uint32_t)p[i] << 8 | p[i + 1];
    }
    if (n & 1) {
        sum += (uint32_t)p[n - 1] << 8;
    }
    return sum;
}

static uint16_t csum_fold(uint32_t sum)
{
    while (sum >> 16) {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    return (uint16_t)sum;
}

/* Verify the IPv4 header and the TCP/UDP checksum (pseudo header). */
static uint8_t rx_csum_flags(const uint8_t *f, size_t len, const Mlx5PktInfo *pi)
{
    uint8_t ok = 0;
    uint32_t l4len, sum;

    if (pi->ip_version == 4) {
        unsigned ihl = (f[pi->l3_off] & 0xf) * 4u;
        if (pi->l3_off + ihl <= len && csum_fold(csum_add(0, f + pi->l3_off, ihl)) == 0xffff) {
            ok |= CQE_HDS_L3_OK;
        }
    } else if (pi->ip_version == 6) {
        ok |= CQE_HDS_L3_OK;
    }
    if (!pi->l4_off || !(ok & CQE_HDS_L3_OK) || pi->l4_off >= len) {
        return ok;
    }
    l4len = (uint32_t)(len - pi->l4_off);
    if (pi->ip_version == 4) {
        uint32_t tot = prm_be16(f + pi->l3_off + 2);
        if (pi->l3_off + tot > len || pi->l3_off + tot < pi->l4_off) {
            return ok;
        }
        l4len = pi->l3_off + tot - pi->l4_off;      /* without Ethernet padding */
        sum = csum_add(0, pi->src_ip + 12, 4);
        sum = csum_add(sum, pi->dst_ip + 12, 4);
    } else {
        uint32_t pl = prm_be16(f + pi->l3_off + 4);
        if (pi->l3_off + 40 + pl > len) {
            return ok;
        }
        l4len = pl;
        sum = csum_add(0, pi->src_ip, 16);
        sum = csum_add(sum, pi->dst_ip, 16);
    }
    if (pi->ip_protocol == 17 && l4len >= 8 && prm_be16(f + pi->l4_off + 6) == 0 &&
        pi->ip_version == 4) {
        return ok | CQE_HDS_L4_OK;                   /* UDP over IPv4 without checksum */
    }
    sum += pi->ip_protocol + l4len;
    if (csum_fold(csum_add(sum, f + pi->l4_off, l4len)) == 0xffff) {
        ok |= CQE_HDS_L4_OK;
    }
    return ok;
}

static void rx_drop(size_t len, const char *why)
{
    mlx5emu_trace_rx_drop((unsigned)len, why);
}

/* A receive WQE the frame cannot be scattered into: the WQE completes with
 * a responder error CQE and the RQ moves to the error state (PRM "Error
 * Handling"; mlx5e_handle_rx_err_cqe() counts it and its RX reporter
 * recovers the RQ through MODIFY_RQ ERR -> RST -> RDY). */
static void rq_error(Mlx5DataPath *dp, Mlx5Rq *rq, Mlx5Cq *cq, Mlx5SglStatus st)
{
    uint8_t cqe[MLX5_CQE_BYTES] = { 0 };
    uint8_t syndrome = mlx5_sgl_syndrome(st);
    uint16_t index = (uint16_t)rq->rq.hw_counter;

    mlx5emu_trace_rq_wqe_err(rq->num, index, syndrome, mlx5_sgl_status_name(st));
    mlx5_guest_error(dp->fw, "RQ 0x%x WQE %u: %s", rq->num, index, mlx5_sgl_status_name(st));
    prm_put_be16(cqe + CQE_WQE_COUNTER, index);
    prm_put_be32(cqe + CQE_SOP_DROP_QPN, rq->num & 0xffffff);
    cqe[CQE_ERR_SYNDROME] = syndrome;
    cqe[CQE_OP_OWN] = MLX5_CQE_RESP_ERR << 4;
    rq->rq.hw_counter = (uint16_t)(index + 1);
    rq->state = MLX5_RQC_STATE_ERR;
    mlx5_cq_post(dp, cq, cqe, false);
}

/* The WQEs the driver has posted and the device has not used yet. */
static uint32_t rq_posted(Mlx5DataPath *dp, const Mlx5Rq *rq)
{
    uint32_t n;

    return mlx5_dbr_posted(dp, rq->rq.dbr_addr, rq->rq.hw_counter, &rq->rq.ring, rq->num, &n)
           ? n : 0;
}

/* What a received frame's CQE says besides its WQE (PRM "Completion Queue
 * Entry", responder CQE of an Ethernet RQ). */
static void rx_cqe_fill(uint8_t *cqe, const uint8_t *f, size_t len, const Mlx5PktInfo *pi,
                        uint32_t hash, uint8_t htype, uint16_t tci, bool stripped)
{
    uint8_t l3 = pi->ip_version == 4 ? CQE_L3_HDR_IPV4 : pi->ip_version == 6 ? CQE_L3_HDR_IPV6 : 0;
    uint8_t l4 = !pi->l4_off ? 0 : pi->ip_protocol == 6 ? CQE_L4_HDR_TCP : CQE_L4_HDR_UDP;
    uint16_t l3sum = pi->l3_off ? csum_fold(csum_add(0, f + pi->l3_off, len - pi->l3_off)) : 0;

    prm_put_be32(cqe + CQE_RSS_HASH_RESULT, hash);
    cqe[CQE_RSS_HASH_TYPE] = htype;
    prm_put_be16(cqe + CQE_CHECK_SUM, l3sum);
    cqe[CQE_HDS_IP_EXT] = rx_csum_flags(f, len, pi);
    cqe[CQE_L4_L3_HDR_TYPE] = (uint8_t)(l4 << 4 | l3 << 2 | (stripped ? CQE_CVLAN_PRESENT : 0));
    prm_put_be16(cqe + CQE_VLAN_INFO, tci);
    prm_put_be32(cqe + CQE_BYTE_CNT, (uint32_t)len);
    cqe[CQE_OP_OWN] = MLX5_CQE_RESP_SEND << 4;
}

static void rq_deliver(Mlx5DataPath *dp, Mlx5Rq *rq, uint8_t *f, size_t len,
                       const Mlx5PktInfo *pi, uint32_t hash, uint8_t htype, uint32_t tag)
{
    Mlx5Cq *cq = mlx5_table_get(&dp->fw->cq, rq->rq.cqn);
    uint8_t cqe[MLX5_CQE_BYTES] = { 0 };
    bool strip = pi->vlan && !rq->vsd;
    uint16_t tci = strip ? pi->vlan_tci : 0;
    uint64_t wqe;
    Mlx5SglStatus st;

    if (rq->state != MLX5_RQC_STATE_RDY || !cq) {
        rx_drop(len, "RQ not ready");
        return;
    }
    if (rq_posted(dp, rq) == 0) {
        mlx5_q_counter_inc(dp->fw, rq->counter_set_id, MLX5_QCNT_out_of_buffer);
        dp->fw->counters.rx_out_of_buffer++;
        rx_drop(len, "no receive WQE posted (out of buffer)");
        return;
    }
    if (strip) {                        /* remove the 802.1Q tag */
        memmove(f + 12, f + 16, len - 16);
        len -= 4;
    }
    if (!mlx5_ring_entry_addr(&rq->rq.ring, rq->rq.hw_counter, &wqe)) {
        rx_drop(len, "RQ ring");
        return;
    }
    st = mlx5_recv_scatter(dp->fw, rq->rq.pd, wqe, (1u << rq->rq.ring.log_stride) / MLX5_DS_BYTES,
                           0, f, len);
    if (st != MLX5_SGL_OK) {
        rq_error(dp, rq, cq, st);
        return;
    }
    rx_cqe_fill(cqe, f, len, pi, hash, htype, tci, strip);
    prm_put_be32(cqe + CQE_SOP_DROP_QPN, tag & 0xffffff);
    prm_put_be16(cqe + CQE_WQE_COUNTER, (uint16_t)rq->rq.hw_counter);
    mlx5emu_trace_rx_deliver(rq->num, rq->rq.hw_counter & 0xffff, (unsigned)len, hash,
                             cqe[CQE_HDS_IP_EXT]);
    rq->rq.hw_counter = (uint16_t)(rq->rq.hw_counter + 1);
    mlx5_cq_post(dp, cq, cqe, false);
}

bool mlx5_port_mac_is_ours(const Mlx5Fw *fw, const uint8_t mac[6])
{
    if (memcmp(mac, fw->cfg.mac, 6) == 0) {
        return true;
    }
    for (uint32_t i = 0; i < fw->uc_count && i < MLX5_MAX_UC_LIST; i++) {
        if (memcmp(mac, fw->uc_list[i], 6) == 0) {
            return true;
        }
    }
    return false;
}

/* tirc.self_lb_block bits.  Despite the field's name, a set bit lets the
 * TIR receive its own function's traffic: mlx5e_refresh_tirs() sets
 * BLOCK_UNICAST when asked to *enable* unicast loopback (ethtool -t), and
 * mlx5_ib sets it for MLX5_QP_FLAG_TIR_ALLOW_SELF_LB_UC. */
enum { MLX5_TIRC_SELF_LB_BLOCK_UNICAST = 1, MLX5_TIRC_SELF_LB_BLOCK_MULTICAST = 2 };

/* A frame this function sent comes back in if the TIR it steers to is of
 * another transport domain (two processes' raw packet QPs: each mlx5_ib
 * context has its own TD, and the device loops traffic back between
 * them), or lets its own domain's traffic in. */
static bool rx_loopback_allowed(Mlx5Fw *fw, uint32_t tirn, const Mlx5Rq *rq,
                                const uint8_t *frame, size_t len, uint32_t td)
{
    Mlx5Tir *t = mlx5_table_get(&fw->tir, tirn);
    unsigned bit = frame[0] & 1 ? MLX5_TIRC_SELF_LB_BLOCK_MULTICAST
                                : MLX5_TIRC_SELF_LB_BLOCK_UNICAST;

    if (!rq || !t || (t->td == td && !(t->self_lb_block & bit))) {
        mlx5emu_trace_rx_loopback_blocked(tirn, t ? t->self_lb_block : 0);
        return false;
    }
    mlx5emu_trace_rx_loopback(rq->num, (unsigned)len);
    return true;
}

/* RoCEv2 to this port's address, or to a group while a UD QP is in one,
 * goes to the RDMA transports, not to the NIC RX flow tables. */
static bool rx_for_transport(const Mlx5Fw *fw, const uint8_t *frame)
{
    return mlx5_port_mac_is_ours(fw, frame) || ((frame[0] & 1) && g_hash_table_size(fw->mcg));
}

/* After steering: counted, then delivered to the RQ (or dropped). */
static void rx_steered(Mlx5DataPath *dp, const uint8_t *frame, size_t len, bool loopback,
                       Mlx5SteerResult r, Mlx5Rq *rq, const Mlx5PktInfo *pi, uint32_t hash,
                       uint8_t htype, uint32_t tag)
{
    Mlx5PortCounters *k = &dp->fw->counters;
    g_autofree uint8_t *f = NULL;

    if (!loopback) {
        mlx5_count_frames(&k->phy_rx, frame, 1, len);
    }
    if (r != MLX5_STEER_TIR) {
        k->rx_steer_miss++;
        rx_drop(len, mlx5_steer_result_name(r));
        return;
    }
    mlx5_count_frames(&k->vport_rx, frame, 1, len);
    if (!rq) {
        rx_drop(len, "TIR without a receive queue");
        return;
    }
    f = g_memdup2(frame, len);
    rq_deliver(dp, rq, f, len, pi, hash, htype, tag);
}

/* The receive pipeline; a `loopback` frame came from this function's own
 * SQ.  A ready RQ without a posted WQE: a platform that can hold the frame
 * (a lossless link) retries after the driver's next doorbell, which
 * follows its RX refill (mlx5e arms the CQ after NAPI); otherwise the
 * frame is dropped and counted as out of buffer. */
static bool rx_frame(Mlx5DataPath *dp, const uint8_t *frame, size_t len, bool may_wait,
                     bool loopback, uint32_t td)
{
    Mlx5Fw *fw = dp->fw;
    uint8_t param[MLX5_MATCH_PARAM_BYTES];
    uint32_t tirn = 0, tag = 0, hash = 0;
    uint8_t htype = 0;
    Mlx5SteerResult r;
    Mlx5PktInfo pi;
    Mlx5Rq *rq;

    if (!fw->port_up || len < 14 || len > MLX5_PORT_MAX_MTU + 22) {
        rx_drop(len, fw->port_up ? "bad frame length" : "port down");
        return true;
    }
    if (!loopback && rx_for_transport(fw, frame) && mlx5_roce_receive(dp, frame, len, false)) {
        return true;
    }
    mlx5_steer_parse(frame, len, param, &pi);
    r = mlx5_steer_lookup(fw, param, &tirn, &tag);
    rq = r == MLX5_STEER_TIR ? tir_select_rq(fw, tirn, &pi, &hash, &htype) : NULL;
    if (loopback && !rx_loopback_allowed(fw, tirn, rq, frame, len, td)) {
        return true;                    /* not looped back: nothing to count */
    }
    if (rq && may_wait && rq->state == MLX5_RQC_STATE_RDY && rq_posted(dp, rq) == 0) {
        dp->rx_waiting = true;
        mlx5emu_trace_rx_wait(rq->num);
        return false;
    }
    rx_steered(dp, frame, len, loopback, r, rq, &pi, hash, htype, tag);
    return true;
}

bool mlx5_rx_frame(Mlx5DataPath *dp, const uint8_t *frame, size_t len, bool may_wait)
{
    return rx_frame(dp, frame, len, may_wait, false, MLX5_TD_NONE);
}

/* Local loopback (PRM "self loopback"): a frame this function sends to one
 * of its own unicast addresses, or to a group, also reaches its own receive
 * path if the TIR it steers to is of another transport domain than the SQ
 * that sent it (`td`) or allows its own (mlx5e allows that only during its
 * loopback self-test, ethtool -t). */
void mlx5_rx_loopback(Mlx5DataPath *dp, const uint8_t *frame, size_t len, uint32_t td)
{
    if (len >= 14 && ((frame[0] & 1) || mlx5_port_mac_is_ours(dp->fw, frame))) {
        rx_frame(dp, frame, len, false, true, td);
    }
}
