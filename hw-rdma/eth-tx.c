/*
 * Ethernet transmit: the SEND and LSO WQEs of an Ethernet SQ (PRM
 * "Ethernet Segment"; Linux en/en_tx.c mlx5e_sq_xmit_wqe).
 *
 * The WQE is ctrl, the Ethernet segment (checksum flags, the MSS of an
 * LSO, then inline headers or a VLAN tag to insert), then data segments
 * through the PA key mlx5e created.  The device gathers the frame, counts
 * what goes on the wire and hands it to the platform with the offloads
 * the segment asks for (QEMU's net_tx_pkt fills checksums and cuts TSO
 * segments); a frame to one of the port's own addresses is also offered to
 * its receive path (rx.c mlx5_rx_loopback).
 *
 * An LSO WQE may carry 64 KiB at an MSS of 1: tens of thousands of frames,
 * which a NIC puts on the wire at the link's pace while other queues go
 * on.  Here a TCP LSO of more than MLX5_LSO_CHUNK_SEGS segments leaves as
 * chunks, each a smaller LSO frame of that many segments whose headers
 * are those its first segment gets (the IPv4 ID and TCP sequence number
 * moved on, FIN and PSH only on the last, CWR only on the first: what the
 * segmentation gives each segment, so the wire sees the same frames), as
 * far as the entry point's slice goes (sched.c); the SQ keeps how much of
 * the payload is out (lso_sent) and the rest goes on from the timer, the
 * WQE completing with its last chunk.
 */
#include <string.h>

#include "cqe.h"
#include "datapath.h"
#include "steering.h"

/* Header fields an LSO chunk rewrites (RFC 791, RFC 8200, RFC 9293). */
enum {
    IP4_TOTAL_LEN = 2, IP4_ID = 4, IP6_PAYLOAD_LEN = 4, IP6_HDR_BYTES = 40,
    TCP_SEQ = 4, TCP_DATA_OFF = 12, TCP_FLAGS = 13,
    TCP_FIN = 0x01, TCP_PSH = 0x08, TCP_CWR = 0x80,
};

/* The inline headers of the Ethernet segment, then the data segments.
 * `why` names what failed; the status says how (wqe.h). */
static Mlx5SglStatus eth_gather(Mlx5DataPath *dp, const Mlx5SendQueue *sq,
                                const Mlx5SendWqe *w, uint8_t *frame, size_t *len)
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
            return MLX5_SGL_BAD_INLINE;
        }
        memcpy(frame, eth + WQE_ETH_INLINE_HDR, ihs);
        *len = ihs;
    }
    for (uint32_t off = used; off + MLX5_DS_BYTES <= total; off += MLX5_DS_BYTES) {
        const uint8_t *seg = w->bytes + off;
        uint32_t bc = prm_be32(seg + WQE_DATA_BYTE_COUNT);
        Mlx5SglStatus st;

        if (bc > MLX5_MAX_FRAME_BYTES - *len) {
            return MLX5_SGL_TOO_LONG;
        }
        st = bc ? mlx5_sge_dma(dp->fw, sq->pd, prm_be32(seg + WQE_DATA_LKEY),
                               prm_be64(seg + WQE_DATA_ADDR), frame + *len, bc, false)
                : MLX5_SGL_OK;
        if (st != MLX5_SGL_OK) {
            return st;
        }
        *len += bc;
    }
    return MLX5_SGL_OK;
}

static bool frame_is_ipv4(const uint8_t *f, size_t len)
{
    uint16_t type = prm_be16(f + 12);

    if (type == 0x8100 && len >= 18) {
        type = prm_be16(f + 16);
    }
    return type == 0x0800;
}

/* The offloads the Ethernet segment asks for.  The L3 checksum flag means
 * the IPv4 header checksum: an IPv6 header has none (mlx5e sets the flag
 * for both). */
static void eth_offloads(const Mlx5SendWqe *w, const uint8_t *frame, size_t len,
                         Mlx5TxOffload *off)
{
    const uint8_t *eth = w->bytes + MLX5_DS_BYTES;
    uint8_t cs = eth[WQE_ETH_CS_FLAGS];

    memset(off, 0, sizeof(*off));
    off->ip_csum = (cs & MLX5_ETH_WQE_L3_CSUM) && frame_is_ipv4(frame, len);
    off->l4_csum = cs & MLX5_ETH_WQE_L4_CSUM;
    if (w->opcode == MLX5_OPCODE_LSO) {
        off->mss = prm_be16(eth + WQE_ETH_MSS);
    }
    if (prm_be16(eth + WQE_ETH_INSERT_TYPE) & MLX5_ETH_WQE_INSERT_VLAN) {
        off->vlan_insert = true;
        off->vlan_tci = prm_be16(eth + WQE_ETH_INSERT_VLAN_TCI);
    }
}

/* The length of the L2-L4 headers every segment of a TCP LSO frame
 * carries, or 0 if the frame is no TCP segment with payload (then it
 * leaves as one frame). */
static size_t lso_hdr_len(const uint8_t *frame, size_t len, Mlx5PktInfo *pi)
{
    uint8_t param[MLX5_MATCH_PARAM_BYTES];
    size_t hdr;

    mlx5_steer_parse(frame, len, param, pi);
    if (!pi->l4_off || pi->ip_protocol != 6 || !pi->l3_off ||
        len <= pi->l4_off + (size_t)TCP_FLAGS) {
        return 0;
    }
    hdr = pi->l4_off + (frame[pi->l4_off + TCP_DATA_OFF] >> 4) * 4u;
    return len > hdr ? hdr : 0;
}

/* Count what goes on the wire: an LSO WQE leaves as ceil(payload / MSS)
 * segments, each carrying a copy of the L2-L4 headers; an inserted VLAN tag
 * adds 4 bytes to every frame.  How many frames; their bytes (*wire). */
static size_t eth_count(Mlx5DataPath *dp, const uint8_t *frame, size_t len,
                        const Mlx5TxOffload *off, size_t *wire)
{
    size_t segs = 1, hdr = 0, bytes = len;
    Mlx5PktInfo pi;

    if (off->mss) {
        hdr = lso_hdr_len(frame, len, &pi);
        if (hdr) {
            segs = (len - hdr + off->mss - 1) / off->mss;
            bytes = len + (segs - 1) * hdr;
        }
    }
    if (off->vlan_insert) {
        bytes += 4 * segs;
    }
    mlx5_count_frames(&dp->fw->counters.phy_tx, frame, segs, bytes);
    mlx5_count_frames(&dp->fw->counters.vport_tx, frame, segs, bytes);
    *wire = bytes;
    return segs;
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

/* The transport domain an Ethernet SQ sends from: its TIS's. */
static uint32_t sq_td(Mlx5Fw *fw, const Mlx5SendQueue *sq)
{
    const Mlx5Sq *s = sq->qp ? NULL : (const Mlx5Sq *)((const char *)sq - offsetof(Mlx5Sq, sq));
    const Mlx5Tis *t = s && s->tisn ? mlx5_table_get(&fw->tis, s->tisn) : NULL;

    return t ? t->td : MLX5_TD_NONE;
}

/* One frame onto the wire: counted, charged to the slice and to the SQ's
 * pacing rate, handed to the platform with its offloads, offered to the
 * port's own receive path. */
static void eth_put(Mlx5DataPath *dp, Mlx5SendQueue *sq, const uint8_t *frame, size_t len,
                    const Mlx5TxOffload *off)
{
    size_t wire;

    mlx5_slice_take(dp, (uint32_t)eth_count(dp, frame, len, off, &wire));
    mlx5_sq_pace_sent(dp, sq, wire);
    dp->fw->plat->tx_frame(dp->fw->opaque, frame, len, off);
    mlx5_rx_loopback(dp, frame, len, sq_td(dp->fw, sq));
}

/* Payload bytes [at, at + n) of the LSO frame as a frame of their own,
 * with the headers the segment starting at `at` would carry. */
static size_t lso_chunk(uint8_t *out, const uint8_t *frame, size_t len, size_t hdr,
                        const Mlx5PktInfo *pi, uint16_t mss, size_t at, size_t n)
{
    uint8_t *ip = out + pi->l3_off, *tcp = out + pi->l4_off;

    memcpy(out, frame, hdr);
    memcpy(out + hdr, frame + hdr + at, n);
    if (pi->ip_version == 4) {
        prm_put_be16(ip + IP4_TOTAL_LEN, (uint16_t)(hdr - pi->l3_off + n));
        prm_put_be16(ip + IP4_ID, (uint16_t)(prm_be16(ip + IP4_ID) + at / mss));
    } else {
        prm_put_be16(ip + IP6_PAYLOAD_LEN, (uint16_t)(hdr - pi->l3_off - IP6_HDR_BYTES + n));
    }
    prm_put_be32(tcp + TCP_SEQ, (uint32_t)(prm_be32(tcp + TCP_SEQ) + at));
    if (at + n < len - hdr) {
        tcp[TCP_FLAGS] &= (uint8_t)~(TCP_FIN | TCP_PSH);
    }
    if (at) {
        tcp[TCP_FLAGS] &= (uint8_t)~TCP_CWR;
    }
    return hdr + n;
}

/* The LSO frame from payload byte *sent on, in chunks while the slice
 * lasts.  True when all of it is out (*sent back to 0). */
static bool lso_send_chunks(Mlx5DataPath *dp, Mlx5SendQueue *sq, const Mlx5SendWqe *w,
                            const uint8_t *frame, size_t len, size_t hdr,
                            const Mlx5PktInfo *pi, const Mlx5TxOffload *off, uint32_t *sent)
{
    g_autofree uint8_t *chunk = g_malloc(len);
    size_t payload = len - hdr, at = MIN(*sent, payload);
    size_t step = (size_t)MLX5_LSO_CHUNK_SEGS * off->mss;

    do {
        size_t n = MIN(step, payload - at);

        mlx5emu_trace_sq_lso_chunk(sq->num, w->index, (unsigned)at, (unsigned)n,
                                   (unsigned)payload);
        eth_put(dp, sq, chunk, lso_chunk(chunk, frame, len, hdr, pi, off->mss, at, n), off);
        at += n;
    } while (at < payload && mlx5_slice_left(dp));
    *sent = at < payload ? (uint32_t)at : 0;
    return at == payload;
}

uint8_t mlx5_eth_send(Mlx5DataPath *dp, Mlx5SendQueue *sq, const Mlx5SendWqe *w,
                      const char **why, bool *done)
{
    g_autofree uint8_t *frame = g_malloc(MLX5_MAX_FRAME_BYTES);
    Mlx5TxOffload off;
    Mlx5SglStatus st;
    Mlx5PktInfo pi;
    size_t len, hdr;

    *done = true;
    if (w->ds < 2) {
        *why = "SEND without an Ethernet segment";
        return MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR;
    }
    st = eth_gather(dp, sq, w, frame, &len);
    if (st != MLX5_SGL_OK) {
        *why = mlx5_sgl_status_name(st);
        return mlx5_sgl_syndrome(st);
    }
    if (len < 14) {
        *why = "frame shorter than an Ethernet header";
        return MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR;
    }
    eth_offloads(w, frame, len, &off);
    /* LSO without an MSS cannot be segmented.  No other floor: Linux TCP
     * sends an MSS as low as tcp_min_snd_mss (48) less its options (36 with
     * timestamps is seen after a reload), and a ConnectX takes any.  A WQE
     * carries at most 64 KiB, so one WQE is at most that many frames; each
     * is charged to the entry point's slice (eth_count). */
    if (w->opcode == MLX5_OPCODE_LSO && off.mss == 0) {
        *why = "LSO with an MSS of 0";
        return MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR;
    }
    if (!sq->lso_sent) {
        mlx5emu_trace_sq_send(sq->num, w->index, (unsigned)len, off.mss,
                              (off.ip_csum ? 1 : 0) | (off.l4_csum ? 2 : 0),
                              off.vlan_insert ? off.vlan_tci : 0);
    }
    if (!dp->fw->port_up) {
        return 0;
    }
    hdr = off.mss ? lso_hdr_len(frame, len, &pi) : 0;
    if (hdr && (len - hdr + off.mss - 1) / off.mss > MLX5_LSO_CHUNK_SEGS) {
        *done = lso_send_chunks(dp, sq, w, frame, len, hdr, &pi, &off, &sq->lso_sent);
    } else {
        eth_put(dp, sq, frame, len, &off);
    }
    return 0;
}
