/*
 * CQE layout (64 bytes, PRM "Completion Queue Entry"; Linux device.h
 * struct mlx5_cqe64, libmlx5's struct mlx5_cqe64 in <infiniband/mlx5dv.h>).
 * 128-byte CQEs carry the same 64 bytes in their second half.
 */
#ifndef MLX5EMU_CQE_H
#define MLX5EMU_CQE_H

#include <stdbool.h>
#include <stdint.h>

enum {
    CQE_WQE_ID = 0x02,
    CQE_RSS_HASH_RESULT = 0x0c,
    CQE_RSS_HASH_TYPE = 0x10,
    CQE_CHECK_SUM = 0x14,
    CQE_FLAGS_RQPN = 0x18,
    CQE_HDS_IP_EXT = 0x1c,
    CQE_L4_L3_HDR_TYPE = 0x1d,
    CQE_VLAN_INFO = 0x1e,
    CQE_SRQN = 0x20,
    CQE_IMMEDIATE = 0x24,
    CQE_BYTE_CNT = 0x2c,
    CQE_TIMESTAMP = 0x30,               /* 64 bits: the device clock when written */
    CQE_SOP_DROP_QPN = 0x38,
    CQE_WQE_COUNTER = 0x3c,
    CQE_SIGNATURE = 0x3e,
    CQE_OP_OWN = 0x3f,
};

/* Fields of a responder CQE (Linux device.h mlx5_cqe64, get_cqe_l3/l4_hdr_type). */
enum {
    /* flags_rqpn: a GRH in the buffer (bits 29:28), its L3 type (25:24) */
    MLX5_CQE_GRH_IN_BUFFER = 1u << 28,
    MLX5_CQE_L3_IPV6 = 1u << 24, MLX5_CQE_L3_IPV4 = 2u << 24,
    /* l4_l3_hdr_type: L4 type (bits 6:4), L3 type (3:2), cvlan present (0) */
    CQE_L4_HDR_TCP = 4, CQE_L4_HDR_UDP = 2,     /* TCP_ACK_AND_DATA, UDP */
    CQE_L3_HDR_IPV6 = 1, CQE_L3_HDR_IPV4 = 2,
    CQE_CVLAN_PRESENT = 1,
    /* hds_ip_ext: the checksums verified */
    CQE_HDS_L3_OK = 1 << 1, CQE_HDS_L4_OK = 1 << 2,
    /* rss_hash_type: the fields hashed */
    CQE_RSS_IPV4 = 1 << 2, CQE_RSS_IPV6 = 2 << 2,
    CQE_RSS_TCP = 1 << 6, CQE_RSS_UDP = 2 << 6,
};

/* CQE opcodes (op_own bits 7:4). */
enum {
    MLX5_CQE_REQ = 0x0,
    MLX5_CQE_RESP_WR_IMM = 0x1,
    MLX5_CQE_RESP_SEND = 0x2,
    MLX5_CQE_RESP_SEND_IMM = 0x3,
    MLX5_CQE_RESP_SEND_INV = 0x4,       /* the invalidated R_Key at CQE_IMMEDIATE */
    MLX5_CQE_REQ_ERR = 0xd,
    MLX5_CQE_RESP_ERR = 0xe,
    MLX5_CQE_INVALID = 0xf,
};

/* Error CQE syndromes (struct mlx5_err_cqe, byte 0x37). */
enum {
    CQE_ERR_VENDOR_SYNDROME = 0x36,
    CQE_ERR_SYNDROME = 0x37,
    MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR = 0x01,
    MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR = 0x02,
    MLX5_CQE_SYNDROME_LOCAL_PROT_ERR = 0x04,
    MLX5_CQE_SYNDROME_WR_FLUSH_ERR = 0x05,
    MLX5_CQE_SYNDROME_MW_BIND_ERR = 0x06,
    MLX5_CQE_SYNDROME_BAD_RESP_ERR = 0x10,
    MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR = 0x12,
    MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR = 0x13,
    MLX5_CQE_SYNDROME_REMOTE_OP_ERR = 0x14,
    MLX5_CQE_SYNDROME_TRANSPORT_RETRY_EXC_ERR = 0x15,
    MLX5_CQE_SYNDROME_RNR_RETRY_EXC_ERR = 0x16,
};

/* An error CQE (REQ_ERR, RESP_ERR): struct mlx5_err_cqe's layout. */
static inline bool mlx5_cqe_is_error(const uint8_t *cqe)
{
    unsigned op = cqe[CQE_OP_OWN] >> 4;

    return op == MLX5_CQE_REQ_ERR || op == MLX5_CQE_RESP_ERR;
}

#endif
