/*
 * Object tables.
 *
 * Concepts
 * --------
 * Every resource the driver creates with a command (UAR, PD, EQ, CQ, MKey,
 * QP/SQ/RQ, TIR, ...) lives in one Mlx5Table, keyed by the number the
 * device handed out.  Numbers are allocated round-robin inside [min, max]
 * (the range the capabilities advertise), so a number that was just freed
 * is not handed out again at once: a stale id from the guest finds nothing
 * rather than somebody else's object.  Tables own their objects: removing
 * an id or clearing the table frees it with the table's destructor.
 *
 * What an object keeps of the PRM context the driver created it with, and
 * what its QUERY command reports back, is declared as rows of context
 * fields (Mlx5CtxField): a field of the context and the member of the
 * object that holds it.  CREATE loads the rows marked MLX5_CTX_IN, QUERY
 * stores those marked MLX5_CTX_OUT (the counters and ring geometry the
 * device keeps are reported, not taken from the driver).
 */
#ifndef MLX5EMU_OBJECTS_H
#define MLX5EMU_OBJECTS_H

#include <glib.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct Mlx5Table {
    const char *name;
    GHashTable *objs;           /* GUINT_TO_POINTER(id) -> object */
    uint32_t min_id, max_id;
    uint32_t next;
    GDestroyNotify destroy;
} Mlx5Table;

void mlx5_table_init(Mlx5Table *t, const char *name, uint32_t min_id,
                     uint32_t max_id, GDestroyNotify destroy);
void mlx5_table_fini(Mlx5Table *t);
/* Returns false when every id in range is in use. */
bool mlx5_table_alloc(Mlx5Table *t, void *obj, uint32_t *id);
/* Insert at a chosen id (e.g. an FTE index); false if taken or out of range. */
bool mlx5_table_insert_at(Mlx5Table *t, uint32_t id, void *obj);
void *mlx5_table_get(const Mlx5Table *t, uint32_t id);
bool mlx5_table_remove(Mlx5Table *t, uint32_t id);
unsigned mlx5_table_count(const Mlx5Table *t);
/* Call fn(obj, user) for every object (which fn must not add or remove). */
void mlx5_table_foreach(const Mlx5Table *t, void (*fn)(void *obj, void *user), void *user);
/* Free everything; returns how many objects were freed. */
unsigned mlx5_table_clear(Mlx5Table *t);

enum { MLX5_CTX_IN = 1, MLX5_CTX_OUT = 2, MLX5_CTX_INOUT = 3 };

/* Bits [off, off + width) of a context hold the unsigned (or bool) member
 * `size` bytes at byte `member` of the object, less `bias`: what the PRM
 * leaves out of a log size (log_page_size counts from 4 KiB pages, a
 * receive log stride from 16 bytes).  A row with `get` (MLX5_CTX_STATE)
 * is only reported, as `get` encodes what the object keeps in its own
 * terms (cqc.st from a CQ's arm state). */
typedef struct Mlx5CtxField {
    uint16_t off, width;
    uint16_t member;
    uint8_t size, bias, dir;    /* dir: MLX5_CTX_IN, _OUT or both */
    uint64_t (*get)(const void *obj);
} Mlx5CtxField;
#define MLX5_CTX_FIELD(off, width, type, m, bias, dir) \
    { (off), (width), offsetof(type, m), sizeof(((type *)0)->m), (bias), (dir), NULL }
#define MLX5_CTX_STATE(off, width, get) { (off), (width), 0, 0, 0, MLX5_CTX_OUT, (get) }

/* CREATE: the object's members from the context (rows with MLX5_CTX_IN). */
void mlx5_ctx_load(void *obj, const uint8_t *ctx, const Mlx5CtxField *f, size_t n);
/* QUERY: the context from the object's members (rows with MLX5_CTX_OUT). */
void mlx5_ctx_store(uint8_t *ctx, const void *obj, const Mlx5CtxField *f, size_t n);

#endif
