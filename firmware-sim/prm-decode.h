/*
 * PRM layouts as text: every field of a command, context or capability
 * that is not zero, by the name prm-layouts.h gives it, with the contexts
 * a command carries (a QP's qpc, its address path, a CQ's cqc...) decoded
 * in place as name{...}.  For the mlx5_cmd_fields trace event and the
 * labs: what the driver asked of the firmware, field by field.
 */
#ifndef MLX5EMU_PRM_DECODE_H
#define MLX5EMU_PRM_DECODE_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Append " field=0x..." for each non-zero field of `layout` found in the
 * first `len` bytes of buf (a field past them is not read); false if
 * there is no such layout. */
bool prm_decode(GString *out, const char *layout, const uint8_t *buf, size_t len);
/* The same as " label{ ... }", or nothing if no field of it is set. */
void prm_decode_nested(GString *out, const char *label, const char *layout,
                       const uint8_t *buf, size_t len);
/* The layout a wide field of `parent` holds, or NULL (an array, a blob). */
const char *prm_nested_layout(const char *parent, const char *field);

#endif
