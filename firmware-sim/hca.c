/*
 * HCA life cycle and firmware state: ENABLE_HCA, INIT_HCA, TEARDOWN_HCA,
 * DISABLE_HCA, ISSI, boot/init pages, adapter identity, reset.
 *
 * Sequence the drivers follow (Linux main.c mlx5_function_enable/open):
 * ENABLE_HCA -> QUERY_ISSI/SET_ISSI -> QUERY_PAGES(boot) -> HOST_ENDIANNESS
 * -> QUERY/SET_HCA_CAP -> QUERY_PAGES(init) -> INIT_HCA ...  and at unload
 * TEARDOWN_HCA -> MANAGE_PAGES(take) -> DISABLE_HCA.  TEARDOWN_HCA and
 * DISABLE_HCA free every object (a trace event reports how many).
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"

/* Guest-error messages: at most 20 per second of the platform clock. */
void mlx5_guest_error(Mlx5Fw *fw, const char *fmt, ...)
{
    uint64_t now = fw->plat->clock_ns(fw->opaque);
    char msg[256];
    va_list ap;

    if (now - fw->gerr_window_start > 1000000000ull) {
        fw->gerr_window_start = now;
        fw->gerr_in_window = 0;
    }
    if (++fw->gerr_in_window > 20) {
        return;
    }
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    fw->plat->guest_error(fw->opaque, msg);
}

/* The largest id a table hands out: what the capability advertises
 * (1 << log_max_<object>), within the PRM's 24-bit object numbers. */
static uint32_t cap_limit(const Mlx5Fw *fw, unsigned off, unsigned width)
{
    unsigned log = prm_get_bits(MLX5_CAP_MAX(fw, MLX5_CAP_GENERAL), off, width);
    return log >= 24 ? 0xffffff : 1u << log;
}
#define CAP_LIMIT(fw, field) \
    cap_limit(fw, PRM_OFF(cmd_hca_cap, field), PRM_W(cmd_hca_cap, field))

/* What holding each kind costs: the fixed-size ones their size, the
 * others what they hold (mlx5_*_cost, in their files). */
static const Mlx5TableCost res_cost = { sizeof(Mlx5Res), NULL, NULL };
static const Mlx5TableCost q_counter_cost = { sizeof(Mlx5QCounter), NULL, NULL };
/* An MTT key's list is charged as it is loaded (resources.c). */
static const Mlx5TableCost mkey_cost = { sizeof(Mlx5Mkey), NULL, NULL };
static const Mlx5TableCost tis_cost = { sizeof(Mlx5Tis), NULL, NULL };
static const Mlx5TableCost tir_cost = { sizeof(Mlx5Tir), NULL, NULL };

static void fw_tables_account(Mlx5Fw *fw)
{
    static const struct { size_t table; const Mlx5TableCost *cost; } costs[] = {
        { offsetof(Mlx5Fw, uar), &res_cost }, { offsetof(Mlx5Fw, pd), &res_cost },
        { offsetof(Mlx5Fw, td), &res_cost }, { offsetof(Mlx5Fw, xrcd), &res_cost },
        { offsetof(Mlx5Fw, q_counter), &q_counter_cost }, { offsetof(Mlx5Fw, mkey), &mkey_cost },
        { offsetof(Mlx5Fw, eq), &mlx5_eq_cost }, { offsetof(Mlx5Fw, cq), &mlx5_cq_cost },
        { offsetof(Mlx5Fw, wq), &mlx5_queue_cost }, { offsetof(Mlx5Fw, tis), &tis_cost },
        { offsetof(Mlx5Fw, tir), &tir_cost }, { offsetof(Mlx5Fw, rqt), &mlx5_rqt_cost },
        { offsetof(Mlx5Fw, flow_table), &mlx5_flow_table_cost },
        { offsetof(Mlx5Fw, flow_group), &mlx5_flow_group_cost },
        { offsetof(Mlx5Fw, srq), &mlx5_srq_cost },
    };

    for (size_t i = 0; i < G_N_ELEMENTS(costs); i++) {
        mlx5_table_account((Mlx5Table *)((uint8_t *)fw + costs[i].table), &fw->host_mem,
                           costs[i].cost);
    }
}

/* Each kind's limit: the capability that advertises how many there may
 * be, 2^log_max_<kind> (max_qp_cnt: a count), of the current caps; what
 * mlx5_core and mlx5_ib read as the device's maxima (main.c
 * handle_hca_cap sets log_max_qp from its profile; mlx5_ib
 * mlx5_ib_query_device reports max_qp, max_cq, max_mr, max_pd, max_srq
 * from these).  Kinds without a row are bounded by their numbers (UAR
 * pages by BAR0), flow groups and entries by flow.c (device-wide counts:
 * MLX5_FLOW_GROUP_BUDGET, 2^log_max_flow), and all by the budget. */
typedef struct FwLimit {
    size_t table;               /* offsetof(Mlx5Fw, <table>) */
    uint8_t kind;               /* Mlx5TableCost.kind of the objects it bounds */
    uint8_t cap_type;           /* the capability page */
    uint16_t off, width;        /* the field in it */
    bool log;                   /* 2^field, else the field itself */
} FwLimit;
#define GEN_LIMIT_(t, k, f, log) \
    { offsetof(Mlx5Fw, t), k, MLX5_CAP_GENERAL, PRM_OFF(cmd_hca_cap, f), \
      PRM_W(cmd_hca_cap, f), log }
#define GEN_LOG_LIMIT_(t, k, f) GEN_LIMIT_(t, k, f, true)
static const FwLimit fw_limits[] = {
    GEN_LOG_LIMIT_(pd, 0, log_max_pd),
    GEN_LOG_LIMIT_(td, 0, log_max_transport_domain),
    GEN_LOG_LIMIT_(xrcd, 0, log_max_xrcd),
    GEN_LIMIT_(q_counter, 0, max_qp_cnt, false),
    GEN_LOG_LIMIT_(mkey, 0, log_max_mkey),
    GEN_LOG_LIMIT_(eq, 0, log_max_eq),
    GEN_LOG_LIMIT_(cq, 0, log_max_cq),
    GEN_LOG_LIMIT_(wq, MLX5_QUEUE_SQ, log_max_sq),
    GEN_LOG_LIMIT_(wq, MLX5_QUEUE_RQ, log_max_rq),
    GEN_LOG_LIMIT_(wq, MLX5_QUEUE_QP, log_max_qp),
    GEN_LOG_LIMIT_(tis, 0, log_max_tis),
    GEN_LOG_LIMIT_(tir, 0, log_max_tir),
    GEN_LOG_LIMIT_(rqt, 0, log_max_rqt),
    GEN_LOG_LIMIT_(srq, MLX5_SRQ_LIMIT_SRQ, log_max_srq),      /* SRQs and XRC SRQs */
    GEN_LOG_LIMIT_(srq, MLX5_SRQ_LIMIT_RMP, log_max_rmp),
    /* The NIC receive tables, the only type advertised (flow.c). */
    { offsetof(Mlx5Fw, flow_table), 0, MLX5_CAP_FLOW_TABLE,
      PRM_OFF(flow_table_nic_cap, flow_table_properties_nic_receive) +
      PRM_OFF(flow_table_prop_layout, log_max_ft_num), PRM_W(flow_table_prop_layout, log_max_ft_num),
      true },
};

void mlx5_fw_limits_update(Mlx5Fw *fw)
{
    for (size_t i = 0; i < G_N_ELEMENTS(fw_limits); i++) {
        const FwLimit *l = &fw_limits[i];
        Mlx5Table *t = (Mlx5Table *)((uint8_t *)fw + l->table);
        uint64_t v = prm_get_bits(MLX5_CAP_CUR(fw, l->cap_type), l->off, l->width);

        v = l->log ? (v >= 32 ? UINT32_MAX : 1ull << v) : v;
        t->limit[l->kind] = (uint32_t)MIN(v, (uint64_t)UINT32_MAX);
    }
}

static void fw_tables_init(Mlx5Fw *fw)
{
    uint32_t nq = PRM_GET(cmd_hca_cap, max_qp_cnt, MLX5_CAP_MAX(fw, MLX5_CAP_GENERAL));

    mlx5_table_init(&fw->uar, "uar", MLX5_FIRST_UAR_INDEX, MLX5_MAX_UAR_INDEX, g_free);
    mlx5_table_init(&fw->pd, "pd", 1, CAP_LIMIT(fw, log_max_pd), g_free);
    mlx5_table_init(&fw->td, "td", 1, CAP_LIMIT(fw, log_max_transport_domain), g_free);
    mlx5_table_init(&fw->xrcd, "xrcd", 1, CAP_LIMIT(fw, log_max_xrcd), g_free);
    mlx5_table_init(&fw->q_counter, "q_counter", 1, MIN(MAX(nq, 1u), 0xffu), g_free);
    /* Index 1 with key 0 would be 0x100, the "invalid lkey" that ends a
     * scatter list (MLX5_INVALID_LKEY): MKey indices start above it. */
    mlx5_table_init(&fw->mkey, "mkey", 2, CAP_LIMIT(fw, log_max_mkey) - 1, mlx5_mkey_destroy);
    mlx5_table_init(&fw->eq, "eq", 0, MIN(CAP_LIMIT(fw, log_max_eq), MLX5_MAX_EQ) - 1,
                    mlx5_eq_destroy);
    mlx5_table_init(&fw->cq, "cq", 1, CAP_LIMIT(fw, log_max_cq), mlx5_cq_destroy);
    /* QPs, SQs and RQs share one number space; 0 and 1 are the special QPs. */
    mlx5_table_init(&fw->wq, "wq", 0x100, 0xffffff, mlx5_queue_destroy);
    mlx5_table_init(&fw->tis, "tis", 1, CAP_LIMIT(fw, log_max_tis), g_free);
    mlx5_table_init(&fw->tir, "tir", 1, CAP_LIMIT(fw, log_max_tir), g_free);
    mlx5_table_init(&fw->rqt, "rqt", 1, CAP_LIMIT(fw, log_max_rqt), mlx5_rqt_destroy);
    mlx5_table_init(&fw->flow_table, "flow_table", 1, 0xffffff, mlx5_flow_table_destroy);
    mlx5_table_init(&fw->flow_group, "flow_group", 1, 0xffffff, mlx5_flow_group_destroy);
    /* SRQs, XRC SRQs and RMPs: one 24-bit number space (qpc.srqn_rmpn_xrqn),
     * each kind bounded by its capability. */
    mlx5_table_init(&fw->srq, "srq", 1, 0xffffff, mlx5_srq_destroy);
    fw_tables_account(fw);
    mlx5_fw_limits_update(fw);
}

/* Mlx5FwConfig.host_mem_budget, or MLX5_HOST_MEM_PER_QP for each QP the
 * device advertises. */
static uint64_t fw_host_mem_limit(const Mlx5Fw *fw)
{
    unsigned log_qp = PRM_GET(cmd_hca_cap, log_max_qp, MLX5_CAP_MAX(fw, MLX5_CAP_GENERAL));

    return fw->cfg.host_mem_budget ? fw->cfg.host_mem_budget
                                   : ((uint64_t)MLX5_HOST_MEM_PER_QP << log_qp);
}

void mlx5_fw_init(Mlx5Fw *fw, const Mlx5Platform *plat, void *opaque,
                  const Mlx5FwConfig *cfg)
{
    fw->plat = plat;
    fw->opaque = opaque;
    fw->cfg = *cfg;
    fw->link_carrier = true;
    mlx5_caps_init(fw);
    fw->host_mem.limit = fw_host_mem_limit(fw);
    fw_tables_init(fw);
    fw->mcg = mlx5_mcg_table_new();
    mlx5_memic_init(fw);
    mlx5_fw_reset(fw, "power-on");
}

/* A retired QP's data-path state goes before the QP (Mlx5RetiredTable.before). */
static void fw_qp_gone(void *obj, void *fw_)
{
    Mlx5QueueHead *h = obj;
    Mlx5Fw *fw = fw_;

    if (h->kind == MLX5_QUEUE_QP && fw->dp_ops) {
        fw->dp_ops->qp_destroyed(fw->dp, obj);
    }
}

unsigned mlx5_fw_reclaim(Mlx5Fw *fw, unsigned max)
{
    unsigned n = 0;
    Mlx5RetiredTable *r;

    while (n < max && (r = g_queue_peek_head(&fw->retired))) {
        n += mlx5_retired_reclaim(r, max - n);
        if (!mlx5_retired_count(r)) {
            mlx5_retired_free(g_queue_pop_head(&fw->retired));
        }
    }
    if (n) {
        mlx5emu_trace_fw_reclaim(n, mlx5_fw_retired_count(fw));
        if (g_queue_is_empty(&fw->retired)) {
            mlx5emu_trace_fw_host_mem("reclaimed", fw->host_mem.used, fw->host_mem.limit);
        }
    }
    return n;
}

unsigned mlx5_fw_retired_count(const Mlx5Fw *fw)
{
    unsigned n = 0;

    for (GList *l = fw->retired.head; l; l = l->next) {
        n += mlx5_retired_count(l->data);
    }
    return n;
}

void mlx5_fw_set_datapath(Mlx5Fw *fw, const Mlx5DataPathOps *ops, void *dp)
{
    fw->dp_ops = ops;
    fw->dp = dp;
}

unsigned mlx5_fw_object_count(const Mlx5Fw *fw)
{
    unsigned n = 0;
#define MLX5_TABLE_COUNT_(t) n += mlx5_table_count(&fw->t);
    MLX5_OBJ_TABLES(MLX5_TABLE_COUNT_)
    return n + mlx5_mcg_count(fw);      /* multicast attachments too */
}

/* Every object of table `t` leaves it for fw->retired; how many. */
static unsigned fw_retire(Mlx5Fw *fw, Mlx5Table *t, const char *why)
{
    Mlx5RetiredTable *r = mlx5_table_retire(t, t == &fw->wq ? fw_qp_gone : NULL, fw);
    unsigned n = r ? mlx5_retired_count(r) : 0;

    if (r) {
        mlx5emu_trace_fw_freed(why, t->name, n);
        g_queue_push_tail(&fw->retired, r);
    }
    return n;
}

/* Every table's objects to fw->retired, once the data path let go of
 * everything it holds for them (timers, held frames, notes); how many. */
static unsigned fw_retire_all(Mlx5Fw *fw, const char *why)
{
    unsigned total;

    if (fw->dp_ops) {
        fw->dp_ops->reset(fw->dp);
    }
    /* Flow tables reference groups, TIRs reference RQTs: users go first,
     * and are freed first. */
    total = fw_retire(fw, &fw->flow_table, why);
#define MLX5_TABLE_RETIRE_(t) total += fw_retire(fw, &fw->t, why);
    MLX5_OBJ_TABLES(MLX5_TABLE_RETIRE_)
    return total;
}

void mlx5_fw_fini(Mlx5Fw *fw)
{
    fw_retire_all(fw, "fini");
    mlx5_fw_reclaim(fw, UINT_MAX);
#define MLX5_TABLE_FINI_(t) mlx5_table_fini(&fw->t);
    MLX5_OBJ_TABLES(MLX5_TABLE_FINI_)
    g_free(fw->pages);
    fw->pages = NULL;
    g_hash_table_destroy(fw->mcg);
    fw->mcg = NULL;
    mlx5_memic_fini(fw);
}

/* The objects a reset retired are freed MLX5_RECLAIM_INLINE at once, the
 * rest in the data path's slices (Mlx5DataPathOps.reclaim_later); a
 * firmware without a data path frees them all now. */
static void fw_reclaim_retired(Mlx5Fw *fw)
{
    mlx5_fw_reclaim(fw, fw->dp_ops ? MLX5_RECLAIM_INLINE : UINT_MAX);
    if (!g_queue_is_empty(&fw->retired)) {
        fw->dp_ops->reclaim_later(fw->dp);
    }
}

/* Every object the driver created goes; the HCA keeps its enable state.
 * A device can hold a whole budget of them (hundreds of thousands of
 * QPs): they leave their tables at once and are freed in slices
 * (fw_reclaim_retired), so no command or reset holds the device for all
 * of it. */
static unsigned fw_free_objects(Mlx5Fw *fw, const char *why)
{
    unsigned total = fw_retire_all(fw, why), n;

    n = mlx5_mcg_count(fw); total += n;
    if (n) mlx5emu_trace_fw_freed(why, "multicast attachment", n);
    g_hash_table_remove_all(fw->mcg);
    n = mlx5_memic_reset(fw); total += n;
    if (n) mlx5emu_trace_fw_freed(why, "device memory allocation", n);
    n = mlx5_pp_rate_reset(fw); total += n;
    if (n) mlx5emu_trace_fw_freed(why, "packet pacing rate", n);
    memset(fw->flow_root, 0, sizeof(fw->flow_root));
    memset(fw->flow_root_set, 0, sizeof(fw->flow_root_set));
    memset(fw->gid, 0, sizeof(fw->gid));
    fw->have_cmd_eq = false;
    fw->uc_count = fw->mc_count = 0;
    fw->promisc_uc = fw->promisc_mc = fw->promisc_all = false;
    fw->roce_en = false;
    fw->paos_admin = 2;
    fw->port_up = false;
    fw->vport_mtu = 0;
    fw->admin_mtu = 1500 + 22;
    fw->npages = 0;
    /* After a clean driver unload TEARDOWN_HCA finds nothing left: a
     * non-zero count names objects the driver never destroyed.  What they
     * hold stays charged until they are reclaimed (fw_host_mem
     * "reclaimed" says when all are). */
    mlx5emu_trace_fw_objects_freed(why, total, mlx5_fw_object_count(fw));
    fw_reclaim_retired(fw);
    mlx5emu_trace_fw_host_mem(why, fw->host_mem.used, fw->host_mem.limit);
    return total;
}

unsigned mlx5_fw_reset(Mlx5Fw *fw, const char *why)
{
    unsigned freed = fw_free_objects(fw, why);

    fw->hca_state = MLX5_HCA_DISABLED;
    fw->issi = 0;
    fw->cmdq_addr_h = fw->cmdq_addr_l = 0;
    fw->nic_interface = 0;
    fw->cmd_pending = 0;
    fw->ready_at_ns = fw->plat->clock_ns(fw->opaque) + MLX5_FW_BOOT_NS;
    mlx5_caps_init(fw);
    snprintf(fw->node_desc, sizeof(fw->node_desc), "mlx5emu ConnectX-6 Dx (emulated)");
    mlx5emu_trace_fw_reset(why, freed);
    return freed;
}

unsigned cmd_enable_hca(Mlx5Fw *fw, Mlx5Cmd *c)
{
    if (PRM_GET(enable_hca_in, function_id, c->in) != 0 ||
        PRM_GET(enable_hca_in, embedded_cpu_function, c->in)) {
        return CMD_FAIL(c, BAD_PARAM, BAD_FUNCTION);
    }
    /* A driver recovering from an error re-enables without a teardown
     * (Linux mlx5_load_one(recovery)): start from a clean function. */
    if (fw->hca_state != MLX5_HCA_DISABLED) {
        fw_free_objects(fw, "ENABLE_HCA");
        mlx5_caps_init(fw);
    }
    fw->hca_state = MLX5_HCA_ENABLED;
    return MLX5_CMD_STAT_OK;
}

unsigned cmd_disable_hca(Mlx5Fw *fw, Mlx5Cmd *c)
{
    if (PRM_GET(disable_hca_in, function_id, c->in) != 0 ||
        PRM_GET(disable_hca_in, embedded_cpu_function, c->in)) {
        return CMD_FAIL(c, BAD_PARAM, BAD_FUNCTION);
    }
    fw_free_objects(fw, "DISABLE_HCA");
    mlx5_caps_init(fw);
    fw->hca_state = MLX5_HCA_DISABLED;
    return MLX5_CMD_STAT_OK;
}

unsigned cmd_init_hca(Mlx5Fw *fw, Mlx5Cmd *c)
{
    if (fw->hca_state == MLX5_HCA_INITIALIZED) {
        return CMD_FAIL(c, BAD_SYS_STATE, ALREADY_INIT);
    }
    fw->hca_state = MLX5_HCA_INITIALIZED;
    return MLX5_CMD_STAT_OK;
}

unsigned cmd_teardown_hca(Mlx5Fw *fw, Mlx5Cmd *c)
{
    unsigned profile = PRM_GET(teardown_hca_in, profile, c->in);

    /* 0 = graceful close; fast/force teardown are not advertised. */
    if (profile != 0) {
        return CMD_FAIL(c, BAD_PARAM, TEARDOWN_PROFILE);
    }
    if (fw->hca_state != MLX5_HCA_INITIALIZED) {
        return CMD_FAIL(c, BAD_SYS_STATE, NOT_INITIALIZED);
    }
    fw_free_objects(fw, "TEARDOWN_HCA");
    fw->hca_state = MLX5_HCA_ENABLED;
    return MLX5_CMD_STAT_OK;
}

unsigned cmd_query_issi(Mlx5Fw *fw, Mlx5Cmd *c)
{
    PRM_SET(query_issi_out, current_issi, c->out, fw->issi);
    PRM_SET(query_issi_out, supported_issi_dw0, c->out, 0x3);  /* ISSI 0 and 1 */
    return MLX5_CMD_STAT_OK;
}

unsigned cmd_set_issi(Mlx5Fw *fw, Mlx5Cmd *c)
{
    unsigned issi = PRM_GET(set_issi_in, current_issi, c->in);

    if (issi > 1) {
        return CMD_FAIL(c, BAD_PARAM, BAD_ISSI);
    }
    fw->issi = issi;
    return MLX5_CMD_STAT_OK;
}

/* The device keeps its state in host memory and asks for no pages: the
 * driver then sends no MANAGE_PAGES (6.1 sends a GIVE of 0 entries). */
unsigned cmd_query_pages(Mlx5Fw *fw, Mlx5Cmd *c)
{
    if (c->op_mod < 1 || c->op_mod > 3) {      /* boot, init, regular */
        return CMD_FAIL(c, BAD_PARAM, BAD_OP_MOD);
    }
    if (PRM_GET(query_pages_in, function_id, c->in) != 0) {
        return CMD_FAIL(c, BAD_PARAM, BAD_FUNCTION);
    }
    PRM_SET(query_pages_out, num_pages, c->out, 0);
    (void)fw;
    return MLX5_CMD_STAT_OK;
}

/* Pages a driver gives anyway are kept and returned exactly on TAKE. */
unsigned cmd_manage_pages(Mlx5Fw *fw, Mlx5Cmd *c)
{
    uint32_t n = PRM_GET(manage_pages_in, input_num_entries, c->in);
    uint32_t pas = PRM_BYTE_OFF(manage_pages_in, pas);

    if (PRM_GET(manage_pages_in, function_id, c->in) != 0) {
        return CMD_FAIL(c, BAD_PARAM, BAD_FUNCTION);
    }
    switch (c->op_mod) {
    case 0:                                     /* allocation failed */
        return MLX5_CMD_STAT_OK;
    case 1:                                     /* GIVE */
        if (!mlx5_cmd_has(c, pas, n, 8)) {
            return CMD_FAIL(c, BAD_INP_LEN, IN_TOO_SHORT);
        }
        if (n > MLX5_MAX_PAGES - fw->npages) {
            return CMD_FAIL(c, NO_RES, NO_RESOURCE);
        }
        fw->pages = g_renew(uint64_t, fw->pages, fw->npages + n);
        for (uint32_t i = 0; i < n; i++) {
            fw->pages[fw->npages++] = prm_be64(c->in + pas + 8 * i);
        }
        return MLX5_CMD_STAT_OK;
    case 2: {                                   /* TAKE */
        uint32_t room = (c->outlen - PRM_BYTE_OFF(manage_pages_out, pas)) / 8;
        uint32_t k = MIN(MIN(n, fw->npages), room);
        for (uint32_t i = 0; i < k; i++) {
            prm_put_be64(c->out + PRM_BYTE_OFF(manage_pages_out, pas) + 8 * i,
                         fw->pages[--fw->npages]);
        }
        PRM_SET(manage_pages_out, output_num_entries, c->out, k);
        return MLX5_CMD_STAT_OK;
    }
    default:
        return CMD_FAIL(c, BAD_PARAM, BAD_OP_MOD);
    }
}

unsigned cmd_query_adapter(Mlx5Fw *fw, Mlx5Cmd *c)
{
    uint8_t *blk = PRM_PTR(query_adapter_out, query_adapter_struct, c->out);

    PRM_SET(query_adapter_param_block, ieee_vendor_id, blk, 0x0002c9);
    PRM_SET(query_adapter_param_block, vsd_vendor_id, blk, 0x15b3);
    memcpy(PRM_PTR(query_adapter_param_block, vsd_contd_psid, blk), fw->cfg.psid,
           MIN(strlen(fw->cfg.psid), (size_t)16));
    return MLX5_CMD_STAT_OK;
}

unsigned cmd_set_driver_version(Mlx5Fw *fw, Mlx5Cmd *c)
{
    char ver[65] = { 0 };

    memcpy(ver, PRM_PTR(set_driver_version_in, driver_version, c->in), 64);
    mlx5emu_trace_fw_driver_version(ver);
    (void)fw;
    return MLX5_CMD_STAT_OK;
}
