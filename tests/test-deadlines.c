/*
 * The timers' heap (hw-rdma/deadlines.c) against a plain model: random
 * additions, moves, removals from anywhere and takings from the top, with
 * every owner told its place; the top is always the soonest deadline and
 * every place an owner was told holds that owner.
 */
#include "deadlines.h"

enum { OWNERS = 300, STEPS = 20000 };

typedef struct Model {
    guint place[OWNERS];        /* what `placed` said; 0: not in the heap */
    uint64_t at[OWNERS];        /* the deadline the model gave it */
} Model;

static void placed(void *owner, guint place, void *opaque)
{
    Model *m = opaque;

    m->place[(guintptr)owner - 1] = place;
}

static void check(const Mlx5Deadlines *d, const Model *m)
{
    uint64_t soonest = UINT64_MAX;
    guint n = 0;

    for (unsigned i = 0; i < OWNERS; i++) {
        if (m->place[i]) {
            const Mlx5Deadline *e = mlx5_deadlines_at(d, m->place[i]);

            g_assert_cmpuint((guintptr)e->owner, ==, i + 1);
            g_assert_cmpuint(e->at, ==, m->at[i]);
            soonest = MIN(soonest, m->at[i]);
            n++;
        }
    }
    g_assert_cmpuint(mlx5_deadlines_len(d), ==, n);
    g_assert_cmpuint(mlx5_deadlines_next(d), ==, soonest);
}

static void test_deadlines_model(void)
{
    GRand *r = g_rand_new_with_seed(0xdead1);
    Model m = { 0 };
    Mlx5Deadlines d;

    mlx5_deadlines_init(&d, placed, &m);
    for (unsigned step = 0; step < STEPS; step++) {
        unsigned i = g_rand_int_range(r, 0, OWNERS);
        unsigned what = g_rand_int_range(r, 0, 4);

        if (what < 2) {                         /* start or move a timer */
            m.at[i] = g_rand_int_range(r, 0, 1000);     /* ties too */
            mlx5_deadlines_set(&d, m.place[i], (void *)(guintptr)(i + 1), m.at[i]);
        } else if (what == 2 && m.place[i]) {   /* stop one anywhere */
            mlx5_deadlines_remove(&d, m.place[i]);
            g_assert_cmpuint(m.place[i], ==, 0);
        } else if (mlx5_deadlines_len(&d)) {    /* take the soonest */
            unsigned top = (guintptr)mlx5_deadlines_at(&d, 1)->owner - 1;

            mlx5_deadlines_remove(&d, 1);
            g_assert_cmpuint(m.place[top], ==, 0);
        }
        check(&d, &m);
    }
    mlx5_deadlines_clear(&d);
    g_assert_cmpuint(mlx5_deadlines_len(&d), ==, 0);
    g_assert_cmpuint(mlx5_deadlines_next(&d), ==, UINT64_MAX);
    mlx5_deadlines_fini(&d);
    g_rand_free(r);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/deadlines/model", test_deadlines_model);
    return g_test_run();
}
