/*
 * The operation stream: a fuzz input as a driver's and a wire's actions
 * against the world of world.h.  The grammar is described in
 * fuzz/README.md ("The grammar"); tools/fuzz-corpus.py writes inputs in it.
 *
 * Concepts
 * --------
 * An input is a sequence of operations, each one byte naming it followed
 * by its operands.  Integers are little-endian; an input that ends early
 * reads as zeros, so every byte string is a valid input.  Operands that
 * name things (a queue, a QP, a key, a RAM region) are indices, taken
 * modulo the table's size, so a mutation of one byte stays meaningful;
 * lengths are taken modulo their bound.
 *
 * A target allows a subset of the operations (FuzzOpSet): the op byte
 * picks among the allowed ones, modulo their count.
 */
#ifndef MLX5EMU_FUZZ_OPS_H
#define MLX5EMU_FUZZ_OPS_H

#include "world.h"

/* The operations, in the order of their op byte (fuzz/README.md). */
#define FUZZ_OP_LIST(X) \
    X(CMD_EXEC)   /* mlx5_fw_exec: one command, flat buffers */ \
    X(CMD_QUEUE)  /* a command through the queue: entry, mailboxes, doorbell */ \
    X(ISEG_WRITE) /* a 4-byte write into the initialization segment */ \
    X(UAR_WRITE)  /* a 4- or 8-byte write into a UAR page */ \
    X(MMIO_READ)  /* a BAR0 read */ \
    X(RAM_WRITE)  /* bytes into a region of guest RAM */ \
    X(POST_SEND)  /* a send WQE built from segments, its record, its doorbell */ \
    X(POST_RECV)  /* a receive WQE, its record */ \
    X(SET_DBR)    /* a doorbell record's counter */ \
    X(RX_RAW)     /* a frame from the wire, as given */ \
    X(RX_ROCE)    /* a RoCEv2 frame built around a live QP */ \
    X(REFEED)     /* a frame the device sent, changed, received back */ \
    X(CLOCK)      /* time passes; the timer fires if due */ \
    X(TIMER)      /* the clock jumps to the timer's deadline */ \
    X(LINK)       /* the carrier goes down or up */ \
    X(DRAIN)      /* the driver polls every CQ and EQ and re-arms them */ \
    X(RESET)      /* FLR */

#define FUZZ_OP_ENUM_(name) FUZZ_OP_##name,
typedef enum { FUZZ_OP_LIST(FUZZ_OP_ENUM_) FUZZ_NOPS } FuzzOp;
#undef FUZZ_OP_ENUM_

typedef uint32_t FuzzOpSet;             /* 1 << FuzzOp */
#define FUZZ_OPS_ALL ((1u << FUZZ_NOPS) - 1)
#define FUZZ_OPS_RX (1u << FUZZ_OP_RX_RAW | 1u << FUZZ_OP_RX_ROCE | 1u << FUZZ_OP_REFEED | \
                     1u << FUZZ_OP_CLOCK | 1u << FUZZ_OP_TIMER | 1u << FUZZ_OP_DRAIN | \
                     1u << FUZZ_OP_POST_RECV)

const char *fuzz_op_name(FuzzOp op);

/* Run the operations of data[0, size) that `ops` allows on w. */
void fuzz_ops_run(FuzzWorld *w, FuzzOpSet ops, const uint8_t *data, size_t size);

#endif
