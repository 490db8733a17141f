/*
 * Decoders: a send WQE, a CQE or a RoCEv2 packet as named fields.
 *
 * Concepts
 * --------
 * The device's trace events say what it did in numbers (an opcode, a
 * counter); a reader learning the hardware wants to see the structures
 * themselves, field by field, named as the PRM and the IBTA name them
 * (and as libmlx5's <infiniband/mlx5dv.h> and Linux's ib_pack.h spell
 * them).  These functions turn the bytes the device fetched or wrote into
 * one line of `segment{field=value ...}` groups, e.g.
 *
 *   ctrl{opcode=RDMA_WRITE(0x08) wqe_index=3 qpn=0x4a ds=3 fm_ce_se=0x08(CQ_UPDATE) imm=0}
 *   raddr{va=0x7f1c2000 rkey=0x1a0f} data{byte_count=64 lkey=0x1b0e addr=0x55d0e0}
 *
 * They are what the `*_fields` trace events print (only when those events
 * are enabled: decoding costs), what the labs' timelines show, and their
 * unit tests (tests/test-decode.c) walk every opcode and segment the
 * device handles.  They read only the bytes they are given, bounded by
 * the length given, and keep no state: a malformed WQE decodes to what
 * its bytes say, with "truncated" where a segment runs past the end.
 */
#ifndef MLX5EMU_DECODE_H
#define MLX5EMU_DECODE_H

#include <glib.h>
#include <stdint.h>

#include "roce.h"

/* What follows a send WQE's control segment depends on the queue it is on
 * (PRM "Send WQE Format"). */
typedef enum {
    MLX5_WQE_LAYOUT_ETH,        /* an Ethernet SQ: the Ethernet segment */
    MLX5_WQE_LAYOUT_RC,         /* RC or UC: remote address, atomic */
    MLX5_WQE_LAYOUT_XRC,        /* as RC, after the XRC segment */
    MLX5_WQE_LAYOUT_UD,         /* UD or GSI: the address vector */
} Mlx5WqeLayout;

/* The name of a send opcode (ctrl opcode byte), or NULL if unknown. */
const char *mlx5_wqe_opcode_name(uint8_t opcode);
/* The name of a CQE opcode (op_own bits 7:4), of an error CQE syndrome. */
const char *mlx5_cqe_opcode_name(uint8_t opcode);
const char *mlx5_cqe_syndrome_name(uint8_t syndrome);

/* Append the decoded WQE: `ds` 16-byte units of `wqe`, at most `len`
 * bytes of it readable. */
void mlx5_decode_send_wqe(GString *out, const uint8_t *wqe, size_t len, unsigned ds,
                          Mlx5WqeLayout layout);
/* Append the decoded 64-byte CQE (of a 128-byte one, its second half). */
void mlx5_decode_cqe(GString *out, const uint8_t *cqe);
/* Append the decoded BTH and extension headers of a parsed packet. */
void mlx5_decode_roce(GString *out, const Mlx5RocePkt *p);
/* The meaning of an AETH syndrome: "ACK", "RNR_NAK", "NAK_PSN_SEQUENCE"... */
const char *mlx5_aeth_name(uint8_t syndrome);

#endif
