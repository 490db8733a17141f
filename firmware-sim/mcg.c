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
 * caps bound the table: log_max_mcg groups of max_qp_mcg QPs each.
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

static int mcg_find(const Mlx5Fw *fw, const uint8_t gid[16], uint32_t qpn)
{
    for (guint i = 0; i < fw->mcg->len; i++) {
        const Mlx5McgMember *m = &g_array_index(fw->mcg, Mlx5McgMember, i);
        if (m->qpn == qpn && memcmp(m->gid, gid, 16) == 0) {
            return (int)i;
        }
    }
    return -1;
}

/* Groups in the table, and QPs in group `gid`. */
static void mcg_counts(const Mlx5Fw *fw, const uint8_t gid[16], unsigned *groups,
                       unsigned *members)
{
    *groups = *members = 0;
    for (guint i = 0; i < fw->mcg->len; i++) {
        const Mlx5McgMember *m = &g_array_index(fw->mcg, Mlx5McgMember, i);
        bool first = true;

        for (guint j = 0; j < i && first; j++) {
            first = memcmp(g_array_index(fw->mcg, Mlx5McgMember, j).gid, m->gid, 16) != 0;
        }
        *groups += first;
        *members += memcmp(m->gid, gid, 16) == 0;
    }
}

bool mlx5_mcg_next(const Mlx5Fw *fw, const uint8_t gid[16], guint *pos, uint32_t *qpn)
{
    for (; *pos < fw->mcg->len; ++*pos) {
        const Mlx5McgMember *m = &g_array_index(fw->mcg, Mlx5McgMember, *pos);
        if (memcmp(m->gid, gid, 16) == 0) {
            *qpn = m->qpn;
            ++*pos;
            return true;
        }
    }
    return false;
}

void mlx5_mcg_qp_gone(Mlx5Fw *fw, uint32_t qpn)
{
    for (guint i = fw->mcg->len; i-- > 0;) {
        if (g_array_index(fw->mcg, Mlx5McgMember, i).qpn == qpn) {
            g_array_remove_index(fw->mcg, i);
        }
    }
}

/* The QP exists and is UD (the only service multicast serves, IBA 10.5),
 * the GID is a multicast one. */
static unsigned mcg_check(Mlx5Fw *fw, Mlx5Cmd *c, uint32_t qpn, const uint8_t *gid)
{
    Mlx5Wq *w = mlx5_qp_get(fw, qpn);

    c->obj = qpn;
    if (!w) {
        return CMD_FAIL(c, BAD_RES, BAD_QP);
    }
    if (w->qp_st != MLX5_QP_ST_UD) {
        return CMD_FAIL(c, BAD_PARAM, QP_TYPE);
    }
    if (!mlx5_gid_is_multicast(gid)) {
        return CMD_FAIL(c, BAD_PARAM, NOT_MULTICAST);
    }
    return MLX5_CMD_STAT_OK;
}

unsigned cmd_attach_to_mcg(Mlx5Fw *fw, Mlx5Cmd *c)
{
    uint32_t qpn = PRM_GET(attach_to_mcg_in, qpn, c->in);
    const uint8_t *gid = PRM_PTR(attach_to_mcg_in, multicast_gid, c->in);
    unsigned st = mcg_check(fw, c, qpn, gid), groups, members;
    Mlx5McgMember m = { .qpn = qpn };

    if (st != MLX5_CMD_STAT_OK || mcg_find(fw, gid, qpn) >= 0) {
        return st;                      /* attached already: nothing to do */
    }
    mcg_counts(fw, gid, &groups, &members);
    if ((members == 0 && groups >= 1u << MLX5_CAP_GET(fw, MLX5_CAP_GENERAL, cmd_hca_cap,
                                                      log_max_mcg)) ||
        members >= MLX5_CAP_GET(fw, MLX5_CAP_GENERAL, cmd_hca_cap, max_qp_mcg)) {
        return CMD_FAIL(c, NO_RES, NO_RESOURCE);
    }
    memcpy(m.gid, gid, 16);
    g_array_append_val(fw->mcg, m);
    mlx5emu_trace_mcg_attach(qpn, prm_be32(gid), prm_be32(gid + 12), members + 1);
    return MLX5_CMD_STAT_OK;
}

unsigned cmd_detach_from_mcg(Mlx5Fw *fw, Mlx5Cmd *c)
{
    uint32_t qpn = PRM_GET(detach_from_mcg_in, qpn, c->in);
    const uint8_t *gid = PRM_PTR(detach_from_mcg_in, multicast_gid, c->in);
    unsigned st = mcg_check(fw, c, qpn, gid);
    int i;

    if (st != MLX5_CMD_STAT_OK) {
        return st;
    }
    i = mcg_find(fw, gid, qpn);
    if (i < 0) {
        return CMD_FAIL(c, BAD_PARAM, NOT_ATTACHED);
    }
    g_array_remove_index(fw->mcg, (guint)i);
    mlx5emu_trace_mcg_detach(qpn, prm_be32(gid), prm_be32(gid + 12));
    return MLX5_CMD_STAT_OK;
}
