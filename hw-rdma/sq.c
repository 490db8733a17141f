/*
 * Send queue execution (Ethernet SQs).
 *
 * The driver writes WQEs into the ring, then the SQ doorbell record
 * (dbr + 4, the producer counter), then the first 8 bytes of the last
 * WQE to a BlueFlame register (Linux en/txrx.h mlx5e_notify_hw).  The
 * device reads the doorbell record first (ordering point), then executes
 * WQEs from its own counter up to it.  A WQE that asks for it (fm_ce_se
 * CQ_UPDATE) completes with a CQE carrying its index (mlx5e_poll_tx_cq
 * frees everything up to wqe_counter).  A malformed WQE completes with an
 * error CQE and moves the SQ to the error state (PRM "Error Handling").
 */
#include <string.h>

#include "cqe.h"
#include "rdma.h"
#include "steering.h"
#include "wqe.h"

typedef struct SqWqe {
    uint8_t bytes[MLX5_MAX_WQE_BYTES];
    uint16_t index;
    uint8_t opcode;
    uint8_t ds;
    uint8_t fm_ce_se;
} SqWqe;

static unsigned wqe_blocks(const SqWqe *w)
{
    unsigned n = (w->ds * MLX5_DS_BYTES + MLX5_WQEBB_BYTES - 1) / MLX5_WQEBB_BYTES;
    return n ? n : 1;
}

static void sq_complete(Mlx5Fw *fw, Mlx5Wq *sq, const SqWqe *w, uint8_t syndrome)
{
    Mlx5Cq *cq = mlx5_table_get(&fw->cq, sq->cqn);
    uint8_t cqe[64] = { 0 };
    bool err = syndrome != 0;

    if (!err && !(w->fm_ce_se & MLX5_WQE_CTRL_CQ_UPDATE)) {
        return;
    }
    if (!cq) {
        mlx5emu_trace_ub_sq_no_cq(sq->num, sq->cqn);
        return;
    }
    prm_put_be16(cqe + CQE_WQE_COUNTER, w->index);
    prm_put_be32(cqe + CQE_SOP_DROP_QPN, sq->num & 0xffffff);
    if (sq->is_qp_sq) {                 /* as the RC completer writes them (rc.c) */
        Mlx5Wq *qp = mlx5_qp_get(fw, sq->num);
        prm_put_be32(cqe + CQE_SOP_DROP_QPN, (uint32_t)w->opcode << 24 | sq->num);
        prm_put_be32(cqe + CQE_SRQN, qp ? qp->user_index : 0);
        mlx5_count_cqe_error(fw, qp, syndrome, true);
    }
    cqe[CQE_OP_OWN] = (err ? MLX5_CQE_REQ_ERR : MLX5_CQE_REQ) << 4;
    if (err) {
        cqe[CQE_ERR_SYNDROME] = syndrome;
    }
    mlx5_cq_post(fw, cq, cqe, w->fm_ce_se & MLX5_WQE_CTRL_SOLICITED);
}

static void sq_error(Mlx5Fw *fw, Mlx5Wq *sq, const SqWqe *w, uint8_t syndrome,
                     const char *why)
{
    mlx5emu_trace_sq_wqe_err(sq->num, w->index, w->opcode, why);
    mlx5_guest_error(fw, "SQ 0x%x WQE %u: %s", sq->num, w->index, why);
    sq_complete(fw, sq, w, syndrome);
    sq->state = MLX5_RQC_STATE_ERR;
    if (sq->is_qp_sq) {
        /* past the failed WQE: the flush that follows starts after it */
        sq->hw_counter = (uint16_t)(sq->hw_counter + MAX(1u, wqe_blocks(w)));
        mlx5_qp_send_error(fw, sq->num);
    }
}

static bool sq_fetch(Mlx5Fw *fw, Mlx5Wq *sq, uint16_t index, SqWqe *w)
{
    uint64_t addr;
    unsigned nbb;

    if (!mlx5_ring_entry_addr(&sq->ring, index, &addr) ||
        mlx5_dma_read(fw, addr, w->bytes, MLX5_WQEBB_BYTES)) {
        return false;
    }
    w->index = index;
    w->opcode = prm_be32(w->bytes + WQE_CTRL_OPMOD_IDX_OPCODE) & 0xff;
    w->ds = prm_be32(w->bytes + WQE_CTRL_QPN_DS) & 0x3f;
    w->fm_ce_se = w->bytes[WQE_CTRL_FM_CE_SE];
    nbb = (w->ds * MLX5_DS_BYTES + MLX5_WQEBB_BYTES - 1) / MLX5_WQEBB_BYTES;
    /* The rest of a multi-block WQE, block by block (it may wrap). */
    for (unsigned i = 1; i < nbb && i * MLX5_WQEBB_BYTES < sizeof(w->bytes); i++) {
        if (!mlx5_ring_entry_addr(&sq->ring, (uint16_t)(index + i), &addr) ||
            mlx5_dma_read(fw, addr, w->bytes + i * MLX5_WQEBB_BYTES, MLX5_WQEBB_BYTES)) {
            return false;
        }
    }
    return true;
}

/* Gather one Ethernet frame: inline headers of the eth segment, then the
 * data segments (addresses through the PA mkey the driver created). */
static const char *sq_gather(Mlx5Fw *fw, const Mlx5Wq *sq, const SqWqe *w,
                             uint8_t *frame, size_t *len)
{
    const uint8_t *eth = w->bytes + MLX5_DS_BYTES;
    uint16_t hdr = prm_be16(eth + WQE_ETH_INLINE_HDR_SZ);
    /* The same 16 bits are either an inline header size or, with the
     * INSERT_VLAN type bit, a request to insert a tag (no inline data). */
    uint32_t ihs = hdr & MLX5_ETH_WQE_INSERT_VLAN ? 0 : hdr;
    uint32_t used = MLX5_DS_BYTES * 2;          /* ctrl + eth */
    uint32_t total = w->ds * MLX5_DS_BYTES;

    *len = 0;
    if (ihs) {
        used = MLX5_DS_BYTES + WQE_ETH_INLINE_HDR + ihs;
        used = (used + MLX5_DS_BYTES - 1) & ~(MLX5_DS_BYTES - 1);
        if (used > total || used > sizeof(w->bytes)) {
            return "inline headers beyond the WQE";
        }
        memcpy(frame, eth + WQE_ETH_INLINE_HDR, ihs);
        *len = ihs;
    }
    for (uint32_t off = used; off + MLX5_DS_BYTES <= total; off += MLX5_DS_BYTES) {
        const uint8_t *ds = w->bytes + off;
        uint32_t bc = prm_be32(ds + WQE_DATA_BYTE_COUNT);
        uint32_t lkey = prm_be32(ds + WQE_DATA_LKEY);
        uint64_t addr = prm_be64(ds + WQE_DATA_ADDR);

        if (bc == 0) {
            continue;
        }
        if (bc > MLX5_MAX_FRAME_BYTES - *len) {
            return "frame too long";
        }
        switch (mlx5_mkey_dma(fw, lkey, sq->pd, addr, frame + *len, bc, MLX5_MKEY_LOCAL_READ)) {
        case MLX5_MKEY_OK:
            break;
        case MLX5_MKEY_PROT:
            return "bad lkey";
        case MLX5_MKEY_NO_MEM:
            return "data address outside guest memory";
        }
        *len += bc;
    }
    return NULL;
}

static bool frame_is_ipv4(const uint8_t *f, size_t len)
{
    uint16_t type = prm_be16(f + 12);

    if (type == 0x8100 && len >= 18) {
        type = prm_be16(f + 16);
    }
    return type == 0x0800;
}

/* The offloads the Ethernet segment asks for. */
static void sq_offloads(const SqWqe *w, Mlx5TxOffload *off)
{
    const uint8_t *eth = w->bytes + MLX5_DS_BYTES;
    uint8_t cs = eth[WQE_ETH_CS_FLAGS];

    memset(off, 0, sizeof(*off));
    off->ip_csum = cs & MLX5_ETH_WQE_L3_CSUM;
    off->l4_csum = cs & MLX5_ETH_WQE_L4_CSUM;
    if (w->opcode == MLX5_OPCODE_LSO) {
        off->mss = prm_be16(eth + WQE_ETH_MSS);
    }
    if (prm_be16(eth + WQE_ETH_INSERT_TYPE) & MLX5_ETH_WQE_INSERT_VLAN) {
        off->vlan_insert = true;
        off->vlan_tci = prm_be16(eth + WQE_ETH_INSERT_VLAN_TCI);
    }
}

/* Count what goes on the wire: an LSO WQE leaves as ceil(payload / MSS)
 * segments, each carrying a copy of the L2-L4 headers; an inserted VLAN tag
 * adds 4 bytes to every frame. */
static void sq_count(Mlx5Fw *fw, const uint8_t *frame, size_t len, const Mlx5TxOffload *off)
{
    uint8_t param[MLX5_MATCH_PARAM_BYTES];
    size_t segs = 1, hdr = 0, bytes = len;
    Mlx5PktInfo pi;

    if (off->mss) {
        mlx5_steer_parse(frame, len, param, &pi);
        if (pi.l4_off && pi.ip_protocol == 6 && len >= pi.l4_off + 13u) {
            hdr = pi.l4_off + (frame[pi.l4_off + 12] >> 4) * 4u;
        }
        if (hdr && len > hdr) {
            segs = (len - hdr + off->mss - 1) / off->mss;
            bytes = len + (segs - 1) * hdr;
        }
    }
    if (off->vlan_insert) {
        bytes += 4 * segs;
    }
    mlx5_count_frames(&fw->counters.phy_tx, frame, segs, bytes);
    mlx5_count_frames(&fw->counters.vport_tx, frame, segs, bytes);
}

void mlx5_tx_finish_segment(uint8_t *frame, size_t len)
{
    uint8_t param[MLX5_MATCH_PARAM_BYTES];
    Mlx5PktInfo pi;
    uint8_t *csum;

    mlx5_steer_parse(frame, len, param, &pi);
    if (!pi.l4_off || pi.ip_protocol != 6 || len < pi.l4_off + 18u) {
        return;
    }
    csum = frame + pi.l4_off + 16;
    if (csum[0] == 0xff && csum[1] == 0xff) {
        csum[0] = csum[1] = 0;
    }
}

static bool sq_exec_send(Mlx5Fw *fw, Mlx5Wq *sq, const SqWqe *w)
{
    Mlx5TxOffload off;
    g_autofree uint8_t *frame = g_malloc(MLX5_MAX_FRAME_BYTES);
    const char *why;
    size_t len;

    if (w->ds < 2) {
        sq_error(fw, sq, w, MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR, "SEND without eth segment");
        return false;
    }
    why = sq_gather(fw, sq, w, frame, &len);
    if (why) {
        sq_error(fw, sq, w, strcmp(why, "bad lkey") == 0
                 ? MLX5_CQE_SYNDROME_LOCAL_PROT_ERR : MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR, why);
        return false;
    }
    if (len < 14) {
        sq_error(fw, sq, w, MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR, "frame shorter than L2 header");
        return false;
    }
    sq_offloads(w, &off);
    /* The L3 checksum flag means the IPv4 header checksum: an IPv6 header
     * has none (mlx5e sets the flag for both). */
    off.ip_csum = off.ip_csum && frame_is_ipv4(frame, len);
    if (w->opcode == MLX5_OPCODE_LSO && off.mss == 0) {
        sq_error(fw, sq, w, MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR, "LSO with MSS 0");
        return false;
    }
    mlx5emu_trace_sq_send(sq->num, w->index, (unsigned)len, off.mss,
                          (off.ip_csum ? 1 : 0) | (off.l4_csum ? 2 : 0),
                          off.vlan_insert ? off.vlan_tci : 0);
    if (fw->port_up) {
        sq_count(fw, frame, len, &off);
        fw->plat->tx_frame(fw->opaque, frame, len, &off);
        mlx5_rx_loopback(fw, frame, len);
    }
    sq_complete(fw, sq, w, 0);
    return true;
}

/* A UMR WQE (umr.c), on an RC or XRC QP (REG_MR, LOCAL_INV) or the
 * kernel's UMR QP: applied now, completed in order. */
static bool sq_exec_umr(Mlx5Fw *fw, Mlx5Wq *sq, Mlx5Wq *qp, const SqWqe *w)
{
    bool rc = qp && mlx5_qp_st_is_rc(qp->qp_st);
    uint8_t syndrome;

    if (!rc && (!qp || qp->qp_st != MLX5_QP_ST_REG_UMR)) {
        sq_error(fw, sq, w, MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR, "UMR on a QP type without it");
        return false;
    }
    syndrome = mlx5_umr_exec(fw, qp, w->bytes, w->ds);
    if (syndrome) {
        sq_error(fw, sq, w, syndrome, "UMR WQE failed");
        return false;
    }
    if (rc) {
        mlx5_rc_post_local(fw, qp, w->index, w->opcode, w->fm_ce_se);
    } else {
        sq_complete(fw, sq, w, 0);
    }
    return true;
}

/* A WQE on a QP's send queue: its transport's requester. */
static bool sq_exec_qp(Mlx5Fw *fw, Mlx5Wq *sq, const SqWqe *w)
{
    Mlx5Wq *qp = mlx5_qp_get(fw, sq->num);
    uint8_t syndrome;

    if (w->opcode == MLX5_OPCODE_UMR) {
        return sq_exec_umr(fw, sq, qp, w);
    }
    if (qp && mlx5_ud_is_ud(qp)) {
        syndrome = mlx5_ud_post(fw, qp, w->bytes, w->opcode, w->ds, w->fm_ce_se);
        if (syndrome) {
            sq_error(fw, sq, w, syndrome, "UD send WQE failed");
            return false;
        }
        sq_complete(fw, sq, w, 0);      /* a datagram is done once sent */
        return true;
    }
    if (!qp || !mlx5_qp_st_is_rc(qp->qp_st)) {
        sq_error(fw, sq, w, MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR,
                 "opcode not supported on this QP type yet");
        return false;
    }
    syndrome = mlx5_rc_post(fw, qp, w->bytes, w->index, w->opcode, w->ds, w->fm_ce_se);
    if (syndrome) {
        sq_error(fw, sq, w, syndrome, "RC send WQE failed");
        return false;
    }
    return true;                        /* the completer writes its CQE */
}

static bool sq_exec(Mlx5Fw *fw, Mlx5Wq *sq, const SqWqe *w)
{
    mlx5emu_trace_sq_wqe(sq->num, w->index, w->opcode, w->ds, w->fm_ce_se);
    if (w->ds == 0 || w->ds * MLX5_DS_BYTES > MLX5_MAX_WQE_BYTES) {
        sq_error(fw, sq, w, MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR, "bad ds count");
        return false;
    }
    if (sq->is_qp_sq && w->opcode != MLX5_OPCODE_NOP) {
        return sq_exec_qp(fw, sq, w);
    }
    switch (w->opcode) {
    case MLX5_OPCODE_NOP:
        sq_complete(fw, sq, w, 0);
        return true;
    case MLX5_OPCODE_SEND:
    case MLX5_OPCODE_LSO:
        return sq_exec_send(fw, sq, w);
    default:
        sq_error(fw, sq, w, MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR, "opcode not supported");
        return false;
    }
}

void mlx5_sq_doorbell(Mlx5Fw *fw, uint32_t sqn, uint16_t wqe_counter)
{
    Mlx5Wq *sq = mlx5_table_get(&fw->wq, sqn);
    uint8_t dbr[4];
    uint16_t pc;

    if (sq && sq->kind == MLX5_WQ_QP) {
        sq = &sq->qp->sq;               /* a QP's send queue */
    }
    if (!sq || sq->kind != MLX5_WQ_SQ) {
        mlx5emu_trace_ub_sq_doorbell_unknown(sqn);
        mlx5_guest_error(fw, "doorbell for SQ 0x%x that does not exist", sqn);
        return;
    }
    mlx5emu_trace_sq_doorbell(sqn, wqe_counter, sq->state);
    if (sq->state == MLX5_RQC_STATE_ERR && sq->is_qp_sq) {
        mlx5_sq_flush(fw, sq);      /* posted to a QP in ERR: flushed */
        return;
    }
    if (sq->state != MLX5_RQC_STATE_RDY) {
        return;                     /* RST and ERR queues do not execute */
    }
    /* Ordering point: the doorbell record before any WQE. */
    if (mlx5_dma_read(fw, sq->dbr_addr + 4, dbr, 4)) {
        mlx5_guest_error(fw, "SQ 0x%x doorbell record not in guest memory", sqn);
        return;
    }
    pc = (uint16_t)prm_be32(dbr);
    if ((uint16_t)(pc - sq->hw_counter) > (1u << sq->ring.log_size)) {
        mlx5emu_trace_ub_sq_bad_pc(sqn, pc, sq->hw_counter);
        mlx5_guest_error(fw, "SQ 0x%x producer counter %u beyond the ring", sqn, pc);
        return;
    }
    while ((uint16_t)sq->hw_counter != pc && sq->state == MLX5_RQC_STATE_RDY) {
        SqWqe w;
        if (!sq_fetch(fw, sq, (uint16_t)sq->hw_counter, &w)) {
            mlx5_guest_error(fw, "SQ 0x%x: WQE not in guest memory", sqn);
            sq->state = MLX5_RQC_STATE_ERR;
            return;
        }
        /* A WQE may not extend past what the driver has posted. */
        if (wqe_blocks(&w) > (uint16_t)(pc - sq->hw_counter)) {
            sq_error(fw, sq, &w, MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR,
                     "WQE extends past the producer counter");
            return;
        }
        if (!sq_exec(fw, sq, &w)) {
            return;
        }
        sq->hw_counter = (uint16_t)(sq->hw_counter + wqe_blocks(&w));
    }
}

/* Only an RC or XRC QP flushes (IBA 10.3.1: ERR); the others' SQER keeps
 * posted WQEs for the driver's recovery. */
unsigned mlx5_sq_flush(Mlx5Fw *fw, Mlx5Wq *sq)
{
    Mlx5Wq *qp = mlx5_qp_get(fw, sq->num);
    uint8_t dbr[4];
    unsigned n = 0;
    uint16_t pc;

    if (!qp || qp->state != MLX5_QP_STATE_ERR || !sq->ring.npas ||
        mlx5_dma_read(fw, sq->dbr_addr + 4, dbr, 4)) {
        return 0;
    }
    pc = (uint16_t)prm_be32(dbr);
    if ((uint16_t)(pc - sq->hw_counter) > (1u << sq->ring.log_size)) {
        mlx5_guest_error(fw, "SQ 0x%x producer counter %u beyond the ring", sq->num, pc);
        return 0;
    }
    while ((uint16_t)sq->hw_counter != pc) {
        SqWqe w;
        if (!sq_fetch(fw, sq, (uint16_t)sq->hw_counter, &w)) {
            break;
        }
        sq_complete(fw, sq, &w, MLX5_CQE_SYNDROME_WR_FLUSH_ERR);
        sq->hw_counter = (uint16_t)(sq->hw_counter + MIN(wqe_blocks(&w),
                                                         (uint16_t)(pc - sq->hw_counter)));
        n++;
    }
    return n;
}
