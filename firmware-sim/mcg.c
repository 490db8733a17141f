/*
 * Multicast groups (PRM ATTACH_TO_MCG / DETACH_FROM_MCG; IBA 10.5).
 *
 * Concepts
 * --------
 * A UD QP attached to a multicast GID receives every datagram sent to that
 * GID with destination QP 0xFFFFFF (IBA 9.8.2): the device copies it into
 * each attached QP (hw-rdma/ud.c).  On RoCE the kernel joins the IP group
 * itself (IGMP/MLD from the netdev, rdma_cm cma_iboe_join_multicast) and
 * mlx5_ib attaches the QP (ibv_attach_mcast -> mlx5_ib_mcg_attach).  The
 * caps bound the table: log_max_mcg groups of max_qp_mcg QPs each (past
 * either, "limits exceeded" as for objects, cmd.h mlx5_cmd_table_fail);
 * at most ~1 MiB at the advertised maxima, so not charged to the budget.
 */
#include <string.h>

#include "cmd.h"

/* IPv6 ff00::/8, or an IPv4-mapped 224.0.0.0/4 (RoCE v2 over IPv4). */
bool mlx5_gid_is_multicast(const uint8_t gid[16])
{
    static const uint8_t v4_mapped[12] = { [10] = 0xff, [11] = 0xff };

    if (gid[0] == 0xff) {
        return true;
    }
    return memcmp(gid, v4_mapped, sizeof(v4_mapped)) == 0 && (gid[12] & 0xf0) == 0xe0;
}

/* Groups by GID (GBytes keys), each the GArray of its QPNs: delivery
 * finds a datagram's group at once, whatever else is attached. */
GHashTable *mlx5_mcg_table_new(void)
{
    return g_hash_table_new_full(g_bytes_hash, g_bytes_equal, (GDestroyNotify)g_bytes_unref,
                                 (GDestroyNotify)g_array_unref);
}

static GArray *mcg_group(const Mlx5Fw *fw, const uint8_t gid[16])
{
    g_autoptr(GBytes) key = g_bytes_new_static(gid, 16);

    return g_hash_table_lookup(fw->mcg, key);
}

const GArray *mlx5_mcg_members(const Mlx5Fw *fw, const uint8_t gid[16])
{
    return mcg_group(fw, gid);
}

unsigned mlx5_mcg_count(const Mlx5Fw *fw)
{
    GHashTableIter it;
    gpointer members;
    unsigned n = 0;

    g_hash_table_iter_init(&it, fw->mcg);
    while (g_hash_table_iter_next(&it, NULL, &members)) {
        n += ((GArray *)members)->len;
    }
    return n;
}

/* The index of `qpn` among the group's QPs, or -1. */
static int mcg_find(const GArray *group, uint32_t qpn)
{
    for (guint i = 0; group && i < group->len; i++) {
        if (g_array_index(group, uint32_t, i) == qpn) {
            return (int)i;
        }
    }
    return -1;
}

/* Leave the group; an empty group goes (true: it went). */
static bool mcg_leave(GArray *group, guint i)
{
    g_array_remove_index_fast(group, i);
    return group->len == 0;
}

static gboolean mcg_qp_leaves(gpointer key, gpointer group, gpointer qpn)
{
    int i = mcg_find(group, GPOINTER_TO_UINT(qpn));

    return i >= 0 && mcg_leave(group, (guint)i);
}

void mlx5_mcg_qp_gone(Mlx5Fw *fw, uint32_t qpn)
{
    g_hash_table_foreach_remove(fw->mcg, mcg_qp_leaves, GUINT_TO_POINTER(qpn));
}

/* What ATTACH_TO_MCG and DETACH_FROM_MCG name (at the same places,
 * mlx5_ifc.h): a QP and a GID, and the GID's group if it has one. */
typedef struct McgCmd {
    uint32_t qpn;
    const uint8_t *gid;
    GArray *group;
} McgCmd;
MLX5_SAME_FIELD(attach_to_mcg_in, qpn, detach_from_mcg_in, qpn)
MLX5_SAME_FIELD(attach_to_mcg_in, multicast_gid, detach_from_mcg_in, multicast_gid)

/* The QP exists and is UD (the only service multicast serves, IBA 10.5),
 * the GID is a multicast one. */
static unsigned mcg_cmd(Mlx5Fw *fw, Mlx5Cmd *c, McgCmd *m)
{
    unsigned st;
    Mlx5Qp *qp;

    m->qpn = PRM_GET(attach_to_mcg_in, qpn, c->in);
    m->gid = PRM_PTR(attach_to_mcg_in, multicast_gid, c->in);
    m->group = mcg_group(fw, m->gid);
    qp = mlx5_cmd_find(c, mlx5_qp_get(fw, m->qpn), m->qpn, MLX5_SYND_BAD_QP, &st);
    if (!qp) {
        return st;
    }
    if (qp->st != MLX5_QP_ST_UD) {
        return CMD_FAIL(c, BAD_PARAM, QP_TYPE);
    }
    if (!mlx5_gid_is_multicast(m->gid)) {
        return CMD_FAIL(c, BAD_PARAM, NOT_MULTICAST);
    }
    return MLX5_CMD_STAT_OK;
}

unsigned cmd_attach_to_mcg(Mlx5Fw *fw, Mlx5Cmd *c)
{
    McgCmd m;
    unsigned st = mcg_cmd(fw, c, &m);

    if (st != MLX5_CMD_STAT_OK || mcg_find(m.group, m.qpn) >= 0) {
        return st;                      /* attached already: nothing to do */
    }
    if ((!m.group && g_hash_table_size(fw->mcg) >=
                     1u << MLX5_CAP_GET(fw, MLX5_CAP_GENERAL, cmd_hca_cap, log_max_mcg)) ||
        (m.group && m.group->len >= MLX5_CAP_GET(fw, MLX5_CAP_GENERAL, cmd_hca_cap, max_qp_mcg))) {
        return CMD_FAIL(c, LIM_ERR, OBJECT_LIMIT);
    }
    if (!m.group) {
        m.group = g_array_new(false, false, sizeof(uint32_t));
        g_hash_table_insert(fw->mcg, g_bytes_new(m.gid, 16), m.group);
    }
    g_array_append_val(m.group, m.qpn);
    mlx5emu_trace_mcg_attach(m.qpn, prm_be32(m.gid), prm_be32(m.gid + 12), m.group->len);
    return MLX5_CMD_STAT_OK;
}

unsigned cmd_detach_from_mcg(Mlx5Fw *fw, Mlx5Cmd *c)
{
    McgCmd m;
    unsigned st = mcg_cmd(fw, c, &m);
    int i;

    if (st != MLX5_CMD_STAT_OK) {
        return st;
    }
    i = mcg_find(m.group, m.qpn);
    if (i < 0) {
        return CMD_FAIL(c, BAD_PARAM, NOT_ATTACHED);
    }
    if (mcg_leave(m.group, (guint)i)) {
        g_autoptr(GBytes) key = g_bytes_new_static(m.gid, 16);
        g_hash_table_remove(fw->mcg, key);
    }
    mlx5emu_trace_mcg_detach(m.qpn, prm_be32(m.gid), prm_be32(m.gid + 12));
    return MLX5_CMD_STAT_OK;
}
