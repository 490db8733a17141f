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

/* What the entry `e` a frame matched does with it: true when the walk
 * ends there (*r), false when it goes on to table *next. */
static bool steer_entry(const Mlx5Fte *e, uint32_t *tirn, uint32_t *flow_tag,
                        Mlx5SteerResult *r, uint32_t *next)
{
    if ((e->action & MLX5_FLOW_ACTION_DROP) ||
        !(e->action & MLX5_FLOW_ACTION_FWD_DEST) || e->ndest == 0) {
        *r = MLX5_STEER_DROP;           /* a DROP, or ALLOW/COUNT only: nowhere to go */
        return true;
    }
    if (e->dest[0].type == MLX5_FLOW_DEST_TIR) {
        *tirn = e->dest[0].id;
        *flow_tag = e->flow_tag;
        *r = MLX5_STEER_TIR;
        return true;
    }
    *next = e->dest[0].id;
    return false;
}

Mlx5SteerResult mlx5_steer_lookup(Mlx5Fw *fw, const uint8_t param[MLX5_MATCH_PARAM_BYTES],
                                  uint32_t *tirn, uint32_t *flow_tag)
{
    Mlx5FlowTable *ft, *next;
    Mlx5SteerResult r;
    uint32_t next_id;

    if (!fw->flow_root_set[MLX5_FLOW_TABLE_TYPE_NIC_RX] ||
        !(ft = mlx5_table_get(&fw->flow_table, fw->flow_root[MLX5_FLOW_TABLE_TYPE_NIC_RX]))) {
        return MLX5_STEER_NO_ROOT;
    }
    for (unsigned hop = 0; hop < MLX5_STEER_MAX_HOPS; hop++) {
        const Mlx5Fte *e = mlx5_flow_table_match(ft, param);
        if (!e) {
            mlx5emu_trace_steer_miss(ft->id, ft->miss_action, ft->miss_id);
            if (ft->miss_action != MLX5_FLOW_TABLE_MISS_FWD) {
                return MLX5_STEER_MISS;
            }
            next_id = ft->miss_id;
        } else {
            mlx5emu_trace_steer_hit(ft->id, e->index, e->action,
                                    e->ndest ? e->dest[0].type : 0,
                                    e->ndest ? e->dest[0].id : 0);
            if (steer_entry(e, tirn, flow_tag, &r, &next_id)) {
                return r;
            }
        }
        if (!(next = mlx5_table_get(&fw->flow_table, next_id))) {
            return MLX5_STEER_MISS;
        }
        /* Commands let a table forward only upwards (firmware-sim/flow.c
         * ft_level_check); a table at or below this one is a destroyed
         * table's number handed out again.  Levels rising at every hop
         * make a loop impossible; the hop bound stays as a second guard. */
        if (next->level <= ft->level) {
            mlx5emu_trace_ub_steer_level(ft->id, ft->level, next->id, next->level);
            return MLX5_STEER_LOOP;
        }
        ft = next;
    }
    return MLX5_STEER_LOOP;
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
