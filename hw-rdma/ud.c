/*
 * The UD transport (IBA vol. 1 ch. 9.8) over RoCEv2, and the GSI QP.
 *
 * Concepts
 * --------
 * send     A UD or GSI (st QP1) QP's send WQE carries its destination in
 *          a 48-byte address vector after the ctrl segment: Q_Key,
 *          destination QPN, UDP source port, destination MAC, traffic
 *          class, hop limit, source GID index and flow label, destination
 *          GID (struct mlx5_wqe_av, mlx5dv.h).  The message (at most one
 *          path MTU) goes out at once as one SEND ONLY packet with a DETH;
 *          there is no acknowledgement, so the WQE completes at once.
 *          A message longer than the port's MTU sends nothing and still
 *          completes (IBA C10-93.1.1, as rxe does).
 * Q_Key    A WQE Q_Key with bit 31 set ("controlled") is replaced by the
 *          QP's own (IBA 10.2.5): the kernel's MAD layer sends every MAD
 *          with 0x80000000 and relies on QP1's 0x80010000.  A received
 *          datagram whose Q_Key is not the QP's is dropped.
 * GSI      The kernel's GSI QP is one hardware QP created with st QP1 under
 *          an ordinary number (mlx5_ib calls it QP 1 itself): packets for
 *          destination QP 1 go to it, and its DETH says source QP 1.
 * receive  The datagram lands in the next receive WQE after a 40-byte
 *          area holding its network header - for IPv4 20 zero bytes and
 *          the IPv4 header, for IPv6 the IPv6 header - which is how
 *          libibverbs and ib_core tell the sender's address
 *          (ib_init_ah_attr_from_wc); the CQE says the area holds a GRH,
 *          its L3 type and the source QP.  No WQE, or one too short: the
 *          datagram is dropped (UD has no RNR).
 */
#include <string.h>

#include "transport.h"

enum {
    UD_FIRST_DATA_SEG = 1 + MLX5_AV_BYTES / MLX5_DS_BYTES,
    GSI_QPN = 1,
    MULTICAST_QPN = 0xffffff,   /* IBA 9.8.2: to the group's QPs */
    /* RoCEv2 headers an IB MTU must leave room for under the Ethernet MTU
     * (GRH-sized IP, UDP, BTH, the largest extension, ICRC: iboe_get_mtu) */
    ROCE_OVERHEAD = 40 + 8 + 12 + 4 + 28 + 4,
    ETH_OVERHEAD = 22,          /* what mlx5e adds to its MTU for the vport */
};

/* The largest IB MTU the port's Ethernet MTU carries (ib_addr.h
 * iboe_get_mtu): 1500 -> 1024, 9000 -> 4096. */
static uint32_t port_ib_mtu(const Mlx5Fw *fw)
{
    uint32_t eth = fw->vport_mtu > ETH_OVERHEAD ? fw->vport_mtu - ETH_OVERHEAD : 1500;
    uint32_t mtu = 4096;

    while (mtu > 256 && mtu > eth - MIN(eth, (uint32_t)ROCE_OVERHEAD)) {
        mtu /= 2;
    }
    return mtu;
}

/* The packet's headers from the address vector and the GID entry it
 * names. */
static bool ud_pkt_init(Mlx5Fw *fw, const Mlx5Qp *qp, const uint8_t *av, Mlx5RocePkt *p)
{
    uint32_t gfl = prm_be32(av + WQE_AV_GRH_GID_FL);
    unsigned idx = (gfl >> 20) & 0xff;
    const Mlx5RoceAddr *g = idx < MLX5_GID_TABLE_SIZE ? &fw->gid[idx] : NULL;
    uint32_t qkey = prm_be32(av + WQE_AV_QKEY);
    uint16_t sport = prm_be16(av + WQE_AV_UDP_SPORT);

    if (!g || !g->valid || g->roce_version != 2) {
        return false;           /* RoCE v1 (no UDP/IP) is not sent */
    }
    memset(p, 0, sizeof(*p));
    memcpy(p->dmac, av + WQE_AV_RMAC, 6);
    memcpy(p->smac, g->mac, 6);
    p->vlan = g->vlan_valid;
    p->vlan_tci = g->vlan_id;
    p->ip_version = g->l3_type == 0 ? 4 : 6;
    memcpy(p->sgid, g->l3, 16);
    memcpy(p->dgid, av + WQE_AV_RGID, 16);
    p->traffic_class = av[WQE_AV_TCLASS];
    p->hop_limit = av[WQE_AV_HOP_LIMIT] ? av[WQE_AV_HOP_LIMIT] : 64;
    /* an IPv6 flow label; IPv4 has none (rdma_cm hashes one in anyway) */
    p->flow_label = p->ip_version == 6 ? gfl & 0xfffff : 0;
    p->udp_sport = sport ? sport : 0xc000 | (qp->num & 0x3fff);
    p->pkey = 0xffff;
    p->dest_qpn = prm_be32(av + WQE_AV_DQP) & 0xffffff;
    p->deth.qkey = qkey & MLX5_QKEY_CONTROLLED ? PRM_GET(qpc, q_key, qp->qpc) : qkey;
    p->deth.src_qpn = qp->st == MLX5_QP_ST_QP1 ? GSI_QPN : qp->num;
    return true;
}

bool mlx5_ud_wqe_absent(Mlx5DataPath *dp, const Mlx5QpTransport *t, const Mlx5SendWqe *w)
{
    return w->ds > UD_FIRST_DATA_SEG &&
           mlx5_wqe_sgl_absent(dp->fw, t->qp->pd, w->bytes, w->ds, UD_FIRST_DATA_SEG, false);
}

uint8_t mlx5_ud_post(Mlx5DataPath *dp, Mlx5QpTransport *t, const Mlx5SendWqe *w)
{
    const Mlx5Qp *qp = t->qp;
    const uint8_t *av = w->bytes + MLX5_DS_BYTES;
    uint8_t buf[4096];
    uint64_t len;
    uint8_t syndrome;
    Mlx5RocePkt p;

    if ((w->opcode != MLX5_OPCODE_SEND && w->opcode != MLX5_OPCODE_SEND_IMM) ||
        w->ds < UD_FIRST_DATA_SEG || !ud_pkt_init(dp->fw, qp, av, &p)) {
        return MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR;
    }
    syndrome = mlx5_wqe_msg_len(w->bytes, w->ds, UD_FIRST_DATA_SEG, true, &len);
    if (syndrome) {
        return syndrome;
    }
    if (len > port_ib_mtu(dp->fw)) {
        mlx5emu_trace_ud_too_long(qp->num, (unsigned)len, port_ib_mtu(dp->fw));
        return 0;                                   /* C10-93.1.1: dropped, completed */
    }
    if (mlx5_wqe_sgl(dp->fw, qp->pd, w->bytes, w->ds, UD_FIRST_DATA_SEG, 0, buf, (uint32_t)len,
                     false) != MLX5_SGL_OK) {
        return MLX5_CQE_SYNDROME_LOCAL_PROT_ERR;
    }
    p.opcode = MLX5_ROCE_UD | (w->opcode == MLX5_OPCODE_SEND_IMM
                               ? MLX5_ROCE_SEND_ONLY_WITH_IMMEDIATE : MLX5_ROCE_SEND_ONLY);
    p.psn = t->req.sq_psn;
    t->req.sq_psn = psn_add(p.psn, 1);
    p.se = w->fm_ce_se & MLX5_WQE_CTRL_SOLICITED;
    p.imm_data = prm_be32(w->bytes + WQE_CTRL_IMM);
    mlx5emu_trace_ud_send(qp->num, p.dest_qpn, p.deth.qkey, p.deth.src_qpn, (unsigned)len);
    if (qp->st == MLX5_QP_ST_QP1) {
        mlx5_mad_trace(buf, (size_t)len, true, p.dest_qpn);
    }
    mlx5_roce_send_frame(dp, t, &p, buf, (size_t)len);
    return 0;
}

/* --- receive ------------------------------------------------------------ */

/* The QP a datagram is for: destination QP 1 is the GSI QP. */
static Mlx5Qp *ud_dest_qp(Mlx5DataPath *dp, uint32_t dqpn)
{
    Mlx5Qp *qp = dqpn == GSI_QPN ? dp->gsi_qp : mlx5_qp_get(dp->fw, dqpn);

    if (!qp || (dqpn == GSI_QPN ? qp->st != MLX5_QP_ST_QP1 : qp->st != MLX5_QP_ST_UD)) {
        return NULL;
    }
    return qp;
}

/* Is the packet's destination address one of our RoCE v2 GIDs? */
static bool ud_for_our_gid(const Mlx5Fw *fw, const Mlx5RocePkt *p)
{
    for (unsigned i = 0; i < MLX5_GID_TABLE_SIZE; i++) {
        const Mlx5RoceAddr *g = &fw->gid[i];
        if (g->valid && g->roce_version == 2 && memcmp(g->l3, p->dgid, 16) == 0) {
            return true;
        }
    }
    return false;
}

static const char *ud_check(Mlx5Fw *fw, const Mlx5Qp *qp, const Mlx5RocePkt *p)
{
    if (!qp) {
        return "no UD QP with that number";
    }
    if (qp->state != MLX5_QP_STATE_RTR && qp->state != MLX5_QP_STATE_RTS &&
        qp->state != MLX5_QP_STATE_SQER && qp->state != MLX5_QP_STATE_SQD) {
        return "UD QP not ready to receive";
    }
    if ((p->pkey & 0x7fff) != 0x7fff) {
        return "P_Key not the default";
    }
    if (p->deth.qkey != PRM_GET(qpc, q_key, qp->qpc)) {
        return "Q_Key mismatch";
    }
    if (p->dest_qpn != MULTICAST_QPN && !ud_for_our_gid(fw, p)) {
        return "destination address is none of our RoCE v2 GIDs";
    }
    return NULL;
}

/* The 40-byte network header area (include/rdma/ib_verbs.h
 * rdma_network_hdr): IPv4 at its last 20 bytes, IPv6 whole. */
static void ud_grh_area(const uint8_t *frame, const Mlx5RocePkt *p, uint8_t grh[MLX5_UD_GRH_BYTES])
{
    memset(grh, 0, MLX5_UD_GRH_BYTES);
    if (p->ip_version == 4) {
        memcpy(grh + 20, frame + p->l3_off, 20);
    } else {
        memcpy(grh, frame + p->l3_off, 40);
    }
}

/* The CQE of a datagram placed in receive WQE `r`: its length with the
 * network-header area, the area's L3 type and the source QP (flags_rqpn);
 * QP1's carries the P_Key value where others have the immediate
 * (mlx5_ib handle_responder looks its index up). */
static void ud_cqe(const Mlx5Qp *qp, const Mlx5RocePkt *p, bool placed, Mlx5RespCqe *c)
{
    bool imm = (p->opcode & 0x1f) == MLX5_ROCE_SEND_ONLY_WITH_IMMEDIATE;

    *c = (Mlx5RespCqe) {
        .op = !placed ? MLX5_CQE_RESP_ERR : imm ? MLX5_CQE_RESP_SEND_IMM : MLX5_CQE_RESP_SEND,
        .syndrome = placed ? 0 : MLX5_CQE_SYNDROME_LOCAL_PROT_ERR,
        .byte_cnt = MLX5_UD_GRH_BYTES + (uint32_t)p->payload_len,
        .imm = qp->st == MLX5_QP_ST_QP1 ? p->pkey : p->imm_data,
        .flags_rqpn = MLX5_CQE_GRH_IN_BUFFER | (p->ip_version == 4 ? MLX5_CQE_L3_IPV4 : MLX5_CQE_L3_IPV6) |
                      p->deth.src_qpn,
        .se = p->se, .vlan = p->vlan, .vlan_tci = p->vlan_tci,
    };
}

/* One datagram into one QP: its destination, or a multicast member.  No
 * WQE, or one too short, drops it: UD has no RNR (IBA 9.8). */
static void ud_deliver(Mlx5DataPath *dp, Mlx5Qp *qp, const uint8_t *frame, const Mlx5RocePkt *p)
{
    const char *why = ud_check(dp->fw, qp, p);
    uint8_t grh[MLX5_UD_GRH_BYTES];
    Mlx5QpTransport *t;
    Mlx5RespCqe c;
    Mlx5RecvWqe r;
    bool have, placed;

    if (why) {
        mlx5_roce_discard(dp, why);
        return;
    }
    t = mlx5_qp_transport(qp);
    have = mlx5_rq_peek(dp, t, &r);
    if (!have || mlx5_rq_wqe_capacity(dp, &r) < MLX5_UD_GRH_BYTES + p->payload_len) {
        mlx5emu_trace_rc_rx_drop(have ? "UD receive WQE too short" : "no UD receive WQE");
        mlx5_qp_count(dp->fw, qp, have ? MLX5_QCNT_resp_local_length_error
                                       : MLX5_QCNT_out_of_buffer);
        return;
    }
    mlx5_rq_advance(dp, t, &r);
    ud_grh_area(frame, p, grh);
    placed = mlx5_rq_scatter(dp, &r, 0, grh, MLX5_UD_GRH_BYTES) == MLX5_SGL_OK &&
             mlx5_rq_scatter(dp, &r, MLX5_UD_GRH_BYTES, p->payload, p->payload_len) == MLX5_SGL_OK;
    ud_cqe(qp, p, placed, &c);
    mlx5emu_trace_ud_receive(qp->num, p->deth.src_qpn, (unsigned)p->payload_len);
    if (qp->st == MLX5_QP_ST_QP1) {
        mlx5_mad_trace(p->payload, p->payload_len, false, p->deth.src_qpn);
    }
    mlx5_rq_cqe(dp, t, &r, &c);
}

/* A datagram for destination QP 0xFFFFFF and a multicast GID goes to
 * every QP attached to that group (IBA 10.5.2.4, 9.8.2); one for QP 1 to
 * the GSI QP. */
void mlx5_ud_receive(Mlx5DataPath *dp, const uint8_t *frame, const Mlx5RocePkt *p)
{
    const GArray *members;

    if (p->dest_qpn != MULTICAST_QPN) {
        ud_deliver(dp, ud_dest_qp(dp, p->dest_qpn), frame, p);
        return;
    }
    if (!mlx5_gid_is_multicast(p->dgid)) {
        mlx5_roce_discard(dp, "multicast QP number to a unicast address");
        return;
    }
    members = mlx5_mcg_members(dp->fw, p->dgid);
    if (!members) {
        mlx5_roce_discard(dp, "multicast group with no QP attached here");
        return;
    }
    for (guint i = 0; i < members->len; i++) {
        Mlx5Qp *qp = mlx5_qp_get(dp->fw, g_array_index(members, uint32_t, i));
        ud_deliver(dp, qp && qp->st == MLX5_QP_ST_UD ? qp : NULL, frame, p);
    }
}
