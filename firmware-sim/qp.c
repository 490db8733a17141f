/*
 * Queue pairs: CREATE_QP, the modify commands of the QP state machine,
 * QUERY_QP, DESTROY_QP (PRM "QP Context"; IBA 10.3.1 QP states, 11.2.4.2
 * Modify QP).
 *
 * Concepts
 * --------
 * A QP lives in the work-queue table (QPs, SQs and RQs share a number
 * space) as an Mlx5Qp: the QP context the driver established, kept as PRM
 * bytes (one owner: every attribute is read back from it with PRM_GET),
 * its state, its send queue and its receive queue.  The QP buffer holds the receive queue first (2^log_rq_size WQEs
 * of 16 << log_rq_stride bytes, none with an SRQ or a zero-length RQ) and
 * the send queue after it (2^log_sq_size 64-byte basic blocks); the doorbell
 * record has the receive counter at +0 and the send counter at +4.
 *
 * Each modify command starts from one state and leads to one state
 * (RST2INIT: RST -> INIT, ..., 2ERR: any -> ERR, 2RST: any -> RST).  It
 * copies into the context the attributes IBA 11.2.4.2 lets that
 * transition set: its required attributes, and the optional ones its
 * opt_param_mask names (MLX5_QP_OPTPAR_*, Linux qp.h).
 *
 * The data path (hw-rdma) runs the QP: it hears of its creation, of every
 * state change and of its end through Mlx5DataPathOps, and keeps its
 * transport state (PSNs, WQEs in flight, timers) itself.
 */
#include <string.h>

#include "cmd.h"

/* --- context attributes per transition ------------------------------- */

/* A qpc field, or a field of its primary address path. */
typedef struct QpcField { unsigned off, width; } QpcField;
#define QPC(f) { PRM_OFF(qpc, f), PRM_W(qpc, f) }
#define QPC_AP(f) { PRM_OFF(qpc, primary_address_path) + PRM_OFF(ads, f), PRM_W(ads, f) }

/* opt_param_mask bits (MLX5_QP_OPTPAR_*, Linux qp.h) ... */
enum {
    QP_OPTPAR_RRE = 1u << 1, QP_OPTPAR_RAE = 1u << 2, QP_OPTPAR_RWE = 1u << 3,
    QP_OPTPAR_PKEY_INDEX = 1u << 4, QP_OPTPAR_Q_KEY = 1u << 5,
    QP_OPTPAR_RNR_TIMEOUT = 1u << 6, QP_OPTPAR_PRIMARY_ADDR_PATH = 1u << 7,
    QP_OPTPAR_SRA_MAX = 1u << 8, QP_OPTPAR_RRA_MAX = 1u << 9, QP_OPTPAR_PM_STATE = 1u << 10,
    QP_OPTPAR_RETRY_COUNT = 1u << 12, QP_OPTPAR_RNR_RETRY = 1u << 13,
    QP_OPTPAR_ACK_TIMEOUT = 1u << 14, QP_OPTPAR_PRI_PORT = 1u << 16,
    QP_OPTPAR_COUNTER_SET_ID = 1u << 25,
};

/* ... and the attributes each stands for. */
static const struct { uint32_t bit; QpcField f[3]; } qp_optpar[] = {
    { QP_OPTPAR_RRE,            { QPC(rre) } },
    { QP_OPTPAR_RAE,            { QPC(rae), QPC(atomic_mode) } },
    { QP_OPTPAR_RWE,            { QPC(rwe) } },
    { QP_OPTPAR_PKEY_INDEX,     { QPC_AP(pkey_index) } },
    { QP_OPTPAR_Q_KEY,          { QPC(q_key) } },
    { QP_OPTPAR_RNR_TIMEOUT,    { QPC(min_rnr_nak) } },
    { QP_OPTPAR_SRA_MAX,        { QPC(log_sra_max) } },
    { QP_OPTPAR_RRA_MAX,        { QPC(log_rra_max) } },
    { QP_OPTPAR_PM_STATE,       { QPC(pm_state) } },
    { QP_OPTPAR_RETRY_COUNT,    { QPC(retry_count) } },
    { QP_OPTPAR_RNR_RETRY,      { QPC(rnr_retry) } },
    { QP_OPTPAR_ACK_TIMEOUT,    { QPC_AP(ack_timeout) } },
    { QP_OPTPAR_PRI_PORT,       { QPC_AP(vhca_port_num) } },
    { QP_OPTPAR_COUNTER_SET_ID, { QPC(counter_set_id) } },
};

/* Required attributes (IBA 11.2.4.2 table "QP state transition
 * properties"), by transition; the address path goes whole. */
static const QpcField rst2init_req[] = {
    QPC_AP(pkey_index), QPC_AP(vhca_port_num), QPC(q_key), QPC(rre), QPC(rwe),
    QPC(rae), QPC(atomic_mode), QPC(counter_set_id), QPC(pm_state),
};
static const QpcField init2rtr_req[] = {
    QPC(mtu), QPC(log_msg_max), QPC(remote_qpn), QPC(next_rcv_psn),
    QPC(log_rra_max), QPC(min_rnr_nak), QPC(log_ack_req_freq),
};
static const QpcField rtr2rts_req[] = {
    QPC(next_send_psn), QPC(retry_count), QPC(rnr_retry), QPC(log_sra_max),
    QPC_AP(ack_timeout),
};

static void qpc_copy(uint8_t *dst, const uint8_t *src, const QpcField *f, size_t n)
{
    for (size_t i = 0; i < n && f[i].width; i++) {
        prm_set_bits(dst, f[i].off, f[i].width, prm_get_bits(src, f[i].off, f[i].width));
    }
}

static void qpc_apply(uint8_t *qpc, const uint8_t *in_qpc, uint32_t optpar,
                      const QpcField *req, size_t nreq, bool path)
{
    qpc_copy(qpc, in_qpc, req, nreq);
    for (size_t i = 0; i < G_N_ELEMENTS(qp_optpar); i++) {
        if (optpar & qp_optpar[i].bit) {
            qpc_copy(qpc, in_qpc, qp_optpar[i].f, G_N_ELEMENTS(qp_optpar[i].f));
        }
    }
    if (path || (optpar & QP_OPTPAR_PRIMARY_ADDR_PATH)) {
        /* The P_Key index and port live in the path but are attributes of
         * their own: kept unless their optpar bit names them. */
        static const QpcField pkey[] = { QPC_AP(pkey_index) }, port[] = { QPC_AP(vhca_port_num) };
        uint8_t keep[PRM_BYTES(qpc)];

        memcpy(keep, qpc, sizeof(keep));
        memcpy(PRM_PTR(qpc, primary_address_path, qpc),
               PRM_PTR(qpc, primary_address_path, in_qpc), PRM_BYTES(ads));
        if (!(optpar & QP_OPTPAR_PKEY_INDEX)) {
            qpc_copy(qpc, keep, pkey, 1);
        }
        if (!(optpar & QP_OPTPAR_PRI_PORT)) {
            qpc_copy(qpc, keep, port, 1);
        }
    }
}

/* --- CREATE_QP --------------------------------------------------------- */

enum { MLX5_QP_RQ_REGULAR = 0, MLX5_QP_RQ_SRQ = 1, MLX5_QP_RQ_ZERO_LEN = 3 };

static bool qp_st_supported(unsigned st)
{
    switch (st) {
    case MLX5_QP_ST_RC: case MLX5_QP_ST_UC: case MLX5_QP_ST_UD: case MLX5_QP_ST_XRC:
    case MLX5_QP_ST_QP0: case MLX5_QP_ST_QP1: case MLX5_QP_ST_REG_UMR:
        return true;
    }
    return false;
}

/* The referenced objects of a new QP's context exist. */
static unsigned qp_check_refs(Mlx5Fw *fw, Mlx5Cmd *c, const uint8_t *qpc)
{
    unsigned st = PRM_GET(qpc, st, qpc);
    uint32_t srqn = PRM_GET(qpc, srqn_rmpn_xrqn, qpc);

    if (!qp_st_supported(st)) {
        return CMD_FAIL(c, BAD_PARAM, QP_TYPE);
    }
    /* REG_UMR QPs have no PD (umr.c mlx5r_umr_create_qp). */
    if (st != MLX5_QP_ST_REG_UMR && !mlx5_table_get(&fw->pd, PRM_GET(qpc, pd, qpc))) {
        return CMD_FAIL(c, BAD_PARAM, BAD_PD);
    }
    if (!mlx5_table_get(&fw->cq, PRM_GET(qpc, cqn_snd, qpc)) ||
        !mlx5_table_get(&fw->cq, PRM_GET(qpc, cqn_rcv, qpc))) {
        return CMD_FAIL(c, BAD_PARAM, BAD_CQ);
    }
    /* A QP without a send queue rings no doorbell: an XRC target has no
     * UAR page (mlx5_ib qp.c create_xrc_tgt_qp leaves it 0). */
    if (!PRM_GET(qpc, no_sq, qpc) && !mlx5_table_get(&fw->uar, PRM_GET(qpc, uar_page, qpc))) {
        return CMD_FAIL(c, BAD_PARAM, BAD_UAR);
    }
    if (srqn && !mlx5_table_get(&fw->srq, srqn)) {
        return CMD_FAIL(c, BAD_PARAM, BAD_SRQ);
    }
    if (PRM_GET(qpc, xrcd, qpc) && !mlx5_table_get(&fw->xrcd, PRM_GET(qpc, xrcd, qpc))) {
        return CMD_FAIL(c, BAD_PARAM, BAD_XRCD);
    }
    return MLX5_CMD_STAT_OK;
}

/* Receive and send rings out of the one QP buffer, sizes within the caps. */
static unsigned qp_rings(Mlx5Fw *fw, Mlx5Cmd *c, const uint8_t *qpc, Mlx5Qp *qp)
{
    const uint8_t *pas = PRM_PTR(create_qp_in, pas, c->in);
    uint64_t avail = c->inlen - PRM_BYTE_OFF(create_qp_in, pas);
    uint32_t log_max = MLX5_CAP_GET(fw, MLX5_CAP_GENERAL, cmd_hca_cap, log_max_qp_sz);
    uint32_t log_page = PRM_GET(qpc, log_page_size, qpc) + 12;
    uint32_t offset = mlx5_page_offset_bytes(PRM_GET(qpc, page_offset, qpc), log_page);
    uint32_t log_rq = PRM_GET(qpc, log_rq_size, qpc), log_sq = PRM_GET(qpc, log_sq_size, qpc);
    uint32_t rq_stride = PRM_GET(qpc, log_rq_stride, qpc) + 4;
    bool has_rq = PRM_GET(qpc, rq_type, qpc) == MLX5_QP_RQ_REGULAR;
    uint64_t rq_bytes = has_rq ? (uint64_t)1 << (log_rq + rq_stride) : 0;

    if (log_rq > log_max || log_sq > log_max ||
        (has_rq && (1u << rq_stride) >
         MLX5_CAP_GET(fw, MLX5_CAP_GENERAL, cmd_hca_cap, max_wqe_sz_rq))) {
        return CMD_FAIL(c, BAD_PARAM, BAD_SIZE);
    }
    if (log_page > 30) {
        return CMD_FAIL(c, BAD_PARAM, BAD_PAGE_SIZE);
    }
    if (has_rq && !mlx5_ring_init(&qp->rq.ring, pas, avail, log_rq, rq_stride, log_page, offset)) {
        return CMD_FAIL(c, BAD_PARAM, PAS_TOO_SHORT);
    }
    if (!PRM_GET(qpc, no_sq, qpc) &&
        !mlx5_ring_init(&qp->sq.ring, pas, avail, log_sq, 6, log_page,
                        (uint32_t)(offset + rq_bytes))) {
        return CMD_FAIL(c, BAD_PARAM, PAS_TOO_SHORT);
    }
    return MLX5_CMD_STAT_OK;
}

/* A new QP in RST from its context: the receive queue completes on
 * cqn_rcv, the send queue (executed by hw-rdma/sq.c once the QP is in
 * RTS) on cqn_snd; both share the doorbell record. */
static Mlx5Qp *qp_new(const uint8_t *qpc)
{
    Mlx5Qp *qp = g_new0(Mlx5Qp, 1);

    qp->kind = MLX5_QUEUE_QP;
    qp->st = PRM_GET(qpc, st, qpc);
    qp->state = MLX5_QP_STATE_RST;
    qp->pd = PRM_GET(qpc, pd, qpc);
    memcpy(qp->qpc, qpc, sizeof(qp->qpc));
    PRM_SET(qpc, state, qp->qpc, MLX5_QP_STATE_RST);
    qp->rq.cqn = PRM_GET(qpc, cqn_rcv, qpc);
    qp->rq.pd = qp->pd;
    qp->rq.dbr_addr = PRM_GET(qpc, dbr_addr, qpc);
    qp->rq.user_index = PRM_GET(qpc, user_index, qpc);
    qp->sq.cqn = PRM_GET(qpc, cqn_snd, qpc);
    qp->sq.pd = qp->pd;
    qp->sq.dbr_addr = qp->rq.dbr_addr;
    qp->sq.user_index = qp->rq.user_index;
    qp->sq.uar_page = PRM_GET(qpc, uar_page, qpc);
    qp->sq.state = MLX5_RQC_STATE_RST;
    qp->sq.qp = qp;
    return qp;
}

static void qp_trace_create(const Mlx5Qp *qp)
{
    unsigned log_page = PRM_GET(qpc, log_page_size, qp->qpc) + 12;

    mlx5emu_trace_qp_create(qp->num, qp->st, qp->sq.cqn, qp->rq.cqn,
                            PRM_GET(qpc, log_sq_size, qp->qpc), PRM_GET(qpc, log_rq_size, qp->qpc),
                            16u << PRM_GET(qpc, log_rq_stride, qp->qpc), log_page,
                            mlx5_page_offset_bytes(PRM_GET(qpc, page_offset, qp->qpc), log_page),
                            qp->sq.ring.npas ? qp->sq.ring.pas[0] : 0);
}

unsigned cmd_create_qp(Mlx5Fw *fw, Mlx5Cmd *c)
{
    const uint8_t *qpc = PRM_PTR(create_qp_in, qpc, c->in);
    unsigned st = qp_check_refs(fw, c, qpc);
    Mlx5Qp *qp;

    if (st != MLX5_CMD_STAT_OK) {
        return st;
    }
    if (PRM_GET(create_qp_in, wq_umem_valid, c->in) || PRM_GET(qpc, dbr_umem_valid, qpc) ||
        PRM_GET(create_qp_in, input_qpn, c->in)) {
        return CMD_FAIL(c, BAD_PARAM, NO_UMEM);
    }
    qp = qp_new(qpc);
    st = qp_rings(fw, c, qpc, qp);
    /* The data path's state is charged with the QP (mlx5_queue_cost). */
    if (st == MLX5_CMD_STAT_OK && fw->dp_ops) {
        qp->dp_bytes = fw->dp_ops->qp_bytes(fw->dp, qp);
    }
    st = mlx5_cmd_add_built(c, st, &fw->wq, qp, &qp->num);
    if (st != MLX5_CMD_STAT_OK) {
        return st;
    }
    qp->sq.num = qp->num;
    PRM_SET(create_qp_out, qpn, c->out, qp->num);
    qp_trace_create(qp);
    if (fw->dp_ops) {
        qp->dp = fw->dp_ops->qp_created(fw->dp, qp);
    }
    return MLX5_CMD_STAT_OK;
}

unsigned cmd_destroy_qp(Mlx5Fw *fw, Mlx5Cmd *c)
{
    uint32_t qpn = PRM_GET(destroy_qp_in, qpn, c->in);
    unsigned st;
    Mlx5Qp *qp = mlx5_cmd_find(c, mlx5_qp_get(fw, qpn), qpn, MLX5_SYND_BAD_QP, &st);

    if (!qp) {
        return st;
    }
    mlx5_mcg_qp_gone(fw, qpn);
    if (fw->dp_ops) {
        fw->dp_ops->qp_destroyed(fw->dp, qp);
    }
    return mlx5_cmd_remove(c, &fw->wq, qpn, MLX5_SYND_BAD_QP);
}

/* What QUERY_QP reports over the context the driver established: the
 * state and the queues' counters, which are the device's. */
#define QPC_DEVICE_(f, m) \
    MLX5_CTX_FIELD(PRM_OFF(qpc, f), PRM_W(qpc, f), Mlx5Qp, m, 0, MLX5_CTX_OUT)
static const Mlx5CtxField qpc_device_fields[] = {
    QPC_DEVICE_(state, state), QPC_DEVICE_(hw_sq_wqebb_counter, sq.hw_counter),
    QPC_DEVICE_(hw_rq_counter, rq.hw_counter),
};

unsigned cmd_query_qp(Mlx5Fw *fw, Mlx5Cmd *c)
{
    uint32_t qpn = PRM_GET(query_qp_in, qpn, c->in);
    Mlx5Qp *qp = mlx5_qp_get(fw, qpn);
    uint8_t *qpc = PRM_PTR(query_qp_out, qpc, c->out);

    if (qp) {
        memcpy(qpc, qp->qpc, PRM_BYTES(qpc));
    }
    return mlx5_cmd_query(c, qp, qpn, MLX5_SYND_BAD_QP, qpc, MLX5_CTX_FIELDS(qpc_device_fields));
}

/* --- the state machine ------------------------------------------------- */

typedef struct QpTransition {
    unsigned from;              /* QP_ANY: every state */
    unsigned to;
    const QpcField *req;
    size_t nreq;
    bool path;                  /* carries the primary address path */
} QpTransition;
enum { QP_ANY = 0xff };

static void qp_set_state(Mlx5Fw *fw, Mlx5Qp *qp, unsigned to)
{
    unsigned from = qp->state;

    mlx5emu_trace_qp_state(qp->num, from, to);
    qp->state = to;
    PRM_SET(qpc, state, qp->qpc, to);
    /* The send queue executes in RTS only; RST starts both queues over
     * (IBA 10.3.1). */
    qp->sq.state = to == MLX5_QP_STATE_RTS ? MLX5_RQC_STATE_RDY
                 : to == MLX5_QP_STATE_ERR ? MLX5_RQC_STATE_ERR
                 : MLX5_RQC_STATE_RST;
    if (to == MLX5_QP_STATE_RST) {
        qp->sq.hw_counter = 0;
        qp->rq.hw_counter = 0;
    }
    if (fw->dp_ops) {
        fw->dp_ops->qp_state_changed(fw->dp, qp, from, to);
    }
}

/* IBA 10.3.1: an RC or XRC QP goes to ERR, a UD, UC or special QP to SQER
 * (the receive side goes on); the send queue stops either way. */
void mlx5_qp_send_error(Mlx5Fw *fw, Mlx5Qp *qp)
{
    qp_set_state(fw, qp, mlx5_qp_st_is_rc(qp->st) ? MLX5_QP_STATE_ERR : MLX5_QP_STATE_SQER);
    qp->sq.state = MLX5_RQC_STATE_ERR;
}

static unsigned qp_modify(Mlx5Fw *fw, Mlx5Cmd *c, const QpTransition *t)
{
    /* Every modify command has qpn where rst2init_qp_in has it; all but
     * 2ERR/2RST (16 bytes) also opt_param_mask and qpc (mlx5_ifc.h). */
    bool has_ctx = t->to != MLX5_QP_STATE_ERR && t->to != MLX5_QP_STATE_RST;
    uint32_t qpn = PRM_GET(rst2init_qp_in, qpn, c->in);
    uint32_t optpar = has_ctx ? PRM_GET(rst2init_qp_in, opt_param_mask, c->in) : 0;
    const uint8_t *in_qpc = PRM_PTR(rst2init_qp_in, qpc, c->in);
    unsigned st;
    Mlx5Qp *qp = mlx5_cmd_find(c, mlx5_qp_get(fw, qpn), qpn, MLX5_SYND_BAD_QP, &st);

    if (!qp) {
        return st;
    }
    if (t->from != QP_ANY && qp->state != t->from) {
        return CMD_FAIL(c, BAD_RES_STATE, BAD_QP_STATE);
    }
    if (has_ctx && (t->from == MLX5_QP_STATE_RST || (optpar & QP_OPTPAR_COUNTER_SET_ID)) &&
        PRM_GET(qpc, counter_set_id, in_qpc) &&
        !mlx5_table_get(&fw->q_counter, PRM_GET(qpc, counter_set_id, in_qpc))) {
        return CMD_FAIL(c, BAD_PARAM, BAD_INDEX);
    }
    if (has_ctx) {
        qpc_apply(qp->qpc, in_qpc, optpar, t->req, t->nreq, t->path);
    }
    qp_set_state(fw, qp, t->to);
    return MLX5_CMD_STAT_OK;
}

/* The modify commands share the placement of qpn, opt_param_mask and qpc. */
#define QP_SAME_LAYOUT_(L) \
    _Static_assert(PRM_OFF(L, qpn) == PRM_OFF(rst2init_qp_in, qpn), #L " qpn");
QP_SAME_LAYOUT_(init2rtr_qp_in) QP_SAME_LAYOUT_(rtr2rts_qp_in) QP_SAME_LAYOUT_(rts2rts_qp_in)
QP_SAME_LAYOUT_(init2init_qp_in) QP_SAME_LAYOUT_(sqerr2rts_qp_in)
QP_SAME_LAYOUT_(qp_2err_in) QP_SAME_LAYOUT_(qp_2rst_in)
_Static_assert(PRM_OFF(rtr2rts_qp_in, qpc) == PRM_OFF(rst2init_qp_in, qpc), "qpc");
_Static_assert(PRM_OFF(rts2rts_qp_in, opt_param_mask) ==
               PRM_OFF(rst2init_qp_in, opt_param_mask), "opt_param_mask");

/* A transition with required attributes, and one with optional ones only. */
#define QP_TRANSITION_REQ(name, from, to, req, path) \
    unsigned cmd_##name(Mlx5Fw *fw, Mlx5Cmd *c) \
    { \
        static const QpTransition t = { from, to, req, G_N_ELEMENTS(req), path }; \
        return qp_modify(fw, c, &t); \
    }
#define QP_TRANSITION(name, from, to) \
    unsigned cmd_##name(Mlx5Fw *fw, Mlx5Cmd *c) \
    { \
        static const QpTransition t = { from, to, NULL, 0, false }; \
        return qp_modify(fw, c, &t); \
    }

QP_TRANSITION_REQ(rst2init_qp, MLX5_QP_STATE_RST, MLX5_QP_STATE_INIT, rst2init_req, false)
QP_TRANSITION_REQ(init2rtr_qp, MLX5_QP_STATE_INIT, MLX5_QP_STATE_RTR, init2rtr_req, true)
QP_TRANSITION_REQ(rtr2rts_qp, MLX5_QP_STATE_RTR, MLX5_QP_STATE_RTS, rtr2rts_req, false)
QP_TRANSITION(init2init_qp, MLX5_QP_STATE_INIT, MLX5_QP_STATE_INIT)
QP_TRANSITION(rts2rts_qp, MLX5_QP_STATE_RTS, MLX5_QP_STATE_RTS)
/* Recovery of a UD or special QP after a send error (IBA 10.3.1: SQE ->
 * RTS; the send queue goes on after the failed WQE).  SQD_RTS stays
 * unimplemented: no command leads into SQD (mlx5_ib's state table has no
 * RTS -> SQD either). */
QP_TRANSITION(sqerr2rts_qp, MLX5_QP_STATE_SQER, MLX5_QP_STATE_RTS)
QP_TRANSITION(qp_2err, QP_ANY, MLX5_QP_STATE_ERR)
QP_TRANSITION(qp_2rst, QP_ANY, MLX5_QP_STATE_RST)
