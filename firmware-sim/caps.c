/*
 * The capability profile (QUERY_HCA_CAP / SET_HCA_CAP).
 *
 * What the device advertises decides which driver paths run: a feature we
 * do not model is switched off here, never by failing the command the
 * driver would send for it.  Values follow the gates the 6.1, 6.12 and 7.x
 * drivers check (bring-up map §4.4); MAX == CUR at reset, SET_HCA_CAP
 * updates CUR within MAX (caps_within_max: each field as what it is, a
 * limit, a mask or the device's own value), and the object tables' limits
 * follow CUR (hca.c mlx5_fw_limits_update).
 */
#include <string.h>

#include "cmd.h"

/* One advertised capability: its page (QUERY_HCA_CAP type), the field's
 * bit offset and width in it, the value. */
typedef struct CapValue {
    uint8_t type;
    uint16_t off, width;
    uint32_t value;
} CapValue;
#define CAP(type, layout, f, v) { type, PRM_OFF(layout, f), PRM_W(layout, f), v }
#define GEN(f, v) CAP(MLX5_CAP_GENERAL, cmd_hca_cap, f, v)
#define ETH(f, v) CAP(MLX5_CAP_ETHERNET_OFFLOADS, per_protocol_networking_offload_caps, f, v)
#define ROCE(f, v) CAP(MLX5_CAP_ROCE, roce_cap, f, v)
#define ATOMIC(f, v) CAP(MLX5_CAP_ATOMIC, atomic_caps, f, v)
#define DEV_MEM(f, v) CAP(MLX5_CAP_DEVICE_MEM, device_mem_cap, f, v)
#define QOS(f, v) CAP(MLX5_CAP_QOS, qos_cap, f, v)
/* A transport's on-demand paging bit (odp_per_transport_service_cap). */
#define ODP(t, f) \
    { MLX5_CAP_ODP, PRM_OFF(odp_cap, t##_odp_caps) + PRM_OFF(odp_per_transport_service_cap, f), \
      PRM_W(odp_per_transport_service_cap, f), 1 }
/* The NIC receive flow table's properties, inside the flow table page. */
#define NIC_RX(f, v) \
    { MLX5_CAP_FLOW_TABLE, PRM_OFF(flow_table_nic_cap, flow_table_properties_nic_receive) + \
      PRM_OFF(flow_table_prop_layout, f), PRM_W(flow_table_prop_layout, f), v }

static const CapValue mlx5_caps[] = {
    GEN(page_request_disable, 1),           /* 6.12+: no pages EQ */
    GEN(log_max_srq_sz, 15),
    GEN(log_max_qp_sz, 15),
    GEN(log_max_qp, 18),
    GEN(log_max_srq, 16),
    GEN(log_max_cq_sz, 22),
    GEN(log_max_cq, 16),
    GEN(log_max_eq_sz, 13),                 /* async EQ: 4096 + spare */
    GEN(log_max_mkey, 16),
    GEN(log_max_eq, 5),
    GEN(max_indirection, 4),
    GEN(log_max_mrw_sz, 64),
    /* mlx5_ib's implicit ODP MR is a KSM key of 2^17 entries of 1 GiB on
     * x86-64 (odp.c mlx5_ib_odp_init: get_order(TASK_SIZE) - 18), made
     * by CREATE_MKEY for its mkey cache at probe. */
    GEN(log_max_klm_list_size, 17),
    GEN(log_max_ra_req_dc, 4),
    GEN(log_max_ra_res_dc, 4),
    GEN(log_max_ra_req_qp, 4),
    GEN(log_max_ra_res_qp, 4),
    GEN(cc_query_allowed, 0),
    GEN(max_qp_cnt, 16),                    /* Q counters */
    /* The transport events the device counts per Q counter set: mlx5_ib
     * (counters.c) shows a group of hw_counters for each bit. */
    GEN(out_of_seq_cnt, 1),
    GEN(retransmission_q_counters, 1),
    GEN(enhanced_error_q_counters, 1),
    GEN(rts2rts_qp_counters_set_id, 1),     /* rdma statistic qp bind on a live QP */
    GEN(pkey_table_size, 0),                /* 128 entries */
    GEN(mcam_reg, 1),                       /* MCQS/MCQI: devlink fw.version */
    /* qpc.block_lb_mc is honoured (hw-rdma/transport.c mcast_loops_back):
     * mlx5_ib then accepts IBV_QP_CREATE_BLOCK_SELF_MCAST_LB (qp.c
     * process_create_flags), which rdma-core's suite asks of UD and raw
     * packet QPs at random. */
    GEN(block_lb_mc, 1),
    /* On-demand paging, the transport scheme (hw-rdma/odp.c; what the
     * drivers need: docs/odp-driver-map.md): the device pages, and RC QPs
     * and XRC QPs may fault on every operation, RC and XRC receives also
     * on an SRQ's WQE (a WQE fault of type 0, the SRQ's number), UD QPs on
     * sends (a UD receive has no RNR NAK to wait behind).  mlx5_core turns
     * on the SRQ and XRC bits itself, copying them from MAX (main.c
     * handle_hca_cap_odp: SET_HCA_CAP of the ODP page).  Implicit ODP
     * (odp.c internal_fill_odp_caps: all four below): a KSM key over the
     * whole address space whose slots name the null mkey until mlx5_ib
     * maps them (QUERY_SPECIAL_CONTEXTS, fw.h MLX5_NULL_MKEY), entries of
     * a fixed size (KSM), and UMR list offsets past 16 bits (xlt_offset_47_16, hw-rdma/umr.c; without it
     * mlx5_ib also refuses ODP MRs of 2^16 pages and more: umr.h
     * mlx5r_umr_can_load_pas). */
    GEN(pg, 1),
    GEN(null_mkey, 1),
    GEN(fixed_buffer_size, 1),
    GEN(umr_extended_translation_offset, 1),
    ODP(rc, send), ODP(rc, receive), ODP(rc, write), ODP(rc, read), ODP(rc, atomic),
    ODP(rc, srq_receive),
    ODP(xrc, send), ODP(xrc, receive), ODP(xrc, write), ODP(xrc, read), ODP(xrc, atomic),
    ODP(xrc, srq_receive),
    ODP(ud, send),
    /* Packet pacing (qos.c, hw-rdma/pacing.c): a table of rates Ethernet
     * SQs name - mlx5e's tx_maxrate, mlx5_ib's IBV_QP_RATE_LIMIT on raw
     * packet QPs (mlx5_core rl.c mlx5_init_rl_table reads these).  From 1
     * Mbit/s to the link's 100 Gbit/s, in kbit/s; with a burst bound and a
     * typical packet size per rate (mlx5_ib offers them to processes:
     * MLX5_IB_PP_SUPPORT_BURST).  No scheduling elements (nic_sq_scheduling
     * 0: no HTB offload). */
    GEN(qos, 1),
    QOS(packet_pacing, 1),
    QOS(packet_pacing_burst_bound, 1),
    QOS(packet_pacing_typical_size, 1),
    QOS(packet_pacing_max_rate, 100000000),
    QOS(packet_pacing_min_rate, 1000),
    QOS(packet_pacing_rate_table_size, MLX5_PP_RATE_TABLE_SIZE),
    GEN(cq_resize, 1),                      /* MODIFY_CQ op_mod 1 (cq.c) */
    GEN(uc, 1),                             /* UC QPs (hw-rdma/rc*.c, unreliable) */
    GEN(nic_flow_table, 1),
    GEN(local_ca_ack_delay, 16),
    GEN(port_type, 1),                      /* Ethernet */
    GEN(num_ports, 1),
    GEN(log_max_msg, 30),
    GEN(max_tc, 0),
    GEN(cqe_version, 1),
    /* CQE formats (mlx5_ib offers them to processes, query_device
     * cqe_comp_caps and flags): 128-byte CQEs always padded, and
     * compression - which a CQ may ask for and the device, free to
     * compress or not, never does (every CQE is a full one). */
    GEN(cqe_128_always, 1),
    GEN(cqe_compression, 1),
    GEN(cqe_compression_128, 1),
    GEN(cqe_compression_max_num, 64),
    GEN(mini_cqe_resp_stride_index, 1),
    /* The free-running clock (fw.h mlx5_device_clock): mlx5_core registers
     * a PTP clock on it, mlx5_ib maps the timer to processes and offers
     * completion timestamps (CQE timestamp, hw-rdma/cq.c). */
    GEN(device_frequency_khz, MLX5_DEVICE_FREQ_KHZ),
    GEN(device_frequency_mhz, MLX5_DEVICE_FREQ_KHZ / 1000),
    GEN(cmdif_checksum, 0),
    /* UMR may change a key's page size: mlx5_ib then offers fast registration
     * (IB_DEVICE_MEM_MGT_EXTENSIONS, which NVMe over RDMA needs) and
     * registers user memory through its UMR QP and mkey cache (umr.h
     * mlx5r_umr_can_load_pas; hw-rdma/umr.c). */
    GEN(umr_modify_entity_size_disabled, 0),
    /* Memory windows (hw-rdma/umr.c window_check): mlx5_ib registers
     * alloc_mw/dealloc_mw and says IB_DEVICE_MEM_WINDOW(_TYPE_2B); it also
     * offers SG-gaps MRs (KLM keys, which NVMe over RDMA then uses). */
    GEN(imaicl, 1),
    GEN(eth_net_offloads, 1),
    GEN(roce, 1),
    /* QUERY_VPORT_COUNTER (firmware-sim/vport.c): with it mlx5_ib answers
     * the PMA's Get(ClassPortInfo) and PortCounters(Extended) itself
     * (mad.c process_pma_cmd: vport counters, PPCNT's IB group) instead of
     * passing them to MAD_IFC, which ib_core's port registration sends
     * (sysfs.c get_counter_table) and this device does not implement. */
    GEN(vport_counters, 1),
    GEN(atomic, 1),                         /* the atomic group below (mlx5_ib get_atomic_caps) */
    GEN(xrc, 1),
    GEN(ud, 1),
    GEN(rc, 1),
    GEN(log_pg_sz, 12),
    GEN(bf, 1),
    GEN(driver_version, 1),
    GEN(log_bf_reg_size, 9),
    GEN(max_wqe_sz_sq, 1024),
    GEN(max_wqe_sz_rq, 512),
    GEN(max_wqe_sz_sq_dc, 512),
    GEN(max_qp_mcg, 240),
    GEN(log_max_mcg, 10),
    GEN(log_max_transport_domain, 16),
    GEN(log_max_pd, 16),
    GEN(log_max_xrcd, 16),
    GEN(log_max_flow_counter_bulk, 0),
    GEN(log_max_rq, 16),
    GEN(log_max_sq, 16),
    GEN(log_max_tir, 16),
    GEN(log_max_tis, 16),
    GEN(log_max_rmp, 16),
    GEN(log_max_rqt, 16),
    GEN(log_max_rqt_size, 11),
    GEN(log_max_tis_per_sq, 0),
    GEN(log_max_stride_sz_rq, 0),
    GEN(log_max_wq_sz, 16),
    GEN(log_max_current_uc_list, 7),
    GEN(log_max_current_mc_list, 7),
    GEN(log_max_vlan_list, 7),
    GEN(log_uar_page_sz, 0),
    GEN(num_of_uars_per_page, 1),
    /* Ethernet offloads */
    ETH(csum_cap, 1),
    ETH(vlan_cap, 1),
    ETH(max_lso_cap, 16),
    ETH(wqe_inline_mode, 2),                /* NOT_REQUIRED */
    ETH(rss_ind_tbl_cap, 11),
    ETH(self_lb_en_modifiable, 1),
    ETH(wqe_vlan_insert, 1),
    ETH(lro_cap, 0),
    ETH(max_geneve_opt_len, 0),
    /* RoCE */
    ROCE(roce_version, 0x5),                /* RoCE v1 (bit 0) and v2 (bit 2) */
    ROCE(l3_type, 0x6),                     /* IPv4 and IPv6 */
    ROCE(r_roce_dest_udp_port, 4791),
    ROCE(r_roce_max_src_udp_port, 0xffff),
    ROCE(r_roce_min_src_udp_port, 0xc000),
    ROCE(roce_address_table_size, MLX5_GID_TABLE_SIZE),
    /* 8-byte compare-and-swap and fetch-and-add on RC QPs, executed in the
     * host's byte order once the driver selects it (mlx5_core
     * handle_hca_cap_atomic sets atomic_req_8B_endianness_mode to 1). */
    ATOMIC(supported_atomic_req_8B_endianness_mode_1, 1),
    ATOMIC(atomic_operations, 0x3),         /* bit 0 compare-and-swap, bit 1 fetch-and-add */
    ATOMIC(atomic_size_qp, 0x8),            /* bit 3: 8 bytes */
    /* Device memory (memic.c): mlx5_core reads the page when device_memory
     * is set (fw.c mlx5_query_hca_caps), mlx5_ib then offers ibv_alloc_dm
     * with max_dm_size = max_memic_size (main.c mlx5_ib_query_device).
     * Allocations of 64-byte granules anywhere in the window, aligned up
     * to the whole window. */
    GEN(device_memory, 1),
    DEV_MEM(memic, 1),
    DEV_MEM(log_min_memic_alloc_size, 6),
    DEV_MEM(log_max_memic_addr_alignment, 12),
    DEV_MEM(memic_bar_start_addr, MLX5_MEMIC_BAR_OFFSET),
    DEV_MEM(memic_bar_size, MLX5_MEMIC_BAR_BYTES),
    DEV_MEM(max_memic_size, MLX5_MEMIC_BAR_BYTES),
    /* NIC receive flow steering */
    NIC_RX(ft_support, 1),
    NIC_RX(flow_modify_en, 1),
    NIC_RX(modify_root, 1),
    NIC_RX(identified_miss_table_mode, 1),
    NIC_RX(flow_table_modify, 1),
    NIC_RX(log_max_ft_size, 22),
    NIC_RX(max_ft_level, 63),
    /* Device-wide bounds the steering commands hold a guest to (flow.c):
     * 2^10 tables; 2^18 entries over all tables, which at worst (512
     * match bytes, 16 destinations each) take some 200 MiB of host
     * memory.  mlx5_core reads neither; its NIC tables hold hundreds. */
    NIC_RX(log_max_ft_num, 10),
    NIC_RX(log_max_flow, 18),
    NIC_RX(log_max_destination, 4),
};

void mlx5_caps_init(Mlx5Fw *fw)
{
    memset(fw->caps_max, 0, sizeof(fw->caps_max));
    for (size_t i = 0; i < G_N_ELEMENTS(mlx5_caps); i++) {
        const CapValue *v = &mlx5_caps[i];
        prm_set_bits(MLX5_CAP_MAX(fw, v->type), v->off, v->width, v->value);
    }
    /* Event moderation is the board's choice (-device mlx5,cq-moderation=);
     * 6.7+ mlx5e needs cq_period_mode_modify for moderation and net DIM. */
    PRM_SET(cmd_hca_cap, cq_moderation, MLX5_CAP_MAX(fw, MLX5_CAP_GENERAL), fw->cfg.cq_moderation);
    PRM_SET(cmd_hca_cap, cq_period_mode_modify, MLX5_CAP_MAX(fw, MLX5_CAP_GENERAL),
            fw->cfg.cq_moderation);
    memcpy(fw->caps_cur, fw->caps_max, sizeof(fw->caps_cur));
    mlx5_fw_limits_update(fw);
}

/* Entries of the profile that write bits an earlier one wrote: the later
 * silently wins (a feature advertised twice, once on and once off, is
 * off), so the table must name each field once (/hca/caps-each-field-once). */
unsigned mlx5_caps_overlaps(void)
{
    unsigned n = 0;

    for (size_t i = 0; i < G_N_ELEMENTS(mlx5_caps); i++) {
        const CapValue *a = &mlx5_caps[i];

        for (size_t j = 0; j < i; j++) {
            const CapValue *b = &mlx5_caps[j];

            if (a->type == b->type && a->off < b->off + b->width && b->off < a->off + a->width) {
                n++;
                break;
            }
        }
    }
    return n;
}

/* How SET_HCA_CAP may change a field of a settable page (mlx5_ifc.h says
 * what each is): a limit (a count, size or log size; a one-bit feature is
 * a limit of 1) not past MAX; a mask (a bit per feature or type) no bit
 * MAX lacks; the device's own value (a clock, a hint, its UAR geometry)
 * only as MAX has it. */
typedef enum { CAP_SET_LIMIT, CAP_SET_MASK, CAP_SET_FIXED } CapSetKind;

typedef struct CapSetField {
    uint8_t type;               /* the capability page */
    uint16_t off;               /* the field's bit offset in it */
    CapSetKind kind;
} CapSetField;
#define CAP_SET_GEN_(f, kind) { MLX5_CAP_GENERAL, PRM_OFF(cmd_hca_cap, f), kind }
#define CAP_SET_ROCE_(f, kind) { MLX5_CAP_ROCE, PRM_OFF(roce_cap, f), kind }
#define CAP_SET_ODP_(f, kind) { MLX5_CAP_ODP, PRM_OFF(odp_cap, f), kind }

/* What the fields are, where it is not "a limit".  Every field of
 * cmd_hca_cap wider than 16 bits has a row: a wide field is as likely a
 * mask or the device's own value as a limit, so one without a row is
 * taken for the device's own.  Narrower fields are limits or one-bit
 * features unless a row says they are masks. */
static const CapSetField cap_set_fields[] = {
    CAP_SET_GEN_(max_qp_mcg, CAP_SET_LIMIT),            /* QPs a multicast group holds (mcg.c) */
    CAP_SET_GEN_(num_total_dynamic_vf_msix, CAP_SET_LIMIT), /* MSI-X vectors for VFs */
    CAP_SET_GEN_(general_obj_types, CAP_SET_MASK),      /* a bit per general object type */
    CAP_SET_GEN_(flex_parser_protocols, CAP_SET_MASK),  /* a bit per protocol */
    CAP_SET_GEN_(uctx_cap, CAP_SET_MASK),               /* MLX5_UCTX_CAP_* bits */
    CAP_SET_GEN_(vhca_tunnel_commands, CAP_SET_MASK),   /* a bit per command */
    CAP_SET_GEN_(match_definer_format_supported, CAP_SET_MASK), /* a bit per format */
    CAP_SET_GEN_(create_qp_start_hint, CAP_SET_FIXED),  /* the QPN the device suggests */
    CAP_SET_GEN_(device_frequency_mhz, CAP_SET_FIXED),  /* the clock timestamps count */
    CAP_SET_GEN_(device_frequency_khz, CAP_SET_FIXED),
    CAP_SET_GEN_(num_of_uars_per_page, CAP_SET_FIXED),  /* BAR0's UAR geometry */
    CAP_SET_ROCE_(roce_version, CAP_SET_MASK),          /* bit 0 RoCE v1, bit 2 v2 */
    CAP_SET_ROCE_(l3_type, CAP_SET_MASK),               /* bit 1 IPv4, bit 2 IPv6 */
    /* what each transport may fault on, a bit per operation: mlx5_core
     * turns on the SRQ, XRC and DC ones MAX has (main.c handle_hca_cap_odp) */
    CAP_SET_ODP_(rc_odp_caps, CAP_SET_MASK),
    CAP_SET_ODP_(uc_odp_caps, CAP_SET_MASK),
    CAP_SET_ODP_(ud_odp_caps, CAP_SET_MASK),
    CAP_SET_ODP_(xrc_odp_caps, CAP_SET_MASK),
    CAP_SET_ODP_(dc_odp_caps, CAP_SET_MASK),
};

static CapSetKind cap_set_kind(unsigned type, const PrmField *f)
{
    for (size_t i = 0; i < G_N_ELEMENTS(cap_set_fields); i++) {
        if (cap_set_fields[i].type == type && cap_set_fields[i].off == f->off) {
            return cap_set_fields[i].kind;
        }
    }
    return f->width > 16 ? CAP_SET_FIXED : CAP_SET_LIMIT;
}

/* Field f of `want` as its kind allows beside MAX, in 64-bit pieces (a
 * limit is never wider).  A piece equal to MAX passes whatever the kind,
 * so the kind is looked up only for the few the driver changed. */
static bool cap_field_ok(unsigned type, const uint8_t *want, const uint8_t *max,
                         const PrmField *f)
{
    for (unsigned done = 0; done < f->width; done += 64) {
        unsigned w = MIN(f->width - done, 64u);
        uint64_t v = prm_get_bits(want, f->off + done, w), m = prm_get_bits(max, f->off + done, w);
        CapSetKind kind;

        if (v == m) {
            continue;
        }
        kind = cap_set_kind(type, f);
        if ((kind == CAP_SET_LIMIT && v > m) || (kind == CAP_SET_MASK && (v & ~m)) ||
            kind == CAP_SET_FIXED) {
            return false;
        }
    }
    return true;
}

/* SET_HCA_CAP may only turn on what MAX has: every field of the page's
 * layout as its kind allows. */
static bool caps_within_max(unsigned type, const uint8_t *want, const uint8_t *max,
                            const PrmLayout *lay)
{
    for (unsigned i = 0; i < lay->nfields; i++) {
        const PrmField *f = &lay->fields[i];

        if (f->width && !cap_field_ok(type, want, max, f)) {
            return false;
        }
    }
    return true;
}

const char *mlx5_cap_layout_name(unsigned type)
{
    switch (type) {
    case MLX5_CAP_GENERAL: return "cmd_hca_cap";
    case MLX5_CAP_ETHERNET_OFFLOADS: return "per_protocol_networking_offload_caps";
    case MLX5_CAP_ODP: return "odp_cap";
    case MLX5_CAP_ATOMIC: return "atomic_caps";
    case MLX5_CAP_ROCE: return "roce_cap";
    case MLX5_CAP_FLOW_TABLE: return "flow_table_nic_cap";
    case MLX5_CAP_QOS: return "qos_cap";
    case MLX5_CAP_DEVICE_MEM: return "device_mem_cap";
    default: return NULL;
    }
}

/* The layout a settable page is checked against (the atomic page has a
 * rule of its own); NULL: no layout, so nothing of it can be set. */
static const PrmLayout *cap_set_layout(unsigned type)
{
    if (type != MLX5_CAP_GENERAL && type != MLX5_CAP_ROCE && type != MLX5_CAP_ODP) {
        return NULL;
    }
    return prm_layout_find(mlx5_cap_layout_name(type));
}

static bool cap_settable(unsigned type)
{
    return type == MLX5_CAP_GENERAL || type == MLX5_CAP_ROCE ||
           type == MLX5_CAP_ATOMIC || type == MLX5_CAP_ODP ||
           type == MLX5_CAP_GENERAL_2;
}

/* The atomic group: software chooses the byte order of 8-byte atomics
 * (0: big endian, 1: host's, if supported); nothing else in it is
 * writable, and mlx5_core sends it zeroed but for that field
 * (handle_hca_cap_atomic). */
static bool atomic_set(Mlx5Fw *fw, const uint8_t *want)
{
    unsigned mode = PRM_GET(atomic_caps, atomic_req_8B_endianness_mode, want);

    if (mode > 1 || (mode == 1 && !PRM_GET(atomic_caps, supported_atomic_req_8B_endianness_mode_1,
                                           MLX5_CAP_MAX(fw, MLX5_CAP_ATOMIC)))) {
        return false;
    }
    PRM_SET(atomic_caps, atomic_req_8B_endianness_mode, MLX5_CAP_CUR(fw, MLX5_CAP_ATOMIC), mode);
    return true;
}

unsigned cmd_query_hca_cap(Mlx5Fw *fw, Mlx5Cmd *c)
{
    unsigned type = c->op_mod >> 1;
    bool cur = c->op_mod & 1;

    if (PRM_GET(query_hca_cap_in, other_function, c->in)) {
        return CMD_FAIL(c, BAD_PARAM, BAD_FUNCTION);
    }
    if (mlx5_cap_slot(type) < 0) {
        return CMD_FAIL(c, BAD_PARAM, BAD_CAP_TYPE);
    }
    memcpy(PRM_PTR(query_hca_cap_out, capability, c->out),
           cur ? MLX5_CAP_CUR(fw, type) : MLX5_CAP_MAX(fw, type), MLX5_CAP_BYTES);
    return MLX5_CMD_STAT_OK;
}

unsigned cmd_set_hca_cap(Mlx5Fw *fw, Mlx5Cmd *c)
{
    unsigned type = c->op_mod >> 1;
    const uint8_t *want = PRM_PTR(set_hca_cap_in, capability, c->in);
    const PrmLayout *lay;

    if ((c->op_mod & 1) || mlx5_cap_slot(type) < 0 ||
        !cap_settable(type)) {
        return CMD_FAIL(c, BAD_PARAM, BAD_CAP_TYPE);
    }
    if (type == MLX5_CAP_ATOMIC) {
        return atomic_set(fw, want) ? MLX5_CMD_STAT_OK : CMD_FAIL(c, BAD_PARAM, BAD_CAP_TYPE);
    }
    lay = cap_set_layout(type);
    if (!lay || !caps_within_max(type, want, MLX5_CAP_MAX(fw, type), lay)) {
        return CMD_FAIL(c, BAD_PARAM, BAD_CAP_TYPE);
    }
    memcpy(MLX5_CAP_CUR(fw, type), want, MLX5_CAP_BYTES);
    mlx5_fw_limits_update(fw);
    return MLX5_CMD_STAT_OK;
}
