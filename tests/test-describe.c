/*
 * The device's objects on demand (hw-rdma/describe.c; the monitor's
 * `info mlx5` and QOM property `objects`): two connected RC QPs show in
 * RTS with their PSNs, which move with a WRITE; a QP in flight counts its
 * WQE until the ACK; a destroyed QP is gone; the JSON form says the same
 * with numbers as numbers; a kind with more objects than it lists says
 * how many there are.
 */
#include <string.h>

#include "rc-env.h"

static char *describe(Harness *h, bool json)
{
    GString *out = g_string_new("");

    mlx5_dev_describe(h->dev, out, json);
    return g_string_free(out, false);
}

/* The text line of QP `qpn`, or NULL. */
static char *qp_line(const char *text, uint32_t qpn)
{
    g_autofree char *key = g_strdup_printf("\n  0x%x ", qpn);
    const char *at = strstr(text, key);

    return at ? g_strndup(at + 1, strcspn(at + 1, "\n")) : NULL;
}

static void test_describe_qps(void)
{
    g_autoptr(RcEnv) e = env_new(0x100);
    g_autofree char *before = describe(e->h, false);
    g_autofree char *a0 = qp_line(before, e->a.num);
    g_autofree char *inflight = NULL, *after = NULL, *a1 = NULL, *json = NULL, *gone = NULL;
    g_autofree char *want = g_strdup_printf("{\"qpn\": \"0x%x\", \"type\": \"RC\", "
                                            "\"state\": \"RTS\", \"remote_qpn\": \"0x%x\", "
                                            "\"sq_psn\": \"0x101\", \"una_psn\": \"0x101\"",
                                            e->a.num, e->b.num);

    g_assert_nonnull(strstr(before, "qps (2)"));
    g_assert_nonnull(a0);
    g_assert_nonnull(strstr(a0, " RC "));
    g_assert_nonnull(strstr(a0, " RTS "));
    g_assert_nonnull(strstr(a0, " 0x100 "));            /* sq_psn: nothing sent yet */
    fill(e, 64);
    post_send(e, MLX5_OPCODE_RDMA_WRITE, 64, B_BUF);
    inflight = describe(e->h, true);                     /* sent, not yet acknowledged */
    g_assert_nonnull(strstr(inflight, "\"in_flight\": 1"));
    wire(e, false);                                      /* the WRITE */
    wire(e, false);                                      /* its ACK */
    expect_req(e, MLX5_OPCODE_RDMA_WRITE, 0);
    after = describe(e->h, false);
    a1 = qp_line(after, e->a.num);
    g_assert_nonnull(strstr(a1, " 0x101 "));
    json = describe(e->h, true);
    g_assert_nonnull(strstr(json, want));
    g_assert_nonnull(strstr(json, "\"qps_total\": 2"));
    g_assert_nonnull(strstr(json, "\"in_flight\": 0"));
    h_destroy(e->h, OP_DESTROY_QP, e->b.num);
    gone = describe(e->h, false);
    g_assert_nonnull(strstr(gone, "qps (1)"));
    g_assert_null(qp_line(gone, e->b.num));
}

/* CQs, EQs, keys and the port are there, in text and JSON alike. */
static void test_describe_other_objects(void)
{
    g_autoptr(RcEnv) e = env_new(0);
    g_autofree char *text = describe(e->h, false);
    g_autofree char *json = describe(e->h, true);
    g_autofree char *key = g_strdup_printf("\"mkey\": \"0x%x\"", e->key);

    for (const char *const *k = (const char *const[]) { "port (1)", "eqs (", "cqs (2)",
                                                         "mkeys (", "flow_tables (", NULL };
         *k; k++) {
        g_assert_nonnull(strstr(text, *k));
    }
    g_assert_nonnull(strstr(json, key));
    g_assert_nonnull(strstr(json, "\"state\": \"up\""));
    g_assert_true(json[0] == '{' && strstr(json, "}\n") == json + strlen(json) - 2);
}

/* More QPs than a kind lists: the first ones, and how many there are. */
static void test_describe_bounded(void)
{
    g_autoptr(RcEnv) e = env_new(0);
    unsigned added = env_add_qps(e, 4200);
    g_autofree char *text = describe(e->h, false);
    g_autofree char *total = g_strdup_printf("qps (%u, the first shown)", added + 2);

    g_assert_cmpuint(added, >, 4096);
    g_assert_nonnull(strstr(text, total));
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/describe/qps", test_describe_qps);
    g_test_add_func("/describe/other-objects", test_describe_other_objects);
    g_test_add_func("/describe/bounded", test_describe_bounded);
    return g_test_run();
}
