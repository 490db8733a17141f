/*
 * The device's objects, described on demand: what the QEMU monitor shows
 * (`info mlx5`, and the QOM property `objects` as JSON; hw/mlx5.c).
 *
 * Concepts
 * --------
 * A reader of the driver sees numbers - a QPN, a CQN, an MKey - and the
 * device behind them is otherwise invisible.  This walks the object
 * tables at one moment and says what each object is now: a QP's type,
 * state and PSNs, how many of its WQEs are in flight; a CQ's or EQ's
 * producer and consumer counters and whether it is armed; a key's range,
 * rights and translation size; a flow table's entries; the port's
 * counters.  One table per kind of object, rows by number; the same rows
 * come out as aligned text for people and as JSON for programs (numbers
 * as numbers).  Nothing here changes the device.
 */
#include "transport.h"

#include "flow.h"

/* Rows kept of one kind: a guest may hold 2^18 QPs, and a monitor
 * answer of that many lines helps nobody; the count says how many there
 * are. */
#define DESC_MAX_ROWS 4096u

/* One kind of object: its columns, and its rows as text cells. */
typedef struct DescTable {
    const char *name;           /* "qps": the JSON member; the text heading */
    const char *const *cols;
    unsigned ncols;
    GPtrArray *rows;            /* char *[ncols] (g_strfreev), the first DESC_MAX_ROWS */
    unsigned total;             /* objects of the kind */
} DescTable;

static void desc_row(DescTable *t, ...)
{
    char **row;
    va_list ap;

    if (t->total++ >= DESC_MAX_ROWS) {
        return;
    }
    row = g_new0(char *, t->ncols + 1);
    va_start(ap, t);
    for (unsigned i = 0; i < t->ncols; i++) {
        row[i] = g_strdup(va_arg(ap, const char *));
    }
    va_end(ap);
    g_ptr_array_add(t->rows, row);
}

/* A cell is a JSON number if it is all digits (a count, a number);
 * hexadecimal keys and names are strings. */
static bool cell_is_number(const char *s)
{
    if (!*s) {
        return false;
    }
    for (; *s; s++) {
        if (!g_ascii_isdigit(*s)) {
            return false;
        }
    }
    return true;
}

/* One line of aligned cells (the last one unpadded). */
static void desc_text_row(GString *out, const char *const *cells, const unsigned *w, unsigned n)
{
    for (unsigned c = 0; c < n; c++) {
        g_string_append_printf(out, "  %-*s", c + 1 < n ? (int)w[c] : 0, cells[c]);
    }
    g_string_append_c(out, '\n');
}

static void desc_text(const DescTable *t, GString *out)
{
    g_autofree unsigned *w = g_new0(unsigned, t->ncols);

    for (unsigned c = 0; c < t->ncols; c++) {
        w[c] = (unsigned)strlen(t->cols[c]);
        for (guint r = 0; r < t->rows->len; r++) {
            w[c] = MAX(w[c], (unsigned)strlen(((char **)g_ptr_array_index(t->rows, r))[c]));
        }
    }
    g_string_append_printf(out, "%s (%u%s)\n", t->name, t->total,
                           t->total > t->rows->len ? ", the first shown" : "");
    if (!t->rows->len) {
        return;
    }
    desc_text_row(out, t->cols, w, t->ncols);
    for (guint r = 0; r < t->rows->len; r++) {
        desc_text_row(out, g_ptr_array_index(t->rows, r), w, t->ncols);
    }
}

static void desc_json(const DescTable *t, GString *out)
{
    g_string_append_printf(out, "\"%s\": [", t->name);
    for (guint r = 0; r < t->rows->len; r++) {
        char **row = g_ptr_array_index(t->rows, r);

        g_string_append(out, r ? ", {" : "{");
        for (unsigned c = 0; c < t->ncols; c++) {
            const char *q = cell_is_number(row[c]) ? "" : "\"";

            g_string_append_printf(out, "%s\"%s\": %s%s%s", c ? ", " : "", t->cols[c], q, row[c],
                                   q);
        }
        g_string_append_c(out, '}');
    }
    g_string_append_printf(out, "], \"%s_total\": %u", t->name, t->total);
}

/* --- the objects ----------------------------------------------------------- */

/* A table's objects by number (hash order is no order to read). */
static void collect(void *obj, void *arr)
{
    g_ptr_array_add(arr, obj);
}

static gint by_number(gconstpointer a, gconstpointer b)
{
    uint32_t x = **(const uint32_t *const *)a, y = **(const uint32_t *const *)b;

    return x < y ? -1 : x > y;
}

static GPtrArray *sorted(const Mlx5Table *t)
{
    GPtrArray *a = g_ptr_array_new();

    mlx5_table_foreach(t, collect, a);
    g_ptr_array_sort(a, by_number);
    return a;
}

#define DESC_N(v) g_strdup_printf("%" PRIu64, (uint64_t)(v))
#define DESC_X(v) g_strdup_printf("0x%" PRIx64, (uint64_t)(v))

static const char *qp_type_name(unsigned st)
{
    switch (st) {
    case MLX5_QP_ST_RC: return "RC";
    case MLX5_QP_ST_UC: return "UC";
    case MLX5_QP_ST_UD: return "UD";
    case MLX5_QP_ST_XRC: return "XRC";
    case MLX5_QP_ST_QP0: return "SMI";
    case MLX5_QP_ST_QP1: return "GSI";
    case MLX5_QP_ST_REG_UMR: return "UMR";
    }
    return "other";
}

static const char *qp_state_name(unsigned s)
{
    static const char *const names[] = { "RST", "INIT", "RTR", "RTS", "SQER", "SQD", "ERR" };

    return s < G_N_ELEMENTS(names) ? names[s] : "?";
}

static const char *wq_state_name(unsigned s)
{
    return s == MLX5_RQC_STATE_RST ? "RST" : s == MLX5_RQC_STATE_RDY ? "RDY" : "ERR";
}

/* A QP: what the driver set and what the data path does with it - the
 * next PSN to send, the oldest not yet acknowledged, the PSN expected of
 * the peer, WQEs in flight (sent, not yet acknowledged). */
static void describe_qp(DescTable *t, const Mlx5Qp *qp)
{
    const Mlx5QpTransport *tr = mlx5_qp_transport(qp);
    bool rc = mlx5_qp_st_is_connected(qp->st) && tr;
    g_auto(GStrv) v = g_new0(char *, 11);          /* 10 cells and the end */

    v[0] = DESC_X(qp->num);
    v[1] = g_strdup(qp_type_name(qp->st));
    v[2] = g_strdup(qp_state_name(qp->state));
    v[3] = DESC_X(PRM_GET(qpc, remote_qpn, qp->qpc));
    v[4] = rc ? DESC_X(tr->req.sq_psn) : g_strdup("-");
    v[5] = rc ? DESC_X(tr->req.una_psn) : g_strdup("-");
    v[6] = rc ? DESC_X(tr->resp.epsn) : g_strdup("-");
    v[7] = rc ? DESC_N(tr->req.wqes.len) : g_strdup("-");
    v[8] = DESC_N(qp->sq.hw_counter & 0xffff);
    v[9] = DESC_N(qp->rq.hw_counter);
    desc_row(t, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9]);
}

static const char *const qp_cols[] = {
    "qpn", "type", "state", "remote_qpn", "sq_psn", "una_psn", "epsn", "in_flight",
    "sq_wqe_counter", "rq_wqe_counter",
};
static const char *const wq_cols[] = { "num", "kind", "state", "cqn", "wqe_counter",
                                       "rate_index" };

/* An Ethernet SQ or RQ. */
static void describe_wq(DescTable *t, const Mlx5QueueHead *q)
{
    g_auto(GStrv) v = g_new0(char *, 7);

    v[0] = DESC_X(q->num);
    if (q->kind == MLX5_QUEUE_SQ) {
        const Mlx5SendQueue *s = &((const Mlx5Sq *)q)->sq;

        v[1] = g_strdup("SQ");
        v[2] = g_strdup(wq_state_name(s->state));
        v[3] = DESC_X(s->cqn);
        v[4] = DESC_N(s->hw_counter & 0xffff);
        v[5] = DESC_N(s->rate_index);
    } else {
        const Mlx5Rq *r = (const Mlx5Rq *)q;

        v[1] = g_strdup("RQ");
        v[2] = g_strdup(wq_state_name(r->state));
        v[3] = DESC_X(r->rq.cqn);
        v[4] = DESC_N(r->rq.hw_counter);
        v[5] = g_strdup("-");
    }
    desc_row(t, v[0], v[1], v[2], v[3], v[4], v[5]);
}

/* QPs, SQs and RQs share one number space (fw->wq). */
static void describe_queues(Mlx5Fw *fw, DescTable *qps, DescTable *wqs)
{
    g_autoptr(GPtrArray) a = sorted(&fw->wq);

    for (guint i = 0; i < a->len; i++) {
        const Mlx5QueueHead *q = g_ptr_array_index(a, i);

        if (q->kind == MLX5_QUEUE_QP) {
            describe_qp(qps, (const Mlx5Qp *)q);
        } else {
            describe_wq(wqs, q);
        }
    }
}

static const char *const cq_cols[] = { "cqn", "entries", "producer", "armed", "eqn" };

static void describe_cqs(Mlx5Fw *fw, DescTable *t)
{
    static const char *const arm[] = { "no", "next", "solicited" };
    g_autoptr(GPtrArray) a = sorted(&fw->cq);

    for (guint i = 0; i < a->len; i++) {
        const Mlx5Cq *cq = g_ptr_array_index(a, i);
        g_autofree char *n = DESC_X(cq->cqn), *sz = DESC_N(1ull << cq->ring.log_size);
        g_autofree char *pi = DESC_N(cq->pi), *eqn = DESC_N(cq->eqn);

        desc_row(t, n, sz, pi, cq->in_error ? "overrun" : arm[MIN(cq->arm, 2u)], eqn);
    }
}

static const char *const eq_cols[] = { "eqn", "entries", "producer", "consumer", "armed",
                                       "vector" };

static void describe_eqs(Mlx5Fw *fw, DescTable *t)
{
    g_autoptr(GPtrArray) a = sorted(&fw->eq);

    for (guint i = 0; i < a->len; i++) {
        const Mlx5Eq *eq = g_ptr_array_index(a, i);
        g_autofree char *n = DESC_N(eq->eqn), *sz = DESC_N(1ull << eq->ring.log_size);
        g_autofree char *pi = DESC_N(eq->pi), *ci = DESC_N(eq->ci), *vec = DESC_N(eq->intr);

        desc_row(t, n, sz, pi, ci, eq->armed ? "yes" : "no", vec);
    }
}

static const char *const mkey_cols[] = { "mkey", "mode", "pd", "start", "length", "rights",
                                         "entries", "enabled" };

static void describe_mkeys(Mlx5Fw *fw, DescTable *t)
{
    static const char *const modes[] = { "PA", "MTT", "KLM", "KSM", "SW_ICM", "MEMIC" };
    g_autoptr(GPtrArray) a = sorted(&fw->mkey);

    for (guint i = 0; i < a->len; i++) {
        const Mlx5Mkey *mk = g_ptr_array_index(a, i);
        g_autofree char *key = DESC_X(mk->index << 8 | mk->key8), *pd = DESC_N(mk->pd);
        g_autofree char *start = DESC_X(mk->start_addr);
        g_autofree char *len = mk->length64 ? g_strdup("all") : DESC_N(mk->len);
        g_autofree char *rights = g_strdup_printf("%s%s%s%s%s", mk->lr ? "lr " : "",
                                                  mk->lw ? "lw " : "", mk->rr ? "rr " : "",
                                                  mk->rw ? "rw " : "", mk->a ? "a" : "");
        g_autofree char *entries =
            DESC_N(mlx5_mkey_mode_indirect(mk->access_mode) ? mk->nmtt / 2 : mk->nmtt);

        g_strchomp(rights);
        desc_row(t, key, mk->access_mode < G_N_ELEMENTS(modes) ? modes[mk->access_mode] : "?",
                 pd, start, len, *rights ? rights : "-", entries, mk->free ? "no" : "yes");
    }
}

static const char *const ft_cols[] = { "table", "type", "level", "entries", "groups" };

static void describe_flow_tables(Mlx5Fw *fw, DescTable *t)
{
    g_autoptr(GPtrArray) a = sorted(&fw->flow_table);

    for (guint i = 0; i < a->len; i++) {
        const Mlx5FlowTable *ft = g_ptr_array_index(a, i);
        g_autofree char *id = DESC_N(ft->id), *type = DESC_N(ft->type);
        g_autofree char *level = DESC_N(ft->level);
        g_autofree char *ftes = DESC_N(g_hash_table_size(ft->ftes.objs));
        g_autofree char *groups = DESC_N(ft->groups->len);

        desc_row(t, id, type, level, ftes, groups);
    }
}

static const char *const port_cols[] = { "state", "tx_frames", "tx_octets", "rx_frames",
                                         "rx_octets", "host_mem_used", "host_mem_limit" };

static void describe_port(Mlx5Fw *fw, DescTable *t)
{
    const Mlx5PortCounters *c = &fw->counters;
    g_autofree char *txf = DESC_N(mlx5_traffic_frames(&c->phy_tx));
    g_autofree char *txo = DESC_N(mlx5_traffic_octets(&c->phy_tx));
    g_autofree char *rxf = DESC_N(mlx5_traffic_frames(&c->phy_rx));
    g_autofree char *rxo = DESC_N(mlx5_traffic_octets(&c->phy_rx));
    g_autofree char *used = DESC_N(fw->host_mem.used), *limit = DESC_N(fw->host_mem.limit);

    desc_row(t, fw->port_up ? "up" : "down", txf, txo, rxf, rxo, used, limit);
}

#define DESC_TABLE_(n, c) { n, c, G_N_ELEMENTS(c), NULL, 0 }

void mlx5_dev_describe(Mlx5Device *d, GString *out, bool json)
{
    DescTable t[] = {
        DESC_TABLE_("port", port_cols), DESC_TABLE_("eqs", eq_cols),
        DESC_TABLE_("cqs", cq_cols), DESC_TABLE_("qps", qp_cols),
        DESC_TABLE_("wqs", wq_cols), DESC_TABLE_("mkeys", mkey_cols),
        DESC_TABLE_("flow_tables", ft_cols),
    };
    Mlx5Fw *fw = &d->fw;

    for (size_t i = 0; i < G_N_ELEMENTS(t); i++) {
        t[i].rows = g_ptr_array_new_with_free_func((GDestroyNotify)g_strfreev);
    }
    describe_port(fw, &t[0]);
    describe_eqs(fw, &t[1]);
    describe_cqs(fw, &t[2]);
    describe_queues(fw, &t[3], &t[4]);
    describe_mkeys(fw, &t[5]);
    describe_flow_tables(fw, &t[6]);
    g_string_append(out, json ? "{" : "");
    for (size_t i = 0; i < G_N_ELEMENTS(t); i++) {
        if (json) {
            g_string_append(out, i ? ", " : "");
            desc_json(&t[i], out);
        } else {
            desc_text(&t[i], out);
        }
        g_ptr_array_free(t[i].rows, true);
    }
    g_string_append(out, json ? "}\n" : "");
}
