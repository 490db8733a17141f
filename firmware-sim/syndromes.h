/*
 * Command syndromes.
 *
 * A failed command returns a status (what class of error) and a 32-bit
 * syndrome (which check failed).  Real firmware syndromes are opaque
 * numbers; ours name the check, so `-trace mlx5_cmd_err*` and the driver's
 * "status ... syndrome (0x...)" line say exactly what was wrong.
 * X(NAME, value, description)
 */
#ifndef MLX5EMU_SYNDROMES_H
#define MLX5EMU_SYNDROMES_H

#define MLX5_SYNDROME_LIST(X) \
    X(NONE,               0x000000, "no error") \
    X(BAD_OPCODE,         0x5e0001, "opcode not implemented") \
    X(IN_TOO_SHORT,       0x5e0002, "inlen below the command's input layout") \
    X(OUT_TOO_SHORT,      0x5e0003, "outlen below the command's output layout") \
    X(NOT_ENABLED,        0x5e0004, "function not enabled (ENABLE_HCA first)") \
    X(NOT_INITIALIZED,    0x5e0005, "HCA not initialized (INIT_HCA first)") \
    X(ALREADY_INIT,       0x5e0006, "HCA already initialized") \
    X(BAD_OP_MOD,         0x5e0007, "op_mod not valid for this command") \
    X(BAD_CAP_TYPE,       0x5e0008, "capability type not supported") \
    X(BAD_ISSI,           0x5e0009, "ISSI not supported") \
    X(PAGES_NOT_NEEDED,   0x5e000a, "device asked for no pages; GIVE refused") \
    X(PAGES_TAKE_EMPTY,   0x5e000b, "no pages to return") \
    X(BAD_FUNCTION,       0x5e000c, "function_id is not this function") \
    X(NO_RESOURCE,        0x5e000d, "object table full") \
    X(BAD_ID,             0x5e000e, "no such object (stale or never created)") \
    X(BAD_UAR,            0x5e000f, "UAR page is not allocated") \
    X(BAD_PD,             0x5e0010, "protection domain is not allocated") \
    X(BAD_TD,             0x5e0011, "transport domain is not allocated") \
    X(BAD_EQ,             0x5e0012, "EQ is not created") \
    X(BAD_CQ,             0x5e0013, "CQ is not created") \
    X(BAD_SIZE,           0x5e0014, "log size out of the advertised range") \
    X(BAD_PAGE_SIZE,      0x5e0015, "log_page_size out of range") \
    X(PAS_TOO_SHORT,      0x5e0016, "page list shorter than the queue") \
    X(BAD_VECTOR,         0x5e0017, "interrupt vector beyond the MSI-X table") \
    X(BAD_STRIDE,         0x5e0018, "WQE stride not supported") \
    X(BAD_ACCESS_MODE,    0x5e0019, "mkey access mode not supported") \
    X(BAD_STATE_TRANS,    0x5e001a, "invalid queue state transition") \
    X(BAD_RQT_SIZE,       0x5e001b, "RQT size out of range") \
    X(BAD_RQ,             0x5e001c, "RQ is not created") \
    X(BAD_TIS,            0x5e001d, "TIS is not created") \
    X(BAD_RQT,            0x5e001e, "RQT is not created") \
    X(BAD_TABLE_TYPE,     0x5e001f, "flow table type not supported") \
    X(BAD_FLOW_TABLE,     0x5e0020, "flow table is not created") \
    X(BAD_FLOW_GROUP,     0x5e0021, "flow group is not created") \
    X(BAD_FLOW_INDEX,     0x5e0022, "flow index outside the table or group") \
    X(GROUP_OVERLAP,      0x5e0023, "flow group range overlaps another") \
    X(FTE_EXISTS,         0x5e0024, "flow table entry already set") \
    X(BAD_DEST,           0x5e0025, "flow destination not valid") \
    X(TABLE_IN_USE,       0x5e0026, "object still referenced") \
    X(BAD_REGISTER,       0x5e0027, "register not supported") \
    X(BAD_REG_LEN,        0x5e0028, "register data shorter than the register") \
    X(BAD_PORT,           0x5e0029, "local_port / vport number not valid") \
    X(BAD_INDEX,          0x5e002a, "index out of range") \
    X(BAD_MTU,            0x5e002b, "MTU out of range") \
    X(BAD_LIST_SIZE,      0x5e002c, "address list longer than the capability") \
    X(TEARDOWN_PROFILE,   0x5e002d, "teardown profile not supported") \
    X(BAD_MKEY,           0x5e002e, "mkey is not created") \
    X(QP_TYPE,            0x5e002f, "QP service type not supported") \
    X(BAD_SRQ,            0x5e0030, "SRQ, XRC SRQ or RMP does not exist") \
    X(BAD_XRCD,           0x5e0031, "XRC domain is not allocated") \
    X(BAD_QP_STATE,       0x5e0032, "QP is not in the state the command starts from") \
    X(BAD_QP,             0x5e0033, "QP does not exist") \
    X(NO_UMEM,            0x5e0034, "umem objects (DEVX) and input_qpn are not supported") \
    X(NOT_MULTICAST,      0x5e0035, "GID is not a multicast address") \
    X(NOT_ATTACHED,       0x5e0036, "QP is not attached to that multicast group") \
    X(OBJECT_LIMIT,       0x5e0037, "as many objects of the kind as the capability allows") \
    X(HOST_MEMORY,        0x5e0038, "the device's host-memory budget is spent") \
    X(FLOW_LEVEL,         0x5e0039, "a flow table forwards only to a table of a higher level") \
    X(DUPLICATE_MATCH,    0x5e003a, "an entry of the flow group already has this match value") \
    X(CQES_OUTSTANDING,   0x5e003b, "more CQEs not yet polled than the resized CQ holds") \
    X(MEMIC_RANGE,        0x5e003c, "range not inside the device memory window of BAR0") \
    X(MEMIC_SIZE,         0x5e003d, "device memory size 0, not a multiple of 64 B or above max_memic_size") \
    X(MEMIC_ALIGN,        0x5e003e, "device memory alignment above log_max_memic_addr_alignment") \
    X(MEMIC_FULL,         0x5e003f, "no free device memory of that size and alignment in the range") \
    X(MEMIC_NOT_ALLOCATED, 0x5e0040, "not the start and size of a device memory allocation") \
    X(PP_RATE_INDEX,      0x5e0041, "packet pacing rate index 0 or past packet_pacing_rate_table_size") \
    X(PP_RATE,            0x5e0042, "packet pacing rate outside packet_pacing_min_rate .. max_rate") \
    X(PP_RATE_NOT_SET,    0x5e0043, "SQ names a packet pacing rate index that holds no rate")

#define MLX5_SYND_ENUM_(n, v, d) MLX5_SYND_##n = (v),
enum { MLX5_SYNDROME_LIST(MLX5_SYND_ENUM_) };
#undef MLX5_SYND_ENUM_

const char *mlx5_syndrome_text(uint32_t syndrome);

#endif
