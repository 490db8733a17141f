/*
 * NIC receive flow steering (PRM "Flow Table"): where a received frame goes.
 *
 * Concepts
 * --------
 * The driver programs a chain of flow tables (Linux en_fs.c / fs_core.c:
 * TC miss -> VLAN -> L2 -> TTC -> TIR).  A frame is first turned into the
 * same 512-byte fte_match_param the driver writes into flow groups and
 * entries (mlx5_steer_parse); the walk then starts at the NIC RX root
 * table.  In each table the matching entry with the lowest index wins: an
 * entry matches when, for every section its group enables
 * (match_criteria_enable: outer headers, misc, inner headers, ...), the
 * frame's bits under the group's criteria mask equal the entry's.  The
 * entry's action forwards to another table or to a TIR, or drops; a table
 * with no match follows its miss table (table_miss_action 1) or drops.
 *
 * What a frame costs does not grow with the number of entries: in each
 * table it is one hash probe per non-empty flow group, groups in index
 * order (firmware-sim/flow.h, mlx5_flow_table_match), and it visits
 * tables of rising level only, so at most one per level, never more than
 * MLX5_STEER_MAX_HOPS.
 */
#ifndef MLX5EMU_STEERING_H
#define MLX5EMU_STEERING_H

#include "fw.h"

/* What parsing found, for hashing and CQE fields. */
typedef struct Mlx5PktInfo {
    uint16_t ethertype;         /* after any 802.1Q tag */
    bool vlan;                  /* an 802.1Q tag is present */
    uint16_t vlan_tci;
    uint16_t l3_off;            /* byte offset of the IP header, 0 if none */
    uint8_t ip_version;         /* 4, 6 or 0 */
    uint8_t ip_protocol;
    bool frag;
    uint16_t l4_off;            /* 0 if no TCP/UDP header was parsed */
    uint8_t src_ip[16], dst_ip[16];     /* IPv4 in the last 4 bytes */
    uint16_t sport, dport;
} Mlx5PktInfo;

enum { MLX5_STEER_MAX_HOPS = 64 };

typedef enum {
    MLX5_STEER_TIR,             /* *tirn is where the frame goes */
    MLX5_STEER_DROP,            /* an entry's DROP action */
    MLX5_STEER_MISS,            /* no match and no miss table */
    MLX5_STEER_NO_ROOT,         /* the driver set no root table */
    MLX5_STEER_LOOP,            /* a table at or below the last one's level, or more
                                 * than MLX5_STEER_MAX_HOPS tables */
} Mlx5SteerResult;

/* Parse a frame (never reading past len) into match parameters. */
void mlx5_steer_parse(const uint8_t *frame, size_t len,
                      uint8_t param[MLX5_MATCH_PARAM_BYTES], Mlx5PktInfo *info);
/* Walk the NIC RX tables for the parsed frame. */
Mlx5SteerResult mlx5_steer_lookup(Mlx5Fw *fw, const uint8_t param[MLX5_MATCH_PARAM_BYTES],
                                  uint32_t *tirn, uint32_t *flow_tag);
const char *mlx5_steer_result_name(Mlx5SteerResult r);

#endif
