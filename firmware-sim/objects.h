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
 * A table also bounds what it holds: each kind of object in it to a limit
 * (the firmware sets it from the current capabilities, hca.c
 * mlx5_fw_limits_update), and every object's host memory to the device's
 * budget, charged when it is added and refunded when it goes, whichever
 * way (remove, remove_if, clear, fini).
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

/*
 * Host memory the firmware keeps for the objects guests create: one budget
 * for the whole device (Mlx5Fw.host_mem).  Whatever a guest chooses the
 * size of and the device keeps after the command (an object's state, its
 * page list, a key's translation entries, flow entries, the data path's
 * state of a QP) is charged while it lives and refunded when it goes; a
 * charge beyond the limit is refused, and the command that asked for it
 * fails LIM_ERR (docs/architecture.md "Host memory").
 */
typedef struct Mlx5HostMem {
    uint64_t limit;             /* bytes */
    uint64_t used;
} Mlx5HostMem;

/* Charge `bytes` for `what` (a trace names it when refused); false, and
 * nothing charged, past the limit. */
bool mlx5_host_mem_charge(Mlx5HostMem *m, uint64_t bytes, const char *what);
void mlx5_host_mem_refund(Mlx5HostMem *m, uint64_t bytes);

/* What holding one object in a table costs beside the object itself: its
 * hash-table slot (key, value and hash, in a table kept at most half
 * full) and the allocator's header, rounded up. */
#define MLX5_TABLE_ENTRY_BYTES 64u

/* Kinds of object that share one table (one number space) but count
 * against limits of their own: SQs, RQs and QPs; SRQs and RMPs. */
#define MLX5_TABLE_KINDS 3

/* What a table's objects cost (mlx5_table_account). */
typedef struct Mlx5TableCost {
    size_t obj_bytes;                       /* an object's size, if bytes is NULL */
    /* The host memory one object holds (itself and what it owns), the
     * same when it is added and when it goes. */
    uint64_t (*bytes)(const void *obj);
    unsigned (*kind)(const void *obj);      /* < MLX5_TABLE_KINDS; NULL: kind 0 */
} Mlx5TableCost;

typedef enum {
    MLX5_TABLE_OK,
    MLX5_TABLE_NO_ID,           /* every number in range is taken (or this one) */
    MLX5_TABLE_LIMIT,           /* as many of its kind as the limit allows */
    MLX5_TABLE_NO_MEM,          /* the host-memory budget would be exceeded */
} Mlx5TableStatus;

typedef struct Mlx5Table {
    const char *name;
    GHashTable *objs;           /* GUINT_TO_POINTER(id) -> object */
    uint32_t min_id, max_id;
    uint32_t next;
    GDestroyNotify destroy;
    /* Accounting (mlx5_table_account): the budget its objects are charged
     * to (NULL: none), what they cost, and the live objects of each kind
     * with the most there may be (UINT32_MAX: only the numbers bound it). */
    Mlx5HostMem *mem;
    const Mlx5TableCost *cost;
    uint32_t live[MLX5_TABLE_KINDS];
    uint32_t limit[MLX5_TABLE_KINDS];
    /* An emptied index a retired table gave back, the next retire's (its
     * arrays are as large as the table once was: freeing them would cost
     * the call that does it more than the objects did). */
    GHashTable *spare;
} Mlx5Table;

void mlx5_table_init(Mlx5Table *t, const char *name, uint32_t min_id,
                     uint32_t max_id, GDestroyNotify destroy);
/* Charge the table's objects to `mem` at `cost` (before any is added). */
void mlx5_table_account(Mlx5Table *t, Mlx5HostMem *mem, const Mlx5TableCost *cost);
/* Free everything (refunded) and the table itself. */
void mlx5_table_fini(Mlx5Table *t);
/* Add an object with the next free number (*id), within its kind's limit
 * and the budget; on failure the object is not the table's. */
Mlx5TableStatus mlx5_table_add(Mlx5Table *t, void *obj, uint32_t *id);
/* Add at a chosen number (e.g. an FTE index), replacing what is there: the
 * budget is checked as if the old object were gone.  NO_ID if out of
 * range.  On failure the table is unchanged and `obj` not its. */
Mlx5TableStatus mlx5_table_put_at(Mlx5Table *t, uint32_t id, void *obj);
void *mlx5_table_get(const Mlx5Table *t, uint32_t id);
bool mlx5_table_remove(Mlx5Table *t, uint32_t id);
/* Free every object for which fn(obj, user) is true. */
void mlx5_table_remove_if(Mlx5Table *t, bool (*fn)(const void *obj, void *user), void *user);
unsigned mlx5_table_count(const Mlx5Table *t);
/* Call fn(obj, user) for every object (which fn must not add or remove). */
void mlx5_table_foreach(const Mlx5Table *t, void (*fn)(void *obj, void *user), void *user);
/* Free everything; returns how many objects were freed. */
unsigned mlx5_table_clear(Mlx5Table *t);

/*
 * Retired objects: how a reset empties a table without freeing a whole
 * budget's worth of objects inside one command.  mlx5_table_retire moves
 * every object of `t` at once into a retired table that no number finds
 * (t is empty and counts from its first number again); they are freed from
 * there a few at a time (mlx5_retired_reclaim, each after `before`, if
 * any) and stay charged to the budget until they are.  `t` must outlive
 * its retired tables, which hand their emptied index back to it.
 */
typedef struct Mlx5RetiredTable {
    Mlx5Table table;
    Mlx5Table *origin;
    GHashTableIter it;          /* where reclaiming goes on (only it changes the table) */
    void (*before)(void *obj, void *user);
    void *user;
} Mlx5RetiredTable;

/* NULL if `t` was empty. */
Mlx5RetiredTable *mlx5_table_retire(Mlx5Table *t, void (*before)(void *obj, void *user),
                                    void *user);
/* Free at most `max` objects; how many were freed. */
unsigned mlx5_retired_reclaim(Mlx5RetiredTable *r, unsigned max);
unsigned mlx5_retired_count(const Mlx5RetiredTable *r);
/* Free what is left and the retired table. */
void mlx5_retired_free(Mlx5RetiredTable *r);

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
