/* PRM field access and the field-descriptor tables generated from prm-layouts.h. */
#include <stdbool.h>
#include <string.h>

#include "prm.h"

/* A field of `width` bits at bit `off` (big-endian, bit 0 the MSB of
 * byte 0) lies in the bytes first..last; up to 8 of them are read and
 * written as one big-endian word, so a field costs a few byte moves and
 * not a loop over its bits (the command path and the data path read
 * every context through here).  A 57..64-bit field that is not
 * byte-aligned spans nine bytes: it goes bit by bit. */
/* The accessors are not fuzzing coverage: whether a field is byte-aligned
 * says nothing about the input, and their hooks on every comparison of
 * every field access of every command and WQE were a tenth of a fuzz
 * target's time (fuzz/README.md). */
#if defined(__clang__)
/* clang's spelling (its no_sanitize_coverage is not in clang 14) */
#define PRM_NO_COVERAGE __attribute__((no_sanitize("coverage")))
#elif defined(__has_attribute)
#if __has_attribute(no_sanitize_coverage)
#define PRM_NO_COVERAGE __attribute__((no_sanitize_coverage))
#endif
#endif
#ifndef PRM_NO_COVERAGE
#define PRM_NO_COVERAGE
#endif

typedef struct PrmSpan {
    unsigned first, nbytes, shift;  /* shift: bits right of the field in the word */
    uint64_t mask;                  /* the field's bits, in place in the word */
} PrmSpan;

PRM_NO_COVERAGE static bool prm_span(unsigned off, unsigned width, PrmSpan *s)
{
    unsigned last = (off + width - 1) / 8;

    s->first = off / 8;
    s->nbytes = last - s->first + 1;
    if (s->nbytes > 8) {
        return false;
    }
    s->shift = s->nbytes * 8 - off % 8 - width;
    s->mask = (width == 64 ? UINT64_MAX : (1ull << width) - 1) << s->shift;
    return true;
}

PRM_NO_COVERAGE static uint64_t prm_word(const uint8_t *buf, const PrmSpan *s)
{
    uint64_t w = 0;

    for (unsigned i = 0; i < s->nbytes; i++) {
        w = w << 8 | buf[s->first + i];
    }
    return w;
}

PRM_NO_COVERAGE uint64_t prm_get_bits(const uint8_t *buf, unsigned off, unsigned width)
{
    PrmSpan s;
    uint64_t v = 0;

    if (width == 0) {
        return 0;
    }
    if (prm_span(off, width, &s)) {
        return (prm_word(buf, &s) & s.mask) >> s.shift;
    }
    for (unsigned i = 0; i < width; i++) {
        unsigned bit = off + i;
        v = v << 1 | ((buf[bit / 8] >> (7 - bit % 8)) & 1);
    }
    return v;
}

PRM_NO_COVERAGE void prm_set_bits(uint8_t *buf, unsigned off, unsigned width, uint64_t v)
{
    PrmSpan s;

    if (width == 0) {
        return;
    }
    if (prm_span(off, width, &s)) {
        uint64_t w = (prm_word(buf, &s) & ~s.mask) | ((v << s.shift) & s.mask);

        for (unsigned i = s.nbytes; i-- > 0;) {
            buf[s.first + i] = (uint8_t)w;
            w >>= 8;
        }
        return;
    }
    for (unsigned i = width; i-- > 0;) {
        unsigned bit = off + i;
        uint8_t mask = (uint8_t)(1u << (7 - bit % 8));
        buf[bit / 8] = (uint8_t)((v & 1) ? (buf[bit / 8] | mask) : (buf[bit / 8] & ~mask));
        v >>= 1;
    }
}

#define PRM_DESC_FIELD_(L, f, off, w) { #f, (off), (w) },
#define PRM_DESC_TABLE_(L, bits) \
    static const PrmField prm_fields_##L[] = { PRM_FIELDS_##L(PRM_DESC_FIELD_) };
PRM_LAYOUTS(PRM_DESC_TABLE_)

#define PRM_DESC_LOCAL_(L, bits) \
    { #L, (bits), prm_fields_##L, sizeof(prm_fields_##L) / sizeof(PrmField), 0 },
#define PRM_DESC_IFC_(L, bits) \
    { #L, (bits), prm_fields_##L, sizeof(prm_fields_##L) / sizeof(PrmField), 1 },
const PrmLayout prm_layouts[] = {
    PRM_LAYOUTS_LOCAL(PRM_DESC_LOCAL_)
    PRM_LAYOUTS_IFC(PRM_DESC_IFC_)
};
const unsigned prm_nlayouts = sizeof(prm_layouts) / sizeof(prm_layouts[0]);

const PrmLayout *prm_layout_find(const char *name)
{
    for (unsigned i = 0; i < prm_nlayouts; i++) {
        if (strcmp(prm_layouts[i].name, name) == 0) {
            return &prm_layouts[i];
        }
    }
    return NULL;
}
