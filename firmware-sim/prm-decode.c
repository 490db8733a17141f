/* PRM layouts as text: see prm-decode.h. */
#include "prm-decode.h"

#include <inttypes.h>
#include <string.h>

#include "prm.h"

/* Contexts inside commands and contexts, by the field that holds them
 * (Linux mlx5_ifc.h names both).  A NULL parent: any layout's field of
 * that name; "ctx" is whatever its command's object's context is.  The
 * unit test /prm/nested-layouts checks every row against prm-layouts.h. */
static const struct {
    const char *parent, *field, *layout;
} prm_nested[] = {
    { NULL, "qpc", "qpc" },
    { NULL, "primary_address_path", "ads" },
    { NULL, "secondary_address_path", "ads" },
    { NULL, "eq_context_entry", "eqc" },
    { NULL, "cq_context", "cqc" },
    { NULL, "memory_key_mkey_entry", "mkc" },
    { NULL, "rqt_context", "rqtc" },
    { NULL, "wq", "wq" },
    { NULL, "flow_table_context", "flow_table_context" },
    { NULL, "flow_context", "flow_context" },
    { NULL, "nic_vport_context", "nic_vport_context" },
    { NULL, "srq_context_entry", "srqc" },
    { NULL, "xrc_srq_context_entry", "xrc_srqc" },
    { "create_tis_in", "ctx", "tisc" },
    { "modify_tis_in", "ctx", "tisc" },
    { "create_tir_in", "ctx", "tirc" },
    { "modify_tir_in", "ctx", "tirc" },
    { "modify_rqt_in", "ctx", "rqtc" },
    { "create_sq_in", "ctx", "sqc" },
    { "modify_sq_in", "ctx", "sqc" },
    { "create_rq_in", "ctx", "rqc" },
    { "modify_rq_in", "ctx", "rqc" },
    { "create_rmp_in", "ctx", "rmpc" },
    { "modify_rmp_in", "ctx", "rmpc" },
};

const char *prm_nested_layout(const char *parent, const char *field)
{
    for (size_t i = 0; i < G_N_ELEMENTS(prm_nested); i++) {
        if (!strcmp(prm_nested[i].field, field) &&
            (!prm_nested[i].parent || !strcmp(prm_nested[i].parent, parent))) {
            return prm_nested[i].layout;
        }
    }
    return NULL;
}

/* A field's bits, or false if any of them lies past `len` bytes. */
static bool field_in(const PrmField *f, size_t len)
{
    return ((size_t)f->off + f->width + 7) / 8 <= len;
}

static void decode_at(GString *out, const PrmLayout *l, const uint8_t *buf, size_t len,
                      unsigned depth);

/* " label{ fields }", or nothing when every field is zero. */
static void nested_at(GString *out, const char *label, const PrmLayout *l, const uint8_t *buf,
                      size_t len, unsigned depth)
{
    gsize mark = out->len;

    g_string_append_printf(out, " %s{", label);
    decode_at(out, l, buf, len, depth);
    if (out->str[out->len - 1] == '{') {
        g_string_truncate(out, mark);
    } else {
        g_string_append(out, " }");
    }
}

static void decode_at(GString *out, const PrmLayout *l, const uint8_t *buf, size_t len,
                      unsigned depth)
{
    for (unsigned i = 0; i < l->nfields; i++) {
        const PrmField *f = &l->fields[i];
        const char *inner = f->width > 64 ? prm_nested_layout(l->name, f->name) : NULL;
        const PrmLayout *il = inner ? prm_layout_find(inner) : NULL;

        if (il && f->off % 8 == 0 && depth < 3 && f->off / 8 < len) {
            nested_at(out, f->name, il, buf + f->off / 8,
                      MIN(len - f->off / 8, (size_t)f->width / 8), depth + 1);
        } else if (f->width <= 64 && field_in(f, len)) {
            uint64_t v = prm_get_bits(buf, f->off, f->width);

            if (v) {
                g_string_append_printf(out, " %s=0x%" PRIx64, f->name, v);
            }
        }
    }
}

bool prm_decode(GString *out, const char *layout, const uint8_t *buf, size_t len)
{
    const PrmLayout *l = prm_layout_find(layout);

    if (!l) {
        return false;
    }
    decode_at(out, l, buf, len, 0);
    return true;
}

void prm_decode_nested(GString *out, const char *label, const char *layout,
                       const uint8_t *buf, size_t len)
{
    const PrmLayout *l = prm_layout_find(layout);

    if (l) {
        nested_at(out, label, l, buf, len, 0);
    }
}
