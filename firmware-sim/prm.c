/* PRM field access and the field-descriptor tables generated from prm-layouts.h. */
#include <string.h>

#include "prm.h"

uint64_t prm_get_bits(const uint8_t *buf, unsigned off, unsigned width)
{
    uint64_t v = 0;

    if (width == 0) {
        return 0;
    }
    if (off % 8 == 0 && width % 8 == 0) {
        for (unsigned i = 0; i < width / 8; i++) {
            v = v << 8 | buf[off / 8 + i];
        }
        return v;
    }
    for (unsigned i = 0; i < width; i++) {
        unsigned bit = off + i;
        v = v << 1 | ((buf[bit / 8] >> (7 - bit % 8)) & 1);
    }
    return v;
}

void prm_set_bits(uint8_t *buf, unsigned off, unsigned width, uint64_t v)
{
    if (width == 0) {
        return;
    }
    if (off % 8 == 0 && width % 8 == 0) {
        for (unsigned i = width / 8; i-- > 0;) {
            buf[off / 8 + i] = (uint8_t)v;
            v >>= 8;
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
