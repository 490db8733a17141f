/*
 * Send WQE segments (PRM "Send WQE Format"; <infiniband/mlx5dv.h>
 * struct mlx5_wqe_ctrl_seg, mlx5_wqe_eth_seg, mlx5_wqe_data_seg).
 * A WQE is a run of 64-byte basic blocks (WQEBBs) made of 16-byte units
 * ("ds"); the control segment's qpn_ds says how many units follow.
 */
#ifndef MLX5EMU_WQE_H
#define MLX5EMU_WQE_H

#include <stdint.h>

enum {
    MLX5_WQEBB_BYTES = 64,
    MLX5_DS_BYTES = 16,
    /* control segment */
    WQE_CTRL_OPMOD_IDX_OPCODE = 0x00,
    WQE_CTRL_QPN_DS = 0x04,
    WQE_CTRL_FM_CE_SE = 0x0b,
    WQE_CTRL_IMM = 0x0c,
    MLX5_WQE_CTRL_CQ_UPDATE = 0x08,
    MLX5_WQE_CTRL_SOLICITED = 0x02,
    /* Ethernet segment */
    WQE_ETH_CS_FLAGS = 0x04,
    WQE_ETH_MSS = 0x06,
    WQE_ETH_INLINE_HDR_SZ = 0x0c,
    WQE_ETH_INLINE_HDR = 0x0e,
    WQE_ETH_INSERT_TYPE = 0x0c,     /* union with inline_hdr_sz */
    WQE_ETH_INSERT_VLAN_TCI = 0x0e,
    MLX5_ETH_WQE_L3_CSUM = 1 << 6,
    MLX5_ETH_WQE_L4_CSUM = 1 << 7,
    MLX5_ETH_WQE_INSERT_VLAN = 1 << 15,
    /* data segment, of send and receive WQEs alike */
    WQE_DATA_BYTE_COUNT = 0x00,
    WQE_DATA_LKEY = 0x04,
    WQE_DATA_ADDR = 0x08,
    MLX5_INVALID_LKEY = 0x100,          /* ends a receive WQE's list */
    /* remote address segment (RDMA and atomics: the WQE's second) */
    WQE_RADDR_VA = 0x00,
    WQE_RADDR_RKEY = 0x08,
    /* atomic segment (the third) */
    WQE_ATOMIC_SWAP_ADD = 0x00,
    WQE_ATOMIC_COMPARE = 0x08,
    /* address vector of a UD or GSI send WQE, after ctrl (struct
     * mlx5_wqe_av, mlx5dv.h; hw-rdma/ud.c) */
    WQE_AV_QKEY = 0x00,
    WQE_AV_DQP = 0x08,                  /* MLX5_EXTENDED_UD_AV | destination QP */
    WQE_AV_UDP_SPORT = 0x0e,
    WQE_AV_RMAC = 0x14,
    WQE_AV_TCLASS = 0x1a,
    WQE_AV_HOP_LIMIT = 0x1b,
    WQE_AV_GRH_GID_FL = 0x1c,           /* source GID index (bits 27:20), flow label */
    WQE_AV_RGID = 0x20,
    MLX5_AV_BYTES = 48,
    /* next segment of an SRQ receive WQE (struct mlx5_wqe_srq_next_seg):
     * the index of the WQE after it; the data segments follow */
    WQE_SRQ_NEXT_WQE_INDEX = 0x02,
    MLX5_SRQ_NEXT_SEG_BYTES = 16,
    /* UMR WQE (hw-rdma/umr.c; Linux qp.h mlx5_wqe_umr_ctrl_seg,
     * device.h mlx5_mkey_seg): ctrl, the UMR control segment, the mkey
     * context segment (mkc layout), then the translation */
    WQE_UMR_CTRL = 0x10,
    WQE_UMR_MKC = 0x40,
    WQE_UMR_XLT = 0x80,
    WQE_UMR_FLAGS = 0x00,               /* offsets in the UMR control segment */
    WQE_UMR_XLT_OCTOWORDS = 0x04,
    WQE_UMR_XLT_OFFSET = 0x06,
    WQE_UMR_MKEY_MASK = 0x08,
    WQE_UMR_XLT_OFFSET_47_16 = 0x10,
    MLX5_UMR_CHECK_QPN = 1 << 3,        /* the key is bound to the posting QP */
    MLX5_UMR_TRANSLATION_OFFSET_EN = 1 << 4,
    MLX5_UMR_CHECK_NOT_FREE = 1 << 5,
    MLX5_UMR_CHECK_FREE = 1 << 6,
    MLX5_UMR_INLINE = 1 << 7,
};

/* Send opcodes (ctrl opmod_idx_opcode bits 7:0). */
enum {
    MLX5_OPCODE_NOP = 0x00,
    MLX5_OPCODE_SEND_INVAL = 0x01,      /* SEND with invalidate: imm is the R_Key */
    MLX5_OPCODE_RDMA_WRITE = 0x08,
    MLX5_OPCODE_RDMA_WRITE_IMM = 0x09,
    MLX5_OPCODE_SEND = 0x0a,
    MLX5_OPCODE_SEND_IMM = 0x0b,
    MLX5_OPCODE_LSO = 0x0e,
    MLX5_OPCODE_RDMA_READ = 0x10,
    MLX5_OPCODE_ATOMIC_CS = 0x11,
    MLX5_OPCODE_ATOMIC_FA = 0x12,
    MLX5_OPCODE_UMR = 0x25,             /* REG_MR, LOCAL_INV, the UMR QP's */
};

#define MLX5_EXTENDED_UD_AV 0x80000000u    /* in WQE_AV_DQP (Linux qp.h) */
/* A Q_Key with bit 31 set is "controlled": the QP's own goes out (IBA 10.2.5). */
#define MLX5_QKEY_CONTROLLED 0x80000000u
/* A UD receive buffer starts with a 40-byte area for the network header
 * (struct ibv_grh; Linux rdma_network_hdr), then the datagram. */
#define MLX5_UD_GRH_BYTES 40

/* mkey_mask bits of the UMR control segment: the mkey context fields a UMR
 * changes (PRM "UMR Control Segment"; Linux device.h MLX5_MKEY_MASK_*). */
#define MLX5_MKEY_MASK_LEN          (1ull << 0)
#define MLX5_MKEY_MASK_PAGE_SIZE    (1ull << 1)
#define MLX5_MKEY_MASK_START_ADDR   (1ull << 6)
#define MLX5_MKEY_MASK_PD           (1ull << 7)
#define MLX5_MKEY_MASK_EN_RINVAL    (1ull << 8)
#define MLX5_MKEY_MASK_EN_SIGERR    (1ull << 9)
#define MLX5_MKEY_MASK_BSF_EN       (1ull << 12)
#define MLX5_MKEY_MASK_KEY          (1ull << 13)
#define MLX5_MKEY_MASK_QPN          (1ull << 14)
#define MLX5_MKEY_MASK_LR           (1ull << 17)
#define MLX5_MKEY_MASK_LW           (1ull << 18)
#define MLX5_MKEY_MASK_RR           (1ull << 19)
#define MLX5_MKEY_MASK_RW           (1ull << 20)
#define MLX5_MKEY_MASK_A            (1ull << 21)
#define MLX5_MKEY_MASK_SMALL_FENCE  (1ull << 23)
#define MLX5_MKEY_MASK_FREE         (1ull << 29)

#define MLX5_MAX_WQE_BYTES 1024        /* max_wqe_sz_sq */
#define MLX5_MAX_FRAME_BYTES (64u * 1024 + 256)

/* The basic blocks a WQE of `ds` 16-byte units takes in its ring (at
 * least one: the device steps over a WQE of ds 0 too). */
static inline unsigned mlx5_wqe_blocks(unsigned ds)
{
    unsigned n = (ds * MLX5_DS_BYTES + MLX5_WQEBB_BYTES - 1) / MLX5_WQEBB_BYTES;

    return n ? n : 1;
}

/* A data segment whose byte count has this bit holds inline data. */
#define WQE_INLINE_SEG 0x80000000u
/* The inline segment with byte count `bc` holds this many bytes after its
 * header. */
static inline uint32_t mlx5_wqe_inline_len(uint32_t bc)
{
    return bc & 0x3ff;
}

/* Segments an inline segment of `n` bytes spans besides its first. */
static inline unsigned mlx5_wqe_inline_extra_segs(uint32_t n)
{
    return (4 + n - 1) / MLX5_DS_BYTES;
}

/* What copying through a scatter/gather list met (wqe.c); the CQE
 * syndrome a WQE that met it completes with is mlx5_sgl_syndrome(). */
typedef enum {
    MLX5_SGL_OK,
    MLX5_SGL_BAD_KEY,           /* a key that is not there or does not allow it */
    MLX5_SGL_NO_MEM,            /* an address outside guest memory */
    MLX5_SGL_TOO_LONG,          /* more bytes than the list (or a frame) holds */
    MLX5_SGL_BAD_INLINE,        /* inline data past the end of the WQE */
    MLX5_SGL_ABSENT,            /* a page not present, with no fault raised for it */
} Mlx5SglStatus;
const char *mlx5_sgl_status_name(Mlx5SglStatus st);
/* LOCAL_PROT for a key, LOCAL_LENGTH for the others (0 for OK). */
uint8_t mlx5_sgl_syndrome(Mlx5SglStatus st);

#endif
