/*
 * Unit-test harness: a fake platform around the firmware model alone
 * (h_new: firmware-sim's tests, linked without hw-rdma) or around a whole
 * Mlx5Device (h_new_device, harness-dev.h: the data path's tests).
 *
 * Concepts
 * --------
 * Harness plays the host and the guest driver at once:
 *   - the platform (Mlx5Platform): 16 MiB of fake guest RAM at GUEST_BASE
 *     (DMA outside it fails), MSI-X vectors and transmitted frames recorded,
 *     guest-error messages recorded, a clock the test sets;
 *   - the driver: commands built with PRM_SET on buffers sized to the
 *     command's layouts (HCmd), run either through mlx5_fw_exec() (bytes in,
 *     status out) or through the real command queue (a 64-byte entry and
 *     mailbox chains in fake RAM, cmd_dbell, mlx5_cmdif_run());
 *   - guest-side rings (EQ, CQ, SQ) in fake RAM with the driver's ownership
 *     rules, so tests read EQEs and CQEs as mlx5_core does.
 *
 * Failed commands go through h_fail(), which also checks the rules every
 * failure must keep: the PRM status and syndrome, a zeroed output body, no
 * object created or freed, nothing charged to the host-memory budget or
 * refunded, a guest-error message, and a device that still answers the
 * next command.
 */
#ifndef MLX5EMU_TEST_HARNESS_H
#define MLX5EMU_TEST_HARNESS_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "cmd.h"
/* The CQE and WQE formats the guest side reads and writes (layouts only:
 * hw-rdma's headers of hardware formats, no hw-rdma code). */
#include "cqe.h"
#include "wqe.h"

#define GUEST_BASE 0x100000ull
#define GUEST_SIZE (16u << 20)
#define MB_ARENA (GUEST_BASE + (10u << 20))     /* mailboxes: top 6 MiB */
#define H_MSIX_VECTORS 8
#define PAGE 4096u

/* Opcodes by their PRM names: OP_CREATE_EQ, ... */
#define H_OP_ENUM_(name, op, fn, in, out, needs) OP_##name = (op),
enum { MLX5_CMD_LIST(H_OP_ENUM_) };
#undef H_OP_ENUM_

/* Command-queue entry and mailbox geometry (PRM "Command Interface"). */
enum {
    CMD_ENT_TYPE = 0x00, CMD_ENT_INLEN = 0x04, CMD_ENT_IN_PTR = 0x08,
    CMD_ENT_IN = 0x10, CMD_ENT_OUT = 0x20, CMD_ENT_OUT_PTR = 0x30,
    CMD_ENT_OUTLEN = 0x38, CMD_ENT_TOKEN = 0x3c, CMD_ENT_STATUS_OWN = 0x3f,
    MBOX_DATA_BYTES = 512, MBOX_NEXT = 0x230, MBOX_BLOCK_NUM = 0x238,
    MBOX_TOKEN = 0x23d, MBOX_BYTES = 0x240, MBOX_STRIDE = 0x400,
    ISEG_CMDQ_H = 0x10, ISEG_CMDQ_L = 0x14, ISEG_CMD_DBELL = 0x18,
    POISON = 0xa5,
};

/* Queue states used across tests. */
enum { ST_RST = 0, ST_RDY = 1, ST_ERR = 3 };
/* EQE fields: EQE_* in fw.h. */

/* Headers of the Ethernet frames tests build (IEEE 802.3/802.1Q, RFC 791,
 * RFC 768, RFC 793): lengths, and offsets within each header. */
enum {
    ETH_HLEN = 14, ETH_TYPE = 12, VLAN_HLEN = 4, VLAN_TCI = 14,
    ETH_P_IP = 0x0800, ETH_P_IPV6 = 0x86dd, ETH_P_8021Q = 0x8100,
    IPV4_HLEN = 20, IPV4_TOT_LEN = 2, IPV4_TTL = 8, IPV4_PROTOCOL = 9, IPV4_CHECK = 10,
    IPV4_SADDR = 12, IPV4_DADDR = 16,
    IP_PROTO_TCP = 6, IP_PROTO_UDP = 17,
    UDP_HLEN = 8, UDP_SPORT = 0, UDP_DPORT = 2, UDP_LEN = 4, UDP_CHECK = 6,
    TCP_SEQ = 4, TCP_DOFF = 12, TCP_FLAGS = 13, TCP_CHECK = 16, /* data offset: bits 7:4, in 32-bit words */
    IPV4_ID = 4,
};

typedef struct HCmd {
    uint16_t opcode;
    uint8_t *in, *out;
    uint32_t inlen, outlen;
    uint32_t in_cap, out_cap;   /* allocated sizes */
    unsigned status;
    uint32_t syndrome;
} HCmd;

/* A guest ring: `nent` entries of `stride` bytes at guest address `gpa`. */
typedef struct HRing {
    uint32_t num;               /* eqn / cqn / sqn */
    uint64_t gpa;
    uint32_t log_size, stride;
    uint32_t ci;                /* EQ/CQ consumer counter; SQ producer counter */
    uint64_t dbr;               /* CQ/SQ doorbell record */
    uint8_t arm_sn;
    uint32_t last;              /* SQ: index of the last WQE written */
} HRing;

/* A command posted on the command queue: where its entry and mailboxes are. */
#define H_MAX_MBOX 4200
typedef struct HPosted {
    unsigned slot;
    uint64_t ent;
    uint32_t n_in, n_out;
    uint64_t *in_mb, *out_mb;
} HPosted;

typedef struct Harness Harness;
struct Harness {
    struct Mlx5Device *dev;     /* the whole device; NULL: the firmware alone */
    Mlx5Fw *fw;                 /* the firmware (the device's, or its own) */
    void (*free_device)(Harness *h);
    uint8_t *ram;
    bool ram_lent;              /* ram is the caller's (h_alloc_harness_on) */
    uint64_t brk;               /* bump allocator for rings and buffers */
    uint64_t mb_brk;            /* mailbox arena, reset when the queue is idle */
    uint64_t mb_top;            /* the arena's high-water mark (fuzz/platform.c clears to it) */
    unsigned posted;
    uint64_t clock_ns;
    uint64_t timer_ns;          /* the deadline last set on the device timer */
    GArray *msix;               /* unsigned vectors, in order raised */
    GPtrArray *frames;          /* GBytes */
    Mlx5TxOffload last_tx_offload;
    GPtrArray *guest_errors;    /* char * */
    GPtrArray *traced;          /* char *: "event text" of the watched trace events */
    char *trace_glob;
    /* Hostile platforms (harness-dev.c): DMA into [bar_window, + BAR0
     * size) reaches the device's own BAR0, as peer-to-peer DMA would;
     * every frame sent is also received at once, as through a hub. */
    uint64_t bar_window;
    int (*bar_dma)(Harness *h, uint64_t off, void *buf, size_t n, bool write);
    void (*tx_loop)(Harness *h, const uint8_t *frame, size_t len);
    uint64_t cmdq;
    bool via_cmdq;              /* h_exec uses the command queue */
    uint8_t ok_ops[0x1000];     /* opcodes that succeeded at least once */
    /* made by h_bringup() */
    uint32_t uar, pd, td;
    HRing async_eq, comp_eq;
};

/* The firmware alone, on the fake platform (h_new_board: with a board
 * configuration of the test's, e.g. h_board_config's with one change). */
Harness *h_new(void);
Harness *h_new_board(const Mlx5FwConfig *cfg);
/* The parts h_new_device (harness-dev.c) shares: a harness with its fake
 * RAM and records but no device yet; the platform table; the board. */
Harness *h_alloc_harness(void);
/* The same on GUEST_SIZE zeroed bytes the caller owns (the fuzzers reuse
 * theirs: fuzz/platform.c). */
Harness *h_alloc_harness_on(uint8_t *ram);
const Mlx5Platform *h_platform_table(void);
void h_board_config(Mlx5FwConfig *cfg);
void h_free(Harness *h);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Harness, h_free)

/* Fake guest RAM. */
uint64_t h_alloc(Harness *h, uint64_t bytes, uint64_t align);
void *h_gpa(Harness *h, uint64_t gpa);
void h_put32(Harness *h, uint64_t gpa, uint32_t v);   /* big-endian */
uint32_t h_get32(Harness *h, uint64_t gpa);
unsigned h_msix_count(Harness *h, unsigned vector);
unsigned h_nerrors(Harness *h);
/* Record the trace events whose names match `glob` (h_trace_watch), and
 * count those recorded whose "event text" contains `substr`: a test checks
 * why the device did something, in the words its trace gives users. */
void h_trace_watch(Harness *h, const char *glob);
unsigned h_traced(Harness *h, const char *substr);

/* Commands: buffers sized to the command's layouts, opcode/op_mod set. */
HCmd *hcmd_new(uint16_t opcode, uint16_t op_mod);
HCmd *hcmd_new_len(uint16_t opcode, uint16_t op_mod, uint32_t inlen, uint32_t outlen);
void hcmd_grow_in(HCmd *c, uint32_t inlen);
void hcmd_free(HCmd *c);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(HCmd, hcmd_free)
#define IN_SET(c, L, f, v) PRM_SET(L, f, (c)->in, (v))
#define OUT_GET(c, L, f) PRM_GET(L, f, (c)->out)
#define IN_PTR(c, L, f) PRM_PTR(L, f, (c)->in)
#define OUT_PTR(c, L, f) PRM_PTR(L, f, (c)->out)

/* Run through mlx5_fw_exec (or the queue when h->via_cmdq). */
unsigned h_exec(Harness *h, HCmd *c);
/* Run and require success; returns c for chaining. */
HCmd *h_ok(Harness *h, HCmd *c);
void h_ok_free(Harness *h, HCmd *c);
/* Run and require this failure, plus the failure invariants above. */
void h_fail(Harness *h, HCmd *c, unsigned status, uint32_t syndrome);
/* The device still answers: QUERY_ISSI works (or is refused as not enabled). */
void h_assert_usable(Harness *h);

/* The command queue. */
void h_cmdq_setup(Harness *h);
HPosted *h_cmdq_post(Harness *h, unsigned slot, const HCmd *c);
void h_cmdq_ring(Harness *h, uint32_t bits);
/* Copy the output back into c; returns the delivery status (bits 7:1). */
unsigned h_cmdq_collect(Harness *h, HPosted *p, HCmd *c);
void h_posted_free(HPosted *p);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(HPosted, h_posted_free)
unsigned h_exec_cmdq(Harness *h, HCmd *c, unsigned slot);

/* Driver-like bring-up. */
void h_enable(Harness *h);          /* ENABLE_HCA, ISSI, pages, caps */
void h_init(Harness *h);            /* + INIT_HCA, SET_DRIVER_VERSION */
void h_bringup(Harness *h);         /* + UAR, PD, TD, async EQ, comp EQ */
void h_port_up(Harness *h);         /* PAOS admin up (carrier is up) */
/* SET_HCA_CAP (general, MAX op_mod) of the current caps with one field changed. */
HCmd *h_set_general_cap(Harness *h, const char *field, uint64_t v);

/* Object helpers (all require success). */
uint32_t h_alloc_simple(Harness *h, uint16_t opcode);       /* UAR/PD/TD/XRCD/QCNT */
HCmd *h_create_eq_cmd(Harness *h, HRing *eq, uint32_t log_size, unsigned intr,
                      uint64_t mask);
HRing h_create_eq(Harness *h, uint32_t log_size, unsigned intr, uint64_t mask);
HCmd *h_create_cq_cmd(Harness *h, HRing *cq, uint32_t eqn, uint32_t log_size);
HRing h_create_cq(Harness *h, uint32_t eqn, uint32_t log_size);
/* MODIFY_CQ resizing `cq` to 2^log_size entries in a new ring, *fresh
 * (its entries invalid, as the drivers leave them; same CQN and dbr). */
HCmd *h_resize_cq_cmd(Harness *h, const HRing *cq, uint32_t log_size, HRing *fresh);
HCmd *h_create_sq_cmd(Harness *h, HRing *sq, uint32_t cqn, uint32_t log_size);
HRing h_create_sq(Harness *h, uint32_t cqn, uint32_t log_size);
HCmd *h_create_rq_cmd(Harness *h, HRing *rq, uint32_t cqn, uint32_t log_size);
HRing h_create_rq(Harness *h, uint32_t cqn, uint32_t log_size);
uint32_t h_create_tis(Harness *h);
uint32_t h_create_tir_direct(Harness *h, uint32_t rqn);
uint32_t h_create_rqt(Harness *h, const uint32_t *rqns, uint32_t n, uint32_t max);
uint32_t h_create_mkey(Harness *h, uint64_t start, uint64_t len, bool lr);
unsigned h_modify_sq(Harness *h, uint32_t sqn, unsigned from, unsigned to);
unsigned h_modify_rq(Harness *h, uint32_t rqn, unsigned from, unsigned to);
unsigned h_query_sq_state(Harness *h, uint32_t sqn);
HCmd *h_destroy_cmd(uint16_t opcode, uint32_t id);
void h_destroy(Harness *h, uint16_t opcode, uint32_t id);
HCmd *h_query_cmd(uint16_t opcode, uint32_t id);            /* QP/SRQ/XRC_SRQ/RMP */
HCmd *h_access_reg(Harness *h, unsigned op_mod, uint16_t reg_id, uint32_t data_bytes);

/* Queue pairs (firmware-sim/qp.c).  The QP buffer holds the receive queue
 * (2^log_rq WQEs of H_QP_RQ_STRIDE bytes), then the send queue; the HRing
 * returned is the send queue (num = qpn, dbr = the QP's doorbell record),
 * for h_sq_wqe()/h_sq_ring() once the QP is in RTS. */
#define H_QP_RQ_STRIDE 64u
HCmd *h_create_qp_cmd(Harness *h, HRing *sq, unsigned st, uint32_t pd, uint32_t cqn_snd,
                      uint32_t cqn_rcv, uint32_t uar, uint32_t log_sq, uint32_t log_rq);
HRing h_create_qp(Harness *h, unsigned st, uint32_t pd, uint32_t cqn_snd, uint32_t cqn_rcv,
                  uint32_t uar, uint32_t log_sq, uint32_t log_rq);
/* A modify command (RST2INIT_QP ... 2RST_QP, INIT2INIT_QP); the attributes
 * go into h_modify_qp_qpc(c) (2ERR/2RST ignore them). */
HCmd *h_modify_qp_cmd(uint16_t opcode, uint32_t qpn, uint32_t optpar);
uint8_t *h_modify_qp_qpc(HCmd *c);
unsigned h_modify_qp(Harness *h, uint16_t opcode, uint32_t qpn);    /* no attributes */
void h_qp_to_rts(Harness *h, uint32_t qpn);                         /* RST -> INIT -> RTR -> RTS */
HCmd *h_query_qp(Harness *h, uint32_t qpn);     /* qpc at OUT_PTR(c, query_qp_out, qpc) */
unsigned h_query_qp_state(Harness *h, uint32_t qpn);
/* Shared receive queues (firmware-sim/srq.c) of 2^log_size 64-byte WQEs on
 * h->pd; cqn may be 0 for a basic SRQ. */
HCmd *h_create_srq_cmd(Harness *h, uint32_t cqn, uint32_t log_size);
uint32_t h_create_srq(Harness *h, uint32_t cqn, uint32_t log_size);
HCmd *h_create_xrc_srq_cmd(Harness *h, uint32_t xrcd, uint32_t cqn, uint32_t log_size);
uint32_t h_create_xrc_srq(Harness *h, uint32_t xrcd, uint32_t cqn, uint32_t log_size);
HCmd *h_create_rmp_cmd(Harness *h, uint32_t log_size);                 /* created ready */
uint32_t h_create_rmp(Harness *h, uint32_t log_size);
/* The same, keeping the ring (gpa, dbr) for posting WQEs. */
HCmd *h_create_rmp_ring_cmd(Harness *h, HRing *ring, uint32_t log_size);
uint32_t h_create_rmp_ring(Harness *h, HRing *ring, uint32_t log_size);
HCmd *h_modify_rmp_cmd(uint32_t rmpn, unsigned from, unsigned to);
uint32_t h_create_flow_table(Harness *h, unsigned log_size, unsigned level);
uint32_t h_create_flow_group(Harness *h, uint32_t ft, uint32_t start, uint32_t end);
/* SET_FLOW_TABLE_ENTRY with `ndest` copies of one destination. */
enum { FT_ACTION_ALLOW = 0x1, FT_ACTION_DROP = 0x2, FT_ACTION_FWD = 0x4 };
enum { FT_DEST_VPORT = 0, FT_DEST_FLOW_TABLE = 1, FT_DEST_TIR = 2 };
HCmd *h_fte_cmd(unsigned op_mod, uint32_t ft, uint32_t group, uint32_t index,
                uint16_t action, uint8_t dest_type, uint32_t dest_id, uint32_t ndest);
/* Groups and entries on outer UDP ports: match parameters (criteria or
 * value) on the destination port (H_ON_DPORT), the source port
 * (H_ON_SPORT), both, or neither (a catch-all group); an entry with these
 * ports (also where its group does not look) forwarding to TIR `tir` with
 * flow tag `tag`. */
enum { H_ON_DPORT = 1, H_ON_SPORT = 2 };
void h_match_ports(uint8_t *param, unsigned which, uint16_t dport, uint16_t sport);
uint32_t h_create_flow_group_ports(Harness *h, uint32_t ft, uint32_t start, uint32_t end,
                                   unsigned which);
HCmd *h_fte_ports_cmd(unsigned op_mod, uint32_t ft, uint32_t fg, uint32_t index,
                      uint16_t dport, uint16_t sport, uint32_t tir, uint32_t tag);

/* Guest rings. */
const uint8_t *h_eq_next(Harness *h, HRing *eq);    /* next valid EQE or NULL */
void h_eq_arm(Harness *h, HRing *eq);
const uint8_t *h_cq_next(Harness *h, HRing *cq);    /* also updates the dbr */
/* The next CQE, which must be there with this opcode, WQE counter and QPN. */
const uint8_t *h_expect_cqe(Harness *h, HRing *cq, unsigned opcode, uint16_t wqe_counter,
                            uint32_t qpn);
/* Write a send WQE at the SQ's producer counter and advance it. */
uint8_t *h_sq_wqe(Harness *h, HRing *sq, uint8_t opcode, uint8_t ds, uint8_t fm_ce_se);
/* Fill a data segment (WQE_DATA_*) of a send or receive WQE. */
void h_data_seg(uint8_t *seg, uint32_t byte_count, uint32_t lkey, uint64_t addr);
uint64_t h_uar_addr(uint32_t uar, uint32_t off);

/* Register a test that runs in a child process with a timeout (seconds),
 * so a crash, abort or hang fails only this test.  Used for tests of
 * known core bugs: the rest of the program still runs. */
void h_add_isolated(const char *path, GTestFunc fn, unsigned timeout_s);
/* The same for a test of a known bug: while it fails, it is reported
 * incomplete (TAP "not ok # TODO") with `bug` as the reason. */
void h_add_known_bug(const char *path, GTestFunc fn, unsigned timeout_s, const char *bug);
/* h_add_isolated for a test of a table's row: fn(data). */
void h_add_isolated_data(const char *path, GTestDataFunc fn, gconstpointer data,
                         unsigned timeout_s);
/* And of a known bug (fuzz/replay.c: the fuzzers' findings). */
void h_add_known_bug_data(const char *path, GTestDataFunc fn, gconstpointer data,
                          unsigned timeout_s, const char *bug);

#endif
