/*
 * The command table: X(NAME, opcode, handler, input layout, output layout,
 * required HCA state).  Names and opcodes as in the PRM / mlx5_ifc.h.
 */
#ifndef MLX5EMU_CMD_LIST_H
#define MLX5EMU_CMD_LIST_H

#define MLX5_CMD_LIST(X) \
    X(QUERY_HCA_CAP,            0x100, cmd_query_hca_cap,   query_hca_cap_in,   query_hca_cap_out,  MLX5_NEEDS_ENABLED) \
    X(QUERY_ADAPTER,            0x101, cmd_query_adapter,   mbox_in,            query_adapter_out,  MLX5_NEEDS_INIT) \
    X(INIT_HCA,                 0x102, cmd_init_hca,        init_hca_in,        mbox_out,           MLX5_NEEDS_ENABLED) \
    X(TEARDOWN_HCA,             0x103, cmd_teardown_hca,    teardown_hca_in,    teardown_hca_out,   MLX5_NEEDS_ENABLED) \
    X(ENABLE_HCA,               0x104, cmd_enable_hca,      enable_hca_in,      mbox_out,           MLX5_NEEDS_NONE) \
    X(DISABLE_HCA,              0x105, cmd_disable_hca,     disable_hca_in,     mbox_out,           MLX5_NEEDS_NONE) \
    X(QUERY_PAGES,              0x107, cmd_query_pages,     query_pages_in,     query_pages_out,    MLX5_NEEDS_ENABLED) \
    X(MANAGE_PAGES,             0x108, cmd_manage_pages,    manage_pages_in,    manage_pages_out,   MLX5_NEEDS_ENABLED) \
    X(SET_HCA_CAP,              0x109, cmd_set_hca_cap,     set_hca_cap_in,     mbox_out,           MLX5_NEEDS_ENABLED) \
    X(QUERY_ISSI,               0x10a, cmd_query_issi,      mbox_in,            query_issi_out,     MLX5_NEEDS_ENABLED) \
    X(SET_ISSI,                 0x10b, cmd_set_issi,        set_issi_in,        mbox_out,           MLX5_NEEDS_ENABLED) \
    X(SET_DRIVER_VERSION,       0x10d, cmd_set_driver_version, set_driver_version_in, mbox_out,     MLX5_NEEDS_INIT) \
    X(CREATE_MKEY,              0x200, cmd_create_mkey,     create_mkey_in,     create_mkey_out,    MLX5_NEEDS_INIT) \
    X(QUERY_MKEY,               0x201, cmd_query_mkey,      query_mkey_in,      query_mkey_out,     MLX5_NEEDS_INIT) \
    X(DESTROY_MKEY,             0x202, cmd_destroy_mkey,    destroy_mkey_in,    mbox_out,           MLX5_NEEDS_INIT) \
    X(QUERY_SPECIAL_CONTEXTS,   0x203, cmd_query_special_contexts, mbox_in, query_special_contexts_out, MLX5_NEEDS_INIT) \
    X(PAGE_FAULT_RESUME,        0x204, cmd_page_fault_resume, page_fault_resume_in, mbox_out,     MLX5_NEEDS_INIT) \
    X(ALLOC_MEMIC,              0x205, cmd_alloc_memic,     alloc_memic_in,     alloc_memic_out,    MLX5_NEEDS_INIT) \
    X(DEALLOC_MEMIC,            0x206, cmd_dealloc_memic,   dealloc_memic_in,   mbox_out,           MLX5_NEEDS_INIT) \
    X(CREATE_EQ,                0x301, cmd_create_eq,       create_eq_in,       create_eq_out,      MLX5_NEEDS_INIT) \
    X(DESTROY_EQ,               0x302, cmd_destroy_eq,      destroy_eq_in,      mbox_out,           MLX5_NEEDS_INIT) \
    X(QUERY_EQ,                 0x303, cmd_query_eq,        query_eq_in,        query_eq_out,       MLX5_NEEDS_INIT) \
    X(CREATE_CQ,                0x400, cmd_create_cq,       create_cq_in,       create_cq_out,      MLX5_NEEDS_INIT) \
    X(DESTROY_CQ,               0x401, cmd_destroy_cq,      destroy_cq_in,      mbox_out,           MLX5_NEEDS_INIT) \
    X(QUERY_CQ,                 0x402, cmd_query_cq,        query_cq_in,        query_cq_out,       MLX5_NEEDS_INIT) \
    X(MODIFY_CQ,                0x403, cmd_modify_cq,       modify_cq_in,       mbox_out,           MLX5_NEEDS_INIT) \
    X(QUERY_VPORT_STATE,        0x750, cmd_query_vport_state, query_vport_state_in, query_vport_state_out, MLX5_NEEDS_INIT) \
    X(QUERY_NIC_VPORT_CONTEXT,  0x754, cmd_query_nic_vport_context, query_nic_vport_context_in, query_nic_vport_context_out, MLX5_NEEDS_INIT) \
    X(MODIFY_NIC_VPORT_CONTEXT, 0x755, cmd_modify_nic_vport_context, modify_nic_vport_context_in, mbox_out, MLX5_NEEDS_INIT) \
    X(SET_ROCE_ADDRESS,         0x761, cmd_set_roce_address, set_roce_address_in, mbox_out,         MLX5_NEEDS_INIT) \
    X(QUERY_HCA_VPORT_PKEY,     0x765, cmd_query_hca_vport_pkey, query_hca_vport_pkey_in, query_hca_vport_pkey_out, MLX5_NEEDS_INIT) \
    X(QUERY_VPORT_COUNTER,      0x770, cmd_query_vport_counter, query_vport_counter_in, query_vport_counter_out, MLX5_NEEDS_INIT) \
    X(ALLOC_Q_COUNTER,          0x771, cmd_alloc_q_counter, mbox_in,            alloc_q_counter_out, MLX5_NEEDS_INIT) \
    X(DEALLOC_Q_COUNTER,        0x772, cmd_dealloc_q_counter, dealloc_q_counter_in, mbox_out,       MLX5_NEEDS_INIT) \
    X(QUERY_Q_COUNTER,          0x773, cmd_query_q_counter, query_q_counter_in, query_q_counter_out, MLX5_NEEDS_INIT) \
    X(SET_PP_RATE_LIMIT,        0x780, cmd_set_pp_rate_limit, set_pp_rate_limit_in, mbox_out,    MLX5_NEEDS_INIT) \
    X(ALLOC_PD,                 0x800, cmd_alloc_pd,        mbox_in,            alloc_pd_out,       MLX5_NEEDS_INIT) \
    X(DEALLOC_PD,               0x801, cmd_dealloc_pd,      dealloc_pd_in,      mbox_out,           MLX5_NEEDS_INIT) \
    X(ALLOC_UAR,                0x802, cmd_alloc_uar,       mbox_in,            alloc_uar_out,      MLX5_NEEDS_INIT) \
    X(DEALLOC_UAR,              0x803, cmd_dealloc_uar,     dealloc_uar_in,     mbox_out,           MLX5_NEEDS_INIT) \
    X(ACCESS_REG,               0x805, cmd_access_reg,      access_register_in, access_register_out, MLX5_NEEDS_ENABLED) \
    X(ALLOC_XRCD,               0x80e, cmd_alloc_xrcd,      mbox_in,            alloc_xrcd_out,     MLX5_NEEDS_INIT) \
    X(DEALLOC_XRCD,             0x80f, cmd_dealloc_xrcd,    dealloc_xrcd_in,    mbox_out,           MLX5_NEEDS_INIT) \
    X(ALLOC_TRANSPORT_DOMAIN,   0x816, cmd_alloc_transport_domain, mbox_in,     alloc_transport_domain_out, MLX5_NEEDS_INIT) \
    X(DEALLOC_TRANSPORT_DOMAIN, 0x817, cmd_dealloc_transport_domain, dealloc_transport_domain_in, mbox_out, MLX5_NEEDS_INIT) \
    X(CREATE_TIR,               0x900, cmd_create_tir,      create_tir_in,      create_tir_out,     MLX5_NEEDS_INIT) \
    X(MODIFY_TIR,               0x901, cmd_modify_tir,      modify_tir_in,      mbox_out,           MLX5_NEEDS_INIT) \
    X(DESTROY_TIR,              0x902, cmd_destroy_tir,     destroy_tir_in,     mbox_out,           MLX5_NEEDS_INIT) \
    X(CREATE_SQ,                0x904, cmd_create_sq,       create_sq_in,       create_sq_out,      MLX5_NEEDS_INIT) \
    X(MODIFY_SQ,                0x905, cmd_modify_sq,       modify_sq_in,       mbox_out,           MLX5_NEEDS_INIT) \
    X(DESTROY_SQ,               0x906, cmd_destroy_sq,      destroy_sq_in,      mbox_out,           MLX5_NEEDS_INIT) \
    X(QUERY_SQ,                 0x907, cmd_query_sq,        query_sq_in,        query_sq_out,       MLX5_NEEDS_INIT) \
    X(CREATE_RQ,                0x908, cmd_create_rq,       create_rq_in,       create_rq_out,      MLX5_NEEDS_INIT) \
    X(MODIFY_RQ,                0x909, cmd_modify_rq,       modify_rq_in,       mbox_out,           MLX5_NEEDS_INIT) \
    X(DESTROY_RQ,               0x90a, cmd_destroy_rq,      destroy_rq_in,      mbox_out,           MLX5_NEEDS_INIT) \
    X(QUERY_RQ,                 0x90b, cmd_query_rq,        query_rq_in,        query_rq_out,       MLX5_NEEDS_INIT) \
    X(CREATE_TIS,               0x912, cmd_create_tis,      create_tis_in,      create_tis_out,     MLX5_NEEDS_INIT) \
    X(MODIFY_TIS,               0x913, cmd_modify_tis,      modify_tis_in,      mbox_out,           MLX5_NEEDS_INIT) \
    X(DESTROY_TIS,              0x914, cmd_destroy_tis,     destroy_tis_in,     mbox_out,           MLX5_NEEDS_INIT) \
    X(CREATE_RQT,               0x916, cmd_create_rqt,      create_rqt_in,      create_rqt_out,     MLX5_NEEDS_INIT) \
    X(MODIFY_RQT,               0x917, cmd_modify_rqt,      modify_rqt_in,      mbox_out,           MLX5_NEEDS_INIT) \
    X(DESTROY_RQT,              0x918, cmd_destroy_rqt,     destroy_rqt_in,     mbox_out,           MLX5_NEEDS_INIT) \
    X(SET_FLOW_TABLE_ROOT,      0x92f, cmd_set_flow_table_root, set_flow_table_root_in, mbox_out,   MLX5_NEEDS_INIT) \
    X(CREATE_FLOW_TABLE,        0x930, cmd_create_flow_table, create_flow_table_in, create_flow_table_out, MLX5_NEEDS_INIT) \
    X(DESTROY_FLOW_TABLE,       0x931, cmd_destroy_flow_table, destroy_flow_table_in, mbox_out,     MLX5_NEEDS_INIT) \
    X(CREATE_FLOW_GROUP,        0x933, cmd_create_flow_group, create_flow_group_in, create_flow_group_out, MLX5_NEEDS_INIT) \
    X(DESTROY_FLOW_GROUP,       0x934, cmd_destroy_flow_group, destroy_flow_group_in, mbox_out,     MLX5_NEEDS_INIT) \
    X(SET_FLOW_TABLE_ENTRY,     0x936, cmd_set_fte,         set_fte_in,         mbox_out,           MLX5_NEEDS_INIT) \
    X(DELETE_FLOW_TABLE_ENTRY,  0x938, cmd_delete_fte,      delete_fte_in,      mbox_out,           MLX5_NEEDS_INIT) \
    X(MODIFY_FLOW_TABLE,        0x93c, cmd_modify_flow_table, modify_flow_table_in, mbox_out,       MLX5_NEEDS_INIT) \
    X(CREATE_QP,                0x500, cmd_create_qp,       create_qp_in,       create_qp_out,      MLX5_NEEDS_INIT) \
    X(DESTROY_QP,               0x501, cmd_destroy_qp,      destroy_qp_in,      mbox_out,           MLX5_NEEDS_INIT) \
    X(RST2INIT_QP,              0x502, cmd_rst2init_qp,     rst2init_qp_in,     mbox_out,           MLX5_NEEDS_INIT) \
    X(INIT2RTR_QP,              0x503, cmd_init2rtr_qp,     init2rtr_qp_in,     mbox_out,           MLX5_NEEDS_INIT) \
    X(RTR2RTS_QP,               0x504, cmd_rtr2rts_qp,      rtr2rts_qp_in,      mbox_out,           MLX5_NEEDS_INIT) \
    X(RTS2RTS_QP,               0x505, cmd_rts2rts_qp,      rts2rts_qp_in,      mbox_out,           MLX5_NEEDS_INIT) \
    X(2ERR_QP,                  0x507, cmd_qp_2err,         qp_2err_in,         mbox_out,           MLX5_NEEDS_INIT) \
    X(2RST_QP,                  0x50a, cmd_qp_2rst,         qp_2rst_in,         mbox_out,           MLX5_NEEDS_INIT) \
    X(QUERY_QP,                 0x50b, cmd_query_qp,        query_qp_in,        query_qp_out,       MLX5_NEEDS_INIT) \
    X(INIT2INIT_QP,             0x50e, cmd_init2init_qp,    init2init_qp_in,    mbox_out,           MLX5_NEEDS_INIT) \
    X(SQERR2RTS_QP,             0x506, cmd_sqerr2rts_qp,    sqerr2rts_qp_in,    mbox_out,           MLX5_NEEDS_INIT) \
    X(CREATE_SRQ,               0x700, cmd_create_srq,      create_srq_in,      create_srq_out,     MLX5_NEEDS_INIT) \
    X(DESTROY_SRQ,              0x701, cmd_destroy_srq,     destroy_srq_in,     mbox_out,           MLX5_NEEDS_INIT) \
    X(QUERY_SRQ,                0x702, cmd_query_srq,       query_srq_in,       query_srq_out,      MLX5_NEEDS_INIT) \
    X(ARM_RQ,                   0x703, cmd_arm_rq,          arm_rq_in,          mbox_out,           MLX5_NEEDS_INIT) \
    X(CREATE_XRC_SRQ,           0x705, cmd_create_xrc_srq,  create_xrc_srq_in,  create_xrc_srq_out, MLX5_NEEDS_INIT) \
    X(DESTROY_XRC_SRQ,          0x706, cmd_destroy_xrc_srq, destroy_xrc_srq_in, mbox_out,           MLX5_NEEDS_INIT) \
    X(QUERY_XRC_SRQ,            0x707, cmd_query_xrc_srq,   query_xrc_srq_in,   query_xrc_srq_out,  MLX5_NEEDS_INIT) \
    X(ARM_XRC_SRQ,              0x708, cmd_arm_xrc_srq,     arm_xrc_srq_in,     mbox_out,           MLX5_NEEDS_INIT) \
    X(ATTACH_TO_MCG,            0x806, cmd_attach_to_mcg,   attach_to_mcg_in,   mbox_out,           MLX5_NEEDS_INIT) \
    X(DETACH_FROM_MCG,          0x807, cmd_detach_from_mcg, detach_from_mcg_in, mbox_out,           MLX5_NEEDS_INIT) \
    X(CREATE_RMP,               0x90c, cmd_create_rmp,      create_rmp_in,      create_rmp_out,     MLX5_NEEDS_INIT) \
    X(MODIFY_RMP,               0x90d, cmd_modify_rmp,      modify_rmp_in,      mbox_out,           MLX5_NEEDS_INIT) \
    X(DESTROY_RMP,              0x90e, cmd_destroy_rmp,     destroy_rmp_in,     mbox_out,           MLX5_NEEDS_INIT) \
    X(QUERY_RMP,                0x90f, cmd_query_rmp,       query_rmp_in,       query_rmp_out,      MLX5_NEEDS_INIT)

/*
 * Opcodes the PRM defines that this device does not implement (yet): they
 * answer BAD_OP, but traces and logs name them.  X(NAME, opcode)
 */
#define MLX5_CMD_UNIMPLEMENTED_LIST(X) \
    X(MODIFY_MEMIC, 0x207) \
    X(SQD_RTS_QP, 0x50c) \
    X(MAD_IFC, 0x50d) X(CREATE_PSV, 0x600) X(DESTROY_PSV, 0x601) \
    X(CREATE_DCT, 0x710) \
    X(DESTROY_DCT, 0x711) X(DRAIN_DCT, 0x712) X(QUERY_DCT, 0x713) \
    X(ARM_DCT_FOR_KEY_VIOLATION, 0x714) X(CREATE_XRQ, 0x717) \
    X(DESTROY_XRQ, 0x718) X(QUERY_ESW_VPORT_CONTEXT, 0x752) \
    X(MODIFY_ESW_VPORT_CONTEXT, 0x753) X(MODIFY_VPORT_STATE, 0x751) \
    X(QUERY_ROCE_ADDRESS, 0x760) X(QUERY_HCA_VPORT_CONTEXT, 0x762) \
    X(MODIFY_HCA_VPORT_CONTEXT, 0x763) X(QUERY_HCA_VPORT_GID, 0x764) \
    X(SET_MONITOR_COUNTER, 0x774) X(ARM_MONITOR_COUNTER, 0x775) \
    X(QUERY_RATE_LIMIT, 0x781) \
    X(CREATE_SCHEDULING_ELEMENT, 0x782) X(MODIFY_CONG_STATUS, 0x823) \
    X(ADD_VXLAN_UDP_DPORT, 0x827) X(DELETE_VXLAN_UDP_DPORT, 0x828) \
    X(QUERY_TIR, 0x903) \
    X(QUERY_TIS, 0x915) X(QUERY_RQT, 0x919) X(QUERY_FLOW_TABLE, 0x932) \
    X(QUERY_FLOW_GROUP, 0x935) X(QUERY_FLOW_TABLE_ENTRY, 0x937) \
    X(ALLOC_FLOW_COUNTER, 0x939) X(DEALLOC_FLOW_COUNTER, 0x93a) \
    X(QUERY_FLOW_COUNTER, 0x93b) X(ALLOC_PACKET_REFORMAT_CONTEXT, 0x93d) \
    X(ALLOC_MODIFY_HEADER_CONTEXT, 0x940) X(CREATE_GENERAL_OBJECT, 0xa00) \
    X(MODIFY_GENERAL_OBJECT, 0xa01) X(QUERY_GENERAL_OBJECT, 0xa02) \
    X(DESTROY_GENERAL_OBJECT, 0xa03) X(CREATE_UCTX, 0xa04) \
    X(DESTROY_UCTX, 0xa06) X(CREATE_UMEM, 0xa08) X(DESTROY_UMEM, 0xa0a) \
    X(SYNC_STEERING, 0xb00) X(QUERY_VHCA_STATE, 0xb0d)

#endif
