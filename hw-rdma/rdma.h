/*
 * The data-path engine.
 *
 * Concepts
 * --------
 * Mlx5Device is the whole device as the platform sees it: the firmware
 * model (firmware-sim) plus the data path (this library).  The platform
 * hands it BAR0 accesses and received frames:
 *
 *   mlx5_dev_mmio_read/write   BAR0: init segment below 0x2010, UAR pages
 *                              (doorbells) from MLX5_FIRST_UAR_INDEX up
 *   mlx5_dev_run_commands      execute rung command slots (off the MMIO path)
 *
 * UAR page layout (Linux uar.c, cq.h, eq.c, en/txrx.h):
 *   +0x20        CQ arm doorbell, 64 bit: sn<<28 | cmd<<24 | ci, cqn
 *   +0x40/+0x48  EQ consumer index with / without re-arm: eqn<<24 | ci
 *   +0x800...    four BlueFlame registers of bf_reg_size (512) bytes, two
 *                halves each; the first 8 bytes written to a half are the
 *                doorbell (the WQE control segment's first 8 bytes).
 * 64-bit doorbells may arrive as two 32-bit writes: they are latched.
 */
#ifndef MLX5EMU_RDMA_H
#define MLX5EMU_RDMA_H

#include "fw.h"

typedef struct Mlx5Device {
    Mlx5Fw fw;
    /* high halves of 64-bit doorbells written as two 32-bit accesses */
    uint64_t latch_addr;
    uint32_t latch_hi;
    bool latch_valid;
} Mlx5Device;

void mlx5_dev_init(Mlx5Device *d, const Mlx5Platform *plat, void *opaque,
                   const Mlx5FwConfig *cfg);
void mlx5_dev_fini(Mlx5Device *d);
unsigned mlx5_dev_reset(Mlx5Device *d, const char *why);

uint64_t mlx5_dev_mmio_read(Mlx5Device *d, uint64_t addr, unsigned size);
void mlx5_dev_mmio_write(Mlx5Device *d, uint64_t addr, uint64_t val, unsigned size);
/* True when command slots wait for mlx5_dev_run_commands(). */
bool mlx5_dev_commands_pending(const Mlx5Device *d);
void mlx5_dev_run_commands(Mlx5Device *d);
/* The platform timer (Mlx5Platform.timer_set) expired. */
void mlx5_dev_timer(Mlx5Device *d);
/* The platform's link carrier changed. */
void mlx5_dev_set_link(Mlx5Device *d, bool up);
/* A frame arrived from the wire.  false: no receive WQE yet, offer it
 * again once mlx5_dev_rx_retry() says so (a lossless link holds it). */
bool mlx5_dev_receive(Mlx5Device *d, const uint8_t *frame, size_t len);
/* True once if a held frame may now find a WQE (after a doorbell). */
bool mlx5_dev_rx_retry(Mlx5Device *d);

/* CQs (cq.c) */
void mlx5_cq_arm_doorbell(Mlx5Fw *fw, uint32_t cqn, uint32_t dw0);
/* Write one CQE (64 bytes, op_own's owner bit is filled in) to the CQ. */
bool mlx5_cq_post(Mlx5Fw *fw, Mlx5Cq *cq, uint8_t cqe[64], bool solicited);

/* A frame the platform's offload engine produced (checksums filled in,
 * TSO segments cut): a TCP checksum that came out as 0xffff becomes 0x0000,
 * the one's-complement zero a NIC computes (RFC 1624; QEMU's net_tx_pkt
 * writes UDP's non-zero form for TCP too, which tshark flags as bad).
 * UDP keeps 0xffff: 0 there means "no checksum" (sq.c). */
void mlx5_tx_finish_segment(uint8_t *frame, size_t len);

/* The platform timer fired: raise the held CQ events that are due (cq.c);
 * the next deadline (UINT64_MAX: none). */
uint64_t mlx5_cq_moderation_expire(Mlx5Fw *fw);

/* Count `frames` frames of `octets` in all, all to the destination MAC
 * of `frame` (device.c). */
void mlx5_count_frames(Mlx5Traffic *t, const uint8_t *frame, uint64_t frames, uint64_t octets);

/* RC transport (rc*.c).  Take one send WQE of an RC QP (0, or the error
 * CQE syndrome to fail it with now); take a RoCEv2 frame (false: not
 * RoCEv2, the Ethernet path's), from the wire or `looped` back from this
 * port (never on the wire: not in the physical counters). */
uint8_t mlx5_rc_post(Mlx5Fw *fw, Mlx5Wq *w, const uint8_t *wqe, uint16_t index,
                     uint8_t opcode, unsigned ds, uint8_t fm_ce_se);
/* A WQE that sends nothing (a UMR, already applied): its CQE comes in
 * send-queue order, after those of the WQEs before it (mlx5_ib cq.c
 * retires every WQE up to a CQE's wqe_counter). */
void mlx5_rc_post_local(Mlx5Fw *fw, Mlx5Wq *w, uint16_t index, uint8_t opcode,
                        uint8_t fm_ce_se);
/* UMR (umr.c): apply a UMR WQE of QP `qp` to the key it names; 0, or
 * the error CQE syndrome (the key is then unchanged). */
uint8_t mlx5_umr_exec(Mlx5Fw *fw, const Mlx5Wq *qp, const uint8_t *wqe, unsigned ds);
bool mlx5_rc_receive(Mlx5Fw *fw, const uint8_t *frame, size_t len, bool looped);
/* A RoCEv2 frame no QP takes (malformed, bad ICRC, no such QP, wrong
 * Q_Key): dropped, traced and counted in the port's discards (rc.c). */
void mlx5_roce_discard(Mlx5Fw *fw, const char *why);
/* UD and GSI QPs (ud.c): is it one; take one send WQE (0, or the
 * syndrome to fail it with; the caller writes its CQE); take a datagram
 * that parsed as RoCEv2 UD. */
bool mlx5_ud_is_ud(const Mlx5Wq *w);
uint8_t mlx5_ud_post(Mlx5Fw *fw, Mlx5Wq *w, const uint8_t *wqe, uint8_t opcode, unsigned ds,
                     uint8_t fm_ce_se);
struct Mlx5RocePkt;
void mlx5_ud_receive(Mlx5Fw *fw, const uint8_t *frame, const struct Mlx5RocePkt *p);
/* Trace a MAD the GSI QP sends or receives (mad.c; decoded, not trusted). */
void mlx5_mad_trace(const uint8_t *mad, size_t len, bool send, unsigned peer_qpn);
/* Install the data path's QP-error hook (flush); at device init. */
void mlx5_rc_init(Mlx5Fw *fw);
/* Run the RC timers that are due; the next deadline (UINT64_MAX: none). */
uint64_t mlx5_rc_timer_expire(Mlx5Fw *fw);
/* Receive the RoCE frames this port sent to itself (rc.c); the next
 * deadline (UINT64_MAX: none left). */
uint64_t mlx5_rc_loopback_run(Mlx5Fw *fw);
/* Is the frame's destination MAC this port's (or multicast while a UD QP
 * is in a group)? (rx.c) */
bool mlx5_rx_for_us(const Mlx5Fw *fw, const uint8_t *f);

/* Count an error CQE of QP `qp` (syndrome 0: none) in its Q counter set
 * (rq.c). */
void mlx5_count_cqe_error(Mlx5Fw *fw, const Mlx5Wq *qp, uint8_t syndrome, bool requester);

/* Receive WQEs of QPs (rq.c): the next one posted to the QP's receive
 * queue or its SRQ (false: none), without or with taking it; take a peeked
 * one; the same from a given SRQ (XRC: the packet names it); scatter `len`
 * bytes at message offset `off` into it; its total length; its responder
 * CQE; flush a QP's (and the WQE a message was filling) at ERR: how many. */
typedef enum { MLX5_SCATTER_OK, MLX5_SCATTER_LENGTH, MLX5_SCATTER_PROT } Mlx5ScatterStatus;
typedef struct Mlx5RespCqe {
    uint8_t op, syndrome;       /* MLX5_CQE_RESP_*, error syndrome */
    uint32_t byte_cnt, imm, flags_rqpn;
    bool se;                    /* solicited: may raise a solicited-armed CQ's event */
    bool vlan;                  /* the frame was tagged: vlan_tci into the CQE */
    uint16_t vlan_tci;
} Mlx5RespCqe;
bool mlx5_rq_peek(Mlx5Fw *fw, Mlx5Wq *w, Mlx5RecvWqe *r);
bool mlx5_rq_take(Mlx5Fw *fw, Mlx5Wq *w, Mlx5RecvWqe *r);
void mlx5_rq_advance(Mlx5Fw *fw, Mlx5Wq *w, const Mlx5RecvWqe *r);
bool mlx5_srq_peek(Mlx5Fw *fw, Mlx5Srq *s, const Mlx5Wq *w, Mlx5RecvWqe *r);
Mlx5ScatterStatus mlx5_rq_scatter(Mlx5Fw *fw, const Mlx5RecvWqe *r, uint32_t off,
                                  const uint8_t *data, size_t len);
uint32_t mlx5_rq_wqe_capacity(Mlx5Fw *fw, const Mlx5RecvWqe *r);
void mlx5_rq_cqe(Mlx5Fw *fw, Mlx5Wq *w, const Mlx5RecvWqe *r, const Mlx5RespCqe *c);
unsigned mlx5_rq_flush(Mlx5Fw *fw, Mlx5Wq *w, Mlx5RecvWqe *taken);
/* Flush what was posted since to the QPs in ERR; the next deadline. */
uint64_t mlx5_rq_err_poll(Mlx5Fw *fw);

/* The lists of queue numbers the timer visits (fw->rc_timed,
 * fw->rq_err_watched) hold each number once: add `num` unless it is there. */
static inline void mlx5_num_list_add(GArray *list, uint32_t num)
{
    for (guint i = 0; i < list->len; i++) {
        if (g_array_index(list, uint32_t, i) == num) {
            return;
        }
    }
    g_array_append_val(list, num);
}

/* The platform timer is shared (device.c): fire no later than `deadline`. */
void mlx5_timer_request(Mlx5Fw *fw, uint64_t deadline);

/* MKeys (mkey.c). */
typedef enum { MLX5_MKEY_OK, MLX5_MKEY_PROT, MLX5_MKEY_NO_MEM } Mlx5MkeyStatus;
/* Who touches the memory and how: the rights (lr, lw, rr, rw, a) checked;
 * an atomic reads and writes under the atomic right. */
typedef enum {
    MLX5_MKEY_LOCAL_READ, MLX5_MKEY_LOCAL_WRITE, MLX5_MKEY_REMOTE_READ, MLX5_MKEY_REMOTE_WRITE,
    MLX5_MKEY_REMOTE_READ_ATOMIC, MLX5_MKEY_REMOTE_WRITE_ATOMIC,
} Mlx5MkeyAccess;
/* The key `key` names, if it is usable by PD `pd`: it exists, its key
 * byte matches, it is that PD's and not free; NULL otherwise. */
Mlx5Mkey *mlx5_mkey_usable(Mlx5Fw *fw, uint32_t key, uint32_t pd);
/* Copy `len` bytes between `buf` and the memory key `key` of PD `pd` at
 * `addr` (the write accesses: into guest memory), after the access checks.
 * PROT: the key does not allow it; NO_MEM: it translates outside RAM. */
Mlx5MkeyStatus mlx5_mkey_dma(Mlx5Fw *fw, uint32_t key, uint32_t pd, uint64_t addr,
                             void *buf, uint32_t len, Mlx5MkeyAccess acc);

/* An 8-byte atomic at `va` (compare-and-swap or fetch-and-add); *orig
 * gets the value found there. */
Mlx5MkeyStatus mlx5_mkey_atomic(Mlx5Fw *fw, uint32_t key, uint32_t pd, uint64_t va,
                                bool cmp_swap, uint64_t swap_add, uint64_t compare,
                                uint64_t *orig);

/* Send WQE data segments (wqe.c), from segment `first` of `ds`: the
 * message length (0, or LOCAL_LENGTH_ERR for inline data past the WQE or
 * where inline is not allowed); copy bytes [off, off + n) of the message
 * to (write false: gather) or from (write: scatter) buf through the lkeys
 * of PD pd. */
uint8_t mlx5_wqe_msg_len(const uint8_t *wqe, unsigned ds, unsigned first, bool inline_ok,
                         uint64_t *len);
bool mlx5_wqe_sgl(Mlx5Fw *fw, uint32_t pd, const uint8_t *wqe, unsigned ds, unsigned first,
                  uint32_t off, uint8_t *buf, uint32_t n, bool write);

/* Receive (rx.c): steer one frame from the wire to an RQ.  Returns false
 * (and sets fw->rx_waiting) if `may_wait` and the RQ has no WQE yet: the
 * caller keeps the frame and offers it again later. */
bool mlx5_rx_frame(Mlx5Fw *fw, const uint8_t *frame, size_t len, bool may_wait);
/* A frame this function sent: loop it back to itself where the PRM says. */
void mlx5_rx_loopback(Mlx5Fw *fw, const uint8_t *frame, size_t len);

/* Send queues (sq.c) */
void mlx5_sq_doorbell(Mlx5Fw *fw, uint32_t sqn, uint16_t wqe_counter);
/* A QP's send queue in ERR: complete its posted WQEs with WR_FLUSH_ERR;
 * how many. */
unsigned mlx5_sq_flush(Mlx5Fw *fw, Mlx5Wq *sq);

#endif
