/* NIC receive flow steering: see steering.h. */
#include <string.h>

#include "steering.h"

enum {
    ETH_P_8021Q = 0x8100, ETH_P_IP = 0x0800, ETH_P_IPV6 = 0x86dd,
    IPPROTO_TCP_ = 6, IPPROTO_UDP_ = 17,
};

static void parse_l4(const uint8_t *f, size_t len, uint8_t *hdr, Mlx5PktInfo *pi)
{
    if (pi->frag || (pi->ip_protocol != IPPROTO_TCP_ && pi->ip_protocol != IPPROTO_UDP_) ||
        pi->l4_off + 4u > len) {
        pi->l4_off = 0;
        return;
    }
    pi->sport = prm_be16(f + pi->l4_off);
    pi->dport = prm_be16(f + pi->l4_off + 2);
    if (pi->ip_protocol == IPPROTO_TCP_) {
        PRM_SET(fte_match_set_lyr_2_4, tcp_sport, hdr, pi->sport);
        PRM_SET(fte_match_set_lyr_2_4, tcp_dport, hdr, pi->dport);
        if (pi->l4_off + 14u <= len) {
            PRM_SET(fte_match_set_lyr_2_4, tcp_flags, hdr,
                    prm_be16(f + pi->l4_off + 12) & 0x1ff);
        }
    } else {
        PRM_SET(fte_match_set_lyr_2_4, udp_sport, hdr, pi->sport);
        PRM_SET(fte_match_set_lyr_2_4, udp_dport, hdr, pi->dport);
    }
}

static void parse_ipv4(const uint8_t *f, size_t len, uint8_t *hdr, Mlx5PktInfo *pi)
{
    const uint8_t *ip = f + pi->l3_off;
    unsigned ihl;

    if (pi->l3_off + 20u > len || (ip[0] >> 4) != 4 || (ihl = (ip[0] & 0xf) * 4u) < 20) {
        pi->l3_off = 0;
        return;
    }
    pi->ip_version = 4;
    pi->ip_protocol = ip[9];
    pi->frag = (prm_be16(ip + 6) & 0x3fff) != 0;     /* MF or offset */
    memcpy(pi->src_ip + 12, ip + 12, 4);
    memcpy(pi->dst_ip + 12, ip + 16, 4);
    PRM_SET(fte_match_set_lyr_2_4, ip_version, hdr, 4);
    PRM_SET(fte_match_set_lyr_2_4, ip_protocol, hdr, ip[9]);
    PRM_SET(fte_match_set_lyr_2_4, ip_dscp, hdr, ip[1] >> 2);
    PRM_SET(fte_match_set_lyr_2_4, ip_ecn, hdr, ip[1] & 3);
    PRM_SET(fte_match_set_lyr_2_4, frag, hdr, pi->frag);
    PRM_SET(fte_match_set_lyr_2_4, ipv4_ihl, hdr, ip[0] & 0xf);
    PRM_SET(fte_match_set_lyr_2_4, ttl_hoplimit, hdr, ip[8]);
    memcpy(PRM_PTR(fte_match_set_lyr_2_4, src_ipv4_src_ipv6, hdr) + 12, ip + 12, 4);
    memcpy(PRM_PTR(fte_match_set_lyr_2_4, dst_ipv4_dst_ipv6, hdr) + 12, ip + 16, 4);
    pi->l4_off = (uint16_t)(pi->l3_off + ihl);
    parse_l4(f, len, hdr, pi);
}

static void parse_ipv6(const uint8_t *f, size_t len, uint8_t *hdr, Mlx5PktInfo *pi)
{
    const uint8_t *ip = f + pi->l3_off;

    if (pi->l3_off + 40u > len || (ip[0] >> 4) != 6) {
        pi->l3_off = 0;
        return;
    }
    pi->ip_version = 6;
    pi->ip_protocol = ip[6];            /* extension headers are not walked */
    memcpy(pi->src_ip, ip + 8, 16);
    memcpy(pi->dst_ip, ip + 24, 16);
    PRM_SET(fte_match_set_lyr_2_4, ip_version, hdr, 6);
    PRM_SET(fte_match_set_lyr_2_4, ip_protocol, hdr, ip[6]);
    PRM_SET(fte_match_set_lyr_2_4, ip_dscp, hdr, (prm_be16(ip) >> 6) & 0x3f);
    PRM_SET(fte_match_set_lyr_2_4, ip_ecn, hdr, (prm_be16(ip) >> 4) & 3);
    PRM_SET(fte_match_set_lyr_2_4, ttl_hoplimit, hdr, ip[7]);
    memcpy(PRM_PTR(fte_match_set_lyr_2_4, src_ipv4_src_ipv6, hdr), ip + 8, 16);
    memcpy(PRM_PTR(fte_match_set_lyr_2_4, dst_ipv4_dst_ipv6, hdr), ip + 24, 16);
    pi->l4_off = (uint16_t)(pi->l3_off + 40);
    parse_l4(f, len, hdr, pi);
}

void mlx5_steer_parse(const uint8_t *f, size_t len,
                      uint8_t param[MLX5_MATCH_PARAM_BYTES], Mlx5PktInfo *pi)
{
    uint8_t *hdr = PRM_PTR(fte_match_param, outer_headers, param);
    size_t l2 = 14;

    memset(param, 0, MLX5_MATCH_PARAM_BYTES);
    memset(pi, 0, sizeof(*pi));
    if (len < 14) {
        return;
    }
    PRM_SET(fte_match_set_lyr_2_4, dmac_47_16, hdr, prm_be32(f));
    PRM_SET(fte_match_set_lyr_2_4, dmac_15_0, hdr, prm_be16(f + 4));
    PRM_SET(fte_match_set_lyr_2_4, smac_47_16, hdr, prm_be32(f + 6));
    PRM_SET(fte_match_set_lyr_2_4, smac_15_0, hdr, prm_be16(f + 10));
    pi->ethertype = prm_be16(f + 12);
    if (pi->ethertype == ETH_P_8021Q && len >= 18) {
        pi->vlan = true;
        pi->vlan_tci = prm_be16(f + 14);
        pi->ethertype = prm_be16(f + 16);
        l2 = 18;
        PRM_SET(fte_match_set_lyr_2_4, cvlan_tag, hdr, 1);
        PRM_SET(fte_match_set_lyr_2_4, first_prio, hdr, pi->vlan_tci >> 13);
        PRM_SET(fte_match_set_lyr_2_4, first_cfi, hdr, (pi->vlan_tci >> 12) & 1);
        PRM_SET(fte_match_set_lyr_2_4, first_vid, hdr, pi->vlan_tci & 0xfff);
    }
    PRM_SET(fte_match_set_lyr_2_4, ethertype, hdr, pi->ethertype);
    pi->l3_off = (uint16_t)l2;
    if (pi->ethertype == ETH_P_IP) {
        parse_ipv4(f, len, hdr, pi);
    } else if (pi->ethertype == ETH_P_IPV6) {
        parse_ipv6(f, len, hdr, pi);
    } else {
        pi->l3_off = 0;
    }
}

/* match_criteria_enable bit i covers the i-th 64-byte section of the
 * match parameters (outer, misc, inner, misc2, misc3, misc4, misc5). */
static bool fte_matches(const Mlx5FlowGroup *g, const Mlx5Fte *e, const uint8_t *param)
{
    for (unsigned sec = 0; sec < MLX5_MATCH_PARAM_BYTES / 64; sec++) {
        if (!(g->criteria_enable & (1u << sec))) {
            continue;
        }
        for (unsigned i = sec * 64; i < sec * 64 + 64; i++) {
            if ((param[i] ^ e->match[i]) & g->criteria[i]) {
                return false;
            }
        }
    }
    return true;
}

/* The matching entry with the lowest index, or NULL. */
static const Mlx5Fte *table_match(Mlx5Fw *fw, Mlx5FlowTable *ft, const uint8_t *param)
{
    const Mlx5Fte *best = NULL;
    GHashTableIter it;
    gpointer k, v;

    g_hash_table_iter_init(&it, ft->ftes.objs);
    while (g_hash_table_iter_next(&it, &k, &v)) {
        const Mlx5Fte *e = v;
        const Mlx5FlowGroup *g;
        if (best && e->index > best->index) {
            continue;
        }
        g = mlx5_table_get(&fw->flow_group, e->group_id);
        if (g && fte_matches(g, e, param)) {
            best = e;
        }
    }
    return best;
}


Mlx5SteerResult mlx5_steer_lookup(Mlx5Fw *fw, const uint8_t param[MLX5_MATCH_PARAM_BYTES],
                                  uint32_t *tirn, uint32_t *flow_tag)
{
    Mlx5FlowTable *ft;

    if (!fw->flow_root_set[MLX5_FLOW_TABLE_TYPE_NIC_RX] ||
        !(ft = mlx5_table_get(&fw->flow_table, fw->flow_root[MLX5_FLOW_TABLE_TYPE_NIC_RX]))) {
        return MLX5_STEER_NO_ROOT;
    }
    for (unsigned hop = 0; hop < MLX5_STEER_MAX_HOPS && ft; hop++) {
        const Mlx5Fte *e = table_match(fw, ft, param);
        if (!e) {
            mlx5emu_trace_steer_miss(ft->id, ft->miss_action, ft->miss_id);
            if (ft->miss_action != 1) {
                return MLX5_STEER_MISS;
            }
            ft = mlx5_table_get(&fw->flow_table, ft->miss_id);
            continue;
        }
        mlx5emu_trace_steer_hit(ft->id, e->index, e->action,
                                e->ndest ? e->dest[0].type : 0, e->ndest ? e->dest[0].id : 0);
        if (e->action & MLX5_FLOW_ACTION_DROP) {
            return MLX5_STEER_DROP;
        }
        if (!(e->action & MLX5_FLOW_ACTION_FWD_DEST) || e->ndest == 0) {
            return MLX5_STEER_DROP;     /* ALLOW/COUNT only: nowhere to go */
        }
        if (e->dest[0].type == MLX5_FLOW_DEST_TIR) {
            *tirn = e->dest[0].id;
            *flow_tag = e->flow_tag;
            return MLX5_STEER_TIR;
        }
        ft = mlx5_table_get(&fw->flow_table, e->dest[0].id);
    }
    return ft ? MLX5_STEER_LOOP : MLX5_STEER_MISS;
}

const char *mlx5_steer_result_name(Mlx5SteerResult r)
{
    static const char *const names[] = {
        [MLX5_STEER_TIR] = "TIR", [MLX5_STEER_DROP] = "drop rule",
        [MLX5_STEER_MISS] = "no matching rule", [MLX5_STEER_NO_ROOT] = "no root table",
        [MLX5_STEER_LOOP] = "table loop",
    };
    return r < G_N_ELEMENTS(names) ? names[r] : "?";
}
