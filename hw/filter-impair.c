/*
 * filter-impair: a QEMU netfilter that makes a link lossy on purpose, to
 * exercise the RC transport's recovery (retransmission, duplicate
 * detection, NAKs) the way a real network would - no portable way exists
 * to impair real RoCE.
 *
 *   -object filter-impair,id=imp0,netdev=n0,queue=rx,drop=2,dup=1,reorder=1
 *
 * Each property is the percentage of the frames passing the filter that
 * get that treatment (decimals allowed), decided independently per frame
 * from a seeded generator, in this order:
 *   drop     the frame is discarded
 *   corrupt  one bit of the frame after the Ethernet header is flipped
 *            (receivers must detect it: IP/UDP checksums, the RoCE ICRC)
 *   delay    the frame is held for delay-ms milliseconds (default 10)
 *   reorder  the frame is held until the next frame has passed it (or
 *            1 ms has gone by), so the two arrive swapped
 *   dup      the frame is delivered twice
 * seed (default 1) makes a run repeatable.  What happened is counted in
 * the read-only properties dropped, corrupted, delayed, reordered,
 * duplicated and passed (qom-get from the monitor).  As for every
 * netfilter, queue=rx impairs what the guest sends, tx what it receives.
 */
#include "qemu/osdep.h"
#include "net/filter.h"
#include "net/eth.h"
#include "net/net.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "qemu/cutils.h"
#include "qemu/iov.h"
#include "qemu/timer.h"
#include "qom/object.h"

#define TYPE_FILTER_IMPAIR "filter-impair"
OBJECT_DECLARE_SIMPLE_TYPE(FilterImpairState, FILTER_IMPAIR)

enum { IMPAIR_DROP, IMPAIR_CORRUPT, IMPAIR_DELAY, IMPAIR_REORDER, IMPAIR_DUP, IMPAIR_N };
static const char *const impair_name[IMPAIR_N] = {
    [IMPAIR_DROP] = "drop", [IMPAIR_CORRUPT] = "corrupt", [IMPAIR_DELAY] = "delay",
    [IMPAIR_REORDER] = "reorder", [IMPAIR_DUP] = "dup",
};
static const char *const impair_count_name[IMPAIR_N] = {
    [IMPAIR_DROP] = "dropped", [IMPAIR_CORRUPT] = "corrupted", [IMPAIR_DELAY] = "delayed",
    [IMPAIR_REORDER] = "reordered", [IMPAIR_DUP] = "duplicated",
};

#define REORDER_MAX_HOLD_NS (1000 * 1000)      /* a held frame waits at most 1 ms */
#define IMPAIR_MAX_HELD 1024                   /* frames held at once; beyond: passed */

typedef struct HeldFrame {
    int64_t release_ns;
    bool reorder;               /* released when the next frame has passed */
    NetClientState *sender;
    unsigned flags;
    size_t len;
    uint8_t data[];
} HeldFrame;

struct FilterImpairState {
    NetFilterState parent_obj;
    double percent[IMPAIR_N];
    uint32_t delay_ms;
    uint32_t seed;
    GRand *rand;
    GQueue held;                /* HeldFrame *, in arrival order */
    QEMUTimer timer;
    uint64_t count[IMPAIR_N];
    uint64_t passed;
};

static bool impair_draw(FilterImpairState *s, int kind)
{
    return s->percent[kind] > 0 && g_rand_double_range(s->rand, 0, 100) < s->percent[kind];
}

static void impair_send(FilterImpairState *s, NetClientState *sender, unsigned flags,
                        const uint8_t *data, size_t len)
{
    struct iovec iov = { .iov_base = (void *)data, .iov_len = len };

    qemu_netfilter_pass_to_next(sender, flags, &iov, 1, NETFILTER(s));
}

/* The held frames that are due (or all of them) leave the queue, oldest
 * first, and the timer is set for the rest. */
static GQueue *impair_take_due(FilterImpairState *s, bool passing, bool all)
{
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL), next = INT64_MAX;
    GQueue *due = g_queue_new();
    GList *l = s->held.head;

    while (l) {
        HeldFrame *h = l->data;
        GList *n = l->next;

        if (all || h->release_ns <= now || (passing && h->reorder)) {
            g_queue_unlink(&s->held, l);
            g_queue_push_tail_link(due, l);
        } else {
            next = MIN(next, h->release_ns);
        }
        l = n;
    }
    if (next != INT64_MAX) {
        timer_mod(&s->timer, next);
    } else {
        timer_del(&s->timer);
    }
    return due;
}

/* Release the held frames that are due.  Sending one can come back here
 * before it returns - the receiver answers at once, and its answer passes
 * this filter the other way (queue=all) - so the frames leave the queue
 * before any is sent: a nested release sees only what is still held. */
static void impair_release(FilterImpairState *s, bool passing, bool all)
{
    GQueue *due = impair_take_due(s, passing, all);
    HeldFrame *h;

    while ((h = g_queue_pop_head(due))) {
        impair_send(s, h->sender, h->flags, h->data, h->len);
        g_free(h);
    }
    g_queue_free(due);
}

static void impair_timer(void *opaque)
{
    impair_release(opaque, false, false);
}

static void impair_hold(FilterImpairState *s, NetClientState *sender, unsigned flags,
                        const struct iovec *iov, int iovcnt, size_t len, bool reorder)
{
    HeldFrame *h = g_malloc(sizeof(*h) + len);
    int64_t wait = reorder ? REORDER_MAX_HOLD_NS : s->delay_ms * (int64_t)SCALE_MS;

    h->release_ns = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) + wait;
    h->reorder = reorder;
    h->sender = sender;
    h->flags = flags;
    h->len = len;
    iov_to_buf(iov, iovcnt, 0, h->data, len);
    g_queue_push_tail(&s->held, h);
    if (!timer_pending(&s->timer) || timer_expire_time_ns(&s->timer) > h->release_ns) {
        timer_mod(&s->timer, h->release_ns);
    }
}

static ssize_t impair_receive_iov(NetFilterState *nf, NetClientState *sender, unsigned flags,
                                  const struct iovec *iov, int iovcnt, NetPacketSent *sent_cb)
{
    FilterImpairState *s = FILTER_IMPAIR(nf);
    size_t len = iov_size(iov, iovcnt);
    bool room = g_queue_get_length(&s->held) < IMPAIR_MAX_HELD;

    if (impair_draw(s, IMPAIR_DROP)) {
        s->count[IMPAIR_DROP]++;
        return len;                             /* consumed: gone */
    }
    if (len > ETH_HLEN && impair_draw(s, IMPAIR_CORRUPT)) {
        g_autofree uint8_t *copy = g_malloc(len);
        size_t at = ETH_HLEN + g_rand_int_range(s->rand, 0, (gint32)(len - ETH_HLEN));

        iov_to_buf(iov, iovcnt, 0, copy, len);
        copy[at] ^= 1u << g_rand_int_range(s->rand, 0, 8);
        s->count[IMPAIR_CORRUPT]++;
        impair_send(s, sender, flags, copy, len);
        impair_release(s, true, false);
        return len;
    }
    if (room && impair_draw(s, IMPAIR_DELAY)) {
        s->count[IMPAIR_DELAY]++;
        impair_hold(s, sender, flags, iov, iovcnt, len, false);
        return len;
    }
    if (room && impair_draw(s, IMPAIR_REORDER)) {
        s->count[IMPAIR_REORDER]++;
        impair_hold(s, sender, flags, iov, iovcnt, len, true);
        return len;
    }
    s->passed++;
    qemu_netfilter_pass_to_next(sender, flags, iov, iovcnt, nf);
    if (impair_draw(s, IMPAIR_DUP)) {
        s->count[IMPAIR_DUP]++;
        qemu_netfilter_pass_to_next(sender, flags, iov, iovcnt, nf);
    }
    impair_release(s, true, false);             /* a reordered frame follows this one */
    return len;
}

static void impair_setup(NetFilterState *nf, Error **errp)
{
    FilterImpairState *s = FILTER_IMPAIR(nf);

    s->rand = g_rand_new_with_seed(s->seed);
    g_queue_init(&s->held);
    timer_init_ns(&s->timer, QEMU_CLOCK_VIRTUAL, impair_timer, s);
}

static void impair_cleanup(NetFilterState *nf)
{
    FilterImpairState *s = FILTER_IMPAIR(nf);

    if (s->rand) {
        timer_del(&s->timer);
        g_queue_clear_full(&s->held, g_free);
        g_rand_free(s->rand);
        s->rand = NULL;
    }
}

/* Turned off: nothing stays held. */
static void impair_status_changed(NetFilterState *nf, Error **errp)
{
    FilterImpairState *s = FILTER_IMPAIR(nf);

    if (!nf->on && s->rand) {
        impair_release(s, false, true);
    }
}

/* Percentages are strings ("2", "0.5", "2%"): QEMU's -object option
 * parser has no floating-point numbers. */
static void impair_get_percent(Object *obj, Visitor *v, const char *name, void *opaque,
                               Error **errp)
{
    FilterImpairState *s = FILTER_IMPAIR(obj);
    g_autofree char *str = g_strdup_printf("%g", s->percent[(intptr_t)opaque]);

    visit_type_str(v, name, &str, errp);
}

static void impair_set_percent(Object *obj, Visitor *v, const char *name, void *opaque,
                               Error **errp)
{
    FilterImpairState *s = FILTER_IMPAIR(obj);
    g_autofree char *str = NULL;
    const char *end;
    double value;

    if (!visit_type_str(v, name, &str, errp)) {
        return;
    }
    if (qemu_strtod(str, &end, &value) || (*end && strcmp(end, "%")) ||
        !(value >= 0 && value <= 100)) {
        error_setg(errp, "filter-impair: %s=%s is not a percentage (0 to 100)", name, str);
        return;
    }
    s->percent[(intptr_t)opaque] = value;
}

static void impair_get_u32(Object *obj, Visitor *v, const char *name, void *opaque,
                           Error **errp)
{
    visit_type_uint32(v, name, (uint32_t *)((uint8_t *)obj + (uintptr_t)opaque), errp);
}

static void impair_set_u32(Object *obj, Visitor *v, const char *name, void *opaque,
                           Error **errp)
{
    visit_type_uint32(v, name, (uint32_t *)((uint8_t *)obj + (uintptr_t)opaque), errp);
}

static void impair_instance_init(Object *obj)
{
    FilterImpairState *s = FILTER_IMPAIR(obj);

    s->delay_ms = 10;
    s->seed = 1;
    for (int i = 0; i < IMPAIR_N; i++) {
        object_property_add_uint64_ptr(obj, impair_count_name[i], &s->count[i],
                                       OBJ_PROP_FLAG_READ);
    }
    object_property_add_uint64_ptr(obj, "passed", &s->passed, OBJ_PROP_FLAG_READ);
}

static void impair_class_init(ObjectClass *oc, void *data)
{
    NetFilterClass *nfc = NETFILTER_CLASS(oc);

    nfc->setup = impair_setup;
    nfc->cleanup = impair_cleanup;
    nfc->status_changed = impair_status_changed;
    nfc->receive_iov = impair_receive_iov;
    for (intptr_t i = 0; i < IMPAIR_N; i++) {
        object_class_property_add(oc, impair_name[i], "str", impair_get_percent,
                                  impair_set_percent, NULL, (void *)i);
    }
    object_class_property_add(oc, "delay-ms", "uint32", impair_get_u32, impair_set_u32, NULL,
                              (void *)offsetof(FilterImpairState, delay_ms));
    object_class_property_add(oc, "seed", "uint32", impair_get_u32, impair_set_u32, NULL,
                              (void *)offsetof(FilterImpairState, seed));
}

static const TypeInfo filter_impair_info = {
    .name = TYPE_FILTER_IMPAIR,
    .parent = TYPE_NETFILTER,
    .class_init = impair_class_init,
    .instance_init = impair_instance_init,
    .instance_size = sizeof(FilterImpairState),
};

static void filter_impair_register_types(void)
{
    type_register_static(&filter_impair_info);
}

type_init(filter_impair_register_types);
