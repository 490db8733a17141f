/*
 * PRM layouts: the project's declarative tables.
 *
 * One X-macro table per layout.  Each row is F(layout, field, bit_offset,
 * width_bits); names are those of the PRM and of the Linux driver, so that a
 * reader can grep for them.  Bit 0 is the most significant bit of byte 0;
 * fields of 32 bits and more are whole big-endian words.  A width of 0 marks
 * the start of a variable-length array (page lists, flow destinations).
 *
 * From these rows prm.h generates the field offset/width constants used by
 * PRM_GET/PRM_SET and prm.c a field-descriptor table (tracing, "reserved
 * must be zero" checks).  tests/prm-conformance checks every row against the
 * kernel's include/linux/mlx5/mlx5_ifc.h; only layouts marked
 * project-only (PRM_LAYOUTS_LOCAL) have no counterpart there.
 *
 * Reserved ranges are not listed: what is not a field is reserved.
 */
#ifndef MLX5EMU_PRM_LAYOUTS_H
#define MLX5EMU_PRM_LAYOUTS_H

/* Every command input starts with this header and every output with
 * mbox_out (PRM "Command Interface": opcode, uid, op_mod / status, syndrome). */
#define PRM_FIELDS_mbox_in(F) \
    F(mbox_in, opcode, 0x0, 16) \
    F(mbox_in, uid, 0x10, 16) \
    F(mbox_in, op_mod, 0x30, 16)

#define PRM_FIELDS_mbox_out(F) \
    F(mbox_out, status, 0x0, 8) \
    F(mbox_out, syndrome, 0x20, 32)

/* HOST_ENDIANNESS register (0x7004): 16 bytes, "he" in byte 0. */
#define PRM_FIELDS_host_endianness_reg(F) \
    F(host_endianness_reg, he, 0x0, 8)

/* Project-only layouts: L(name, size_bits). */
#define PRM_LAYOUTS_LOCAL(L) \
    L(mbox_in, 0x40) \
    L(mbox_out, 0x40) \
    L(host_endianness_reg, 0x80)


#define PRM_FIELDS_query_hca_cap_in(F) \
    F(query_hca_cap_in, opcode, 0x0, 16) \
    F(query_hca_cap_in, op_mod, 0x30, 16) \
    F(query_hca_cap_in, other_function, 0x40, 1) \
    F(query_hca_cap_in, function_id, 0x50, 16)

#define PRM_FIELDS_query_hca_cap_out(F) \
    F(query_hca_cap_out, status, 0x0, 8) \
    F(query_hca_cap_out, syndrome, 0x20, 32) \
    F(query_hca_cap_out, capability, 0x80, 32768)

#define PRM_FIELDS_set_hca_cap_in(F) \
    F(set_hca_cap_in, opcode, 0x0, 16) \
    F(set_hca_cap_in, op_mod, 0x30, 16) \
    F(set_hca_cap_in, other_function, 0x40, 1) \
    F(set_hca_cap_in, function_id, 0x50, 16) \
    F(set_hca_cap_in, capability, 0x80, 32768)

#define PRM_FIELDS_set_hca_cap_out(F) \
    F(set_hca_cap_out, status, 0x0, 8) \
    F(set_hca_cap_out, syndrome, 0x20, 32)

#define PRM_FIELDS_cmd_hca_cap(F) \
    F(cmd_hca_cap, page_request_disable, 0x6, 1) /* 6.12+ */ \
    F(cmd_hca_cap, shared_object_to_user_object_allowed, 0x10, 1) \
    F(cmd_hca_cap, vhca_resource_manager, 0x1f, 1) \
    F(cmd_hca_cap, hca_cap_2, 0x20, 1) \
    F(cmd_hca_cap, create_lag_when_not_master_up, 0x21, 1) \
    F(cmd_hca_cap, dtor, 0x22, 1) \
    F(cmd_hca_cap, event_on_vhca_state_teardown_request, 0x23, 1) \
    F(cmd_hca_cap, event_on_vhca_state_in_use, 0x24, 1) \
    F(cmd_hca_cap, event_on_vhca_state_active, 0x25, 1) \
    F(cmd_hca_cap, event_on_vhca_state_allocated, 0x26, 1) \
    F(cmd_hca_cap, event_on_vhca_state_invalid, 0x27, 1) \
    F(cmd_hca_cap, vhca_id, 0x30, 16) \
    F(cmd_hca_cap, log_max_srq_sz, 0x80, 8) \
    F(cmd_hca_cap, log_max_qp_sz, 0x88, 8) \
    F(cmd_hca_cap, event_cap, 0x90, 1) \
    F(cmd_hca_cap, isolate_vl_tc_new, 0x93, 1) \
    F(cmd_hca_cap, prio_tag_required, 0x98, 1) \
    F(cmd_hca_cap, log_max_qp, 0x9b, 5) \
    F(cmd_hca_cap, ece_support, 0xa3, 1) \
    F(cmd_hca_cap, reg_c_preserve, 0xa9, 1) \
    F(cmd_hca_cap, log_max_srq, 0xab, 5) \
    F(cmd_hca_cap, uplink_follow, 0xb1, 1) \
    F(cmd_hca_cap, ts_cqe_to_dest_cqn, 0xb2, 1) \
    F(cmd_hca_cap, shampo, 0xba, 1) \
    F(cmd_hca_cap, max_sgl_for_optimized_performance, 0xc0, 8) \
    F(cmd_hca_cap, log_max_cq_sz, 0xc8, 8) \
    F(cmd_hca_cap, relaxed_ordering_write_umr, 0xd0, 1) \
    F(cmd_hca_cap, relaxed_ordering_read_umr, 0xd1, 1) \
    F(cmd_hca_cap, virtio_net_device_emualtion_manager, 0xd9, 1) \
    F(cmd_hca_cap, virtio_blk_device_emualtion_manager, 0xda, 1) \
    F(cmd_hca_cap, log_max_cq, 0xdb, 5) \
    F(cmd_hca_cap, log_max_eq_sz, 0xe0, 8) \
    F(cmd_hca_cap, relaxed_ordering_write, 0xe8, 1) \
    F(cmd_hca_cap, relaxed_ordering_read, 0xe9, 1) \
    F(cmd_hca_cap, log_max_mkey, 0xea, 6) \
    F(cmd_hca_cap, dump_fill_mkey, 0xf8, 1) \
    F(cmd_hca_cap, fast_teardown, 0xfb, 1) \
    F(cmd_hca_cap, log_max_eq, 0xfc, 4) \
    F(cmd_hca_cap, max_indirection, 0x100, 8) \
    F(cmd_hca_cap, fixed_buffer_size, 0x108, 1) \
    F(cmd_hca_cap, log_max_mrw_sz, 0x109, 7) \
    F(cmd_hca_cap, force_teardown, 0x110, 1) \
    F(cmd_hca_cap, log_max_bsf_list_size, 0x112, 6) \
    F(cmd_hca_cap, umr_extended_translation_offset, 0x118, 1) \
    F(cmd_hca_cap, null_mkey, 0x119, 1) \
    F(cmd_hca_cap, log_max_klm_list_size, 0x11a, 6) \
    F(cmd_hca_cap, log_max_ra_req_dc, 0x12a, 6) \
    F(cmd_hca_cap, eth_wqe_too_small, 0x132, 1) \
    F(cmd_hca_cap, vnic_env_cq_overrun, 0x139, 1) \
    F(cmd_hca_cap, log_max_ra_res_dc, 0x13a, 6) \
    F(cmd_hca_cap, release_all_pages, 0x145, 1) \
    F(cmd_hca_cap, must_not_use, 0x146, 1) \
    F(cmd_hca_cap, roce_accl, 0x149, 1) \
    F(cmd_hca_cap, log_max_ra_req_qp, 0x14a, 6) \
    F(cmd_hca_cap, log_max_ra_res_qp, 0x15a, 6) \
    F(cmd_hca_cap, end_pad, 0x160, 1) \
    F(cmd_hca_cap, cc_query_allowed, 0x161, 1) \
    F(cmd_hca_cap, cc_modify_allowed, 0x162, 1) \
    F(cmd_hca_cap, start_pad, 0x163, 1) \
    F(cmd_hca_cap, cache_line_128byte, 0x164, 1) \
    F(cmd_hca_cap, rts2rts_qp_counters_set_id, 0x169, 1) \
    F(cmd_hca_cap, vnic_env_int_rq_oob, 0x16c, 1) \
    F(cmd_hca_cap, sbcam_reg, 0x16d, 1) \
    F(cmd_hca_cap, qcam_reg, 0x16f, 1) \
    F(cmd_hca_cap, gid_table_size, 0x170, 16) \
    F(cmd_hca_cap, out_of_seq_cnt, 0x180, 1) \
    F(cmd_hca_cap, vport_counters, 0x181, 1) \
    F(cmd_hca_cap, retransmission_q_counters, 0x182, 1) \
    F(cmd_hca_cap, debug, 0x183, 1) \
    F(cmd_hca_cap, modify_rq_counter_set_id, 0x184, 1) \
    F(cmd_hca_cap, rq_delay_drop, 0x185, 1) \
    F(cmd_hca_cap, max_qp_cnt, 0x186, 10) \
    F(cmd_hca_cap, pkey_table_size, 0x190, 16) \
    F(cmd_hca_cap, vport_group_manager, 0x1a0, 1) \
    F(cmd_hca_cap, vhca_group_manager, 0x1a1, 1) \
    F(cmd_hca_cap, ib_virt, 0x1a2, 1) \
    F(cmd_hca_cap, eth_virt, 0x1a3, 1) \
    F(cmd_hca_cap, vnic_env_queue_counters, 0x1a4, 1) \
    F(cmd_hca_cap, ets, 0x1a5, 1) \
    F(cmd_hca_cap, nic_flow_table, 0x1a6, 1) \
    F(cmd_hca_cap, eswitch_manager, 0x1a7, 1) \
    F(cmd_hca_cap, device_memory, 0x1a8, 1) \
    F(cmd_hca_cap, mcam_reg, 0x1a9, 1) \
    F(cmd_hca_cap, pcam_reg, 0x1aa, 1) \
    F(cmd_hca_cap, local_ca_ack_delay, 0x1ab, 5) \
    F(cmd_hca_cap, port_module_event, 0x1b0, 1) \
    F(cmd_hca_cap, enhanced_error_q_counters, 0x1b1, 1) \
    F(cmd_hca_cap, ports_check, 0x1b2, 1) \
    F(cmd_hca_cap, disable_link_up, 0x1b4, 1) \
    F(cmd_hca_cap, beacon_led, 0x1b5, 1) \
    F(cmd_hca_cap, port_type, 0x1b6, 2) \
    F(cmd_hca_cap, num_ports, 0x1b8, 8) \
    F(cmd_hca_cap, pps, 0x1c1, 1) \
    F(cmd_hca_cap, pps_modify, 0x1c2, 1) \
    F(cmd_hca_cap, log_max_msg, 0x1c3, 5) \
    F(cmd_hca_cap, max_tc, 0x1cc, 4) \
    F(cmd_hca_cap, temp_warn_event, 0x1d0, 1) \
    F(cmd_hca_cap, dcbx, 0x1d1, 1) \
    F(cmd_hca_cap, general_notification_event, 0x1d2, 1) \
    F(cmd_hca_cap, fpga, 0x1d5, 1) \
    F(cmd_hca_cap, rol_s, 0x1d6, 1) \
    F(cmd_hca_cap, rol_g, 0x1d7, 1) \
    F(cmd_hca_cap, wol_s, 0x1d9, 1) \
    F(cmd_hca_cap, wol_g, 0x1da, 1) \
    F(cmd_hca_cap, wol_a, 0x1db, 1) \
    F(cmd_hca_cap, wol_b, 0x1dc, 1) \
    F(cmd_hca_cap, wol_m, 0x1dd, 1) \
    F(cmd_hca_cap, wol_u, 0x1de, 1) \
    F(cmd_hca_cap, wol_p, 0x1df, 1) \
    F(cmd_hca_cap, stat_rate_support, 0x1e0, 16) \
    F(cmd_hca_cap, pci_sync_for_fw_update_event, 0x1f1, 1) \
    F(cmd_hca_cap, init2_lag_tx_port_affinity, 0x1f8, 1) \
    F(cmd_hca_cap, cqe_version, 0x1fc, 4) \
    F(cmd_hca_cap, compact_address_vector, 0x200, 1) \
    F(cmd_hca_cap, striding_rq, 0x201, 1) \
    F(cmd_hca_cap, ipoib_enhanced_offloads, 0x203, 1) \
    F(cmd_hca_cap, ipoib_basic_offloads, 0x204, 1) \
    F(cmd_hca_cap, repeated_block_disabled, 0x206, 1) \
    F(cmd_hca_cap, umr_modify_entity_size_disabled, 0x207, 1) \
    F(cmd_hca_cap, umr_modify_atomic_disabled, 0x208, 1) \
    F(cmd_hca_cap, umr_indirect_mkey_disabled, 0x209, 1) \
    F(cmd_hca_cap, umr_fence, 0x20a, 2) \
    F(cmd_hca_cap, dc_req_scat_data_cqe, 0x20c, 1) \
    F(cmd_hca_cap, drain_sigerr, 0x20f, 1) \
    F(cmd_hca_cap, cmdif_checksum, 0x210, 2) \
    F(cmd_hca_cap, sigerr_cqe, 0x212, 1) \
    F(cmd_hca_cap, wq_signature, 0x214, 1) \
    F(cmd_hca_cap, sctr_data_cqe, 0x215, 1) \
    F(cmd_hca_cap, sho, 0x217, 1) \
    F(cmd_hca_cap, tph, 0x218, 1) \
    F(cmd_hca_cap, rf, 0x219, 1) \
    F(cmd_hca_cap, dct, 0x21a, 1) \
    F(cmd_hca_cap, qos, 0x21b, 1) \
    F(cmd_hca_cap, eth_net_offloads, 0x21c, 1) \
    F(cmd_hca_cap, roce, 0x21d, 1) \
    F(cmd_hca_cap, atomic, 0x21e, 1) \
    F(cmd_hca_cap, cq_oi, 0x220, 1) \
    F(cmd_hca_cap, cq_resize, 0x221, 1) \
    F(cmd_hca_cap, cq_moderation, 0x222, 1) \
    F(cmd_hca_cap, cq_period_mode_modify, 0x223, 1) /* 6.7+ */ \
    F(cmd_hca_cap, cq_eq_remap, 0x226, 1) \
    F(cmd_hca_cap, pg, 0x227, 1) \
    F(cmd_hca_cap, block_lb_mc, 0x228, 1) \
    F(cmd_hca_cap, scqe_break_moderation, 0x22a, 1) \
    F(cmd_hca_cap, cq_period_start_from_cqe, 0x22b, 1) \
    F(cmd_hca_cap, cd, 0x22c, 1) \
    F(cmd_hca_cap, apm, 0x22e, 1) \
    F(cmd_hca_cap, vector_calc, 0x22f, 1) \
    F(cmd_hca_cap, umr_ptr_rlky, 0x230, 1) \
    F(cmd_hca_cap, imaicl, 0x231, 1) \
    F(cmd_hca_cap, qp_packet_based, 0x232, 1) \
    F(cmd_hca_cap, qkv, 0x236, 1) \
    F(cmd_hca_cap, pkv, 0x237, 1) \
    F(cmd_hca_cap, set_deth_sqpn, 0x238, 1) \
    F(cmd_hca_cap, xrc, 0x23c, 1) \
    F(cmd_hca_cap, ud, 0x23d, 1) \
    F(cmd_hca_cap, uc, 0x23e, 1) \
    F(cmd_hca_cap, rc, 0x23f, 1) \
    F(cmd_hca_cap, uar_4k, 0x240, 1) \
    F(cmd_hca_cap, fl_rc_qp_when_roce_disabled, 0x248, 1) \
    F(cmd_hca_cap, regexp_params, 0x249, 1) \
    F(cmd_hca_cap, uar_sz, 0x24a, 6) \
    F(cmd_hca_cap, port_selection_cap, 0x250, 1) \
    F(cmd_hca_cap, umem_uid_0, 0x252, 1) \
    F(cmd_hca_cap, log_pg_sz, 0x258, 8) \
    F(cmd_hca_cap, bf, 0x260, 1) \
    F(cmd_hca_cap, driver_version, 0x261, 1) \
    F(cmd_hca_cap, pad_tx_eth_packet, 0x262, 1) \
    F(cmd_hca_cap, mkey_by_name, 0x266, 1) \
    F(cmd_hca_cap, log_bf_reg_size, 0x26b, 5) \
    F(cmd_hca_cap, lag_dct, 0x276, 2) \
    F(cmd_hca_cap, lag_tx_port_affinity, 0x278, 1) \
    F(cmd_hca_cap, lag_native_fdb_selection, 0x279, 1) \
    F(cmd_hca_cap, lag_master, 0x27b, 1) \
    F(cmd_hca_cap, num_lag_ports, 0x27c, 4) \
    F(cmd_hca_cap, max_wqe_sz_sq, 0x290, 16) \
    F(cmd_hca_cap, max_wqe_sz_rq, 0x2b0, 16) \
    F(cmd_hca_cap, max_flow_counter_31_16, 0x2c0, 16) \
    F(cmd_hca_cap, max_wqe_sz_sq_dc, 0x2d0, 16) \
    F(cmd_hca_cap, max_qp_mcg, 0x2e7, 25) \
    F(cmd_hca_cap, flow_counter_bulk_alloc, 0x310, 8) \
    F(cmd_hca_cap, log_max_mcg, 0x318, 8) \
    F(cmd_hca_cap, log_max_transport_domain, 0x323, 5) \
    F(cmd_hca_cap, log_max_pd, 0x32b, 5) \
    F(cmd_hca_cap, log_max_xrcd, 0x33b, 5) \
    F(cmd_hca_cap, nic_receive_steering_discard, 0x340, 1) \
    F(cmd_hca_cap, receive_discard_vport_down, 0x341, 1) \
    F(cmd_hca_cap, transmit_discard_vport_down, 0x342, 1) \
    F(cmd_hca_cap, eq_overrun_count, 0x343, 1) \
    F(cmd_hca_cap, invalid_command_count, 0x345, 1) \
    F(cmd_hca_cap, quota_exceeded_count, 0x346, 1) \
    F(cmd_hca_cap, log_max_flow_counter_bulk, 0x348, 8) \
    F(cmd_hca_cap, max_flow_counter_15_0, 0x350, 16) \
    F(cmd_hca_cap, log_max_rq, 0x363, 5) \
    F(cmd_hca_cap, log_max_sq, 0x36b, 5) \
    F(cmd_hca_cap, log_max_tir, 0x373, 5) \
    F(cmd_hca_cap, log_max_tis, 0x37b, 5) \
    F(cmd_hca_cap, basic_cyclic_rcv_wqe, 0x380, 1) \
    F(cmd_hca_cap, log_max_rmp, 0x383, 5) \
    F(cmd_hca_cap, log_max_rqt, 0x38b, 5) \
    F(cmd_hca_cap, log_max_rqt_size, 0x393, 5) \
    F(cmd_hca_cap, log_max_tis_per_sq, 0x39b, 5) \
    F(cmd_hca_cap, ext_stride_num_range, 0x3a0, 1) \
    F(cmd_hca_cap, roce_rw_supported, 0x3a1, 1) \
    F(cmd_hca_cap, log_max_current_uc_list_wr_supported, 0x3a2, 1) \
    F(cmd_hca_cap, log_max_stride_sz_rq, 0x3a3, 5) \
    F(cmd_hca_cap, log_min_stride_sz_rq, 0x3ab, 5) \
    F(cmd_hca_cap, log_max_stride_sz_sq, 0x3b3, 5) \
    F(cmd_hca_cap, log_min_stride_sz_sq, 0x3bb, 5) \
    F(cmd_hca_cap, hairpin, 0x3c0, 1) \
    F(cmd_hca_cap, log_max_hairpin_queues, 0x3c3, 5) \
    F(cmd_hca_cap, log_max_hairpin_wq_data_sz, 0x3cb, 5) \
    F(cmd_hca_cap, log_max_hairpin_num_packets, 0x3d3, 5) \
    F(cmd_hca_cap, log_max_wq_sz, 0x3db, 5) \
    F(cmd_hca_cap, nic_vport_change_event, 0x3e0, 1) \
    F(cmd_hca_cap, disable_local_lb_uc, 0x3e1, 1) \
    F(cmd_hca_cap, disable_local_lb_mc, 0x3e2, 1) \
    F(cmd_hca_cap, log_min_hairpin_wq_data_sz, 0x3e3, 5) \
    F(cmd_hca_cap, vhca_state, 0x3ea, 1) \
    F(cmd_hca_cap, log_max_vlan_list, 0x3eb, 5) \
    F(cmd_hca_cap, log_max_current_mc_list, 0x3f3, 5) \
    F(cmd_hca_cap, log_max_current_uc_list, 0x3fb, 5) \
    F(cmd_hca_cap, general_obj_types, 0x400, 64) \
    F(cmd_hca_cap, sq_ts_format, 0x440, 2) \
    F(cmd_hca_cap, rq_ts_format, 0x442, 2) \
    F(cmd_hca_cap, steering_format_version, 0x444, 4) \
    F(cmd_hca_cap, create_qp_start_hint, 0x448, 24) \
    F(cmd_hca_cap, ats, 0x461, 1) \
    F(cmd_hca_cap, log_max_uctx, 0x463, 5) \
    F(cmd_hca_cap, ipsec_offload, 0x46a, 1) \
    F(cmd_hca_cap, log_max_umem, 0x46b, 5) \
    F(cmd_hca_cap, max_num_eqs, 0x470, 16) \
    F(cmd_hca_cap, tls_tx, 0x481, 1) \
    F(cmd_hca_cap, tls_rx, 0x482, 1) \
    F(cmd_hca_cap, log_max_l2_table, 0x483, 5) \
    F(cmd_hca_cap, log_uar_page_sz, 0x490, 16) \
    F(cmd_hca_cap, device_frequency_mhz, 0x4c0, 32) \
    F(cmd_hca_cap, device_frequency_khz, 0x4e0, 32) \
    F(cmd_hca_cap, num_of_uars_per_page, 0x520, 32) \
    F(cmd_hca_cap, flex_parser_protocols, 0x540, 32) \
    F(cmd_hca_cap, max_geneve_tlv_options, 0x560, 8) \
    F(cmd_hca_cap, max_geneve_tlv_option_data_len, 0x56b, 5) \
    F(cmd_hca_cap, adv_virtualization, 0x579, 1) \
    F(cmd_hca_cap, log_max_dci_stream_channels, 0x58b, 5) \
    F(cmd_hca_cap, log_max_dci_errored_streams, 0x593, 5) \
    F(cmd_hca_cap, enhanced_cqe_compression, 0x5b0, 1) \
    F(cmd_hca_cap, log_max_dek, 0x5b3, 5) \
    F(cmd_hca_cap, mini_cqe_resp_stride_index, 0x5bc, 1) \
    F(cmd_hca_cap, cqe_128_always, 0x5bd, 1) \
    F(cmd_hca_cap, cqe_compression_128, 0x5be, 1) \
    F(cmd_hca_cap, cqe_compression, 0x5bf, 1) \
    F(cmd_hca_cap, cqe_compression_timeout, 0x5c0, 16) \
    F(cmd_hca_cap, cqe_compression_max_num, 0x5d0, 16) \
    F(cmd_hca_cap, flex_parser_id_gtpu_dw_0, 0x5e8, 4) \
    F(cmd_hca_cap, tag_matching, 0x5f0, 1) \
    F(cmd_hca_cap, rndv_offload_rc, 0x5f1, 1) \
    F(cmd_hca_cap, rndv_offload_dc, 0x5f2, 1) \
    F(cmd_hca_cap, log_tag_matching_list_sz, 0x5f3, 5) \
    F(cmd_hca_cap, log_max_xrq, 0x5fb, 5) \
    F(cmd_hca_cap, affiliate_nic_vport_criteria, 0x600, 8) \
    F(cmd_hca_cap, native_port_num, 0x608, 8) \
    F(cmd_hca_cap, num_vhca_ports, 0x610, 8) \
    F(cmd_hca_cap, flex_parser_id_gtpu_teid, 0x618, 4) \
    F(cmd_hca_cap, sw_owner_id, 0x61e, 1) \
    F(cmd_hca_cap, max_num_of_monitor_counters, 0x620, 16) \
    F(cmd_hca_cap, num_ppcnt_monitor_counters, 0x630, 16) \
    F(cmd_hca_cap, max_num_sf, 0x640, 16) \
    F(cmd_hca_cap, num_q_monitor_counters, 0x650, 16) \
    F(cmd_hca_cap, sf, 0x680, 1) \
    F(cmd_hca_cap, sf_set_partition, 0x681, 1) \
    F(cmd_hca_cap, log_max_sf, 0x683, 5) \
    F(cmd_hca_cap, apu, 0x688, 1) \
    F(cmd_hca_cap, migration, 0x68d, 1) \
    F(cmd_hca_cap, log_min_sf_size, 0x690, 8) \
    F(cmd_hca_cap, max_num_sf_partitions, 0x698, 8) \
    F(cmd_hca_cap, uctx_cap, 0x6a0, 32) \
    F(cmd_hca_cap, flex_parser_id_geneve_tlv_option_0, 0x6c4, 4) \
    F(cmd_hca_cap, flex_parser_id_icmp_dw1, 0x6c8, 4) \
    F(cmd_hca_cap, flex_parser_id_icmp_dw0, 0x6cc, 4) \
    F(cmd_hca_cap, flex_parser_id_icmpv6_dw1, 0x6d0, 4) \
    F(cmd_hca_cap, flex_parser_id_icmpv6_dw0, 0x6d4, 4) \
    F(cmd_hca_cap, flex_parser_id_outer_first_mpls_over_gre, 0x6d8, 4) \
    F(cmd_hca_cap, flex_parser_id_outer_first_mpls_over_udp_label, 0x6dc, 4) \
    F(cmd_hca_cap, max_num_match_definer, 0x6e0, 16) \
    F(cmd_hca_cap, sf_base_id, 0x6f0, 16) \
    F(cmd_hca_cap, flex_parser_id_gtpu_dw_2, 0x700, 4) \
    F(cmd_hca_cap, flex_parser_id_gtpu_first_ext_dw_0, 0x704, 4) \
    F(cmd_hca_cap, num_total_dynamic_vf_msix, 0x708, 24) \
    F(cmd_hca_cap, dynamic_msix_table_size, 0x734, 12) \
    F(cmd_hca_cap, min_dynamic_vf_msix_table_size, 0x74c, 4) \
    F(cmd_hca_cap, max_dynamic_vf_msix_table_size, 0x754, 12) \
    F(cmd_hca_cap, vhca_tunnel_commands, 0x780, 64) \
    F(cmd_hca_cap, match_definer_format_supported, 0x7c0, 64)

#define PRM_FIELDS_per_protocol_networking_offload_caps(F) \
    F(per_protocol_networking_offload_caps, csum_cap, 0x0, 1) \
    F(per_protocol_networking_offload_caps, vlan_cap, 0x1, 1) \
    F(per_protocol_networking_offload_caps, lro_cap, 0x2, 1) \
    F(per_protocol_networking_offload_caps, lro_psh_flag, 0x3, 1) \
    F(per_protocol_networking_offload_caps, lro_time_stamp, 0x4, 1) \
    F(per_protocol_networking_offload_caps, wqe_vlan_insert, 0x7, 1) \
    F(per_protocol_networking_offload_caps, self_lb_en_modifiable, 0x8, 1) \
    F(per_protocol_networking_offload_caps, max_lso_cap, 0xb, 5) \
    F(per_protocol_networking_offload_caps, multi_pkt_send_wqe, 0x10, 2) \
    F(per_protocol_networking_offload_caps, wqe_inline_mode, 0x12, 2) \
    F(per_protocol_networking_offload_caps, rss_ind_tbl_cap, 0x14, 4) \
    F(per_protocol_networking_offload_caps, reg_umr_sq, 0x18, 1) \
    F(per_protocol_networking_offload_caps, scatter_fcs, 0x19, 1) \
    F(per_protocol_networking_offload_caps, enhanced_multi_pkt_send_wqe, 0x1a, 1) \
    F(per_protocol_networking_offload_caps, tunnel_lso_const_out_ip_id, 0x1b, 1) \
    F(per_protocol_networking_offload_caps, tunnel_lro_gre, 0x1c, 1) \
    F(per_protocol_networking_offload_caps, tunnel_lro_vxlan, 0x1d, 1) \
    F(per_protocol_networking_offload_caps, tunnel_stateless_gre, 0x1e, 1) \
    F(per_protocol_networking_offload_caps, tunnel_stateless_vxlan, 0x1f, 1) \
    F(per_protocol_networking_offload_caps, swp, 0x20, 1) \
    F(per_protocol_networking_offload_caps, swp_csum, 0x21, 1) \
    F(per_protocol_networking_offload_caps, swp_lso, 0x22, 1) \
    F(per_protocol_networking_offload_caps, cqe_checksum_full, 0x23, 1) \
    F(per_protocol_networking_offload_caps, tunnel_stateless_geneve_tx, 0x24, 1) \
    F(per_protocol_networking_offload_caps, tunnel_stateless_mpls_over_udp, 0x25, 1) \
    F(per_protocol_networking_offload_caps, tunnel_stateless_mpls_over_gre, 0x26, 1) \
    F(per_protocol_networking_offload_caps, tunnel_stateless_vxlan_gpe, 0x27, 1) \
    F(per_protocol_networking_offload_caps, tunnel_stateless_ipv4_over_vxlan, 0x28, 1) \
    F(per_protocol_networking_offload_caps, tunnel_stateless_ip_over_ip, 0x29, 1) \
    F(per_protocol_networking_offload_caps, insert_trailer, 0x2a, 1) \
    F(per_protocol_networking_offload_caps, tunnel_stateless_ip_over_ip_rx, 0x2c, 1) \
    F(per_protocol_networking_offload_caps, tunnel_stateless_ip_over_ip_tx, 0x2d, 1) \
    F(per_protocol_networking_offload_caps, max_vxlan_udp_ports, 0x30, 8) \
    F(per_protocol_networking_offload_caps, max_geneve_opt_len, 0x3e, 1) \
    F(per_protocol_networking_offload_caps, tunnel_stateless_geneve_rx, 0x3f, 1) \
    F(per_protocol_networking_offload_caps, lro_min_mss_size, 0x50, 16) \
    F(per_protocol_networking_offload_caps, lro_timer_supported_periods, 0x180, 128)

#define PRM_FIELDS_roce_cap(F) \
    F(roce_cap, roce_apm, 0x0, 1) \
    F(roce_cap, sw_r_roce_src_udp_port, 0x4, 1) \
    F(roce_cap, fl_rc_qp_when_roce_disabled, 0x5, 1) \
    F(roce_cap, fl_rc_qp_when_roce_enabled, 0x6, 1) \
    F(roce_cap, qp_ts_format, 0x1e, 2) \
    F(roce_cap, l3_type, 0x8c, 4) \
    F(roce_cap, roce_version, 0x98, 8) \
    F(roce_cap, r_roce_dest_udp_port, 0xb0, 16) \
    F(roce_cap, r_roce_max_src_udp_port, 0xc0, 16) \
    F(roce_cap, r_roce_min_src_udp_port, 0xd0, 16) \
    F(roce_cap, roce_address_table_size, 0xf0, 16)

#define PRM_FIELDS_atomic_caps(F) \
    F(atomic_caps, atomic_req_8B_endianness_mode, 0x40, 2) \
    F(atomic_caps, supported_atomic_req_8B_endianness_mode_1, 0x46, 1) \
    F(atomic_caps, atomic_operations, 0x90, 16) \
    F(atomic_caps, atomic_size_qp, 0xb0, 16) \
    F(atomic_caps, atomic_size_dc, 0xd0, 16)

/* Packet pacing (QoS capabilities, QUERY_HCA_CAP type 0xc) and the rate
 * table's entries (SET_PP_RATE_LIMIT; firmware-sim/qos.c). */
#define PRM_FIELDS_qos_cap(F) \
    F(qos_cap, packet_pacing, 0x0, 1) \
    F(qos_cap, esw_scheduling, 0x1, 1) \
    F(qos_cap, packet_pacing_burst_bound, 0x5, 1) \
    F(qos_cap, packet_pacing_typical_size, 0x6, 1) \
    F(qos_cap, nic_sq_scheduling, 0x8, 1) \
    F(qos_cap, packet_pacing_uid, 0xb, 1) \
    F(qos_cap, packet_pacing_max_rate, 0x40, 32) \
    F(qos_cap, packet_pacing_min_rate, 0x60, 32) \
    F(qos_cap, packet_pacing_rate_table_size, 0x90, 16)

#define PRM_FIELDS_set_pp_rate_limit_context(F) \
    F(set_pp_rate_limit_context, rate_limit, 0x0, 32) \
    F(set_pp_rate_limit_context, burst_upper_bound, 0x20, 32) \
    F(set_pp_rate_limit_context, typical_packet_size, 0x50, 16)

#define PRM_FIELDS_set_pp_rate_limit_in(F) \
    F(set_pp_rate_limit_in, opcode, 0x0, 16) \
    F(set_pp_rate_limit_in, uid, 0x10, 16) \
    F(set_pp_rate_limit_in, op_mod, 0x30, 16) \
    F(set_pp_rate_limit_in, rate_limit_index, 0x50, 16) \
    F(set_pp_rate_limit_in, ctx, 0x80, 384)

/* On-demand paging capabilities, QUERY_HCA_CAP type 2 (the transport
 * page-fault scheme's half: docs/odp-driver-map.md 1.2), and what each
 * transport may fault on. */
#define PRM_FIELDS_odp_cap(F) \
    F(odp_cap, sig, 0x40, 1) \
    F(odp_cap, rc_odp_caps, 0x80, 32) \
    F(odp_cap, uc_odp_caps, 0xa0, 32) \
    F(odp_cap, ud_odp_caps, 0xc0, 32) \
    F(odp_cap, xrc_odp_caps, 0xe0, 32) \
    F(odp_cap, dc_odp_caps, 0x100, 32)

#define PRM_FIELDS_odp_per_transport_service_cap(F) \
    F(odp_per_transport_service_cap, send, 0x0, 1) \
    F(odp_per_transport_service_cap, receive, 0x1, 1) \
    F(odp_per_transport_service_cap, write, 0x2, 1) \
    F(odp_per_transport_service_cap, read, 0x3, 1) \
    F(odp_per_transport_service_cap, atomic, 0x4, 1) \
    F(odp_per_transport_service_cap, srq_receive, 0x5, 1)

/* Device memory (MEMIC) capabilities, QUERY_HCA_CAP type 0xf. */
#define PRM_FIELDS_device_mem_cap(F) \
    F(device_mem_cap, memic, 0x0, 1) \
    F(device_mem_cap, log_min_memic_alloc_size, 0x2b, 5) \
    F(device_mem_cap, log_max_memic_addr_alignment, 0x38, 8) \
    F(device_mem_cap, memic_bar_start_addr, 0x40, 64) \
    F(device_mem_cap, memic_bar_size, 0x80, 32) \
    F(device_mem_cap, max_memic_size, 0xa0, 32) \
    F(device_mem_cap, memic_operations, 0x200, 32)

#define PRM_FIELDS_flow_table_nic_cap(F) \
    F(flow_table_nic_cap, nic_rx_multi_path_tirs, 0x0, 1) \
    F(flow_table_nic_cap, nic_rx_multi_path_tirs_fts, 0x1, 1) \
    F(flow_table_nic_cap, allow_sniffer_and_nic_rx_shared_tir, 0x2, 1) \
    F(flow_table_nic_cap, sw_owner_reformat_supported, 0x7, 1) \
    F(flow_table_nic_cap, encap_general_header, 0x20, 1) \
    F(flow_table_nic_cap, log_max_packet_reformat_context, 0x2b, 5) \
    F(flow_table_nic_cap, max_encap_header_size, 0x36, 10) \
    F(flow_table_nic_cap, flow_table_properties_nic_receive, 0x200, 512) \
    F(flow_table_nic_cap, flow_table_properties_nic_receive_rdma, 0x400, 512) \
    F(flow_table_nic_cap, flow_table_properties_nic_receive_sniffer, 0x600, 512) \
    F(flow_table_nic_cap, flow_table_properties_nic_transmit, 0x800, 512) \
    F(flow_table_nic_cap, flow_table_properties_nic_transmit_rdma, 0xa00, 512) \
    F(flow_table_nic_cap, flow_table_properties_nic_transmit_sniffer, 0xc00, 512) \
    F(flow_table_nic_cap, ft_field_support_2_nic_receive_rdma, 0x1500, 128) \
    F(flow_table_nic_cap, ft_field_support_2_nic_transmit_rdma, 0x1800, 128) \
    F(flow_table_nic_cap, sw_steering_nic_rx_action_drop_icm_address, 0x2000, 64) \
    F(flow_table_nic_cap, sw_steering_nic_tx_action_drop_icm_address, 0x2040, 64) \
    F(flow_table_nic_cap, sw_steering_nic_tx_action_allow_icm_address, 0x2080, 64)

#define PRM_FIELDS_flow_table_prop_layout(F) \
    F(flow_table_prop_layout, ft_support, 0x0, 1) \
    F(flow_table_prop_layout, flow_counter, 0x2, 1) \
    F(flow_table_prop_layout, flow_modify_en, 0x3, 1) \
    F(flow_table_prop_layout, modify_root, 0x4, 1) \
    F(flow_table_prop_layout, identified_miss_table_mode, 0x5, 1) \
    F(flow_table_prop_layout, flow_table_modify, 0x6, 1) \
    F(flow_table_prop_layout, reformat, 0x7, 1) \
    F(flow_table_prop_layout, decap, 0x8, 1) \
    F(flow_table_prop_layout, pop_vlan, 0xa, 1) \
    F(flow_table_prop_layout, push_vlan, 0xb, 1) \
    F(flow_table_prop_layout, pop_vlan_2, 0xd, 1) \
    F(flow_table_prop_layout, push_vlan_2, 0xe, 1) \
    F(flow_table_prop_layout, reformat_and_vlan_action, 0xf, 1) \
    F(flow_table_prop_layout, sw_owner, 0x11, 1) \
    F(flow_table_prop_layout, reformat_l3_tunnel_to_l2, 0x12, 1) \
    F(flow_table_prop_layout, reformat_l2_to_l3_tunnel, 0x13, 1) \
    F(flow_table_prop_layout, reformat_and_modify_action, 0x14, 1) \
    F(flow_table_prop_layout, ignore_flow_level, 0x15, 1) \
    F(flow_table_prop_layout, table_miss_action_domain, 0x17, 1) \
    F(flow_table_prop_layout, termination_table, 0x18, 1) \
    F(flow_table_prop_layout, reformat_and_fwd_to_table, 0x19, 1) \
    F(flow_table_prop_layout, ipsec_encrypt, 0x1c, 1) \
    F(flow_table_prop_layout, ipsec_decrypt, 0x1d, 1) \
    F(flow_table_prop_layout, sw_owner_v2, 0x1e, 1) \
    F(flow_table_prop_layout, termination_table_raw_traffic, 0x20, 1) \
    F(flow_table_prop_layout, log_max_ft_size, 0x22, 6) \
    F(flow_table_prop_layout, log_max_modify_header_context, 0x28, 8) \
    F(flow_table_prop_layout, max_modify_header_actions, 0x30, 8) \
    F(flow_table_prop_layout, max_ft_level, 0x38, 8) \
    F(flow_table_prop_layout, execute_aso, 0x46, 1) \
    F(flow_table_prop_layout, reformat_insert, 0x62, 1) \
    F(flow_table_prop_layout, reformat_remove, 0x63, 1) \
    F(flow_table_prop_layout, macsec_encrypt, 0x64, 1) \
    F(flow_table_prop_layout, macsec_decrypt, 0x65, 1) \
    F(flow_table_prop_layout, reformat_add_macsec, 0x68, 1) \
    F(flow_table_prop_layout, reformat_remove_macsec, 0x69, 1) \
    F(flow_table_prop_layout, log_max_ft_num, 0x78, 8) \
    F(flow_table_prop_layout, log_max_flow_counter, 0x90, 8) \
    F(flow_table_prop_layout, log_max_destination, 0x98, 8) \
    F(flow_table_prop_layout, log_max_flow, 0xb8, 8) \
    F(flow_table_prop_layout, ft_field_support, 0x100, 128) \
    F(flow_table_prop_layout, ft_field_bitmask_support, 0x180, 128)

#define PRM_FIELDS_query_issi_out(F) \
    F(query_issi_out, status, 0x0, 8) \
    F(query_issi_out, syndrome, 0x20, 32) \
    F(query_issi_out, current_issi, 0x50, 16) \
    F(query_issi_out, supported_issi_dw0, 0x360, 32)

#define PRM_FIELDS_set_issi_in(F) \
    F(set_issi_in, opcode, 0x0, 16) \
    F(set_issi_in, op_mod, 0x30, 16) \
    F(set_issi_in, current_issi, 0x50, 16)

#define PRM_FIELDS_query_pages_in(F) \
    F(query_pages_in, opcode, 0x0, 16) \
    F(query_pages_in, op_mod, 0x30, 16) \
    F(query_pages_in, embedded_cpu_function, 0x40, 1) \
    F(query_pages_in, function_id, 0x50, 16)

#define PRM_FIELDS_query_pages_out(F) \
    F(query_pages_out, status, 0x0, 8) \
    F(query_pages_out, syndrome, 0x20, 32) \
    F(query_pages_out, embedded_cpu_function, 0x40, 1) \
    F(query_pages_out, function_id, 0x50, 16) \
    F(query_pages_out, num_pages, 0x60, 32)

#define PRM_FIELDS_manage_pages_in(F) \
    F(manage_pages_in, opcode, 0x0, 16) \
    F(manage_pages_in, op_mod, 0x30, 16) \
    F(manage_pages_in, embedded_cpu_function, 0x40, 1) \
    F(manage_pages_in, function_id, 0x50, 16) \
    F(manage_pages_in, input_num_entries, 0x60, 32) \
    F(manage_pages_in, pas, 0x80, 0)

#define PRM_FIELDS_manage_pages_out(F) \
    F(manage_pages_out, status, 0x0, 8) \
    F(manage_pages_out, syndrome, 0x20, 32) \
    F(manage_pages_out, output_num_entries, 0x40, 32) \
    F(manage_pages_out, pas, 0x80, 0)

#define PRM_FIELDS_enable_hca_in(F) \
    F(enable_hca_in, opcode, 0x0, 16) \
    F(enable_hca_in, op_mod, 0x30, 16) \
    F(enable_hca_in, embedded_cpu_function, 0x40, 1) \
    F(enable_hca_in, function_id, 0x50, 16)

#define PRM_FIELDS_disable_hca_in(F) \
    F(disable_hca_in, opcode, 0x0, 16) \
    F(disable_hca_in, op_mod, 0x30, 16) \
    F(disable_hca_in, embedded_cpu_function, 0x40, 1) \
    F(disable_hca_in, function_id, 0x50, 16)

#define PRM_FIELDS_init_hca_in(F) \
    F(init_hca_in, opcode, 0x0, 16) \
    F(init_hca_in, op_mod, 0x30, 16) \
    F(init_hca_in, sw_vhca_id, 0x62, 14) \
    F(init_hca_in, sw_owner_id, 0x80, 128)

#define PRM_FIELDS_teardown_hca_in(F) \
    F(teardown_hca_in, opcode, 0x0, 16) \
    F(teardown_hca_in, op_mod, 0x30, 16) \
    F(teardown_hca_in, profile, 0x50, 16)

#define PRM_FIELDS_teardown_hca_out(F) \
    F(teardown_hca_out, status, 0x0, 8) \
    F(teardown_hca_out, syndrome, 0x20, 32) \
    F(teardown_hca_out, state, 0x7f, 1)

#define PRM_FIELDS_query_adapter_out(F) \
    F(query_adapter_out, status, 0x0, 8) \
    F(query_adapter_out, syndrome, 0x20, 32) \
    F(query_adapter_out, query_adapter_struct, 0x80, 2048)

#define PRM_FIELDS_query_adapter_param_block(F) \
    F(query_adapter_param_block, ieee_vendor_id, 0xc8, 24) \
    F(query_adapter_param_block, vsd_vendor_id, 0xf0, 16) \
    F(query_adapter_param_block, vsd, 0x100, 1664) \
    F(query_adapter_param_block, vsd_contd_psid, 0x780, 128)

#define PRM_FIELDS_set_driver_version_in(F) \
    F(set_driver_version_in, opcode, 0x0, 16) \
    F(set_driver_version_in, op_mod, 0x30, 16) \
    F(set_driver_version_in, driver_version, 0x80, 512)

#define PRM_FIELDS_alloc_uar_out(F) \
    F(alloc_uar_out, status, 0x0, 8) \
    F(alloc_uar_out, syndrome, 0x20, 32) \
    F(alloc_uar_out, uar, 0x48, 24)

#define PRM_FIELDS_alloc_memic_in(F) \
    F(alloc_memic_in, opcode, 0x0, 16) \
    F(alloc_memic_in, op_mod, 0x30, 16) \
    F(alloc_memic_in, log_memic_addr_alignment, 0x78, 8) \
    F(alloc_memic_in, range_start_addr, 0x80, 64) \
    F(alloc_memic_in, range_size, 0xc0, 32) \
    F(alloc_memic_in, memic_size, 0xe0, 32)

#define PRM_FIELDS_alloc_memic_out(F) \
    F(alloc_memic_out, status, 0x0, 8) \
    F(alloc_memic_out, syndrome, 0x20, 32) \
    F(alloc_memic_out, memic_start_addr, 0x40, 64)

#define PRM_FIELDS_dealloc_memic_in(F) \
    F(dealloc_memic_in, opcode, 0x0, 16) \
    F(dealloc_memic_in, op_mod, 0x30, 16) \
    F(dealloc_memic_in, memic_start_addr, 0x80, 64) \
    F(dealloc_memic_in, memic_size, 0xc0, 32)

#define PRM_FIELDS_page_fault_resume_in(F) \
    F(page_fault_resume_in, opcode, 0x0, 16) \
    F(page_fault_resume_in, op_mod, 0x30, 16) \
    F(page_fault_resume_in, error, 0x40, 1) \
    F(page_fault_resume_in, page_fault_type, 0x45, 3) \
    F(page_fault_resume_in, wq_number, 0x48, 24) \
    F(page_fault_resume_in, token, 0x68, 24)

#define PRM_FIELDS_query_special_contexts_out(F) \
    F(query_special_contexts_out, status, 0x0, 8) \
    F(query_special_contexts_out, syndrome, 0x20, 32) \
    F(query_special_contexts_out, dump_fill_mkey, 0x40, 32) \
    F(query_special_contexts_out, resd_lkey, 0x60, 32) \
    F(query_special_contexts_out, null_mkey, 0x80, 32) \
    F(query_special_contexts_out, terminate_scatter_list_mkey, 0xa0, 32) \
    F(query_special_contexts_out, repeated_mkey, 0xc0, 32)

#define PRM_FIELDS_dealloc_uar_in(F) \
    F(dealloc_uar_in, opcode, 0x0, 16) \
    F(dealloc_uar_in, uid, 0x10, 16) \
    F(dealloc_uar_in, op_mod, 0x30, 16) \
    F(dealloc_uar_in, uar, 0x48, 24)

#define PRM_FIELDS_alloc_pd_out(F) \
    F(alloc_pd_out, status, 0x0, 8) \
    F(alloc_pd_out, syndrome, 0x20, 32) \
    F(alloc_pd_out, pd, 0x48, 24)

#define PRM_FIELDS_dealloc_pd_in(F) \
    F(dealloc_pd_in, opcode, 0x0, 16) \
    F(dealloc_pd_in, uid, 0x10, 16) \
    F(dealloc_pd_in, op_mod, 0x30, 16) \
    F(dealloc_pd_in, pd, 0x48, 24)

#define PRM_FIELDS_alloc_transport_domain_out(F) \
    F(alloc_transport_domain_out, status, 0x0, 8) \
    F(alloc_transport_domain_out, syndrome, 0x20, 32) \
    F(alloc_transport_domain_out, transport_domain, 0x48, 24)

#define PRM_FIELDS_dealloc_transport_domain_in(F) \
    F(dealloc_transport_domain_in, opcode, 0x0, 16) \
    F(dealloc_transport_domain_in, uid, 0x10, 16) \
    F(dealloc_transport_domain_in, op_mod, 0x30, 16) \
    F(dealloc_transport_domain_in, transport_domain, 0x48, 24)

#define PRM_FIELDS_alloc_xrcd_out(F) \
    F(alloc_xrcd_out, status, 0x0, 8) \
    F(alloc_xrcd_out, syndrome, 0x20, 32) \
    F(alloc_xrcd_out, xrcd, 0x48, 24)

#define PRM_FIELDS_dealloc_xrcd_in(F) \
    F(dealloc_xrcd_in, opcode, 0x0, 16) \
    F(dealloc_xrcd_in, uid, 0x10, 16) \
    F(dealloc_xrcd_in, op_mod, 0x30, 16) \
    F(dealloc_xrcd_in, xrcd, 0x48, 24)

#define PRM_FIELDS_alloc_q_counter_out(F) \
    F(alloc_q_counter_out, status, 0x0, 8) \
    F(alloc_q_counter_out, syndrome, 0x20, 32) \
    F(alloc_q_counter_out, counter_set_id, 0x58, 8)

#define PRM_FIELDS_dealloc_q_counter_in(F) \
    F(dealloc_q_counter_in, opcode, 0x0, 16) \
    F(dealloc_q_counter_in, op_mod, 0x30, 16) \
    F(dealloc_q_counter_in, counter_set_id, 0x58, 8)

#define PRM_FIELDS_query_q_counter_in(F) \
    F(query_q_counter_in, opcode, 0x0, 16) \
    F(query_q_counter_in, op_mod, 0x30, 16) \
    F(query_q_counter_in, clear, 0xc0, 1) \
    F(query_q_counter_in, counter_set_id, 0xf8, 8)

#define PRM_FIELDS_query_q_counter_out(F) \
    F(query_q_counter_out, status, 0x0, 8) \
    F(query_q_counter_out, syndrome, 0x20, 32) \
    F(query_q_counter_out, rx_write_requests, 0x80, 32) \
    F(query_q_counter_out, rx_read_requests, 0xc0, 32) \
    F(query_q_counter_out, rx_atomic_requests, 0x100, 32) \
    F(query_q_counter_out, rx_dct_connect, 0x140, 32) \
    F(query_q_counter_out, out_of_buffer, 0x180, 32) \
    F(query_q_counter_out, out_of_sequence, 0x1c0, 32) \
    F(query_q_counter_out, duplicate_request, 0x200, 32) \
    F(query_q_counter_out, rnr_nak_retry_err, 0x240, 32) \
    F(query_q_counter_out, packet_seq_err, 0x280, 32) \
    F(query_q_counter_out, implied_nak_seq_err, 0x2c0, 32) \
    F(query_q_counter_out, local_ack_timeout_err, 0x300, 32) \
    F(query_q_counter_out, req_rnr_retries_exceeded, 0x380, 32) \
    F(query_q_counter_out, resp_local_length_error, 0x3c0, 32) \
    F(query_q_counter_out, req_local_length_error, 0x3e0, 32) \
    F(query_q_counter_out, resp_local_qp_error, 0x400, 32) \
    F(query_q_counter_out, local_operation_error, 0x420, 32) \
    F(query_q_counter_out, resp_local_protection, 0x440, 32) \
    F(query_q_counter_out, req_local_protection, 0x460, 32) \
    F(query_q_counter_out, resp_cqe_error, 0x480, 32) \
    F(query_q_counter_out, req_cqe_error, 0x4a0, 32) \
    F(query_q_counter_out, req_mw_binding, 0x4c0, 32) \
    F(query_q_counter_out, req_bad_response, 0x4e0, 32) \
    F(query_q_counter_out, req_remote_invalid_request, 0x500, 32) \
    F(query_q_counter_out, resp_remote_invalid_request, 0x520, 32) \
    F(query_q_counter_out, req_remote_access_errors, 0x540, 32) \
    F(query_q_counter_out, resp_remote_access_errors, 0x560, 32) \
    F(query_q_counter_out, req_remote_operation_errors, 0x580, 32) \
    F(query_q_counter_out, req_transport_retries_exceeded, 0x5a0, 32) \
    F(query_q_counter_out, cq_overflow, 0x5c0, 32) \
    F(query_q_counter_out, resp_cqe_flush_error, 0x5e0, 32) \
    F(query_q_counter_out, req_cqe_flush_error, 0x600, 32) \
    F(query_q_counter_out, roce_adp_retrans, 0x640, 32) \
    F(query_q_counter_out, roce_adp_retrans_to, 0x660, 32) \
    F(query_q_counter_out, roce_slow_restart, 0x680, 32) \
    F(query_q_counter_out, roce_slow_restart_cnps, 0x6a0, 32) \
    F(query_q_counter_out, roce_slow_restart_trans, 0x6c0, 32)

#define PRM_FIELDS_create_eq_in(F) \
    F(create_eq_in, opcode, 0x0, 16) \
    F(create_eq_in, uid, 0x10, 16) \
    F(create_eq_in, op_mod, 0x30, 16) \
    F(create_eq_in, eq_context_entry, 0x80, 512) \
    F(create_eq_in, event_bitmask, 0x2c0, 256) \
    F(create_eq_in, pas, 0x880, 0)

#define PRM_FIELDS_create_eq_out(F) \
    F(create_eq_out, status, 0x0, 8) \
    F(create_eq_out, syndrome, 0x20, 32) \
    F(create_eq_out, eq_number, 0x58, 8)

#define PRM_FIELDS_destroy_eq_in(F) \
    F(destroy_eq_in, opcode, 0x0, 16) \
    F(destroy_eq_in, op_mod, 0x30, 16) \
    F(destroy_eq_in, eq_number, 0x58, 8)

#define PRM_FIELDS_query_eq_in(F) \
    F(query_eq_in, opcode, 0x0, 16) \
    F(query_eq_in, op_mod, 0x30, 16) \
    F(query_eq_in, eq_number, 0x58, 8)

#define PRM_FIELDS_query_eq_out(F) \
    F(query_eq_out, status, 0x0, 8) \
    F(query_eq_out, syndrome, 0x20, 32) \
    F(query_eq_out, eq_context_entry, 0x80, 512) \
    F(query_eq_out, event_bitmask, 0x2c0, 64) \
    F(query_eq_out, pas, 0x880, 0)

#define PRM_FIELDS_eqc(F) \
    F(eqc, status, 0x0, 4) \
    F(eqc, ec, 0xd, 1) \
    F(eqc, oi, 0xe, 1) \
    F(eqc, st, 0x14, 4) \
    F(eqc, page_offset, 0x54, 6) \
    F(eqc, log_eq_size, 0x63, 5) \
    F(eqc, uar_page, 0x68, 24) \
    F(eqc, intr, 0xb4, 12) \
    F(eqc, log_page_size, 0xc3, 5) \
    F(eqc, consumer_counter, 0x148, 24) \
    F(eqc, producer_counter, 0x168, 24)

#define PRM_FIELDS_create_cq_in(F) \
    F(create_cq_in, opcode, 0x0, 16) \
    F(create_cq_in, uid, 0x10, 16) \
    F(create_cq_in, op_mod, 0x30, 16) \
    F(create_cq_in, cq_context, 0x80, 512) \
    F(create_cq_in, cq_umem_valid, 0x2e0, 1) \
    F(create_cq_in, pas, 0x880, 0)

#define PRM_FIELDS_create_cq_out(F) \
    F(create_cq_out, status, 0x0, 8) \
    F(create_cq_out, syndrome, 0x20, 32) \
    F(create_cq_out, cqn, 0x48, 24)

#define PRM_FIELDS_destroy_cq_in(F) \
    F(destroy_cq_in, opcode, 0x0, 16) \
    F(destroy_cq_in, uid, 0x10, 16) \
    F(destroy_cq_in, op_mod, 0x30, 16) \
    F(destroy_cq_in, cqn, 0x48, 24)

#define PRM_FIELDS_modify_cq_in(F) \
    F(modify_cq_in, opcode, 0x0, 16) \
    F(modify_cq_in, uid, 0x10, 16) \
    F(modify_cq_in, op_mod, 0x30, 16) \
    F(modify_cq_in, cqn, 0x48, 24) \
    F(modify_cq_in, modify_field_select_resize_field_select, 0x60, 32) \
    F(modify_cq_in, cq_context, 0x80, 512) \
    F(modify_cq_in, cq_umem_valid, 0x2e0, 1) \
    F(modify_cq_in, pas, 0x880, 0)

#define PRM_FIELDS_query_cq_in(F) \
    F(query_cq_in, opcode, 0x0, 16) \
    F(query_cq_in, op_mod, 0x30, 16) \
    F(query_cq_in, cqn, 0x48, 24)

#define PRM_FIELDS_query_cq_out(F) \
    F(query_cq_out, status, 0x0, 8) \
    F(query_cq_out, syndrome, 0x20, 32) \
    F(query_cq_out, cq_context, 0x80, 512) \
    F(query_cq_out, pas, 0x880, 0)

#define PRM_FIELDS_cqc(F) \
    F(cqc, status, 0x0, 4) \
    F(cqc, dbr_umem_valid, 0x6, 1) \
    F(cqc, apu_cq, 0x7, 1) \
    F(cqc, cqe_sz, 0x8, 3) \
    F(cqc, cc, 0xb, 1) \
    F(cqc, scqe_break_moderation_en, 0xd, 1) \
    F(cqc, oi, 0xe, 1) \
    F(cqc, cq_period_mode, 0xf, 2) \
    F(cqc, cqe_comp_en, 0x11, 1) \
    F(cqc, mini_cqe_res_format, 0x12, 2) \
    F(cqc, st, 0x14, 4) \
    F(cqc, cqe_compression_layout, 0x1e, 2) \
    F(cqc, page_offset, 0x54, 6) \
    F(cqc, log_cq_size, 0x63, 5) \
    F(cqc, uar_page, 0x68, 24) \
    F(cqc, cq_period, 0x84, 12) \
    F(cqc, cq_max_count, 0x90, 16) \
    F(cqc, c_eqn_or_apu_element, 0xa0, 32) \
    F(cqc, log_page_size, 0xc3, 5) \
    F(cqc, last_notified_index, 0x108, 24) \
    F(cqc, last_solicit_index, 0x128, 24) \
    F(cqc, consumer_counter, 0x148, 24) \
    F(cqc, producer_counter, 0x168, 24) \
    F(cqc, dbr_addr, 0x1c0, 64)

#define PRM_FIELDS_create_mkey_in(F) \
    F(create_mkey_in, opcode, 0x0, 16) \
    F(create_mkey_in, uid, 0x10, 16) \
    F(create_mkey_in, op_mod, 0x30, 16) \
    F(create_mkey_in, pg_access, 0x60, 1) \
    F(create_mkey_in, mkey_umem_valid, 0x61, 1) \
    F(create_mkey_in, memory_key_mkey_entry, 0x80, 512) \
    F(create_mkey_in, translations_octword_actual_size, 0x300, 32) \
    F(create_mkey_in, klm_pas_mtt, 0x880, 0)

#define PRM_FIELDS_create_mkey_out(F) \
    F(create_mkey_out, status, 0x0, 8) \
    F(create_mkey_out, syndrome, 0x20, 32) \
    F(create_mkey_out, mkey_index, 0x48, 24)

#define PRM_FIELDS_destroy_mkey_in(F) \
    F(destroy_mkey_in, opcode, 0x0, 16) \
    F(destroy_mkey_in, uid, 0x10, 16) \
    F(destroy_mkey_in, op_mod, 0x30, 16) \
    F(destroy_mkey_in, mkey_index, 0x48, 24)

#define PRM_FIELDS_query_mkey_in(F) \
    F(query_mkey_in, opcode, 0x0, 16) \
    F(query_mkey_in, op_mod, 0x30, 16) \
    F(query_mkey_in, mkey_index, 0x48, 24) \
    F(query_mkey_in, pg_access, 0x60, 1)

#define PRM_FIELDS_query_mkey_out(F) \
    F(query_mkey_out, status, 0x0, 8) \
    F(query_mkey_out, syndrome, 0x20, 32) \
    F(query_mkey_out, memory_key_mkey_entry, 0x80, 512) \
    F(query_mkey_out, bsf0_klm0_pas_mtt0_1, 0x880, 128) \
    F(query_mkey_out, bsf1_klm1_pas_mtt2_3, 0x900, 128)

#define PRM_FIELDS_mkc(F) \
    F(mkc, free, 0x1, 1) \
    F(mkc, access_mode_4_2, 0x3, 3) \
    F(mkc, relaxed_ordering_write, 0xd, 1) \
    F(mkc, small_fence_on_rdma_read_response, 0xf, 1) \
    F(mkc, umr_en, 0x10, 1) \
    F(mkc, a, 0x11, 1) \
    F(mkc, rw, 0x12, 1) \
    F(mkc, rr, 0x13, 1) \
    F(mkc, lw, 0x14, 1) \
    F(mkc, lr, 0x15, 1) \
    F(mkc, access_mode_1_0, 0x16, 2) \
    F(mkc, ma_translation_mode, 0x1a, 2) \
    F(mkc, qpn, 0x20, 24) \
    F(mkc, mkey_7_0, 0x38, 8) \
    F(mkc, length64, 0x60, 1) \
    F(mkc, bsf_en, 0x61, 1) \
    F(mkc, sync_umr, 0x62, 1) \
    F(mkc, expected_sigerr_count, 0x65, 1) \
    F(mkc, en_rinval, 0x67, 1) \
    F(mkc, pd, 0x68, 24) \
    F(mkc, start_addr, 0x80, 64) \
    F(mkc, len, 0xc0, 64) \
    F(mkc, bsf_octword_size, 0x100, 32) \
    F(mkc, translations_octword_size, 0x1a0, 32) \
    F(mkc, relaxed_ordering_read, 0x1d9, 1) \
    F(mkc, log_page_size, 0x1db, 5)

#define PRM_FIELDS_create_tis_in(F) \
    F(create_tis_in, opcode, 0x0, 16) \
    F(create_tis_in, uid, 0x10, 16) \
    F(create_tis_in, op_mod, 0x30, 16) \
    F(create_tis_in, ctx, 0x100, 1280)

#define PRM_FIELDS_create_tis_out(F) \
    F(create_tis_out, status, 0x0, 8) \
    F(create_tis_out, syndrome, 0x20, 32) \
    F(create_tis_out, tisn, 0x48, 24)

#define PRM_FIELDS_destroy_tis_in(F) \
    F(destroy_tis_in, opcode, 0x0, 16) \
    F(destroy_tis_in, uid, 0x10, 16) \
    F(destroy_tis_in, op_mod, 0x30, 16) \
    F(destroy_tis_in, tisn, 0x48, 24)

#define PRM_FIELDS_modify_tis_in(F) \
    F(modify_tis_in, opcode, 0x0, 16) \
    F(modify_tis_in, uid, 0x10, 16) \
    F(modify_tis_in, op_mod, 0x30, 16) \
    F(modify_tis_in, tisn, 0x48, 24) \
    F(modify_tis_in, bitmask, 0x80, 64) \
    F(modify_tis_in, ctx, 0x100, 1280)

#define PRM_FIELDS_tisc(F) \
    F(tisc, strict_lag_tx_port_affinity, 0x0, 1) \
    F(tisc, tls_en, 0x1, 1) \
    F(tisc, lag_tx_port_affinity, 0x4, 4) \
    F(tisc, prio, 0xc, 4) \
    F(tisc, transport_domain, 0x128, 24) \
    F(tisc, underlay_qpn, 0x148, 24) \
    F(tisc, pd, 0x168, 24)

#define PRM_FIELDS_create_tir_in(F) \
    F(create_tir_in, opcode, 0x0, 16) \
    F(create_tir_in, uid, 0x10, 16) \
    F(create_tir_in, op_mod, 0x30, 16) \
    F(create_tir_in, ctx, 0x100, 1920)

#define PRM_FIELDS_create_tir_out(F) \
    F(create_tir_out, status, 0x0, 8) \
    F(create_tir_out, icm_address_63_40, 0x8, 24) \
    F(create_tir_out, syndrome, 0x20, 32) \
    F(create_tir_out, icm_address_39_32, 0x40, 8) \
    F(create_tir_out, tirn, 0x48, 24) \
    F(create_tir_out, icm_address_31_0, 0x60, 32)

#define PRM_FIELDS_destroy_tir_in(F) \
    F(destroy_tir_in, opcode, 0x0, 16) \
    F(destroy_tir_in, uid, 0x10, 16) \
    F(destroy_tir_in, op_mod, 0x30, 16) \
    F(destroy_tir_in, tirn, 0x48, 24)

#define PRM_FIELDS_modify_tir_in(F) \
    F(modify_tir_in, opcode, 0x0, 16) \
    F(modify_tir_in, uid, 0x10, 16) \
    F(modify_tir_in, op_mod, 0x30, 16) \
    F(modify_tir_in, tirn, 0x48, 24) \
    F(modify_tir_in, bitmask, 0x80, 64) \
    F(modify_tir_in, ctx, 0x100, 1920)

#define PRM_FIELDS_tirc(F) \
    F(tirc, disp_type, 0x20, 4) \
    F(tirc, tls_en, 0x24, 1) \
    F(tirc, lro_timeout_period_usecs, 0x84, 16) \
    F(tirc, packet_merge_mask, 0x94, 4) \
    F(tirc, lro_max_ip_payload_size, 0x98, 8) \
    F(tirc, inline_rqn, 0xe8, 24) \
    F(tirc, rx_hash_symmetric, 0x100, 1) \
    F(tirc, tunneled_offload_en, 0x102, 1) \
    F(tirc, indirect_table, 0x108, 24) \
    F(tirc, rx_hash_fn, 0x120, 4) \
    F(tirc, self_lb_block, 0x126, 2) \
    F(tirc, transport_domain, 0x128, 24) \
    F(tirc, rx_hash_toeplitz_key, 0x140, 320) \
    F(tirc, rx_hash_field_selector_outer, 0x280, 32) \
    F(tirc, rx_hash_field_selector_inner, 0x2a0, 32)

#define PRM_FIELDS_rx_hash_field_select(F) \
    F(rx_hash_field_select, l3_prot_type, 0x0, 1) \
    F(rx_hash_field_select, l4_prot_type, 0x1, 1) \
    F(rx_hash_field_select, selected_fields, 0x2, 30)

#define PRM_FIELDS_create_rqt_in(F) \
    F(create_rqt_in, opcode, 0x0, 16) \
    F(create_rqt_in, uid, 0x10, 16) \
    F(create_rqt_in, op_mod, 0x30, 16) \
    F(create_rqt_in, rqt_context, 0x100, 1920)

#define PRM_FIELDS_create_rqt_out(F) \
    F(create_rqt_out, status, 0x0, 8) \
    F(create_rqt_out, syndrome, 0x20, 32) \
    F(create_rqt_out, rqtn, 0x48, 24)

#define PRM_FIELDS_destroy_rqt_in(F) \
    F(destroy_rqt_in, opcode, 0x0, 16) \
    F(destroy_rqt_in, uid, 0x10, 16) \
    F(destroy_rqt_in, op_mod, 0x30, 16) \
    F(destroy_rqt_in, rqtn, 0x48, 24)

#define PRM_FIELDS_modify_rqt_in(F) \
    F(modify_rqt_in, opcode, 0x0, 16) \
    F(modify_rqt_in, uid, 0x10, 16) \
    F(modify_rqt_in, op_mod, 0x30, 16) \
    F(modify_rqt_in, rqtn, 0x48, 24) \
    F(modify_rqt_in, bitmask, 0x80, 64) \
    F(modify_rqt_in, ctx, 0x100, 1920)

#define PRM_FIELDS_rqtc(F) \
    F(rqtc, list_q_type, 0xa5, 3) \
    F(rqtc, rqt_max_size, 0xb0, 16) \
    F(rqtc, rq_vhca_id_format, 0xc0, 1) \
    F(rqtc, rqt_actual_size, 0xd0, 16) \
    F(rqtc, rq_num, 0x780, 0)

#define PRM_FIELDS_create_sq_in(F) \
    F(create_sq_in, opcode, 0x0, 16) \
    F(create_sq_in, uid, 0x10, 16) \
    F(create_sq_in, op_mod, 0x30, 16) \
    F(create_sq_in, ctx, 0x100, 1920)

#define PRM_FIELDS_create_sq_out(F) \
    F(create_sq_out, status, 0x0, 8) \
    F(create_sq_out, syndrome, 0x20, 32) \
    F(create_sq_out, sqn, 0x48, 24)

#define PRM_FIELDS_destroy_sq_in(F) \
    F(destroy_sq_in, opcode, 0x0, 16) \
    F(destroy_sq_in, uid, 0x10, 16) \
    F(destroy_sq_in, op_mod, 0x30, 16) \
    F(destroy_sq_in, sqn, 0x48, 24)

#define PRM_FIELDS_modify_sq_in(F) \
    F(modify_sq_in, opcode, 0x0, 16) \
    F(modify_sq_in, uid, 0x10, 16) \
    F(modify_sq_in, op_mod, 0x30, 16) \
    F(modify_sq_in, sq_state, 0x40, 4) \
    F(modify_sq_in, sqn, 0x48, 24) \
    F(modify_sq_in, modify_bitmask, 0x80, 64) \
    F(modify_sq_in, ctx, 0x100, 1920)

#define PRM_FIELDS_query_sq_in(F) \
    F(query_sq_in, opcode, 0x0, 16) \
    F(query_sq_in, op_mod, 0x30, 16) \
    F(query_sq_in, sqn, 0x48, 24)

#define PRM_FIELDS_query_sq_out(F) \
    F(query_sq_out, status, 0x0, 8) \
    F(query_sq_out, syndrome, 0x20, 32) \
    F(query_sq_out, sq_context, 0x100, 1920)

#define PRM_FIELDS_sqc(F) \
    F(sqc, rlky, 0x0, 1) \
    F(sqc, cd_master, 0x1, 1) \
    F(sqc, fre, 0x2, 1) \
    F(sqc, flush_in_error_en, 0x3, 1) \
    F(sqc, allow_multi_pkt_send_wqe, 0x4, 1) \
    F(sqc, min_wqe_inline_mode, 0x5, 3) \
    F(sqc, state, 0x8, 4) \
    F(sqc, reg_umr, 0xc, 1) \
    F(sqc, allow_swp, 0xd, 1) \
    F(sqc, hairpin, 0xe, 1) \
    F(sqc, ts_format, 0x1a, 2) \
    F(sqc, user_index, 0x28, 24) \
    F(sqc, cqn, 0x48, 24) \
    F(sqc, hairpin_peer_rq, 0x68, 24) \
    F(sqc, hairpin_peer_vhca, 0x90, 16) \
    F(sqc, ts_cqe_to_dest_cqn, 0xc8, 24) \
    F(sqc, packet_pacing_rate_limit_index, 0xf0, 16) \
    F(sqc, tis_lst_sz, 0x100, 16) \
    F(sqc, qos_queue_group_id, 0x110, 16) \
    F(sqc, tis_num_0, 0x168, 24) \
    F(sqc, wq, 0x180, 1536)

#define PRM_FIELDS_create_rq_in(F) \
    F(create_rq_in, opcode, 0x0, 16) \
    F(create_rq_in, uid, 0x10, 16) \
    F(create_rq_in, op_mod, 0x30, 16) \
    F(create_rq_in, ctx, 0x100, 1920)

#define PRM_FIELDS_create_rq_out(F) \
    F(create_rq_out, status, 0x0, 8) \
    F(create_rq_out, syndrome, 0x20, 32) \
    F(create_rq_out, rqn, 0x48, 24)

#define PRM_FIELDS_destroy_rq_in(F) \
    F(destroy_rq_in, opcode, 0x0, 16) \
    F(destroy_rq_in, uid, 0x10, 16) \
    F(destroy_rq_in, op_mod, 0x30, 16) \
    F(destroy_rq_in, rqn, 0x48, 24)

#define PRM_FIELDS_modify_rq_in(F) \
    F(modify_rq_in, opcode, 0x0, 16) \
    F(modify_rq_in, uid, 0x10, 16) \
    F(modify_rq_in, op_mod, 0x30, 16) \
    F(modify_rq_in, rq_state, 0x40, 4) \
    F(modify_rq_in, rqn, 0x48, 24) \
    F(modify_rq_in, modify_bitmask, 0x80, 64) \
    F(modify_rq_in, ctx, 0x100, 1920)

#define PRM_FIELDS_query_rq_in(F) \
    F(query_rq_in, opcode, 0x0, 16) \
    F(query_rq_in, op_mod, 0x30, 16) \
    F(query_rq_in, rqn, 0x48, 24)

#define PRM_FIELDS_query_rq_out(F) \
    F(query_rq_out, status, 0x0, 8) \
    F(query_rq_out, syndrome, 0x20, 32) \
    F(query_rq_out, rq_context, 0x100, 1920)

#define PRM_FIELDS_rqc(F) \
    F(rqc, rlky, 0x0, 1) \
    F(rqc, delay_drop_en, 0x1, 1) \
    F(rqc, scatter_fcs, 0x2, 1) \
    F(rqc, vsd, 0x3, 1) \
    F(rqc, mem_rq_type, 0x4, 4) \
    F(rqc, state, 0x8, 4) \
    F(rqc, flush_in_error_en, 0xd, 1) \
    F(rqc, hairpin, 0xe, 1) \
    F(rqc, ts_format, 0x1a, 2) \
    F(rqc, user_index, 0x28, 24) \
    F(rqc, cqn, 0x48, 24) \
    F(rqc, counter_set_id, 0x60, 8) \
    F(rqc, rmpn, 0x88, 24) \
    F(rqc, hairpin_peer_sq, 0xa8, 24) \
    F(rqc, hairpin_peer_vhca, 0xd0, 16) \
    F(rqc, shampo_no_match_alignment_granularity, 0x126, 2) \
    F(rqc, shampo_match_criteria_type, 0x12e, 2) \
    F(rqc, reservation_timeout, 0x130, 16) \
    F(rqc, wq, 0x180, 1536)

#define PRM_FIELDS_wq(F) \
    F(wq, wq_type, 0x0, 4) \
    F(wq, wq_signature, 0x4, 1) \
    F(wq, end_padding_mode, 0x5, 2) \
    F(wq, cd_slave, 0x7, 1) \
    F(wq, hds_skip_first_sge, 0x20, 1) \
    F(wq, log2_hds_buf_size, 0x21, 3) \
    F(wq, page_offset, 0x2b, 5) \
    F(wq, lwm, 0x30, 16) \
    F(wq, pd, 0x48, 24) \
    F(wq, uar_page, 0x68, 24) \
    F(wq, dbr_addr, 0x80, 64) \
    F(wq, hw_counter, 0xc0, 32) \
    F(wq, sw_counter, 0xe0, 32) \
    F(wq, log_wq_stride, 0x10c, 4) \
    F(wq, log_wq_pg_sz, 0x113, 5) \
    F(wq, log_wq_sz, 0x11b, 5) \
    F(wq, dbr_umem_valid, 0x120, 1) \
    F(wq, wq_umem_valid, 0x121, 1) \
    F(wq, log_hairpin_num_packets, 0x123, 5) \
    F(wq, log_hairpin_data_sz, 0x12b, 5) \
    F(wq, log_wqe_num_of_strides, 0x134, 4) \
    F(wq, two_byte_shift_en, 0x138, 1) \
    F(wq, log_wqe_stride_size, 0x13d, 3) \
    F(wq, headers_mkey, 0x1c0, 32) \
    F(wq, shampo_enable, 0x1e0, 1) \
    F(wq, log_reservation_size, 0x1e5, 3) \
    F(wq, log_max_num_of_packets_per_reservation, 0x1ed, 3) \
    F(wq, log_headers_entry_size, 0x1f6, 2) \
    F(wq, log_headers_buffer_entry_num, 0x1fc, 4) \
    F(wq, pas, 0x600, 0)

#define PRM_FIELDS_create_flow_table_in(F) \
    F(create_flow_table_in, opcode, 0x0, 16) \
    F(create_flow_table_in, uid, 0x10, 16) \
    F(create_flow_table_in, op_mod, 0x30, 16) \
    F(create_flow_table_in, other_vport, 0x40, 1) \
    F(create_flow_table_in, vport_number, 0x50, 16) \
    F(create_flow_table_in, table_type, 0x80, 8) \
    F(create_flow_table_in, flow_table_context, 0xc0, 320)

#define PRM_FIELDS_create_flow_table_out(F) \
    F(create_flow_table_out, status, 0x0, 8) \
    F(create_flow_table_out, icm_address_63_40, 0x8, 24) \
    F(create_flow_table_out, syndrome, 0x20, 32) \
    F(create_flow_table_out, icm_address_39_32, 0x40, 8) \
    F(create_flow_table_out, table_id, 0x48, 24) \
    F(create_flow_table_out, icm_address_31_0, 0x60, 32)

#define PRM_FIELDS_destroy_flow_table_in(F) \
    F(destroy_flow_table_in, opcode, 0x0, 16) \
    F(destroy_flow_table_in, op_mod, 0x30, 16) \
    F(destroy_flow_table_in, other_vport, 0x40, 1) \
    F(destroy_flow_table_in, vport_number, 0x50, 16) \
    F(destroy_flow_table_in, table_type, 0x80, 8) \
    F(destroy_flow_table_in, table_id, 0xa8, 24)

#define PRM_FIELDS_flow_table_context(F) \
    F(flow_table_context, reformat_en, 0x0, 1) \
    F(flow_table_context, decap_en, 0x1, 1) \
    F(flow_table_context, sw_owner, 0x2, 1) \
    F(flow_table_context, termination_table, 0x3, 1) \
    F(flow_table_context, table_miss_action, 0x4, 4) \
    F(flow_table_context, level, 0x8, 8) \
    F(flow_table_context, log_size, 0x18, 8) \
    F(flow_table_context, table_miss_id, 0x28, 24) \
    F(flow_table_context, lag_master_next_table_id, 0x48, 24) \
    F(flow_table_context, sw_owner_icm_root_1, 0xc0, 64) \
    F(flow_table_context, sw_owner_icm_root_0, 0x100, 64)

#define PRM_FIELDS_modify_flow_table_in(F) \
    F(modify_flow_table_in, opcode, 0x0, 16) \
    F(modify_flow_table_in, op_mod, 0x30, 16) \
    F(modify_flow_table_in, other_vport, 0x40, 1) \
    F(modify_flow_table_in, vport_number, 0x50, 16) \
    F(modify_flow_table_in, modify_field_select, 0x70, 16) \
    F(modify_flow_table_in, table_type, 0x80, 8) \
    F(modify_flow_table_in, table_id, 0xa8, 24) \
    F(modify_flow_table_in, flow_table_context, 0xc0, 320)

#define PRM_FIELDS_set_flow_table_root_in(F) \
    F(set_flow_table_root_in, opcode, 0x0, 16) \
    F(set_flow_table_root_in, op_mod, 0x30, 16) \
    F(set_flow_table_root_in, other_vport, 0x40, 1) \
    F(set_flow_table_root_in, vport_number, 0x50, 16) \
    F(set_flow_table_root_in, table_type, 0x80, 8) \
    F(set_flow_table_root_in, table_of_other_vport, 0x8f, 1) \
    F(set_flow_table_root_in, table_vport_number, 0x90, 16) \
    F(set_flow_table_root_in, table_id, 0xa8, 24) \
    F(set_flow_table_root_in, underlay_qpn, 0xc8, 24) \
    F(set_flow_table_root_in, table_eswitch_owner_vhca_id_valid, 0xe0, 1) \
    F(set_flow_table_root_in, table_eswitch_owner_vhca_id, 0xf0, 16)

#define PRM_FIELDS_create_flow_group_in(F) \
    F(create_flow_group_in, opcode, 0x0, 16) \
    F(create_flow_group_in, op_mod, 0x30, 16) \
    F(create_flow_group_in, other_vport, 0x40, 1) \
    F(create_flow_group_in, vport_number, 0x50, 16) \
    F(create_flow_group_in, table_type, 0x80, 8) \
    F(create_flow_group_in, group_type, 0x8c, 4) \
    F(create_flow_group_in, table_id, 0xa8, 24) \
    F(create_flow_group_in, source_eswitch_owner_vhca_id_valid, 0xc0, 1) \
    F(create_flow_group_in, start_flow_index, 0xe0, 32) \
    F(create_flow_group_in, end_flow_index, 0x120, 32) \
    F(create_flow_group_in, match_definer_id, 0x150, 16) \
    F(create_flow_group_in, match_criteria_enable, 0x1f8, 8) \
    F(create_flow_group_in, match_criteria, 0x200, 4096)

#define PRM_FIELDS_create_flow_group_out(F) \
    F(create_flow_group_out, status, 0x0, 8) \
    F(create_flow_group_out, syndrome, 0x20, 32) \
    F(create_flow_group_out, group_id, 0x48, 24)

#define PRM_FIELDS_destroy_flow_group_in(F) \
    F(destroy_flow_group_in, opcode, 0x0, 16) \
    F(destroy_flow_group_in, op_mod, 0x30, 16) \
    F(destroy_flow_group_in, other_vport, 0x40, 1) \
    F(destroy_flow_group_in, vport_number, 0x50, 16) \
    F(destroy_flow_group_in, table_type, 0x80, 8) \
    F(destroy_flow_group_in, table_id, 0xa8, 24) \
    F(destroy_flow_group_in, group_id, 0xc0, 32)

#define PRM_FIELDS_set_fte_in(F) \
    F(set_fte_in, opcode, 0x0, 16) \
    F(set_fte_in, op_mod, 0x30, 16) \
    F(set_fte_in, other_vport, 0x40, 1) \
    F(set_fte_in, vport_number, 0x50, 16) \
    F(set_fte_in, table_type, 0x80, 8) \
    F(set_fte_in, table_id, 0xa8, 24) \
    F(set_fte_in, ignore_flow_level, 0xc0, 1) \
    F(set_fte_in, modify_enable_mask, 0xd8, 8) \
    F(set_fte_in, flow_index, 0x100, 32) \
    F(set_fte_in, flow_context, 0x200, 6144)

#define PRM_FIELDS_delete_fte_in(F) \
    F(delete_fte_in, opcode, 0x0, 16) \
    F(delete_fte_in, op_mod, 0x30, 16) \
    F(delete_fte_in, other_vport, 0x40, 1) \
    F(delete_fte_in, vport_number, 0x50, 16) \
    F(delete_fte_in, table_type, 0x80, 8) \
    F(delete_fte_in, table_id, 0xa8, 24) \
    F(delete_fte_in, flow_index, 0x100, 32)

#define PRM_FIELDS_flow_context(F) \
    F(flow_context, push_vlan, 0x0, 32) \
    F(flow_context, group_id, 0x20, 32) \
    F(flow_context, flow_tag, 0x48, 24) \
    F(flow_context, action, 0x70, 16) \
    F(flow_context, extended_destination, 0x80, 1) \
    F(flow_context, flow_source, 0x82, 2) \
    F(flow_context, encrypt_decrypt_type, 0x84, 4) \
    F(flow_context, destination_list_size, 0x88, 24) \
    F(flow_context, flow_counter_list_size, 0xa8, 24) \
    F(flow_context, packet_reformat_id, 0xc0, 32) \
    F(flow_context, modify_header_id, 0xe0, 32) \
    F(flow_context, push_vlan_2, 0x100, 32) \
    F(flow_context, encrypt_decrypt_obj_id, 0x120, 32) \
    F(flow_context, match_value, 0x200, 4096) \
    F(flow_context, execute_aso, 0x1200, 256) \
    F(flow_context, destination, 0x1800, 0)

#define PRM_FIELDS_dest_format_struct(F) \
    F(dest_format_struct, destination_type, 0x0, 8) \
    F(dest_format_struct, destination_id, 0x8, 24) \
    F(dest_format_struct, destination_eswitch_owner_vhca_id_valid, 0x20, 1) \
    F(dest_format_struct, packet_reformat, 0x21, 1) \
    F(dest_format_struct, destination_eswitch_owner_vhca_id, 0x30, 16)

#define PRM_FIELDS_fte_match_param(F) \
    F(fte_match_param, outer_headers, 0x0, 512) \
    F(fte_match_param, misc_parameters, 0x200, 512) \
    F(fte_match_param, inner_headers, 0x400, 512) \
    F(fte_match_param, misc_parameters_2, 0x600, 512) \
    F(fte_match_param, misc_parameters_3, 0x800, 512) \
    F(fte_match_param, misc_parameters_4, 0xa00, 512) \
    F(fte_match_param, misc_parameters_5, 0xc00, 512)

#define PRM_FIELDS_fte_match_set_lyr_2_4(F) \
    F(fte_match_set_lyr_2_4, smac_47_16, 0x0, 32) \
    F(fte_match_set_lyr_2_4, smac_15_0, 0x20, 16) \
    F(fte_match_set_lyr_2_4, ethertype, 0x30, 16) \
    F(fte_match_set_lyr_2_4, dmac_47_16, 0x40, 32) \
    F(fte_match_set_lyr_2_4, dmac_15_0, 0x60, 16) \
    F(fte_match_set_lyr_2_4, first_prio, 0x70, 3) \
    F(fte_match_set_lyr_2_4, first_cfi, 0x73, 1) \
    F(fte_match_set_lyr_2_4, first_vid, 0x74, 12) \
    F(fte_match_set_lyr_2_4, ip_protocol, 0x80, 8) \
    F(fte_match_set_lyr_2_4, ip_dscp, 0x88, 6) \
    F(fte_match_set_lyr_2_4, ip_ecn, 0x8e, 2) \
    F(fte_match_set_lyr_2_4, cvlan_tag, 0x90, 1) \
    F(fte_match_set_lyr_2_4, svlan_tag, 0x91, 1) \
    F(fte_match_set_lyr_2_4, frag, 0x92, 1) \
    F(fte_match_set_lyr_2_4, ip_version, 0x93, 4) \
    F(fte_match_set_lyr_2_4, tcp_flags, 0x97, 9) \
    F(fte_match_set_lyr_2_4, tcp_sport, 0xa0, 16) \
    F(fte_match_set_lyr_2_4, tcp_dport, 0xb0, 16) \
    F(fte_match_set_lyr_2_4, ipv4_ihl, 0xd0, 4) \
    F(fte_match_set_lyr_2_4, ttl_hoplimit, 0xd8, 8) \
    F(fte_match_set_lyr_2_4, udp_sport, 0xe0, 16) \
    F(fte_match_set_lyr_2_4, udp_dport, 0xf0, 16) \
    F(fte_match_set_lyr_2_4, src_ipv4_src_ipv6, 0x100, 128) \
    F(fte_match_set_lyr_2_4, dst_ipv4_dst_ipv6, 0x180, 128)

#define PRM_FIELDS_fte_match_set_misc(F) \
    F(fte_match_set_misc, gre_c_present, 0x0, 1) \
    F(fte_match_set_misc, gre_k_present, 0x2, 1) \
    F(fte_match_set_misc, gre_s_present, 0x3, 1) \
    F(fte_match_set_misc, source_vhca_port, 0x4, 4) \
    F(fte_match_set_misc, source_sqn, 0x8, 24) \
    F(fte_match_set_misc, source_eswitch_owner_vhca_id, 0x20, 16) \
    F(fte_match_set_misc, source_port, 0x30, 16) \
    F(fte_match_set_misc, outer_second_prio, 0x40, 3) \
    F(fte_match_set_misc, outer_second_cfi, 0x43, 1) \
    F(fte_match_set_misc, outer_second_vid, 0x44, 12) \
    F(fte_match_set_misc, inner_second_prio, 0x50, 3) \
    F(fte_match_set_misc, inner_second_cfi, 0x53, 1) \
    F(fte_match_set_misc, inner_second_vid, 0x54, 12) \
    F(fte_match_set_misc, outer_second_cvlan_tag, 0x60, 1) \
    F(fte_match_set_misc, inner_second_cvlan_tag, 0x61, 1) \
    F(fte_match_set_misc, outer_second_svlan_tag, 0x62, 1) \
    F(fte_match_set_misc, inner_second_svlan_tag, 0x63, 1) \
    F(fte_match_set_misc, gre_protocol, 0x70, 16) \
    F(fte_match_set_misc, gre_key, 0x80, 32) \
    F(fte_match_set_misc, vxlan_vni, 0xa0, 24) \
    F(fte_match_set_misc, bth_opcode, 0xb8, 8) \
    F(fte_match_set_misc, geneve_vni, 0xc0, 24) \
    F(fte_match_set_misc, geneve_tlv_option_0_exist, 0xde, 1) \
    F(fte_match_set_misc, geneve_oam, 0xdf, 1) \
    F(fte_match_set_misc, outer_ipv6_flow_label, 0xec, 20) \
    F(fte_match_set_misc, inner_ipv6_flow_label, 0x10c, 20) \
    F(fte_match_set_misc, geneve_opt_len, 0x12a, 6) \
    F(fte_match_set_misc, geneve_protocol_type, 0x130, 16) \
    F(fte_match_set_misc, bth_dst_qp, 0x148, 24) \
    F(fte_match_set_misc, outer_esp_spi, 0x180, 32)

#define PRM_FIELDS_query_vport_state_in(F) \
    F(query_vport_state_in, opcode, 0x0, 16) \
    F(query_vport_state_in, op_mod, 0x30, 16) \
    F(query_vport_state_in, other_vport, 0x40, 1) \
    F(query_vport_state_in, vport_number, 0x50, 16)

#define PRM_FIELDS_query_vport_state_out(F) \
    F(query_vport_state_out, status, 0x0, 8) \
    F(query_vport_state_out, syndrome, 0x20, 32) \
    F(query_vport_state_out, admin_state, 0x78, 4) \
    F(query_vport_state_out, state, 0x7c, 4)

#define PRM_FIELDS_query_nic_vport_context_in(F) \
    F(query_nic_vport_context_in, opcode, 0x0, 16) \
    F(query_nic_vport_context_in, op_mod, 0x30, 16) \
    F(query_nic_vport_context_in, other_vport, 0x40, 1) \
    F(query_nic_vport_context_in, vport_number, 0x50, 16) \
    F(query_nic_vport_context_in, allowed_list_type, 0x65, 3)

#define PRM_FIELDS_query_nic_vport_context_out(F) \
    F(query_nic_vport_context_out, status, 0x0, 8) \
    F(query_nic_vport_context_out, syndrome, 0x20, 32) \
    F(query_nic_vport_context_out, nic_vport_context, 0x80, 2048)

#define PRM_FIELDS_modify_nic_vport_context_in(F) \
    F(modify_nic_vport_context_in, opcode, 0x0, 16) \
    F(modify_nic_vport_context_in, op_mod, 0x30, 16) \
    F(modify_nic_vport_context_in, other_vport, 0x40, 1) \
    F(modify_nic_vport_context_in, vport_number, 0x50, 16) \
    F(modify_nic_vport_context_in, field_select, 0x60, 32) \
    F(modify_nic_vport_context_in, nic_vport_context, 0x800, 2048)

#define PRM_FIELDS_nic_vport_context(F) \
    F(nic_vport_context, min_wqe_inline_mode, 0x5, 3) \
    F(nic_vport_context, disable_mc_local_lb, 0x1d, 1) \
    F(nic_vport_context, disable_uc_local_lb, 0x1e, 1) \
    F(nic_vport_context, roce_en, 0x1f, 1) \
    F(nic_vport_context, arm_change_event, 0x20, 1) \
    F(nic_vport_context, event_on_mtu, 0x3b, 1) \
    F(nic_vport_context, event_on_promisc_change, 0x3c, 1) \
    F(nic_vport_context, event_on_vlan_change, 0x3d, 1) \
    F(nic_vport_context, event_on_mc_address_change, 0x3e, 1) \
    F(nic_vport_context, event_on_uc_address_change, 0x3f, 1) \
    F(nic_vport_context, vhca_id_type, 0x40, 1) \
    F(nic_vport_context, affiliation_criteria, 0x4c, 4) \
    F(nic_vport_context, affiliated_vhca_id, 0x50, 16) \
    F(nic_vport_context, mtu, 0x130, 16) \
    F(nic_vport_context, system_image_guid, 0x140, 64) \
    F(nic_vport_context, port_guid, 0x180, 64) \
    F(nic_vport_context, node_guid, 0x1c0, 64) \
    F(nic_vport_context, qkey_violation_counter, 0x340, 16) \
    F(nic_vport_context, promisc_uc, 0x780, 1) \
    F(nic_vport_context, promisc_mc, 0x781, 1) \
    F(nic_vport_context, promisc_all, 0x782, 1) \
    F(nic_vport_context, allowed_list_type, 0x785, 3) \
    F(nic_vport_context, allowed_list_size, 0x794, 12) \
    F(nic_vport_context, permanent_address, 0x7a0, 64) \
    F(nic_vport_context, current_uc_mac_address, 0x800, 0)

#define PRM_FIELDS_modify_nic_vport_field_select(F) \
    F(modify_nic_vport_field_select, affiliation, 0x12, 1) \
    F(modify_nic_vport_field_select, disable_uc_local_lb, 0x14, 1) \
    F(modify_nic_vport_field_select, disable_mc_local_lb, 0x15, 1) \
    F(modify_nic_vport_field_select, node_guid, 0x16, 1) \
    F(modify_nic_vport_field_select, port_guid, 0x17, 1) \
    F(modify_nic_vport_field_select, min_inline, 0x18, 1) \
    F(modify_nic_vport_field_select, mtu, 0x19, 1) \
    F(modify_nic_vport_field_select, change_event, 0x1a, 1) \
    F(modify_nic_vport_field_select, promisc, 0x1b, 1) \
    F(modify_nic_vport_field_select, permanent_address, 0x1c, 1) \
    F(modify_nic_vport_field_select, addresses_list, 0x1d, 1) \
    F(modify_nic_vport_field_select, roce_en, 0x1e, 1)

#define PRM_FIELDS_query_hca_vport_pkey_in(F) \
    F(query_hca_vport_pkey_in, opcode, 0x0, 16) \
    F(query_hca_vport_pkey_in, op_mod, 0x30, 16) \
    F(query_hca_vport_pkey_in, other_vport, 0x40, 1) \
    F(query_hca_vport_pkey_in, port_num, 0x4c, 4) \
    F(query_hca_vport_pkey_in, vport_number, 0x50, 16) \
    F(query_hca_vport_pkey_in, pkey_index, 0x70, 16)

#define PRM_FIELDS_query_hca_vport_pkey_out(F) \
    F(query_hca_vport_pkey_out, status, 0x0, 8) \
    F(query_hca_vport_pkey_out, syndrome, 0x20, 32) \
    F(query_hca_vport_pkey_out, pkey, 0x80, 0)

#define PRM_FIELDS_set_roce_address_in(F) \
    F(set_roce_address_in, opcode, 0x0, 16) \
    F(set_roce_address_in, op_mod, 0x30, 16) \
    F(set_roce_address_in, roce_address_index, 0x40, 16) \
    F(set_roce_address_in, vhca_port_num, 0x5c, 4) \
    F(set_roce_address_in, roce_address, 0x80, 256)

#define PRM_FIELDS_roce_addr_layout(F) \
    F(roce_addr_layout, source_l3_address, 0x0, 128) \
    F(roce_addr_layout, vlan_valid, 0x83, 1) \
    F(roce_addr_layout, vlan_id, 0x84, 12) \
    F(roce_addr_layout, source_mac_47_32, 0x90, 16) \
    F(roce_addr_layout, source_mac_31_0, 0xa0, 32) \
    F(roce_addr_layout, roce_l3_type, 0xd4, 4) \
    F(roce_addr_layout, roce_version, 0xd8, 8)

#define PRM_FIELDS_query_vport_counter_in(F) \
    F(query_vport_counter_in, opcode, 0x0, 16) \
    F(query_vport_counter_in, op_mod, 0x30, 16) \
    F(query_vport_counter_in, other_vport, 0x40, 1) \
    F(query_vport_counter_in, port_num, 0x4c, 4) \
    F(query_vport_counter_in, vport_number, 0x50, 16) \
    F(query_vport_counter_in, clear, 0xc0, 1)

#define PRM_FIELDS_query_vport_counter_out(F) \
    F(query_vport_counter_out, status, 0x0, 8) \
    F(query_vport_counter_out, syndrome, 0x20, 32) \
    F(query_vport_counter_out, received_errors, 0x80, 128) \
    F(query_vport_counter_out, transmit_errors, 0x100, 128) \
    F(query_vport_counter_out, received_ib_unicast, 0x180, 128) \
    F(query_vport_counter_out, transmitted_ib_unicast, 0x200, 128) \
    F(query_vport_counter_out, received_ib_multicast, 0x280, 128) \
    F(query_vport_counter_out, transmitted_ib_multicast, 0x300, 128) \
    F(query_vport_counter_out, received_eth_broadcast, 0x380, 128) \
    F(query_vport_counter_out, transmitted_eth_broadcast, 0x400, 128) \
    F(query_vport_counter_out, received_eth_unicast, 0x480, 128) \
    F(query_vport_counter_out, transmitted_eth_unicast, 0x500, 128) \
    F(query_vport_counter_out, received_eth_multicast, 0x580, 128) \
    F(query_vport_counter_out, transmitted_eth_multicast, 0x600, 128)

#define PRM_FIELDS_access_register_in(F) \
    F(access_register_in, opcode, 0x0, 16) \
    F(access_register_in, op_mod, 0x30, 16) \
    F(access_register_in, register_id, 0x50, 16) \
    F(access_register_in, argument, 0x60, 32) \
    F(access_register_in, register_data, 0x80, 0)

#define PRM_FIELDS_access_register_out(F) \
    F(access_register_out, status, 0x0, 8) \
    F(access_register_out, syndrome, 0x20, 32) \
    F(access_register_out, register_data, 0x80, 0)

#define PRM_FIELDS_paos_reg(F) \
    F(paos_reg, swid, 0x0, 8) \
    F(paos_reg, local_port, 0x8, 8) \
    F(paos_reg, admin_status, 0x14, 4) \
    F(paos_reg, oper_status, 0x1c, 4) \
    F(paos_reg, ase, 0x20, 1) \
    F(paos_reg, ee, 0x21, 1) \
    F(paos_reg, e, 0x3e, 2)

#define PRM_FIELDS_pmtu_reg(F) \
    F(pmtu_reg, local_port, 0x8, 8) \
    F(pmtu_reg, max_mtu, 0x20, 16) \
    F(pmtu_reg, admin_mtu, 0x40, 16) \
    F(pmtu_reg, oper_mtu, 0x60, 16)

#define PRM_FIELDS_ptys_reg(F) \
    F(ptys_reg, an_disable_admin, 0x1, 1) \
    F(ptys_reg, an_disable_cap, 0x2, 1) \
    F(ptys_reg, local_port, 0x8, 8) \
    F(ptys_reg, proto_mask, 0x1d, 3) \
    F(ptys_reg, an_status, 0x20, 4) \
    F(ptys_reg, data_rate_oper, 0x30, 16) \
    F(ptys_reg, ext_eth_proto_capability, 0x40, 32) \
    F(ptys_reg, eth_proto_capability, 0x60, 32) \
    F(ptys_reg, ib_link_width_capability, 0x80, 16) \
    F(ptys_reg, ib_proto_capability, 0x90, 16) \
    F(ptys_reg, ext_eth_proto_admin, 0xa0, 32) \
    F(ptys_reg, eth_proto_admin, 0xc0, 32) \
    F(ptys_reg, ib_link_width_admin, 0xe0, 16) \
    F(ptys_reg, ib_proto_admin, 0xf0, 16) \
    F(ptys_reg, ext_eth_proto_oper, 0x100, 32) \
    F(ptys_reg, eth_proto_oper, 0x120, 32) \
    F(ptys_reg, ib_link_width_oper, 0x140, 16) \
    F(ptys_reg, ib_proto_oper, 0x150, 16) \
    F(ptys_reg, connector_type, 0x17c, 4) \
    F(ptys_reg, eth_proto_lp_advertise, 0x180, 32)

#define PRM_FIELDS_pcam_reg(F) \
    F(pcam_reg, feature_group, 0x8, 8) \
    F(pcam_reg, access_reg_group, 0x18, 8) \
    F(pcam_reg, port_access_reg_cap_mask, 0x40, 128) \
    F(pcam_reg, feature_cap_mask, 0x140, 128)

#define PRM_FIELDS_mcam_reg(F) \
    F(mcam_reg, feature_group, 0x8, 8) \
    F(mcam_reg, access_reg_group, 0x18, 8) \
    F(mcam_reg, mng_access_reg_cap_mask, 0x40, 128) \
    F(mcam_reg, mng_feature_cap_mask, 0x140, 128)

#define PRM_FIELDS_ppcnt_reg(F) \
    F(ppcnt_reg, swid, 0x0, 8) \
    F(ppcnt_reg, local_port, 0x8, 8) \
    F(ppcnt_reg, pnat, 0x10, 2) \
    F(ppcnt_reg, grp, 0x1a, 6) \
    F(ppcnt_reg, clr, 0x20, 1) \
    F(ppcnt_reg, prio_tc, 0x3d, 3) \
    F(ppcnt_reg, counter_set, 0x40, 1984)

#define PRM_FIELDS_pvlc_reg(F) \
    F(pvlc_reg, local_port, 0x8, 8) \
    F(pvlc_reg, vl_hw_cap, 0x3c, 4) \
    F(pvlc_reg, vl_admin, 0x5c, 4) \
    F(pvlc_reg, vl_operational, 0x7c, 4)

#define PRM_FIELDS_pfcc_reg(F) \
    F(pfcc_reg, local_port, 0x8, 8) \
    F(pfcc_reg, ppan_mask_n, 0x1b, 1) \
    F(pfcc_reg, minor_stall_mask, 0x1c, 1) \
    F(pfcc_reg, critical_stall_mask, 0x1d, 1) \
    F(pfcc_reg, ppan, 0x20, 4) \
    F(pfcc_reg, prio_mask_tx, 0x28, 8) \
    F(pfcc_reg, prio_mask_rx, 0x38, 8) \
    F(pfcc_reg, pptx, 0x40, 1) \
    F(pfcc_reg, aptx, 0x41, 1) \
    F(pfcc_reg, pptx_mask_n, 0x42, 1) \
    F(pfcc_reg, pfctx, 0x48, 8) \
    F(pfcc_reg, pprx, 0x60, 1) \
    F(pfcc_reg, aprx, 0x61, 1) \
    F(pfcc_reg, pprx_mask_n, 0x62, 1) \
    F(pfcc_reg, pfcrx, 0x68, 8) \
    F(pfcc_reg, device_stall_minor_watermark, 0x80, 16) \
    F(pfcc_reg, device_stall_critical_watermark, 0x90, 16)

#define PRM_FIELDS_create_qp_in(F) \
    F(create_qp_in, opcode, 0x0, 16) \
    F(create_qp_in, uid, 0x10, 16) \
    F(create_qp_in, op_mod, 0x30, 16) \
    F(create_qp_in, input_qpn, 0x48, 24) \
    F(create_qp_in, opt_param_mask, 0x80, 32) \
    F(create_qp_in, ece, 0xa0, 32) \
    F(create_qp_in, qpc, 0xc0, 1856) \
    F(create_qp_in, wq_umem_valid, 0x860, 1) \
    F(create_qp_in, pas, 0x880, 0)

#define PRM_FIELDS_create_qp_out(F) \
    F(create_qp_out, status, 0x0, 8) \
    F(create_qp_out, syndrome, 0x20, 32) \
    F(create_qp_out, qpn, 0x48, 24) \
    F(create_qp_out, ece, 0x60, 32)

#define PRM_FIELDS_destroy_qp_in(F) \
    F(destroy_qp_in, opcode, 0x0, 16) \
    F(destroy_qp_in, uid, 0x10, 16) \
    F(destroy_qp_in, op_mod, 0x30, 16) \
    F(destroy_qp_in, qpn, 0x48, 24)

#define PRM_FIELDS_qpc(F) \
    F(qpc, state, 0x0, 4) \
    F(qpc, lag_tx_port_affinity, 0x4, 4) \
    F(qpc, st, 0x8, 8) \
    F(qpc, isolate_vl_tc, 0x12, 1) \
    F(qpc, pm_state, 0x13, 2) \
    F(qpc, req_e2e_credit_mode, 0x16, 2) \
    F(qpc, offload_type, 0x18, 4) \
    F(qpc, end_padding_mode, 0x1c, 2) \
    F(qpc, wq_signature, 0x20, 1) \
    F(qpc, block_lb_mc, 0x21, 1) \
    F(qpc, atomic_like_write_en, 0x22, 1) \
    F(qpc, latency_sensitive, 0x23, 1) \
    F(qpc, drain_sigerr, 0x25, 1) \
    F(qpc, pd, 0x28, 24) \
    F(qpc, mtu, 0x40, 3) \
    F(qpc, log_msg_max, 0x43, 5) \
    F(qpc, log_rq_size, 0x49, 4) \
    F(qpc, log_rq_stride, 0x4d, 3) \
    F(qpc, no_sq, 0x50, 1) \
    F(qpc, log_sq_size, 0x51, 4) \
    F(qpc, ts_format, 0x58, 2) \
    F(qpc, rlky, 0x5b, 1) \
    F(qpc, ulp_stateless_offload_mode, 0x5c, 4) \
    F(qpc, counter_set_id, 0x60, 8) \
    F(qpc, uar_page, 0x68, 24) \
    F(qpc, user_index, 0x88, 24) \
    F(qpc, log_page_size, 0xa3, 5) \
    F(qpc, remote_qpn, 0xa8, 24) \
    F(qpc, primary_address_path, 0xc0, 352) \
    F(qpc, secondary_address_path, 0x220, 352) \
    F(qpc, log_ack_req_freq, 0x380, 4) \
    F(qpc, log_sra_max, 0x388, 3) \
    F(qpc, retry_count, 0x38d, 3) \
    F(qpc, rnr_retry, 0x390, 3) \
    F(qpc, fre, 0x394, 1) \
    F(qpc, cur_rnr_retry, 0x395, 3) \
    F(qpc, cur_retry_count, 0x398, 3) \
    F(qpc, next_send_psn, 0x3c8, 24) \
    F(qpc, log_num_dci_stream_channels, 0x3e3, 5) \
    F(qpc, cqn_snd, 0x3e8, 24) \
    F(qpc, log_num_dci_errored_streams, 0x403, 5) \
    F(qpc, deth_sqpn, 0x408, 24) \
    F(qpc, last_acked_psn, 0x448, 24) \
    F(qpc, ssn, 0x468, 24) \
    F(qpc, log_rra_max, 0x488, 3) \
    F(qpc, atomic_mode, 0x48c, 4) \
    F(qpc, rre, 0x490, 1) \
    F(qpc, rwe, 0x491, 1) \
    F(qpc, rae, 0x492, 1) \
    F(qpc, page_offset, 0x494, 6) \
    F(qpc, cd_slave_receive, 0x49d, 1) \
    F(qpc, cd_slave_send, 0x49e, 1) \
    F(qpc, cd_master, 0x49f, 1) \
    F(qpc, min_rnr_nak, 0x4a3, 5) \
    F(qpc, next_rcv_psn, 0x4a8, 24) \
    F(qpc, xrcd, 0x4c8, 24) \
    F(qpc, cqn_rcv, 0x4e8, 24) \
    F(qpc, dbr_addr, 0x500, 64) \
    F(qpc, q_key, 0x540, 32) \
    F(qpc, rq_type, 0x565, 3) \
    F(qpc, srqn_rmpn_xrqn, 0x568, 24) \
    F(qpc, rmsn, 0x588, 24) \
    F(qpc, hw_sq_wqebb_counter, 0x5a0, 16) \
    F(qpc, sw_sq_wqebb_counter, 0x5b0, 16) \
    F(qpc, hw_rq_counter, 0x5c0, 32) \
    F(qpc, sw_rq_counter, 0x5e0, 32) \
    F(qpc, cgs, 0x62f, 1) \
    F(qpc, cs_req, 0x630, 8) \
    F(qpc, cs_res, 0x638, 8) \
    F(qpc, dc_access_key, 0x640, 64) \
    F(qpc, dbr_umem_valid, 0x683, 1)

#define PRM_FIELDS_ads(F) \
    F(ads, fl, 0x0, 1) \
    F(ads, free_ar, 0x1, 1) \
    F(ads, pkey_index, 0x10, 16) \
    F(ads, grh, 0x28, 1) \
    F(ads, mlid, 0x29, 7) \
    F(ads, rlid, 0x30, 16) \
    F(ads, ack_timeout, 0x40, 5) \
    F(ads, src_addr_index, 0x48, 8) \
    F(ads, stat_rate, 0x54, 4) \
    F(ads, hop_limit, 0x58, 8) \
    F(ads, tclass, 0x64, 8) \
    F(ads, flow_label, 0x6c, 20) \
    F(ads, rgid_rip, 0x80, 128) \
    F(ads, f_dscp, 0x104, 1) \
    F(ads, f_ecn, 0x105, 1) \
    F(ads, f_eth_prio, 0x107, 1) \
    F(ads, ecn, 0x108, 2) \
    F(ads, dscp, 0x10a, 6) \
    F(ads, udp_sport, 0x110, 16) \
    F(ads, dei_cfi, 0x120, 1) \
    F(ads, eth_prio, 0x121, 3) \
    F(ads, sl, 0x124, 4) \
    F(ads, vhca_port_num, 0x128, 8) \
    F(ads, rmac_47_32, 0x130, 16) \
    F(ads, rmac_31_0, 0x140, 32)

#define PRM_FIELDS_rst2init_qp_in(F) \
    F(rst2init_qp_in, opcode, 0x0, 16) \
    F(rst2init_qp_in, uid, 0x10, 16) \
    F(rst2init_qp_in, op_mod, 0x30, 16) \
    F(rst2init_qp_in, qpn, 0x48, 24) \
    F(rst2init_qp_in, opt_param_mask, 0x80, 32) \
    F(rst2init_qp_in, ece, 0xa0, 32) \
    F(rst2init_qp_in, qpc, 0xc0, 1856)

#define PRM_FIELDS_init2rtr_qp_in(F) \
    F(init2rtr_qp_in, opcode, 0x0, 16) \
    F(init2rtr_qp_in, uid, 0x10, 16) \
    F(init2rtr_qp_in, op_mod, 0x30, 16) \
    F(init2rtr_qp_in, qpn, 0x48, 24) \
    F(init2rtr_qp_in, opt_param_mask, 0x80, 32) \
    F(init2rtr_qp_in, ece, 0xa0, 32) \
    F(init2rtr_qp_in, qpc, 0xc0, 1856)

#define PRM_FIELDS_rtr2rts_qp_in(F) \
    F(rtr2rts_qp_in, opcode, 0x0, 16) \
    F(rtr2rts_qp_in, uid, 0x10, 16) \
    F(rtr2rts_qp_in, op_mod, 0x30, 16) \
    F(rtr2rts_qp_in, qpn, 0x48, 24) \
    F(rtr2rts_qp_in, opt_param_mask, 0x80, 32) \
    F(rtr2rts_qp_in, ece, 0xa0, 32) \
    F(rtr2rts_qp_in, qpc, 0xc0, 1856)

#define PRM_FIELDS_rts2rts_qp_in(F) \
    F(rts2rts_qp_in, opcode, 0x0, 16) \
    F(rts2rts_qp_in, uid, 0x10, 16) \
    F(rts2rts_qp_in, op_mod, 0x30, 16) \
    F(rts2rts_qp_in, qpn, 0x48, 24) \
    F(rts2rts_qp_in, opt_param_mask, 0x80, 32) \
    F(rts2rts_qp_in, ece, 0xa0, 32) \
    F(rts2rts_qp_in, qpc, 0xc0, 1856)

#define PRM_FIELDS_qp_2err_in(F) \
    F(qp_2err_in, opcode, 0x0, 16) \
    F(qp_2err_in, uid, 0x10, 16) \
    F(qp_2err_in, op_mod, 0x30, 16) \
    F(qp_2err_in, qpn, 0x48, 24)

#define PRM_FIELDS_qp_2rst_in(F) \
    F(qp_2rst_in, opcode, 0x0, 16) \
    F(qp_2rst_in, uid, 0x10, 16) \
    F(qp_2rst_in, op_mod, 0x30, 16) \
    F(qp_2rst_in, qpn, 0x48, 24)

#define PRM_FIELDS_query_qp_in(F) \
    F(query_qp_in, opcode, 0x0, 16) \
    F(query_qp_in, op_mod, 0x30, 16) \
    F(query_qp_in, qpn, 0x48, 24)

#define PRM_FIELDS_query_qp_out(F) \
    F(query_qp_out, status, 0x0, 8) \
    F(query_qp_out, syndrome, 0x20, 32) \
    F(query_qp_out, opt_param_mask, 0x80, 32) \
    F(query_qp_out, ece, 0xa0, 32) \
    F(query_qp_out, qpc, 0xc0, 1856) \
    F(query_qp_out, pas, 0x880, 0)

#define PRM_FIELDS_mac_address_layout(F) \
    F(mac_address_layout, mac_addr_47_32, 0x10, 16) \
    F(mac_address_layout, mac_addr_31_0, 0x20, 32)

#define PRM_FIELDS_pkey(F) \
    F(pkey, pkey, 0x10, 16)

#define PRM_FIELDS_modify_tis_bitmask(F) \
    F(modify_tis_bitmask, lag_tx_port_affinity, 0x3d, 1) \
    F(modify_tis_bitmask, strict_lag_tx_port_affinity, 0x3e, 1) \
    F(modify_tis_bitmask, prio, 0x3f, 1)

#define PRM_FIELDS_modify_tir_bitmask(F) \
    F(modify_tir_bitmask, self_lb_en, 0x3b, 1) \
    F(modify_tir_bitmask, hash, 0x3d, 1) \
    F(modify_tir_bitmask, packet_merge, 0x3f, 1)

#define PRM_FIELDS_rqt_bitmask(F) \
    F(rqt_bitmask, rqn_list, 0x3f, 1)

#define PRM_FIELDS_eth_802_3_cntrs_grp_data_layout(F) \
    F(eth_802_3_cntrs_grp_data_layout, a_frames_transmitted_ok_high, 0x0, 32) \
    F(eth_802_3_cntrs_grp_data_layout, a_frames_transmitted_ok_low, 0x20, 32) \
    F(eth_802_3_cntrs_grp_data_layout, a_frames_received_ok_high, 0x40, 32) \
    F(eth_802_3_cntrs_grp_data_layout, a_frames_received_ok_low, 0x60, 32) \
    F(eth_802_3_cntrs_grp_data_layout, a_frame_check_sequence_errors_high, 0x80, 32) \
    F(eth_802_3_cntrs_grp_data_layout, a_frame_check_sequence_errors_low, 0xa0, 32) \
    F(eth_802_3_cntrs_grp_data_layout, a_alignment_errors_high, 0xc0, 32) \
    F(eth_802_3_cntrs_grp_data_layout, a_alignment_errors_low, 0xe0, 32) \
    F(eth_802_3_cntrs_grp_data_layout, a_octets_transmitted_ok_high, 0x100, 32) \
    F(eth_802_3_cntrs_grp_data_layout, a_octets_transmitted_ok_low, 0x120, 32) \
    F(eth_802_3_cntrs_grp_data_layout, a_octets_received_ok_high, 0x140, 32) \
    F(eth_802_3_cntrs_grp_data_layout, a_octets_received_ok_low, 0x160, 32) \
    F(eth_802_3_cntrs_grp_data_layout, a_multicast_frames_xmitted_ok_high, 0x180, 32) \
    F(eth_802_3_cntrs_grp_data_layout, a_multicast_frames_xmitted_ok_low, 0x1a0, 32) \
    F(eth_802_3_cntrs_grp_data_layout, a_broadcast_frames_xmitted_ok_high, 0x1c0, 32) \
    F(eth_802_3_cntrs_grp_data_layout, a_broadcast_frames_xmitted_ok_low, 0x1e0, 32) \
    F(eth_802_3_cntrs_grp_data_layout, a_multicast_frames_received_ok_high, 0x200, 32) \
    F(eth_802_3_cntrs_grp_data_layout, a_multicast_frames_received_ok_low, 0x220, 32) \
    F(eth_802_3_cntrs_grp_data_layout, a_broadcast_frames_received_ok_high, 0x240, 32) \
    F(eth_802_3_cntrs_grp_data_layout, a_broadcast_frames_received_ok_low, 0x260, 32) \
    F(eth_802_3_cntrs_grp_data_layout, a_in_range_length_errors_high, 0x280, 32) \
    F(eth_802_3_cntrs_grp_data_layout, a_in_range_length_errors_low, 0x2a0, 32) \
    F(eth_802_3_cntrs_grp_data_layout, a_out_of_range_length_field_high, 0x2c0, 32) \
    F(eth_802_3_cntrs_grp_data_layout, a_out_of_range_length_field_low, 0x2e0, 32) \
    F(eth_802_3_cntrs_grp_data_layout, a_frame_too_long_errors_high, 0x300, 32) \
    F(eth_802_3_cntrs_grp_data_layout, a_frame_too_long_errors_low, 0x320, 32) \
    F(eth_802_3_cntrs_grp_data_layout, a_symbol_error_during_carrier_high, 0x340, 32) \
    F(eth_802_3_cntrs_grp_data_layout, a_symbol_error_during_carrier_low, 0x360, 32) \
    F(eth_802_3_cntrs_grp_data_layout, a_mac_control_frames_transmitted_high, 0x380, 32) \
    F(eth_802_3_cntrs_grp_data_layout, a_mac_control_frames_transmitted_low, 0x3a0, 32) \
    F(eth_802_3_cntrs_grp_data_layout, a_mac_control_frames_received_high, 0x3c0, 32) \
    F(eth_802_3_cntrs_grp_data_layout, a_mac_control_frames_received_low, 0x3e0, 32) \
    F(eth_802_3_cntrs_grp_data_layout, a_unsupported_opcodes_received_high, 0x400, 32) \
    F(eth_802_3_cntrs_grp_data_layout, a_unsupported_opcodes_received_low, 0x420, 32) \
    F(eth_802_3_cntrs_grp_data_layout, a_pause_mac_ctrl_frames_received_high, 0x440, 32) \
    F(eth_802_3_cntrs_grp_data_layout, a_pause_mac_ctrl_frames_received_low, 0x460, 32) \
    F(eth_802_3_cntrs_grp_data_layout, a_pause_mac_ctrl_frames_transmitted_high, 0x480, 32) \
    F(eth_802_3_cntrs_grp_data_layout, a_pause_mac_ctrl_frames_transmitted_low, 0x4a0, 32)

#define PRM_FIELDS_eth_2863_cntrs_grp_data_layout(F) \
    F(eth_2863_cntrs_grp_data_layout, if_in_octets_high, 0x0, 32) \
    F(eth_2863_cntrs_grp_data_layout, if_in_octets_low, 0x20, 32) \
    F(eth_2863_cntrs_grp_data_layout, if_in_ucast_pkts_high, 0x40, 32) \
    F(eth_2863_cntrs_grp_data_layout, if_in_ucast_pkts_low, 0x60, 32) \
    F(eth_2863_cntrs_grp_data_layout, if_in_discards_high, 0x80, 32) \
    F(eth_2863_cntrs_grp_data_layout, if_in_discards_low, 0xa0, 32) \
    F(eth_2863_cntrs_grp_data_layout, if_in_errors_high, 0xc0, 32) \
    F(eth_2863_cntrs_grp_data_layout, if_in_errors_low, 0xe0, 32) \
    F(eth_2863_cntrs_grp_data_layout, if_in_unknown_protos_high, 0x100, 32) \
    F(eth_2863_cntrs_grp_data_layout, if_in_unknown_protos_low, 0x120, 32) \
    F(eth_2863_cntrs_grp_data_layout, if_out_octets_high, 0x140, 32) \
    F(eth_2863_cntrs_grp_data_layout, if_out_octets_low, 0x160, 32) \
    F(eth_2863_cntrs_grp_data_layout, if_out_ucast_pkts_high, 0x180, 32) \
    F(eth_2863_cntrs_grp_data_layout, if_out_ucast_pkts_low, 0x1a0, 32) \
    F(eth_2863_cntrs_grp_data_layout, if_out_discards_high, 0x1c0, 32) \
    F(eth_2863_cntrs_grp_data_layout, if_out_discards_low, 0x1e0, 32) \
    F(eth_2863_cntrs_grp_data_layout, if_out_errors_high, 0x200, 32) \
    F(eth_2863_cntrs_grp_data_layout, if_out_errors_low, 0x220, 32) \
    F(eth_2863_cntrs_grp_data_layout, if_in_multicast_pkts_high, 0x240, 32) \
    F(eth_2863_cntrs_grp_data_layout, if_in_multicast_pkts_low, 0x260, 32) \
    F(eth_2863_cntrs_grp_data_layout, if_in_broadcast_pkts_high, 0x280, 32) \
    F(eth_2863_cntrs_grp_data_layout, if_in_broadcast_pkts_low, 0x2a0, 32) \
    F(eth_2863_cntrs_grp_data_layout, if_out_multicast_pkts_high, 0x2c0, 32) \
    F(eth_2863_cntrs_grp_data_layout, if_out_multicast_pkts_low, 0x2e0, 32) \
    F(eth_2863_cntrs_grp_data_layout, if_out_broadcast_pkts_high, 0x300, 32) \
    F(eth_2863_cntrs_grp_data_layout, if_out_broadcast_pkts_low, 0x320, 32)

#define PRM_FIELDS_eth_2819_cntrs_grp_data_layout(F) \
    F(eth_2819_cntrs_grp_data_layout, ether_stats_drop_events_high, 0x0, 32) \
    F(eth_2819_cntrs_grp_data_layout, ether_stats_drop_events_low, 0x20, 32) \
    F(eth_2819_cntrs_grp_data_layout, ether_stats_octets_high, 0x40, 32) \
    F(eth_2819_cntrs_grp_data_layout, ether_stats_octets_low, 0x60, 32) \
    F(eth_2819_cntrs_grp_data_layout, ether_stats_pkts_high, 0x80, 32) \
    F(eth_2819_cntrs_grp_data_layout, ether_stats_pkts_low, 0xa0, 32) \
    F(eth_2819_cntrs_grp_data_layout, ether_stats_broadcast_pkts_high, 0xc0, 32) \
    F(eth_2819_cntrs_grp_data_layout, ether_stats_broadcast_pkts_low, 0xe0, 32) \
    F(eth_2819_cntrs_grp_data_layout, ether_stats_multicast_pkts_high, 0x100, 32) \
    F(eth_2819_cntrs_grp_data_layout, ether_stats_multicast_pkts_low, 0x120, 32) \
    F(eth_2819_cntrs_grp_data_layout, ether_stats_crc_align_errors_high, 0x140, 32) \
    F(eth_2819_cntrs_grp_data_layout, ether_stats_crc_align_errors_low, 0x160, 32) \
    F(eth_2819_cntrs_grp_data_layout, ether_stats_undersize_pkts_high, 0x180, 32) \
    F(eth_2819_cntrs_grp_data_layout, ether_stats_undersize_pkts_low, 0x1a0, 32) \
    F(eth_2819_cntrs_grp_data_layout, ether_stats_oversize_pkts_high, 0x1c0, 32) \
    F(eth_2819_cntrs_grp_data_layout, ether_stats_oversize_pkts_low, 0x1e0, 32) \
    F(eth_2819_cntrs_grp_data_layout, ether_stats_fragments_high, 0x200, 32) \
    F(eth_2819_cntrs_grp_data_layout, ether_stats_fragments_low, 0x220, 32) \
    F(eth_2819_cntrs_grp_data_layout, ether_stats_jabbers_high, 0x240, 32) \
    F(eth_2819_cntrs_grp_data_layout, ether_stats_jabbers_low, 0x260, 32) \
    F(eth_2819_cntrs_grp_data_layout, ether_stats_collisions_high, 0x280, 32) \
    F(eth_2819_cntrs_grp_data_layout, ether_stats_collisions_low, 0x2a0, 32) \
    F(eth_2819_cntrs_grp_data_layout, ether_stats_pkts64octets_high, 0x2c0, 32) \
    F(eth_2819_cntrs_grp_data_layout, ether_stats_pkts64octets_low, 0x2e0, 32) \
    F(eth_2819_cntrs_grp_data_layout, ether_stats_pkts65to127octets_high, 0x300, 32) \
    F(eth_2819_cntrs_grp_data_layout, ether_stats_pkts65to127octets_low, 0x320, 32) \
    F(eth_2819_cntrs_grp_data_layout, ether_stats_pkts128to255octets_high, 0x340, 32) \
    F(eth_2819_cntrs_grp_data_layout, ether_stats_pkts128to255octets_low, 0x360, 32) \
    F(eth_2819_cntrs_grp_data_layout, ether_stats_pkts256to511octets_high, 0x380, 32) \
    F(eth_2819_cntrs_grp_data_layout, ether_stats_pkts256to511octets_low, 0x3a0, 32) \
    F(eth_2819_cntrs_grp_data_layout, ether_stats_pkts512to1023octets_high, 0x3c0, 32) \
    F(eth_2819_cntrs_grp_data_layout, ether_stats_pkts512to1023octets_low, 0x3e0, 32) \
    F(eth_2819_cntrs_grp_data_layout, ether_stats_pkts1024to1518octets_high, 0x400, 32) \
    F(eth_2819_cntrs_grp_data_layout, ether_stats_pkts1024to1518octets_low, 0x420, 32) \
    F(eth_2819_cntrs_grp_data_layout, ether_stats_pkts1519to2047octets_high, 0x440, 32) \
    F(eth_2819_cntrs_grp_data_layout, ether_stats_pkts1519to2047octets_low, 0x460, 32) \
    F(eth_2819_cntrs_grp_data_layout, ether_stats_pkts2048to4095octets_high, 0x480, 32) \
    F(eth_2819_cntrs_grp_data_layout, ether_stats_pkts2048to4095octets_low, 0x4a0, 32) \
    F(eth_2819_cntrs_grp_data_layout, ether_stats_pkts4096to8191octets_high, 0x4c0, 32) \
    F(eth_2819_cntrs_grp_data_layout, ether_stats_pkts4096to8191octets_low, 0x4e0, 32) \
    F(eth_2819_cntrs_grp_data_layout, ether_stats_pkts8192to10239octets_high, 0x500, 32) \
    F(eth_2819_cntrs_grp_data_layout, ether_stats_pkts8192to10239octets_low, 0x520, 32)

#define PRM_FIELDS_eth_per_prio_grp_data_layout(F) \
    F(eth_per_prio_grp_data_layout, rx_octets_high, 0x0, 32) \
    F(eth_per_prio_grp_data_layout, rx_octets_low, 0x20, 32) \
    F(eth_per_prio_grp_data_layout, rx_frames_high, 0x100, 32) \
    F(eth_per_prio_grp_data_layout, rx_frames_low, 0x120, 32) \
    F(eth_per_prio_grp_data_layout, tx_octets_high, 0x140, 32) \
    F(eth_per_prio_grp_data_layout, tx_octets_low, 0x160, 32) \
    F(eth_per_prio_grp_data_layout, tx_frames_high, 0x240, 32) \
    F(eth_per_prio_grp_data_layout, tx_frames_low, 0x260, 32) \
    F(eth_per_prio_grp_data_layout, rx_pause_high, 0x280, 32) \
    F(eth_per_prio_grp_data_layout, rx_pause_low, 0x2a0, 32) \
    F(eth_per_prio_grp_data_layout, rx_pause_duration_high, 0x2c0, 32) \
    F(eth_per_prio_grp_data_layout, rx_pause_duration_low, 0x2e0, 32) \
    F(eth_per_prio_grp_data_layout, tx_pause_high, 0x300, 32) \
    F(eth_per_prio_grp_data_layout, tx_pause_low, 0x320, 32) \
    F(eth_per_prio_grp_data_layout, tx_pause_duration_high, 0x340, 32) \
    F(eth_per_prio_grp_data_layout, tx_pause_duration_low, 0x360, 32) \
    F(eth_per_prio_grp_data_layout, rx_pause_transition_high, 0x380, 32) \
    F(eth_per_prio_grp_data_layout, rx_pause_transition_low, 0x3a0, 32) \
    F(eth_per_prio_grp_data_layout, rx_discards_high, 0x3c0, 32) \
    F(eth_per_prio_grp_data_layout, rx_discards_low, 0x3e0, 32) \
    F(eth_per_prio_grp_data_layout, device_stall_minor_watermark_cnt_high, 0x400, 32) \
    F(eth_per_prio_grp_data_layout, device_stall_minor_watermark_cnt_low, 0x420, 32) \
    F(eth_per_prio_grp_data_layout, device_stall_critical_watermark_cnt_high, 0x440, 32) \
    F(eth_per_prio_grp_data_layout, device_stall_critical_watermark_cnt_low, 0x460, 32)

#define PRM_FIELDS_traffic_counter(F) \
    F(traffic_counter, packets, 0x0, 64) \
    F(traffic_counter, octets, 0x40, 64)

#define PRM_FIELDS_mcam_access_reg(F) \
    F(mcam_access_reg, mcda, 0x1c, 1) \
    F(mcam_access_reg, mcc, 0x1d, 1) \
    F(mcam_access_reg, mcqi, 0x1e, 1) \
    F(mcam_access_reg, mcqs, 0x1f, 1) \
    F(mcam_access_reg, regs_95_to_87, 0x20, 9) \
    F(mcam_access_reg, mpegc, 0x29, 1) \
    F(mcam_access_reg, mtutc, 0x2a, 1) \
    F(mcam_access_reg, regs_84_to_68, 0x2b, 17) \
    F(mcam_access_reg, tracer_registers, 0x3c, 4) \
    F(mcam_access_reg, regs_63_to_46, 0x40, 18) \
    F(mcam_access_reg, mrtc, 0x52, 1) \
    F(mcam_access_reg, regs_44_to_32, 0x53, 13) \
    F(mcam_access_reg, regs_31_to_0, 0x60, 32)

#define PRM_FIELDS_mcqs_reg(F) \
    F(mcqs_reg, last_index_flag, 0x0, 1) \
    F(mcqs_reg, fw_device, 0x8, 8) \
    F(mcqs_reg, component_index, 0x10, 16) \
    F(mcqs_reg, identifier, 0x30, 16) \
    F(mcqs_reg, component_status, 0x57, 5) \
    F(mcqs_reg, component_update_state, 0x5c, 4) \
    F(mcqs_reg, last_update_state_changer_type, 0x60, 4) \
    F(mcqs_reg, last_update_state_changer_host_id, 0x64, 4)

#define PRM_FIELDS_mcqi_reg(F) \
    F(mcqi_reg, read_pending_component, 0x0, 1) \
    F(mcqi_reg, component_index, 0x10, 16) \
    F(mcqi_reg, info_type, 0x5b, 5) \
    F(mcqi_reg, info_size, 0x60, 32) \
    F(mcqi_reg, offset, 0x80, 32) \
    F(mcqi_reg, data_size, 0xb0, 16) \
    F(mcqi_reg, data, 0xc0, 0)

#define PRM_FIELDS_mcqi_version(F) \
    F(mcqi_version, build_time_valid, 0x2, 1) \
    F(mcqi_version, user_defined_time_valid, 0x3, 1) \
    F(mcqi_version, version_string_length, 0x18, 8) \
    F(mcqi_version, version, 0x20, 32) \
    F(mcqi_version, build_time, 0x40, 64) \
    F(mcqi_version, user_defined_time, 0x80, 64) \
    F(mcqi_version, build_tool_version, 0xc0, 32) \
    F(mcqi_version, version_string, 0x100, 736)

#define PRM_FIELDS_sqerr2rts_qp_in(F) \
    F(sqerr2rts_qp_in, opcode, 0x0, 16) \
    F(sqerr2rts_qp_in, uid, 0x10, 16) \
    F(sqerr2rts_qp_in, op_mod, 0x30, 16) \
    F(sqerr2rts_qp_in, qpn, 0x48, 24) \
    F(sqerr2rts_qp_in, opt_param_mask, 0x80, 32) \
    F(sqerr2rts_qp_in, qpc, 0xc0, 1856)

#define PRM_FIELDS_init2init_qp_in(F) \
    F(init2init_qp_in, opcode, 0x0, 16) \
    F(init2init_qp_in, uid, 0x10, 16) \
    F(init2init_qp_in, op_mod, 0x30, 16) \
    F(init2init_qp_in, qpn, 0x48, 24) \
    F(init2init_qp_in, opt_param_mask, 0x80, 32) \
    F(init2init_qp_in, ece, 0xa0, 32) \
    F(init2init_qp_in, qpc, 0xc0, 1856)

#define PRM_FIELDS_sqd2rts_qp_in(F) \
    F(sqd2rts_qp_in, opcode, 0x0, 16) \
    F(sqd2rts_qp_in, uid, 0x10, 16) \
    F(sqd2rts_qp_in, op_mod, 0x30, 16) \
    F(sqd2rts_qp_in, qpn, 0x48, 24) \
    F(sqd2rts_qp_in, opt_param_mask, 0x80, 32) \
    F(sqd2rts_qp_in, qpc, 0xc0, 1856)

#define PRM_FIELDS_create_srq_in(F) \
    F(create_srq_in, opcode, 0x0, 16) \
    F(create_srq_in, uid, 0x10, 16) \
    F(create_srq_in, op_mod, 0x30, 16) \
    F(create_srq_in, srq_context_entry, 0x80, 512) \
    F(create_srq_in, pas, 0x880, 0)

#define PRM_FIELDS_create_srq_out(F) \
    F(create_srq_out, status, 0x0, 8) \
    F(create_srq_out, syndrome, 0x20, 32) \
    F(create_srq_out, srqn, 0x48, 24)

#define PRM_FIELDS_srqc(F) \
    F(srqc, state, 0x0, 4) \
    F(srqc, log_srq_size, 0x4, 4) \
    F(srqc, wq_signature, 0x20, 1) \
    F(srqc, cont_srq, 0x21, 1) \
    F(srqc, rlky, 0x23, 1) \
    F(srqc, log_rq_stride, 0x25, 3) \
    F(srqc, xrcd, 0x28, 24) \
    F(srqc, page_offset, 0x40, 6) \
    F(srqc, cqn, 0x48, 24) \
    F(srqc, log_page_size, 0x82, 6) \
    F(srqc, pd, 0xc8, 24) \
    F(srqc, lwm, 0xe0, 16) \
    F(srqc, wqe_cnt, 0xf0, 16) \
    F(srqc, dbr_addr, 0x140, 64)

#define PRM_FIELDS_destroy_srq_in(F) \
    F(destroy_srq_in, opcode, 0x0, 16) \
    F(destroy_srq_in, uid, 0x10, 16) \
    F(destroy_srq_in, op_mod, 0x30, 16) \
    F(destroy_srq_in, srqn, 0x48, 24)

#define PRM_FIELDS_query_srq_in(F) \
    F(query_srq_in, opcode, 0x0, 16) \
    F(query_srq_in, op_mod, 0x30, 16) \
    F(query_srq_in, srqn, 0x48, 24)

#define PRM_FIELDS_query_srq_out(F) \
    F(query_srq_out, status, 0x0, 8) \
    F(query_srq_out, syndrome, 0x20, 32) \
    F(query_srq_out, srq_context_entry, 0x80, 512) \
    F(query_srq_out, pas, 0x880, 0)

#define PRM_FIELDS_create_xrc_srq_in(F) \
    F(create_xrc_srq_in, opcode, 0x0, 16) \
    F(create_xrc_srq_in, uid, 0x10, 16) \
    F(create_xrc_srq_in, op_mod, 0x30, 16) \
    F(create_xrc_srq_in, xrc_srq_context_entry, 0x80, 512) \
    F(create_xrc_srq_in, xrc_srq_umem_valid, 0x2e0, 1) \
    F(create_xrc_srq_in, pas, 0x880, 0)

#define PRM_FIELDS_create_xrc_srq_out(F) \
    F(create_xrc_srq_out, status, 0x0, 8) \
    F(create_xrc_srq_out, syndrome, 0x20, 32) \
    F(create_xrc_srq_out, xrc_srqn, 0x48, 24)

#define PRM_FIELDS_xrc_srqc(F) \
    F(xrc_srqc, state, 0x0, 4) \
    F(xrc_srqc, log_xrc_srq_size, 0x4, 4) \
    F(xrc_srqc, wq_signature, 0x20, 1) \
    F(xrc_srqc, cont_srq, 0x21, 1) \
    F(xrc_srqc, rlky, 0x23, 1) \
    F(xrc_srqc, basic_cyclic_rcv_wqe, 0x24, 1) \
    F(xrc_srqc, log_rq_stride, 0x25, 3) \
    F(xrc_srqc, xrcd, 0x28, 24) \
    F(xrc_srqc, page_offset, 0x40, 6) \
    F(xrc_srqc, dbr_umem_valid, 0x47, 1) \
    F(xrc_srqc, cqn, 0x48, 24) \
    F(xrc_srqc, user_index_equal_xrc_srqn, 0x80, 1) \
    F(xrc_srqc, log_page_size, 0x82, 6) \
    F(xrc_srqc, user_index, 0x88, 24) \
    F(xrc_srqc, pd, 0xc8, 24) \
    F(xrc_srqc, lwm, 0xe0, 16) \
    F(xrc_srqc, wqe_cnt, 0xf0, 16) \
    F(xrc_srqc, db_record_addr_h, 0x140, 32) \
    F(xrc_srqc, db_record_addr_l, 0x160, 30)

#define PRM_FIELDS_destroy_xrc_srq_in(F) \
    F(destroy_xrc_srq_in, opcode, 0x0, 16) \
    F(destroy_xrc_srq_in, uid, 0x10, 16) \
    F(destroy_xrc_srq_in, op_mod, 0x30, 16) \
    F(destroy_xrc_srq_in, xrc_srqn, 0x48, 24)

#define PRM_FIELDS_query_xrc_srq_in(F) \
    F(query_xrc_srq_in, opcode, 0x0, 16) \
    F(query_xrc_srq_in, op_mod, 0x30, 16) \
    F(query_xrc_srq_in, xrc_srqn, 0x48, 24)

#define PRM_FIELDS_query_xrc_srq_out(F) \
    F(query_xrc_srq_out, status, 0x0, 8) \
    F(query_xrc_srq_out, syndrome, 0x20, 32) \
    F(query_xrc_srq_out, xrc_srq_context_entry, 0x80, 512) \
    F(query_xrc_srq_out, pas, 0x880, 0)

#define PRM_FIELDS_create_rmp_in(F) \
    F(create_rmp_in, opcode, 0x0, 16) \
    F(create_rmp_in, uid, 0x10, 16) \
    F(create_rmp_in, op_mod, 0x30, 16) \
    F(create_rmp_in, ctx, 0x100, 1920)

#define PRM_FIELDS_create_rmp_out(F) \
    F(create_rmp_out, status, 0x0, 8) \
    F(create_rmp_out, syndrome, 0x20, 32) \
    F(create_rmp_out, rmpn, 0x48, 24)

#define PRM_FIELDS_rmpc(F) \
    F(rmpc, state, 0x8, 4) \
    F(rmpc, basic_cyclic_rcv_wqe, 0x20, 1) \
    F(rmpc, wq, 0x180, 1536)

#define PRM_FIELDS_modify_rmp_in(F) \
    F(modify_rmp_in, opcode, 0x0, 16) \
    F(modify_rmp_in, uid, 0x10, 16) \
    F(modify_rmp_in, op_mod, 0x30, 16) \
    F(modify_rmp_in, rmp_state, 0x40, 4) \
    F(modify_rmp_in, rmpn, 0x48, 24) \
    F(modify_rmp_in, bitmask, 0x80, 64) \
    F(modify_rmp_in, ctx, 0x100, 1920)

#define PRM_FIELDS_destroy_rmp_in(F) \
    F(destroy_rmp_in, opcode, 0x0, 16) \
    F(destroy_rmp_in, uid, 0x10, 16) \
    F(destroy_rmp_in, op_mod, 0x30, 16) \
    F(destroy_rmp_in, rmpn, 0x48, 24)

#define PRM_FIELDS_query_rmp_in(F) \
    F(query_rmp_in, opcode, 0x0, 16) \
    F(query_rmp_in, op_mod, 0x30, 16) \
    F(query_rmp_in, rmpn, 0x48, 24)

#define PRM_FIELDS_query_rmp_out(F) \
    F(query_rmp_out, status, 0x0, 8) \
    F(query_rmp_out, syndrome, 0x20, 32) \
    F(query_rmp_out, rmp_context, 0x100, 1920)

#define PRM_FIELDS_arm_rq_in(F) \
    F(arm_rq_in, opcode, 0x0, 16) \
    F(arm_rq_in, uid, 0x10, 16) \
    F(arm_rq_in, op_mod, 0x30, 16) \
    F(arm_rq_in, srq_number, 0x48, 24) \
    F(arm_rq_in, lwm, 0x70, 16)

#define PRM_FIELDS_attach_to_mcg_in(F) \
    F(attach_to_mcg_in, opcode, 0x0, 16) \
    F(attach_to_mcg_in, uid, 0x10, 16) \
    F(attach_to_mcg_in, op_mod, 0x30, 16) \
    F(attach_to_mcg_in, qpn, 0x48, 24) \
    F(attach_to_mcg_in, multicast_gid, 0x80, 128)

#define PRM_FIELDS_detach_from_mcg_in(F) \
    F(detach_from_mcg_in, opcode, 0x0, 16) \
    F(detach_from_mcg_in, uid, 0x10, 16) \
    F(detach_from_mcg_in, op_mod, 0x30, 16) \
    F(detach_from_mcg_in, qpn, 0x48, 24) \
    F(detach_from_mcg_in, multicast_gid, 0x80, 128)

#define PRM_FIELDS_arm_xrc_srq_in(F) \
    F(arm_xrc_srq_in, opcode, 0x0, 16) \
    F(arm_xrc_srq_in, uid, 0x10, 16) \
    F(arm_xrc_srq_in, op_mod, 0x30, 16) \
    F(arm_xrc_srq_in, xrc_srqn, 0x48, 24) \
    F(arm_xrc_srq_in, lwm, 0x70, 16)

/* Layouts that mlx5_ifc.h also defines: L(name, size_bits). */
#define PRM_LAYOUTS_IFC(L) \
    L(arm_rq_in, 0x80) \
    L(arm_xrc_srq_in, 0x80) \
    L(attach_to_mcg_in, 0x100) \
    L(detach_from_mcg_in, 0x100) \
    L(query_rmp_out, 0x880) \
    L(query_rmp_in, 0x80) \
    L(destroy_rmp_in, 0x80) \
    L(modify_rmp_in, 0x880) \
    L(rmpc, 0x780) \
    L(create_rmp_out, 0x80) \
    L(create_rmp_in, 0x880) \
    L(query_xrc_srq_out, 0x880) \
    L(query_xrc_srq_in, 0x80) \
    L(destroy_xrc_srq_in, 0x80) \
    L(xrc_srqc, 0x200) \
    L(create_xrc_srq_out, 0x80) \
    L(create_xrc_srq_in, 0x880) \
    L(query_srq_out, 0x880) \
    L(query_srq_in, 0x80) \
    L(destroy_srq_in, 0x80) \
    L(srqc, 0x200) \
    L(create_srq_out, 0x80) \
    L(create_srq_in, 0x880) \
    L(sqd2rts_qp_in, 0x880) \
    L(init2init_qp_in, 0x880) \
    L(sqerr2rts_qp_in, 0x880) \
    L(query_hca_cap_in, 0x80) \
    L(query_hca_cap_out, 0x8080) \
    L(set_hca_cap_in, 0x8080) \
    L(set_hca_cap_out, 0x80) \
    L(cmd_hca_cap, 0x800) \
    L(per_protocol_networking_offload_caps, 0x800) \
    L(roce_cap, 0x800) \
    L(atomic_caps, 0x800) \
    L(device_mem_cap, 0x800) \
    L(odp_cap, 0x800) \
    L(qos_cap, 0x800) \
    L(set_pp_rate_limit_context, 0x180) \
    L(set_pp_rate_limit_in, 0x200) \
    L(odp_per_transport_service_cap, 0x20) \
    L(flow_table_nic_cap, 0x8000) \
    L(flow_table_prop_layout, 0x200) \
    L(query_issi_out, 0x380) \
    L(set_issi_in, 0x80) \
    L(query_pages_in, 0x80) \
    L(query_pages_out, 0x80) \
    L(manage_pages_in, 0x80) \
    L(manage_pages_out, 0x80) \
    L(enable_hca_in, 0x80) \
    L(disable_hca_in, 0x80) \
    L(init_hca_in, 0x100) \
    L(teardown_hca_in, 0x80) \
    L(teardown_hca_out, 0x80) \
    L(query_adapter_out, 0x880) \
    L(query_adapter_param_block, 0x800) \
    L(set_driver_version_in, 0x280) \
    L(alloc_uar_out, 0x80) \
    L(dealloc_uar_in, 0x80) \
    L(alloc_memic_in, 0x100) \
    L(alloc_memic_out, 0x80) \
    L(dealloc_memic_in, 0x100) \
    L(page_fault_resume_in, 0x80) \
    L(query_special_contexts_out, 0x100) \
    L(alloc_pd_out, 0x80) \
    L(dealloc_pd_in, 0x80) \
    L(alloc_transport_domain_out, 0x80) \
    L(dealloc_transport_domain_in, 0x80) \
    L(alloc_xrcd_out, 0x80) \
    L(dealloc_xrcd_in, 0x80) \
    L(alloc_q_counter_out, 0x80) \
    L(dealloc_q_counter_in, 0x80) \
    L(query_q_counter_in, 0x100) \
    L(query_q_counter_out, 0x800) \
    L(create_eq_in, 0x880) \
    L(create_eq_out, 0x80) \
    L(destroy_eq_in, 0x80) \
    L(query_eq_in, 0x80) \
    L(query_eq_out, 0x880) \
    L(eqc, 0x200) \
    L(create_cq_in, 0x880) \
    L(create_cq_out, 0x80) \
    L(destroy_cq_in, 0x80) \
    L(modify_cq_in, 0x880) \
    L(query_cq_in, 0x80) \
    L(query_cq_out, 0x880) \
    L(cqc, 0x200) \
    L(create_mkey_in, 0x880) \
    L(create_mkey_out, 0x80) \
    L(destroy_mkey_in, 0x80) \
    L(query_mkey_in, 0x80) \
    L(query_mkey_out, 0x980) \
    L(mkc, 0x200) \
    L(create_tis_in, 0x600) \
    L(create_tis_out, 0x80) \
    L(destroy_tis_in, 0x80) \
    L(modify_tis_in, 0x600) \
    L(tisc, 0x500) \
    L(create_tir_in, 0x880) \
    L(create_tir_out, 0x80) \
    L(destroy_tir_in, 0x80) \
    L(modify_tir_in, 0x880) \
    L(tirc, 0x780) \
    L(rx_hash_field_select, 0x20) \
    L(create_rqt_in, 0x880) \
    L(create_rqt_out, 0x80) \
    L(destroy_rqt_in, 0x80) \
    L(modify_rqt_in, 0x880) \
    L(rqtc, 0x780) \
    L(create_sq_in, 0x880) \
    L(create_sq_out, 0x80) \
    L(destroy_sq_in, 0x80) \
    L(modify_sq_in, 0x880) \
    L(query_sq_in, 0x80) \
    L(query_sq_out, 0x880) \
    L(sqc, 0x780) \
    L(create_rq_in, 0x880) \
    L(create_rq_out, 0x80) \
    L(destroy_rq_in, 0x80) \
    L(modify_rq_in, 0x880) \
    L(query_rq_in, 0x80) \
    L(query_rq_out, 0x880) \
    L(rqc, 0x780) \
    L(wq, 0x600) \
    L(create_flow_table_in, 0x200) \
    L(create_flow_table_out, 0x80) \
    L(destroy_flow_table_in, 0x200) \
    L(flow_table_context, 0x140) \
    L(modify_flow_table_in, 0x200) \
    L(set_flow_table_root_in, 0x200) \
    L(create_flow_group_in, 0x2000) \
    L(create_flow_group_out, 0x80) \
    L(destroy_flow_group_in, 0x200) \
    L(set_fte_in, 0x1a00) \
    L(delete_fte_in, 0x200) \
    L(flow_context, 0x1800) \
    L(dest_format_struct, 0x40) \
    L(fte_match_param, 0x1000) \
    L(fte_match_set_lyr_2_4, 0x200) \
    L(fte_match_set_misc, 0x200) \
    L(query_vport_state_in, 0x80) \
    L(query_vport_state_out, 0x80) \
    L(query_nic_vport_context_in, 0x80) \
    L(query_nic_vport_context_out, 0x880) \
    L(modify_nic_vport_context_in, 0x1000) \
    L(nic_vport_context, 0x800) \
    L(modify_nic_vport_field_select, 0x20) \
    L(query_hca_vport_pkey_in, 0x80) \
    L(query_hca_vport_pkey_out, 0x80) \
    L(set_roce_address_in, 0x180) \
    L(roce_addr_layout, 0x100) \
    L(query_vport_counter_in, 0x100) \
    L(query_vport_counter_out, 0x1080) \
    L(access_register_in, 0x80) \
    L(access_register_out, 0x80) \
    L(paos_reg, 0x80) \
    L(pmtu_reg, 0x80) \
    L(ptys_reg, 0x200) \
    L(pcam_reg, 0x280) \
    L(mcam_reg, 0x240) \
    L(ppcnt_reg, 0x800) \
    L(pvlc_reg, 0x80) \
    L(pfcc_reg, 0x100) \
    L(create_qp_in, 0x880) \
    L(create_qp_out, 0x80) \
    L(destroy_qp_in, 0x80) \
    L(qpc, 0x740) \
    L(ads, 0x160) \
    L(rst2init_qp_in, 0x880) \
    L(init2rtr_qp_in, 0x880) \
    L(rtr2rts_qp_in, 0x880) \
    L(rts2rts_qp_in, 0x880) \
    L(qp_2err_in, 0x80) \
    L(qp_2rst_in, 0x80) \
    L(query_qp_in, 0x80) \
    L(query_qp_out, 0x880) \
    L(mac_address_layout, 0x40) \
    L(pkey, 0x20) \
    L(modify_tis_bitmask, 0x40) \
    L(modify_tir_bitmask, 0x40) \
    L(rqt_bitmask, 0x40) \
    L(eth_802_3_cntrs_grp_data_layout, 0x7c0) \
    L(eth_2863_cntrs_grp_data_layout, 0x7c0) \
    L(eth_2819_cntrs_grp_data_layout, 0x7c0) \
    L(eth_per_prio_grp_data_layout, 0x7c0) \
    L(traffic_counter, 0x80) \
    L(mcam_access_reg, 0x80) \
    L(mcqs_reg, 0x80) \
    L(mcqi_reg, 0xc0) \
    L(mcqi_version, 0x3e0)

#define PRM_LAYOUTS(L) PRM_LAYOUTS_LOCAL(L) PRM_LAYOUTS_IFC(L)

#endif
