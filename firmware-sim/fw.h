/*
 * The firmware model: the state behind the command interface.
 *
 * Concepts
 * --------
 * A ConnectX runs firmware that owns every object the driver creates and
 * answers the command queue (PRM "Command Interface").  Mlx5Fw is that
 * firmware: the init segment registers, the HCA life cycle (ENABLE_HCA ->
 * INIT_HCA -> TEARDOWN_HCA -> DISABLE_HCA), the capability profile, the
 * object tables, the port and vport state, and the event queues through
 * which it reports command completions and port changes.
 *
 * The entry points are bytes in, status out, so they can be driven by a
 * QEMU device, a unit test or a fuzzer alike:
 *   mlx5_fw_exec()          run one command on flat in/out buffers
 *   mlx5_cmdif_doorbell()   run the command-queue slots the driver rang
 *   mlx5_iseg_read/write()  the initialization segment (BAR0 0..0x2010)
 * The data path (hw-rdma) uses the same state through the accessors in
 * this header and posts events with mlx5_eq_post().
 */
#ifndef MLX5EMU_FW_H
#define MLX5EMU_FW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "flow.h"
#include "objects.h"
#include "platform.h"
#include "prm.h"
#include "mlx5emu-trace.h"

/* Command delivery status (entry status_own bits 7:1) and command status
 * (mbox_out.status), PRM "Command Interface" / Linux device.h. */
enum {
    MLX5_CMD_DELIV_OK = 0x0,
    MLX5_CMD_DELIV_BAD_BLK_NUM = 0x3,
    MLX5_CMD_DELIV_OUT_PTR_ALIGN = 0x4,
    MLX5_CMD_DELIV_IN_PTR_ALIGN = 0x5,
    MLX5_CMD_DELIV_FW_ERR = 0x6,
    MLX5_CMD_DELIV_IN_LENGTH = 0x7,
    MLX5_CMD_DELIV_OUT_LENGTH = 0x8,
    MLX5_CMD_DELIV_CMD_DESCR = 0x10,
};

#define MLX5_CMD_STATUS_LIST(X) \
    X(OK, 0x0) X(INT_ERR, 0x1) X(BAD_OP, 0x2) X(BAD_PARAM, 0x3) \
    X(BAD_SYS_STATE, 0x4) X(BAD_RES, 0x5) X(RES_BUSY, 0x6) X(NOT_READY, 0x7) \
    X(LIM_ERR, 0x8) X(BAD_RES_STATE, 0x9) X(IX_ERR, 0xa) X(NO_RES, 0xf) \
    X(BAD_QP_STATE, 0x10) X(BAD_PKT, 0x30) X(BAD_SIZE_OUTS_CQES, 0x40) \
    X(BAD_INP_LEN, 0x50) X(BAD_OUTP_LEN, 0x51)
#define MLX5_STATUS_ENUM_(n, v) MLX5_CMD_STAT_##n = (v),
enum { MLX5_CMD_STATUS_LIST(MLX5_STATUS_ENUM_) };
const char *mlx5_cmd_status_name(unsigned status);

/* Capability types (QUERY_HCA_CAP op_mod >> 1). */
enum {
    MLX5_CAP_GENERAL = 0x0,
    MLX5_CAP_ETHERNET_OFFLOADS = 0x1,
    MLX5_CAP_ODP = 0x2,
    MLX5_CAP_ATOMIC = 0x3,
    MLX5_CAP_ROCE = 0x4,
    MLX5_CAP_FLOW_TABLE = 0x7,
    MLX5_CAP_QOS = 0xc,
    MLX5_CAP_DEVICE_MEM = 0xf,
    MLX5_CAP_GENERAL_2 = 0x20,
    MLX5_CAP_TYPES = 0x40,
};
#define MLX5_CAP_BYTES 4096

/* The capability pages this device has, each with its slot in
 * Mlx5Fw.caps_max/caps_cur; QUERY_HCA_CAP of any other type is
 * BAD_CAP_TYPE (caps.c).  A page per slot, not per type: 64 types of
 * 4 KiB, twice, were 512 KiB to clear for every Mlx5Fw. */
#define MLX5_CAP_SLOTS 8
static inline int mlx5_cap_slot(unsigned type)
{
    switch (type) {
    case MLX5_CAP_GENERAL: return 0;
    case MLX5_CAP_ETHERNET_OFFLOADS: return 1;
    case MLX5_CAP_ATOMIC: return 2;
    case MLX5_CAP_ROCE: return 3;
    case MLX5_CAP_FLOW_TABLE: return 4;
    case MLX5_CAP_DEVICE_MEM: return 5;
    case MLX5_CAP_ODP: return 6;
    case MLX5_CAP_QOS: return 7;
    default: return -1;
    }
}

/* The slot of a page the device has: a caller's bug otherwise. */
static inline unsigned mlx5_cap_slot_of(unsigned type)
{
    int slot = mlx5_cap_slot(type);

    g_assert(slot >= 0);
    return (unsigned)slot;
}
/* A capability page, current (as SET_HCA_CAP left it) or maximum. */
#define MLX5_CAP_CUR(fw, type) ((fw)->caps_cur[mlx5_cap_slot_of(type)])
#define MLX5_CAP_MAX(fw, type) ((fw)->caps_max[mlx5_cap_slot_of(type)])

/* Event types (EQE.type), PRM "Events". */
enum {
    MLX5_EVENT_COMP = 0x00,
    MLX5_EVENT_COMM_EST = 0x02,
    MLX5_EVENT_CQ_ERROR = 0x04,
    MLX5_EVENT_WQ_INVAL_REQ_ERROR = 0x10,
    MLX5_EVENT_WQ_ACCESS_ERROR = 0x11,
    MLX5_EVENT_SRQ_LAST_WQE = 0x13,
    MLX5_EVENT_SRQ_RQ_LIMIT = 0x14,
    MLX5_EVENT_PORT_CHANGE = 0x09,
    MLX5_EVENT_CMD = 0x0a,
    MLX5_EVENT_PAGE_REQUEST = 0x0b,
    MLX5_EVENT_PAGE_FAULT = 0x0c,
};
enum { MLX5_PORT_CHANGE_DOWN = 1, MLX5_PORT_CHANGE_ACTIVE = 4 };
/* The queue kind in a QP/SRQ event (mlx5_eqe_qp_srq.type): mlx5_core finds
 * QPs, SRQs and XRC SRQs under 0, RMPs under 1 (ib/qpc.c, ib/devx.c). */
enum { MLX5_EVENT_QUEUE_QP = 0, MLX5_EVENT_QUEUE_RQ = 1 };

#define MLX5_EQE_BYTES 64
/* A CQE: 64 bytes, or the second half of a 128-byte one (hw-rdma/cqe.h
 * has its fields; the firmware writes one itself, MODIFY_CQ's RESIZE). */
#define MLX5_CQE_BYTES 64
/* EQE fields (PRM "Event Queue Entry"; Linux device.h struct mlx5_eqe and
 * the members of its data union, which starts at EQE_DATA: mlx5_eq_post
 * takes the union's EQE_DATA_BYTES, so a member goes at FIELD - EQE_DATA). */
enum {
    EQE_TYPE = 0x01, EQE_SUB_TYPE = 0x03, EQE_DATA = 0x20, EQE_OWNER = 0x3f,
    EQE_DATA_BYTES = 28,
    EQE_CQ_ERR_CQN = 0x20,          /* mlx5_eqe_cq_err: cqn (24 bits) */
    EQE_CQ_ERR_SYNDROME = 0x2b,     /*   syndrome (1: overrun) */
    EQE_PORT = 0x28,                /* mlx5_eqe_port_state: port, bits 7:4 */
    EQE_QP_SRQ_TYPE = 0x34,         /* mlx5_eqe_qp_srq: MLX5_EVENT_QUEUE_QP / _RQ */
    EQE_QP_SRQ_NUMBER = 0x38,       /*   qp_srq_n (24 bits) */
    EQE_COMP_CQN = 0x38,            /* mlx5_eqe_comp: cqn (24 bits) */
    EQE_CMD_VECTOR = 0x20,          /* mlx5_eqe_cmd: the completed slots */
};
#define MLX5_MAX_EQ 256              /* EQ numbers are u8 in the driver */
#define MLX5_CMDQ_LOG_SZ 5
#define MLX5_CMDQ_LOG_STRIDE 6
#define MLX5_CMDQ_SLOTS (1u << MLX5_CMDQ_LOG_SZ)
/* UAR pages end where device memory starts (platform.h). */
#define MLX5_MAX_UAR_INDEX (MLX5_MEMIC_BAR_OFFSET / 4096 - 1)
#define MLX5_MAX_PAGES (1u << 20)    /* pages a driver may give (4 GiB) */
#define MLX5_GID_TABLE_SIZE 256
/* PMTU max_mtu; the driver's netdev max is this minus 22 (L2 hard MTU). */
#define MLX5_PORT_MAX_MTU 10000
#define MLX5_MAX_UC_LIST 128
#define MLX5_MAX_MC_LIST 128
/* Bound on one command's input/output (mailbox chains): far above what
 * the drivers send (the largest is a CREATE_MKEY page list), small enough
 * that a guest cannot make the host allocate without limit. */
#define MLX5_CMD_MAX_LEN (16u + 512u * 4096u)
/* The default host-memory budget (Mlx5Fw.host_mem): this much for each of
 * the 2^log_max_qp QPs the device advertises, 512 MiB at log_max_qp 18.
 * That holds every QP the caps allow at the size of a small one (a UD QP
 * with one-page rings: its context, page lists and data-path state, about
 * 1.3 KiB), some thousands of RC QPs of a few hundred send slots (160
 * bytes of data-path state a slot: copies of the WQEs in flight), or a
 * few hundred of the largest objects the caps allow (a CQ of 2^22
 * 128-byte CQEs has a 1 MiB page list, an RC QP of 2^15 send slots about
 * 5 MiB), while what the drivers create at probe (EQs, queues per channel,
 * a few hundred flow groups and entries of a few hundred bytes each)
 * stays a small part of it. */
#define MLX5_HOST_MEM_PER_QP 2048u

/* Ring geometry shared by EQs, CQs and work queues: entry i lives at
 * byte (i << log_stride) of a buffer described by a guest page list. */
/* The page_offset field of queue contexts (cqc, eqc, qpc, srqc, wq) counts
 * in 1/64ths of the queue's page: 64 bytes for 4 KiB pages, 2 KiB for
 * 128 KiB pages (Linux __mlx5_umem_find_best_quantized_pgoff, scale 64).
 * Page sizes outside 4 KiB..1 GiB give UINT32_MAX, which no page list
 * covers (the callers refuse such page sizes anyway). */
static inline uint32_t mlx5_page_offset_bytes(uint32_t field, unsigned log_page_size)
{
    if (log_page_size < 12 || log_page_size > 30 || field > 63) {
        return UINT32_MAX;
    }
    return field << (log_page_size - 6);
}

/* A ring's page list: up to MLX5_RING_INLINE_PAS addresses in the ring
 * itself (a driver's rings mostly take one to four pages), longer ones on
 * the heap in blocks of at least MLX5_RING_HEAP_MIN_PAS.  Not a small
 * block per ring: glibc keeps freed blocks of up to 128 bytes in "fast"
 * bins, unmerged, and merges them all at once later - after a reset
 * retired 2^18 QPs that was one 45 ms call (docs/security.md). */
#define MLX5_RING_INLINE_PAS 4
#define MLX5_RING_HEAP_MIN_PAS 32

typedef struct Mlx5Ring {
    uint64_t *pas;              /* page addresses: pas_inline or the heap */
    uint32_t npas;
    uint64_t pas_inline[MLX5_RING_INLINE_PAS];
    uint8_t log_page_size;      /* in bytes (12 = 4 KiB) */
    uint32_t page_offset;       /* bytes into the first page */
    uint8_t log_size;           /* entries */
    uint8_t log_stride;         /* bytes per entry */
} Mlx5Ring;

typedef struct Mlx5Eq {
    uint32_t eqn;
    Mlx5Ring ring;
    uint64_t event_bitmask[4];
    uint32_t uar_page;
    uint16_t intr;              /* MSI-X vector */
    uint32_t pi;                /* producer counter */
    uint32_t ci;                /* consumer counter from the doorbell */
    bool armed;
    uint64_t overflows;
} Mlx5Eq;

/* cqc.cq_period_mode: when the moderation period starts (mlx5_ifc.h). */
enum { MLX5_CQ_PERIOD_MODE_START_FROM_EQE = 0, MLX5_CQ_PERIOD_MODE_START_FROM_CQE = 1 };

typedef struct Mlx5Cq {
    uint32_t cqn;
    Mlx5Ring ring;
    uint8_t cqe_sz;             /* cqc.cqe_sz as created (cmd.h MLX5_CQE_SIZE_*) */
    uint8_t cqe_comp_en, mini_cqe_res_format;   /* asked for; no CQE is ever compressed */
    uint32_t eqn;
    uint32_t uar_page;
    uint64_t dbr_addr;
    uint32_t pi;
    uint32_t arm_ci;
    uint8_t arm;                /* 0: disarmed, 1: next, 2: solicited */
    uint8_t arm_sn;
    uint16_t cq_period, cq_max_count;   /* event moderation: us, CQEs */
    uint8_t cq_period_mode;     /* MLX5_CQ_PERIOD_MODE_START_FROM_EQE / _CQE */
    bool in_error;
} Mlx5Cq;

/* States of an SQ, RQ or RMP (sqc/rqc/rmpc.state). */
enum { MLX5_RQC_STATE_RST = 0, MLX5_RQC_STATE_RDY = 1, MLX5_RQC_STATE_ERR = 3 };

/* QP service types and states (qpc.st, qpc.state; Linux qp.h). */
enum {
    MLX5_QP_ST_RC = 0x0, MLX5_QP_ST_UC = 0x1, MLX5_QP_ST_UD = 0x2, MLX5_QP_ST_XRC = 0x3,
    MLX5_QP_ST_QP0 = 0x7, MLX5_QP_ST_QP1 = 0x8, MLX5_QP_ST_REG_UMR = 0xc,
};
/* The reliable-connected service types, the RC transport's (hw-rdma/rc*.c):
 * RC, and XRC, which is RC with a shared receive side (IBA A14). */
static inline bool mlx5_qp_st_is_rc(unsigned st)
{
    return st == MLX5_QP_ST_RC || st == MLX5_QP_ST_XRC;
}
/* The connected service types, which the RC engine runs (hw-rdma/rc*.c):
 * the reliable ones, and UC - the same packets without acknowledgements
 * (IBA 9.8.2: a UC requester never waits, a UC responder never answers). */
static inline bool mlx5_qp_st_is_connected(unsigned st)
{
    return mlx5_qp_st_is_rc(st) || st == MLX5_QP_ST_UC;
}
/* The datagram service types, the UD transport's (hw-rdma/ud.c): UD and
 * the GSI QP (st QP1). */
static inline bool mlx5_qp_st_is_ud(unsigned st)
{
    return st == MLX5_QP_ST_UD || st == MLX5_QP_ST_QP1;
}
enum {
    MLX5_QP_STATE_RST = 0, MLX5_QP_STATE_INIT = 1, MLX5_QP_STATE_RTR = 2,
    MLX5_QP_STATE_RTS = 3, MLX5_QP_STATE_SQER = 4, MLX5_QP_STATE_SQD = 5,
    MLX5_QP_STATE_ERR = 6,
};

typedef struct Mlx5Qp Mlx5Qp;

/*
 * SQs, RQs and QPs share one 24-bit number space (PRM), the `wq` table.
 * Each of the three objects starts with its number and its kind, so a
 * number names exactly one of them (mlx5_sq_get, mlx5_rq_get, mlx5_qp_get).
 */
typedef enum { MLX5_QUEUE_SQ, MLX5_QUEUE_RQ, MLX5_QUEUE_QP } Mlx5QueueKind;
typedef struct Mlx5QueueHead {
    uint32_t num;
    Mlx5QueueKind kind;
} Mlx5QueueHead;

/* A page fault a queue raised (hw-rdma/odp.c): whether one is out, its
 * type and token (what PAGE_FAULT_RESUME names), and what it named - a
 * WQE's index (key), or an RDMA target's rkey and address.  refused (a
 * responder's only: a send queue's WQE fails instead): the driver resumed
 * it with error, so the same fault again is not raised. */
typedef struct Mlx5PageFault {
    bool pending;
    bool refused;
    uint8_t type;
    uint32_t token;
    uint32_t key;
    uint64_t va;
} Mlx5PageFault;

/* A ring of send WQEs the device executes: an Ethernet SQ's (CREATE_SQ) or
 * a QP's send queue.  The driver's producer counter is the doorbell
 * record's second word, dbr_addr + 4 (Linux MLX5_SND_DBR). */
typedef struct Mlx5SendQueue {
    uint32_t num;               /* the SQN, or the number of its QP */
    uint8_t state;              /* MLX5_RQC_STATE_*; a QP's follows the QP state */
    uint32_t cqn;
    uint32_t pd;                /* whose keys its WQEs may name */
    uint64_t dbr_addr;
    Mlx5Ring ring;              /* 64-byte basic blocks */
    uint32_t hw_counter;        /* the next basic block the device executes */
    uint32_t lso_sent;          /* payload bytes of the LSO WQE at hw_counter
                                 * already on the wire (hw-rdma eth-tx.c) */
    uint32_t user_index;        /* its CQEs' srqn_uidx (CQE version 1) */
    uint32_t uar_page;          /* the UAR page its doorbells come through */
    Mlx5Qp *qp;                 /* the QP it belongs to; NULL: an Ethernet SQ */
    /* Ethernet SQs: the packet pacing rate it sends at (sqc
     * packet_pacing_rate_limit_index: an entry of the rate table, qos.c;
     * 0 unlimited), and when its next frame may leave (hw-rdma/pacing.c,
     * the data path's clock). */
    uint16_t rate_index;
    uint64_t pace_at;
    /* A page fault the WQE at hw_counter raised: the queue stalls until
     * PAGE_FAULT_RESUME names it. */
    Mlx5PageFault pf;
} Mlx5SendQueue;

/* A ring of receive WQEs: an Ethernet RQ's (CREATE_RQ) or a QP's own
 * receive queue; the producer counter is at dbr_addr + 0 (MLX5_RCV_DBR). */
typedef struct Mlx5RecvQueue {
    uint32_t cqn;
    uint32_t pd;
    uint64_t dbr_addr;
    Mlx5Ring ring;              /* npas 0: none (a QP on an SRQ, or zero length) */
    uint32_t hw_counter;        /* the next WQE the device fills */
    uint32_t user_index;        /* its CQEs' srqn_uidx (CQE version 1) */
} Mlx5RecvQueue;

/* CREATE_SQ: an Ethernet send queue (mlx5e), transmitting through a TIS. */
typedef struct Mlx5Sq {
    uint32_t num;
    Mlx5QueueKind kind;         /* MLX5_QUEUE_SQ */
    Mlx5SendQueue sq;
    uint32_t tisn;
    uint8_t min_wqe_inline_mode;
} Mlx5Sq;

/* CREATE_RQ: an Ethernet receive queue (mlx5e), fed by TIRs. */
typedef struct Mlx5Rq {
    uint32_t num;
    Mlx5QueueKind kind;         /* MLX5_QUEUE_RQ */
    uint8_t state;              /* MLX5_RQC_STATE_* */
    Mlx5RecvQueue rq;
    uint8_t counter_set_id;     /* Q counter for out-of-buffer drops */
    bool vsd;                   /* VLAN stripping disabled */
} Mlx5Rq;

/* CREATE_QP: a queue pair.  Its context as the driver established it is
 * kept as PRM bytes (read with PRM_GET(qpc, ...)); the state the data path
 * keeps while it runs the QP is its own, behind `dp`. */
struct Mlx5Qp {
    uint32_t num;
    Mlx5QueueKind kind;         /* MLX5_QUEUE_QP */
    uint8_t st;                 /* service type, MLX5_QP_ST_* */
    uint8_t state;              /* MLX5_QP_STATE_* */
    uint32_t pd;
    uint8_t qpc[PRM_qpc_BITS / 8];
    Mlx5SendQueue sq;
    Mlx5RecvQueue rq;           /* the QP buffer's first part */
    void *dp;                   /* the data path's state (Mlx5DataPathOps.qp_created) */
    uint64_t dp_bytes;          /* the most that state holds, charged with the QP */
};
_Static_assert(offsetof(Mlx5Sq, kind) == offsetof(Mlx5QueueHead, kind), "SQ head");
_Static_assert(offsetof(Mlx5Rq, kind) == offsetof(Mlx5QueueHead, kind), "RQ head");
_Static_assert(offsetof(Mlx5Qp, kind) == offsetof(Mlx5QueueHead, kind), "QP head");

/* Shared receive queues: SRQ (ISSI 0), XRC SRQ and RMP (ISSI 1) share one
 * number space; a QP names one in srqn_rmpn_xrqn. */
typedef enum { MLX5_SRQ_BASIC, MLX5_SRQ_XRC, MLX5_SRQ_RMP } Mlx5SrqKind;
/* The limits they count against (Mlx5TableCost.kind): SRQs and XRC SRQs
 * log_max_srq, RMPs log_max_rmp. */
enum { MLX5_SRQ_LIMIT_SRQ, MLX5_SRQ_LIMIT_RMP };
typedef struct Mlx5Srq {
    uint32_t num;
    Mlx5SrqKind kind;
    uint8_t state;              /* RMP: MLX5_RQC_STATE_*; SRQs are ready */
    uint32_t pd, cqn, xrcd, user_index;
    uint16_t lwm;               /* limit event watermark (ARM_RQ); 0: disarmed */
    uint64_t dbr_addr;
    Mlx5Ring ring;
    uint32_t hw_counter;        /* WQEs taken (the doorbell record counts posted) */
    uint16_t head;              /* the next WQE to take: a linked list from 0 */
    Mlx5PageFault pf;           /* the one its head WQE raised */
} Mlx5Srq;

/* mkc.access_mode: how a key translates addresses - itself (PA), through
 * a page list (MTT), or through other keys (KLMS: entries of any length;
 * KSM: entries of 2^log_page_size bytes each). */
enum {
    MLX5_MKC_ACCESS_MODE_PA = 0, MLX5_MKC_ACCESS_MODE_MTT = 1,
    MLX5_MKC_ACCESS_MODE_KLMS = 2, MLX5_MKC_ACCESS_MODE_KSM = 3,
    MLX5_MKC_ACCESS_MODE_MEMIC = 5,
};
/* An MTT entry's low bits (PRM "mtt": rd_en, wr_en; mlx5_ib
 * MLX5_IB_MTT_READ/WRITE): the page may be read, written.  A device that
 * pages (cmd_hca_cap.pg) takes a missing bit for a page not present
 * (docs/odp-driver-map.md 4.1); the address is the bits above the page
 * size. */
enum { MLX5_MTT_RD_EN = 1u << 0, MLX5_MTT_WR_EN = 1u << 1 };

/* The null mkey (PRM QUERY_SPECIAL_CONTEXTS null_mkey; firmware-sim/odp.c):
 * an indirect key's entry naming it has no translation yet - while the
 * device pages, an access landing there is a page fault, as on an absent
 * MTT entry.  mlx5_ib fills an implicit ODP MR's KSM list with it
 * (odp.c populate_klm) until a child MR covers the slot.  It is MKey
 * index 1, which no CREATE_MKEY hands out (hca.c fw_tables_init), with
 * key byte 1: 0x100 beside it is the invalid lkey ending a scatter list. */
#define MLX5_NULL_MKEY 0x101u

static inline bool mlx5_mkey_mode_indirect(unsigned mode)
{
    return mode == MLX5_MKC_ACCESS_MODE_KLMS || mode == MLX5_MKC_ACCESS_MODE_KSM;
}

typedef struct Mlx5Mkey {
    uint32_t index;
    uint8_t key8;
    uint32_t pd;
    uint8_t access_mode;
    bool lr, lw, rr, rw, a, length64;
    uint64_t start_addr, len;
    uint32_t qpn;
    bool free;                  /* not usable: waits for a UMR to enable it */
    bool umr_en;                /* a UMR WQE may change it (hw-rdma/umr.c) */
    bool en_rinval;             /* a remote SEND with invalidate may free it */
    /* MTT keys: address start_addr + i lands in page (i + start_addr's
     * offset in its page) >> log_page_size of the list.  Indirect keys
     * (KLMS, KSM) keep their list in the same 8-byte slots, two an entry
     * as the guest wrote it: byte_count << 32 | key, then the address. */
    uint8_t log_page_size;
    uint32_t nmtt;              /* slots loaded (mtt[0..nmtt)) */
    uint32_t mtt_cap;           /* slots the key was created to hold */
    uint64_t *mtt;
    uint64_t *klm_end;          /* KLMS: where entry i ends in the key (NULL: to compute) */
    Mlx5HostMem *mtt_mem;       /* the budget its entries are charged to (Mlx5Fw.host_mem) */
} Mlx5Mkey;

void mlx5_mkey_destroy(gpointer mkey);
/* Make room for MTT entries [0, n) of an MTT key (new ones zero, "not
 * present"), within its capacity and the device's host-memory budget
 * (8 bytes an entry); false if not. */
bool mlx5_mkey_mtt_grow(Mlx5Mkey *mk, uint64_t n);
/* The list's slots were written: what is derived from them goes. */
void mlx5_mkey_list_changed(Mlx5Mkey *mk);

typedef struct Mlx5Tis { uint32_t tisn, td; uint8_t prio; } Mlx5Tis;
/* UAR pages, PDs, transport and XRC domains: a number and nothing else. */
typedef struct Mlx5Res { uint32_t id; } Mlx5Res;


/* Q counters the device keeps, each a query_q_counter_out field of the
 * same name (mlx5_ib counters.c reads them as a port's hw_counters; which
 * event increments which: the comments at MLX5_QCNT_* users and
 * docs/counters.md).  The ones of the layout that no driver shows, and the
 * DC and adaptive-retransmission ones, the device never increments. */
#define MLX5_Q_COUNTERS(X) \
    X(rx_write_requests) X(rx_read_requests) X(rx_atomic_requests) \
    X(out_of_buffer) X(out_of_sequence) X(duplicate_request) \
    X(rnr_nak_retry_err) X(packet_seq_err) X(implied_nak_seq_err) \
    X(local_ack_timeout_err) X(req_rnr_retries_exceeded) \
    X(resp_local_length_error) X(resp_cqe_error) X(req_cqe_error) \
    X(req_remote_invalid_request) X(req_remote_access_errors) \
    X(resp_remote_access_errors) X(req_transport_retries_exceeded) \
    X(resp_cqe_flush_error) X(req_cqe_flush_error)
typedef enum {
#define MLX5_QCNT_ENUM(name) MLX5_QCNT_##name,
    MLX5_Q_COUNTERS(MLX5_QCNT_ENUM)
#undef MLX5_QCNT_ENUM
    MLX5_QCNT__COUNT
} Mlx5QCnt;

/* Q counter: what QUERY_Q_COUNTER reports for the RQs and QPs that name
 * it (rqc/qpc counter_set_id); free-running 32-bit counts. */
typedef struct Mlx5QCounter {
    uint32_t id;
    uint32_t count[MLX5_QCNT__COUNT];
} Mlx5QCounter;

typedef struct Mlx5Tir {
    uint32_t tirn, td;
    uint8_t disp_type;
    uint32_t inline_rqn, indirect_table;
    uint8_t rx_hash_fn;
    bool rx_hash_symmetric;
    uint8_t self_lb_block;
    uint8_t toeplitz_key[40];
    uint32_t hash_sel_outer;
} Mlx5Tir;

typedef struct Mlx5Rqt {
    uint32_t rqtn;
    uint32_t max_size, actual_size;
    uint32_t *rqn;
} Mlx5Rqt;

/* Flow tables, groups and entries: flow.h. */

typedef struct Mlx5RoceAddr {
    bool valid;
    uint8_t l3[16];
    uint8_t mac[6];
    uint8_t roce_version, l3_type;
    uint16_t vlan_id;
    bool vlan_valid;
} Mlx5RoceAddr;

/* Frames and octets by destination address kind. */
enum { MLX5_CAST_UNICAST, MLX5_CAST_MULTICAST, MLX5_CAST_BROADCAST, MLX5_CAST_KINDS };
typedef struct Mlx5Traffic {
    uint64_t frames[MLX5_CAST_KINDS];
    uint64_t octets[MLX5_CAST_KINDS];
} Mlx5Traffic;

/* Traffic counted by the data path.  The physical port (PPCNT) sees every
 * frame on the wire, accepted or not; the function's vport
 * (QUERY_VPORT_COUNTER, the driver's rx/tx_vport_*) sees what it sent and
 * what its receive steering accepted, self loopback included.  RoCE
 * packets a QP sent or took are the vport's RDMA traffic, not its
 * Ethernet traffic (QUERY_VPORT_COUNTER's *_ib_* counters: mlx5e's
 * rx/tx_vport_rdma_*, mlx5_ib's PMA PortCountersExtended; the kernel's
 * mlx5 counters.rst: "excluding RDMA traffic").  Octets are the frame
 * without FCS, as the frames travel between QEMU NICs. */
typedef struct Mlx5PortCounters {
    Mlx5Traffic phy_rx, phy_tx;
    Mlx5Traffic vport_rx, vport_tx;
    Mlx5Traffic vport_rdma_rx, vport_rdma_tx;
    uint64_t rx_out_of_buffer;  /* accepted but no receive WQE: PPCNT discards */
    /* RoCEv2 frames for us that no QP took: malformed or truncated
     * headers, bad ICRC, no such QP, wrong Q_Key (hw-rdma mlx5_roce_discard);
     * PPCNT if_in_discards too, ethtool's rx_discards_phy */
    uint64_t rx_roce_discards;
    uint64_t rx_steer_miss;     /* the NIC RX flow tables did not accept it */
} Mlx5PortCounters;

static inline uint64_t mlx5_traffic_frames(const Mlx5Traffic *t)
{
    return t->frames[0] + t->frames[1] + t->frames[2];
}

static inline uint64_t mlx5_traffic_octets(const Mlx5Traffic *t)
{
    return t->octets[0] + t->octets[1] + t->octets[2];
}

/*
 * The data path (hw-rdma) as the firmware sees it.  The firmware creates,
 * changes and frees the objects; the data path runs them and keeps, in
 * state of its own, what it needs while it does (transport state, timers,
 * held frames).  The firmware tells it through these calls, and keeps the
 * pointer qp_created returns in Mlx5Qp.dp without looking into it.  A
 * firmware without a data path (its unit tests) has no table.
 */
typedef struct Mlx5DataPathOps {
    /* The most host memory the data path will keep for `qp` (its
     * transport state, the send WQEs it copies) while it runs it: charged
     * to the device's budget with the QP, before qp_created. */
    uint64_t (*qp_bytes)(void *dp, const Mlx5Qp *qp);
    /* A QP was created: the data path's state for it (Mlx5Qp.dp). */
    void *(*qp_created)(void *dp, Mlx5Qp *qp);
    /* A modify command, or a send error, took the QP from one state to
     * another (MLX5_QP_STATE_*; from may equal to, e.g. RTS2RTS). */
    void (*qp_state_changed)(void *dp, Mlx5Qp *qp, unsigned from, unsigned to);
    /* The QP goes (DESTROY_QP, or every QP at a reset): free Mlx5Qp.dp. */
    void (*qp_destroyed)(void *dp, Mlx5Qp *qp);
    /* The CQ goes (DESTROY_CQ). */
    void (*cq_destroyed)(void *dp, Mlx5Cq *cq);
    /* Every object is about to be retired (TEARDOWN_HCA, DISABLE_HCA,
     * ENABLE_HCA after an error, FLR, power-on): drop what is queued for
     * them, at once whatever their number.  Their QPs' state is freed
     * later, through qp_destroyed, and must no longer be in use. */
    void (*reset)(void *dp);
    /* A reset left retired objects to free (Mlx5Fw.retired): call
     * mlx5_fw_reclaim, a slice's worth at a time, until none are left. */
    void (*reclaim_later)(void *dp);
    /* PAGE_FAULT_RESUME: the fault of page-fault type `type` on work
     * queue `wq` with `token` is resolved (error: it cannot be); false if
     * no such fault is outstanding. */
    bool (*page_fault_resume)(void *dp, unsigned type, uint32_t wq, uint32_t token, bool error);
} Mlx5DataPathOps;

enum { MLX5_HCA_DISABLED, MLX5_HCA_ENABLED, MLX5_HCA_INITIALIZED };

/* Object tables, in the order a reset reports them. */
#define MLX5_OBJ_TABLES(X) \
    X(uar) X(pd) X(td) X(xrcd) X(q_counter) X(mkey) X(eq) X(cq) X(wq) \
    X(tis) X(tir) X(rqt) X(flow_table) X(flow_group) X(srq)

/* Device memory (MEMIC, memic.c): MLX5_MEMIC_BAR_BYTES at
 * MLX5_MEMIC_BAR_OFFSET of BAR0, handed out by ALLOC_MEMIC in granules of
 * MLX5_MEMIC_GRANULE bytes (mlx5_ib rounds every allocation to them:
 * MLX5_MEMIC_BASE_SIZE).  Two bitmaps of granules: allocated, and first
 * of an allocation (DEALLOC_MEMIC must name one whole allocation). */
#define MLX5_MEMIC_GRANULE 64u
#define MLX5_MEMIC_GRANULES (MLX5_MEMIC_BAR_BYTES / MLX5_MEMIC_GRANULE)
typedef struct Mlx5Memic {
    uint8_t *bytes;             /* MLX5_MEMIC_BAR_BYTES */
    bool own;                   /* bytes are ours, not Mlx5FwConfig.memic */
    uint64_t used[MLX5_MEMIC_GRANULES / 64];
    uint64_t head[MLX5_MEMIC_GRANULES / 64];
    uint32_t allocations;
} Mlx5Memic;

/* Packet pacing (qos.c): the rate table SET_PP_RATE_LIMIT fills, which
 * Ethernet SQs name by index (sqc packet_pacing_rate_limit_index); index
 * 0 is "no limit" and holds no rate (mlx5_core rl.c mlx5_rl_table_get). */
#define MLX5_PP_RATE_TABLE_SIZE 128u
typedef struct Mlx5PpRate {
    uint32_t rate_kbps;         /* 0: the entry is not set */
    uint32_t burst_bytes;       /* burst_upper_bound; 0: one frame */
    uint16_t typical_bytes;     /* typical_packet_size (a hint) */
} Mlx5PpRate;

typedef struct Mlx5Fw {
    const Mlx5Platform *plat;
    void *opaque;
    Mlx5FwConfig cfg;

    /* initialization segment */
    uint32_t cmdq_addr_h, cmdq_addr_l;
    uint32_t health_counter;
    uint8_t nic_interface;
    uint64_t ready_at_ns;       /* "initializing" clears at this clock time */

    /* HCA */
    int hca_state;
    uint16_t issi;
    uint8_t caps_max[MLX5_CAP_SLOTS][MLX5_CAP_BYTES];  /* MLX5_CAP_MAX() */
    uint8_t caps_cur[MLX5_CAP_SLOTS][MLX5_CAP_BYTES];  /* MLX5_CAP_CUR() */
    uint32_t cmd_eqn;           /* EQ subscribed to command completions */
    bool have_cmd_eq;

    /* objects */
#define MLX5_TABLE_FIELD_(n) Mlx5Table n;
    MLX5_OBJ_TABLES(MLX5_TABLE_FIELD_)
    uint32_t flow_root[8];      /* root table id per table_type, 0 = none */
    bool flow_root_set[8];
    uint32_t flow_ftes;         /* entries in all flow tables (bounded: log_max_flow) */

    /* port and vport */
    uint8_t paos_admin;         /* 1 up, 2 down */
    bool link_carrier;          /* cable side: the platform's link */
    bool port_up;               /* oper status reported to the driver */
    uint16_t admin_mtu;
    uint16_t vport_mtu;
    bool roce_en;
    bool promisc_uc, promisc_mc, promisc_all;
    uint8_t uc_list[MLX5_MAX_UC_LIST][6];
    uint32_t uc_count;
    uint8_t mc_list[MLX5_MAX_MC_LIST][6];
    uint32_t mc_count;
    Mlx5RoceAddr gid[MLX5_GID_TABLE_SIZE];
    char node_desc[64];
    Mlx5PortCounters counters;
    GHashTable *mcg;            /* multicast GID (GBytes) -> GArray of attached UD QPNs */
    /* What the objects above hold of host memory (objects.h Mlx5HostMem;
     * limit: Mlx5FwConfig.host_mem_budget or MLX5_HOST_MEM_PER_QP for each
     * QP the device advertises). */
    Mlx5HostMem host_mem;
    /* Objects a reset took out of their tables and that are not yet
     * freed (objects.h Mlx5RetiredTable, oldest first): still charged to
     * host_mem. */
    GQueue retired;
    /* The data path (hw-rdma) as the firmware sees it. */
    const Mlx5DataPathOps *dp_ops;
    void *dp;
    bool pause_rx, pause_tx;

    /* device memory (memic.c) */
    Mlx5Memic memic;
    /* packet pacing (qos.c) */
    Mlx5PpRate pp_rate[MLX5_PP_RATE_TABLE_SIZE];

    /* pages given with MANAGE_PAGES, returned on TAKE */
    uint64_t *pages;
    uint32_t npages;
    /* command slots rung and not yet run; which of them get an EQE */
    uint32_t cmd_pending, cmd_pending_event;

    /* rate limit for guest-error messages */
    uint64_t gerr_window_start;
    unsigned gerr_in_window;
} Mlx5Fw;

/* Power-on.  `fw` is zeroed memory (g_new0): a fresh allocation's pages
 * stay untouched until used, so the 512 KiB of capability pages of the
 * types that do not exist cost nothing (a fuzz input makes a device). */
void mlx5_fw_init(Mlx5Fw *fw, const Mlx5Platform *plat, void *opaque,
                  const Mlx5FwConfig *cfg);
void mlx5_fw_fini(Mlx5Fw *fw);
/* Function-level reset / power-on: free every object, back to DISABLED.
 * Returns how many objects were freed. */
unsigned mlx5_fw_reset(Mlx5Fw *fw, const char *why);
unsigned mlx5_fw_object_count(const Mlx5Fw *fw);
/* Retired objects (Mlx5Fw.retired): free at most `max`, oldest table
 * first; how many were freed.  A reset frees MLX5_RECLAIM_INLINE of them
 * itself and leaves the rest to Mlx5DataPathOps.reclaim_later. */
#define MLX5_RECLAIM_INLINE 128u
unsigned mlx5_fw_reclaim(Mlx5Fw *fw, unsigned max);
unsigned mlx5_fw_retired_count(const Mlx5Fw *fw);

/* Run one command: `in` holds inlen bytes (header first), `out` has room
 * for outlen bytes.  Returns the command status (also in out[0]). */
unsigned mlx5_fw_exec(Mlx5Fw *fw, const uint8_t *in, uint32_t inlen,
                      uint8_t *out, uint32_t outlen);

/* Command queue: the driver wrote `bits` to cmd_dbell.  The slots are
 * queued; mlx5_cmdif_run() executes them (the platform calls it off the
 * MMIO path, e.g. from a bottom half). */
void mlx5_cmdif_doorbell(Mlx5Fw *fw, uint32_t bits);
void mlx5_cmdif_run(Mlx5Fw *fw);
/* True when rung slots wait for mlx5_cmdif_run(). */
bool mlx5_cmdif_pending(const Mlx5Fw *fw);

/* Initialization segment (offset relative to BAR0, size 1, 2 or 4). */
uint32_t mlx5_iseg_read(Mlx5Fw *fw, uint32_t off, unsigned size);
void mlx5_iseg_write(Mlx5Fw *fw, uint32_t off, uint32_t val, unsigned size);
void mlx5_iseg_tick(Mlx5Fw *fw);        /* health counter */
/* The device's free-running clock (iseg internal_timer, CQE timestamps)
 * ticks at MLX5_DEVICE_FREQ_KHZ (cmd_hca_cap.device_frequency_khz): 1 GHz,
 * one tick a nanosecond of the platform's clock. */
#define MLX5_DEVICE_FREQ_KHZ 1000000u
static inline uint64_t mlx5_device_clock(Mlx5Fw *fw)
{
    return fw->plat->clock_ns(fw->opaque);
}
#define MLX5_ISEG_SIZE 0x2010
/* After power-on, FLR or DISABLE_HCA the firmware boots for this long with
 * "initializing" set; the driver polls it every 2 ms (Linux main.c
 * wait_fw_init). */
#define MLX5_FW_BOOT_NS (10 * 1000 * 1000ull)

/* Capabilities (caps.c). */
void mlx5_caps_init(Mlx5Fw *fw);
/* The PRM layout of capability page `type` (cmd_hca_cap, roce_cap, ...),
 * NULL for a type this device has no page of. */
const char *mlx5_cap_layout_name(unsigned type);
/* How many entries of the profile write a field an earlier one wrote (0). */
unsigned mlx5_caps_overlaps(void);
/* The capabilities changed (reset, SET_HCA_CAP): each object kind's limit
 * follows the current ones (hca.c). */
void mlx5_fw_limits_update(Mlx5Fw *fw);
#define MLX5_CAP_GET(fw, type, layout, field) \
    PRM_GET(layout, field, MLX5_CAP_CUR(fw, type))

/* Device memory (memic.c). */
void mlx5_memic_init(Mlx5Fw *fw);
void mlx5_memic_fini(Mlx5Fw *fw);
/* Every allocation freed and the bytes cleared (reset, ENABLE/DISABLE_HCA);
 * how many allocations there were. */
unsigned mlx5_memic_reset(Mlx5Fw *fw);
/* Whether bytes [off, off + len) of the window (an offset into it, not
 * into BAR0) are all allocated. */
bool mlx5_memic_allocated(Mlx5Fw *fw, uint64_t off, uint64_t len);
/* Copy bytes [off, off + len) of the window if they are all allocated;
 * false otherwise, nothing copied. */
bool mlx5_memic_rw(Mlx5Fw *fw, uint64_t off, void *buf, uint64_t len, bool write);

/* Packet pacing (qos.c). */
/* Every rate of the table cleared (reset); how many were set. */
unsigned mlx5_pp_rate_reset(Mlx5Fw *fw);
/* The rate an SQ's index names: NULL for index 0, an index past the
 * table or an entry not set - the SQ then sends unlimited. */
const Mlx5PpRate *mlx5_pp_rate(const Mlx5Fw *fw, uint16_t index);

/* Event queues (eq.c). */
void mlx5_eq_post(Mlx5Fw *fw, Mlx5Eq *eq, uint8_t type, uint8_t sub_type,
                  const uint8_t data[EQE_DATA_BYTES]);
/* To the first EQ subscribed to `type`: false if none is. */
bool mlx5_eq_post_async(Mlx5Fw *fw, uint8_t type, uint8_t sub_type,
                        const uint8_t data[EQE_DATA_BYTES]);
void mlx5_eq_doorbell(Mlx5Fw *fw, uint32_t uar_page, uint32_t val, bool arm);
/* resources.c: true if a doorbell on UAR page `page` may move the queue
 * (`kind` `num`) created with page `owner`; else traced and logged. */
bool mlx5_uar_page_owns(Mlx5Fw *fw, const char *kind, uint32_t num, uint32_t owner,
                        uint32_t page);
/* A QP or SRQ affiliated event (mlx5_eqe_qp_srq) on the async EQ. */
void mlx5_eq_post_qp_srq(Mlx5Fw *fw, uint8_t type, uint32_t num, uint8_t queue_kind);
void mlx5_eq_destroy(gpointer eq);
/* Object destructors (table callbacks). */
void mlx5_cq_destroy(gpointer cq);
void mlx5_queue_destroy(gpointer queue);
void mlx5_srq_destroy(gpointer srq);
/* The SQ, RQ or QP number `num` names (NULL: none, or another kind). */
Mlx5Sq *mlx5_sq_get(const Mlx5Fw *fw, uint32_t num);
Mlx5Rq *mlx5_rq_get(const Mlx5Fw *fw, uint32_t num);
Mlx5Qp *mlx5_qp_get(const Mlx5Fw *fw, uint32_t num);
/* Install the data path (hw-rdma, at device init). */
void mlx5_fw_set_datapath(Mlx5Fw *fw, const Mlx5DataPathOps *ops, void *dp);
/* Multicast groups (mcg.c): is the GID multicast; the table; the QPNs
 * attached to `gid` (NULL: none); all attachments; a destroyed QP leaves
 * its groups. */
bool mlx5_gid_is_multicast(const uint8_t gid[16]);
GHashTable *mlx5_mcg_table_new(void);
const GArray *mlx5_mcg_members(const Mlx5Fw *fw, const uint8_t gid[16]);
unsigned mlx5_mcg_count(const Mlx5Fw *fw);
void mlx5_mcg_qp_gone(Mlx5Fw *fw, uint32_t qpn);
/* Count one event in Q counter set `set_id` (0 or a freed set: nowhere;
 * resources.c), or in the set a QP's context names. */
void mlx5_q_counter_inc(Mlx5Fw *fw, uint32_t set_id, Mlx5QCnt which);
void mlx5_qp_count(Mlx5Fw *fw, const Mlx5Qp *qp, Mlx5QCnt which);
/* A send WQE of `qp` completed in error (hw-rdma): the QP state machine's
 * answer (qp.c; IBA 10.3.1: RC and XRC to ERR, the others to SQER). */
void mlx5_qp_send_error(Mlx5Fw *fw, Mlx5Qp *qp);
void mlx5_rqt_destroy(gpointer rqt);
/* What the objects of the variable-size kinds cost (objects.h; hca.c
 * charges the tables with them). */
extern const Mlx5TableCost mlx5_eq_cost, mlx5_cq_cost, mlx5_queue_cost, mlx5_srq_cost,
    mlx5_rqt_cost;

/* Rings (eq.c): guest address of entry `idx`, or false if out of range. */
bool mlx5_ring_entry_addr(const Mlx5Ring *r, uint32_t idx, uint64_t *addr);
/* The same for a CQ's ring: where CQE `idx`'s 64 bytes go - the second
 * half of a 128-byte entry. */
bool mlx5_cqe_addr(const Mlx5Ring *r, uint32_t idx, uint64_t *addr);
/* The host memory a ring's page list holds beyond the ring itself. */
static inline uint64_t mlx5_ring_bytes(const Mlx5Ring *r)
{
    return r->npas <= MLX5_RING_INLINE_PAS
        ? 0 : (uint64_t)MAX(r->npas, MLX5_RING_HEAP_MIN_PAS) * sizeof(*r->pas);
}
/* Read a page list of n 64-bit addresses from a command's input. */
bool mlx5_ring_init(Mlx5Ring *r, const uint8_t *pas, uint64_t avail_bytes,
                    uint8_t log_size, uint8_t log_stride,
                    uint8_t log_page_size, uint32_t page_offset);
void mlx5_ring_fini(Mlx5Ring *r);
/* dst lets its page list go and takes src's ring; src is left empty. */
void mlx5_ring_replace(Mlx5Ring *dst, Mlx5Ring *src);

/* Port (port.c). */
void mlx5_port_set_carrier(Mlx5Fw *fw, bool carrier);
void mlx5_port_update(Mlx5Fw *fw);

/* Rate-limited LOG_GUEST_ERROR. */
void mlx5_guest_error(Mlx5Fw *fw, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

/* Guest memory, bounded by the platform. */
static inline int mlx5_dma_read(Mlx5Fw *fw, uint64_t a, void *b, size_t n)
{
    return fw->plat->dma_read(fw->opaque, a, b, n);
}
static inline int mlx5_dma_write(Mlx5Fw *fw, uint64_t a, const void *b, size_t n)
{
    return fw->plat->dma_write(fw->opaque, a, b, n);
}

#endif
