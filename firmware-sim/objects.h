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
 */
#ifndef MLX5EMU_OBJECTS_H
#define MLX5EMU_OBJECTS_H

#include <glib.h>
#include <stdbool.h>
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

#endif
