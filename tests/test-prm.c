/*
 * PRM field access (prm.h) and the layout descriptor table (prm-layouts.h):
 * bit-exact get/set, and the table's own consistency.  The cross-check
 * against the kernel's mlx5_ifc.h is tests/prm-conformance.py.
 */
#include <string.h>

#include "harness.h"
#include "prm-decode.h"

static void test_get_set_byte_aligned(void)
{
    uint8_t b[16] = { 0 };

    prm_set_bits(b, 0x20, 32, 0x11223344);
    prm_set_bits(b, 0x40, 64, 0x5566778899aabbccull);
    prm_set_bits(b, 0x10, 16, 0xbeef);
    g_assert_cmphex(prm_get_bits(b, 0x20, 32), ==, 0x11223344);
    g_assert_cmphex(prm_get_bits(b, 0x40, 64), ==, 0x5566778899aabbccull);
    g_assert_cmphex(b[2], ==, 0xbe);
    g_assert_cmphex(b[4], ==, 0x11);
    g_assert_cmphex(b[15], ==, 0xcc);
    g_assert_cmphex(b[0], ==, 0);
}

/* Bit 0 is the MSB of byte 0; unaligned fields leave their neighbours. */
static void test_get_set_unaligned(void)
{
    uint8_t b[8];

    memset(b, 0xff, sizeof(b));
    prm_set_bits(b, 3, 5, 0);                   /* low 5 bits of byte 0 */
    g_assert_cmphex(b[0], ==, 0xe0);
    prm_set_bits(b, 0x0c, 12, 0xabc);           /* crosses bytes 1 and 2 */
    g_assert_cmphex(prm_get_bits(b, 0x0c, 12), ==, 0xabc);
    g_assert_cmphex(b[1], ==, 0xfa);
    g_assert_cmphex(b[2], ==, 0xbc);
    prm_set_bits(b, 0x28, 24, 0x123456);
    g_assert_cmphex(prm_get_bits(b, 0x20, 32), ==, 0xff123456);
    prm_set_bits(b, 0x3f, 1, 1);                /* the last bit: LSB of byte 7 */
    g_assert_cmphex(b[7], ==, 0x57);
    g_assert_cmphex(prm_get_bits(b, 0x3f, 1), ==, 1);
    g_assert_cmphex(prm_get_bits(b, 0x3e, 1), ==, 1);
    g_assert_cmphex(prm_get_bits(b, 0x3c, 1), ==, 0);
}

static void test_set_truncates_to_width(void)
{
    uint8_t b[4] = { 0 };

    prm_set_bits(b, 4, 4, 0x1f);
    g_assert_cmphex(b[0], ==, 0x0f);
    prm_set_bits(b, 8, 8, 0x1ff);
    g_assert_cmphex(b[1], ==, 0xff);
    g_assert_cmphex(b[2], ==, 0);
    g_assert_cmphex(prm_get_bits(b, 0, 0), ==, 0);
}

/* Every offset in the first 9 bytes and every width, against the PRM's
 * definition taken one bit at a time: the word-at-a-time access
 * (prm.c prm_span) at all its edges, nine-byte fields included. */
static uint64_t bitwise_get(const uint8_t *b, unsigned off, unsigned width)
{
    uint64_t v = 0;

    for (unsigned i = 0; i < width; i++) {
        v = v << 1 | ((b[(off + i) / 8] >> (7 - (off + i) % 8)) & 1);
    }
    return v;
}

static void test_get_set_every_span(void)
{
    GRand *r = g_rand_new_with_seed(0x5eed);
    uint8_t b[24], want[24];

    for (unsigned off = 0; off < 72; off++) {
        for (unsigned width = 1; width <= 64; width++) {
            uint64_t v = (uint64_t)g_rand_int(r) << 32 | g_rand_int(r);
            uint64_t m = width == 64 ? UINT64_MAX : (1ull << width) - 1;

            for (unsigned i = 0; i < sizeof(b); i++) {
                b[i] = want[i] = (uint8_t)g_rand_int(r);
            }
            g_assert_cmphex(prm_get_bits(b, off, width), ==, bitwise_get(b, off, width));
            prm_set_bits(b, off, width, v);
            for (unsigned i = 0; i < width; i++) {        /* the PRM's way */
                unsigned bit = off + i;
                uint8_t bm = (uint8_t)(1u << (7 - bit % 8));

                want[bit / 8] = (v >> (width - 1 - i)) & 1 ? want[bit / 8] | bm
                                                          : want[bit / 8] & ~bm;
            }
            g_assert_cmpmem(b, sizeof(b), want, sizeof(want));
            g_assert_cmphex(prm_get_bits(b, off, width), ==, v & m);
        }
    }
    g_rand_free(r);
}

static void test_macros_match_descriptors(void)
{
    const PrmLayout *l = prm_layout_find("create_eq_in");

    g_assert_nonnull(l);
    g_assert_cmpuint(l->bits, ==, PRM_BYTES(create_eq_in) * 8);
    g_assert_cmpuint(PRM_OFF(create_eq_in, pas), ==, 0x880);
    g_assert_cmpuint(PRM_W(eqc, log_eq_size), ==, 5);
    g_assert_cmpuint(PRM_BYTE_OFF(create_sq_in, ctx), ==, 0x20);
    g_assert_null(prm_layout_find("no_such_layout"));
    g_assert_nonnull(prm_layout_find("mbox_in"));
    g_assert_false(prm_layout_find("mbox_in")->from_ifc);
    g_assert_true(prm_layout_find("cqc")->from_ifc);
}

static void test_fields_inside_their_layout(void)
{
    for (unsigned i = 0; i < prm_nlayouts; i++) {
        const PrmLayout *l = &prm_layouts[i];
        g_assert_cmpuint(l->bits % 32, ==, 0);
        for (unsigned f = 0; f < l->nfields; f++) {
            const PrmField *fd = &l->fields[f];
            if (fd->off + fd->width > l->bits) {
                g_error("%s.%s at 0x%x+%u beyond %u bits", l->name, fd->name, fd->off,
                        fd->width, l->bits);
            }
            /* Variable-length arrays start where the fixed part ends. */
            if (fd->width == 0 && fd->off != l->bits) {
                g_error("%s.%s: flexible array at 0x%x, layout ends at 0x%x", l->name,
                        fd->name, fd->off, l->bits);
            }
            /* Fields of 32 bits and more are whole big-endian words. */
            if (fd->width >= 32 && fd->off % 32 != 0) {
                g_error("%s.%s: %u bits at unaligned 0x%x", l->name, fd->name, fd->width,
                        fd->off);
            }
        }
    }
}

static void test_fields_unique_and_disjoint(void)
{
    for (unsigned i = 0; i < prm_nlayouts; i++) {
        const PrmLayout *l = &prm_layouts[i];
        for (unsigned a = 0; a < l->nfields; a++) {
            for (unsigned b = a + 1; b < l->nfields; b++) {
                const PrmField *x = &l->fields[a], *y = &l->fields[b];
                g_assert_cmpstr(x->name, !=, y->name);
                if (x->width && y->width &&
                    x->off < y->off + y->width && y->off < x->off + x->width) {
                    g_error("%s: %s and %s overlap", l->name, x->name, y->name);
                }
            }
        }
    }
}

static void test_layout_names_unique(void)
{
    for (unsigned i = 0; i < prm_nlayouts; i++) {
        g_assert_true(prm_layout_find(prm_layouts[i].name) == &prm_layouts[i]);
    }
}

/* Every command layout starts with the command header. */
static const PrmField *field(const PrmLayout *l, const char *name)
{
    for (unsigned f = 0; f < l->nfields; f++) {
        if (!strcmp(l->fields[f].name, name)) {
            return &l->fields[f];
        }
    }
    return NULL;
}

static void check_header(const char *layout, bool in)
{
    const PrmLayout *l = prm_layout_find(layout);
    const PrmField *a = field(l, in ? "opcode" : "status");
    const PrmField *b = field(l, in ? "op_mod" : "syndrome");

    g_assert_nonnull(a);
    g_assert_nonnull(b);
    g_assert_cmpuint(a->off, ==, 0);
    g_assert_cmpuint(a->width, ==, in ? 16 : 8);
    g_assert_cmpuint(b->off, ==, in ? 0x30 : 0x20);
    g_assert_cmpuint(b->width, ==, in ? 16 : 32);
}

static void test_command_layouts_have_header(void)
{
#define H_CHECK_HDR_(name, op, fn, in, out, needs) \
    check_header(#in, true); check_header(#out, false);
    MLX5_CMD_LIST(H_CHECK_HDR_)
#undef H_CHECK_HDR_
}

static void test_status_and_syndrome_names(void)
{
    g_assert_cmpstr(mlx5_cmd_status_name(MLX5_CMD_STAT_BAD_OP), ==, "BAD_OP");
    g_assert_cmpstr(mlx5_cmd_status_name(0xee), ==, "UNKNOWN");
    g_assert_cmpstr(mlx5_syndrome_text(MLX5_SYND_BAD_OPCODE), ==, "opcode not implemented");
    g_assert_cmpstr(mlx5_syndrome_text(0x12345), ==, "unknown syndrome");
    g_assert_cmpstr(mlx5_cmd_name(OP_CREATE_EQ), ==, "CREATE_EQ");
    g_assert_cmpstr(mlx5_cmd_name(0x7777), ==, "UNKNOWN");
}

/* Queue contexts' page_offset counts 1/64ths of the page (the kernel's
 * quantized page offset): 64 bytes of a 4 KiB page, 2 KiB of a 128 KiB
 * one; impossible page sizes never yield a usable offset. */
static void test_page_offset_units(void)
{
    g_assert_cmpuint(mlx5_page_offset_bytes(3, 12), ==, 192);
    g_assert_cmpuint(mlx5_page_offset_bytes(28, 17), ==, 57344);
    g_assert_cmpuint(mlx5_page_offset_bytes(63, 30), ==, 63u << 24);
    g_assert_cmpuint(mlx5_page_offset_bytes(1, 31), ==, UINT32_MAX);
    g_assert_cmpuint(mlx5_page_offset_bytes(1, 75), ==, UINT32_MAX);
    g_assert_cmpuint(mlx5_page_offset_bytes(64, 12), ==, UINT32_MAX);
}

/* Every context prm_decode() opens inside another is a layout that fits
 * the field holding it, and at least one field of some layout holds it. */
static void test_nested_layouts(void)
{
    unsigned found = 0;

    for (unsigned i = 0; i < prm_nlayouts; i++) {
        const PrmLayout *l = &prm_layouts[i];

        for (unsigned j = 0; j < l->nfields; j++) {
            const char *inner = prm_nested_layout(l->name, l->fields[j].name);
            const PrmLayout *il = inner ? prm_layout_find(inner) : NULL;

            if (!inner || l->fields[j].width <= 64) {
                continue;
            }
            g_assert_nonnull(il);
            g_assert_cmpuint(il->bits, <=, l->fields[j].width);
            g_assert_cmpuint(l->fields[j].off % 8, ==, 0);
            found++;
        }
    }
    g_assert_cmpuint(found, >=, 24);
}

/* A command decodes with its contexts in place; zero fields say nothing;
 * a buffer shorter than the layout is not read past. */
static void test_decode_command(void)
{
    uint8_t in[PRM_BYTES(rst2init_qp_in)];
    uint8_t *qpc = PRM_PTR(rst2init_qp_in, qpc, in);
    g_autoptr(GString) all = g_string_new(NULL), cut = g_string_new(NULL);
    g_autoptr(GString) none = g_string_new(NULL);

    memset(in, 0, sizeof(in));
    PRM_SET(rst2init_qp_in, opcode, in, 0x502);
    PRM_SET(rst2init_qp_in, qpn, in, 0x4a);
    PRM_SET(qpc, pm_state, qpc, 3);
    PRM_SET(ads, pkey_index, PRM_PTR(qpc, primary_address_path, qpc), 1);
    g_assert_true(prm_decode(all, "rst2init_qp_in", in, sizeof(in)));
    g_assert_cmpstr(all->str, ==, " opcode=0x502 qpn=0x4a qpc{ pm_state=0x3"
                                  " primary_address_path{ pkey_index=0x1 } }");
    g_assert_true(prm_decode(cut, "rst2init_qp_in", in, 16));
    g_assert_cmpstr(cut->str, ==, " opcode=0x502 qpn=0x4a");
    g_assert_false(prm_decode(none, "no_such_layout_in", in, sizeof(in)));
    g_assert_cmpuint(none->len, ==, 0);
}

/* QUERY_HCA_CAP's answer and SET_HCA_CAP's input carry a capability page:
 * decoded in the layout of the type op_mod names, current or maximum. */
static void test_decode_cap_page(void)
{
    uint8_t out[PRM_BYTES(query_hca_cap_out)], in[PRM_BYTES(set_hca_cap_in)];
    g_autoptr(GString) q = g_string_new(NULL), s = g_string_new(NULL);
    g_autoptr(GString) other = g_string_new(NULL);

    memset(out, 0, sizeof(out));
    memset(in, 0, sizeof(in));
    PRM_SET(roce_cap, roce_apm, PRM_PTR(query_hca_cap_out, capability, out), 1);
    g_assert_true(mlx5_cmd_decode(q, 0x100, MLX5_CAP_ROCE << 1 | 1, false, out, sizeof(out)));
    g_assert_cmpstr(q->str, ==, " capability(roce_cap, current){ roce_apm=0x1 }");
    PRM_SET(set_hca_cap_in, opcode, in, 0x109);
    PRM_SET(cmd_hca_cap, log_max_qp, PRM_PTR(set_hca_cap_in, capability, in), 0x11);
    g_assert_true(mlx5_cmd_decode(s, 0x109, MLX5_CAP_GENERAL << 1, true, in, sizeof(in)));
    g_assert_cmpstr(s->str, ==, " opcode=0x109 capability(cmd_hca_cap){ log_max_qp=0x11 }");
    /* a type the device has no page of: the header only */
    g_assert_true(mlx5_cmd_decode(other, 0x109, 0x3f << 1, true, in, sizeof(in)));
    g_assert_cmpstr(other->str, ==, " opcode=0x109");
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/prm/get-set-byte-aligned", test_get_set_byte_aligned);
    g_test_add_func("/prm/get-set-unaligned", test_get_set_unaligned);
    g_test_add_func("/prm/set-truncates-to-width", test_set_truncates_to_width);
    g_test_add_func("/prm/get-set-every-span", test_get_set_every_span);
    g_test_add_func("/prm/macros-match-descriptors", test_macros_match_descriptors);
    g_test_add_func("/prm/fields-inside-their-layout", test_fields_inside_their_layout);
    g_test_add_func("/prm/fields-unique-and-disjoint", test_fields_unique_and_disjoint);
    g_test_add_func("/prm/layout-names-unique", test_layout_names_unique);
    g_test_add_func("/prm/command-layouts-have-header", test_command_layouts_have_header);
    g_test_add_func("/prm/status-and-syndrome-names", test_status_and_syndrome_names);
    g_test_add_func("/prm/page-offset-units", test_page_offset_units);
    g_test_add_func("/prm/nested-layouts", test_nested_layouts);
    g_test_add_func("/prm/decode-command", test_decode_command);
    g_test_add_func("/prm/decode-cap-page", test_decode_cap_page);
    return g_test_run();
}
