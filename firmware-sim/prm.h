/*
 * PRM field access.
 *
 * Concepts
 * --------
 * Every command, context and capability the driver exchanges with the
 * device is a big-endian bit layout (PRM "Command Reference"; the Linux
 * driver's mlx5_ifc.h describes the same layouts).  The project declares
 * each layout once, in prm-layouts.h, as rows of (field, bit offset, width).
 * This header turns those rows into constants:
 *
 *   PRM_OFF(layout, field)   bit offset of the field
 *   PRM_W(layout, field)     width in bits
 *   PRM_BYTES(layout)        size of the whole layout in bytes
 *
 * and into bounded accessors on a byte buffer:
 *
 *   PRM_GET(layout, field, buf)          value of a field of up to 64 bits
 *   PRM_SET(layout, field, buf, value)
 *   PRM_PTR(layout, field, buf)          address of a byte-aligned field
 *                                        (nested layouts, arrays, strings)
 *
 * `buf` must hold at least PRM_BYTES(layout) bytes: command buffers are
 * always allocated to the layout's full size (zero-padded), so a short
 * command from the guest reads as zeros rather than past the end.
 */
#ifndef MLX5EMU_PRM_H
#define MLX5EMU_PRM_H

#include <stddef.h>
#include <stdint.h>

#include "prm-layouts.h"

/* Constants: PRM_<layout>__<field>_OFF / _W and PRM_<layout>_BITS. */
#define PRM_ENUM_FIELD_(L, f, off, w) \
    PRM_##L##__##f##_OFF = (off), PRM_##L##__##f##_W = (w),
#define PRM_ENUM_LAYOUT_(L, bits) \
    enum { PRM_FIELDS_##L(PRM_ENUM_FIELD_) PRM_##L##_BITS = (bits) };
PRM_LAYOUTS(PRM_ENUM_LAYOUT_)
#undef PRM_ENUM_LAYOUT_

#define PRM_OFF(L, f)   ((unsigned)PRM_##L##__##f##_OFF)
#define PRM_W(L, f)     ((unsigned)PRM_##L##__##f##_W)
#define PRM_BYTES(L)    ((size_t)PRM_##L##_BITS / 8)
#define PRM_BYTE_OFF(L, f) (PRM_OFF(L, f) / 8)

uint64_t prm_get_bits(const uint8_t *buf, unsigned off, unsigned width);
void prm_set_bits(uint8_t *buf, unsigned off, unsigned width, uint64_t v);

#define PRM_GET(L, f, buf) \
    prm_get_bits((const uint8_t *)(buf), PRM_OFF(L, f), PRM_W(L, f))
#define PRM_SET(L, f, buf, v) \
    prm_set_bits((uint8_t *)(buf), PRM_OFF(L, f), PRM_W(L, f), (uint64_t)(v))
#define PRM_PTR(L, f, buf) \
    ((__typeof__(&(buf)[0]))((buf) + PRM_BYTE_OFF(L, f)))

/* Big-endian helpers for the fixed C layouts (EQE, CQE, WQE segments). */
static inline uint16_t prm_be16(const uint8_t *p)
{
    return (uint16_t)(p[0] << 8 | p[1]);
}
static inline uint32_t prm_be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
static inline uint64_t prm_be64(const uint8_t *p)
{
    return (uint64_t)prm_be32(p) << 32 | prm_be32(p + 4);
}
static inline void prm_put_be16(uint8_t *p, uint16_t v)
{
    p[0] = v >> 8; p[1] = (uint8_t)v;
}
static inline void prm_put_be32(uint8_t *p, uint32_t v)
{
    p[0] = v >> 24; p[1] = v >> 16; p[2] = v >> 8; p[3] = (uint8_t)v;
}
static inline void prm_put_be64(uint8_t *p, uint64_t v)
{
    prm_put_be32(p, v >> 32); prm_put_be32(p + 4, (uint32_t)v);
}
/* Little-endian: guest memory in the host's byte order (8-byte atomics). */
static inline uint64_t prm_le64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) {
        v = v << 8 | p[i];
    }
    return v;
}
static inline void prm_put_le64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++, v >>= 8) {
        p[i] = (uint8_t)v;
    }
}

/* Field descriptors, for tracing, reserved-bit checks and conformance. */
typedef struct PrmField {
    const char *name;
    unsigned off;
    unsigned width;
} PrmField;

typedef struct PrmLayout {
    const char *name;
    unsigned bits;
    const PrmField *fields;
    unsigned nfields;
    int from_ifc;   /* 1: mlx5_ifc.h has the same layout */
} PrmLayout;

extern const PrmLayout prm_layouts[];
extern const unsigned prm_nlayouts;
const PrmLayout *prm_layout_find(const char *name);

#endif
