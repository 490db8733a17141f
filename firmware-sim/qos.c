/*
 * Packet pacing, the firmware's side (PRM "Packet Pacing"; QoS capability
 * page, type 0xc).
 *
 * Concepts
 * --------
 * A send queue may be held to a rate: the device keeps a table of rates
 * (kbit/s, with a burst bound and a typical packet size), filled by
 * SET_PP_RATE_LIMIT, and an Ethernet SQ names an entry by its index
 * (sqc packet_pacing_rate_limit_index, at CREATE_SQ or by MODIFY_SQ
 * with modify_bitmask bit 0).  Index 0 is "no limit" and is never set.
 * mlx5_core owns the table's allocation (rl.c: it shares an entry among
 * SQs of the same rate, sets it before the first SQ names it and clears
 * it after the last lets go); the device checks what it is given.
 * mlx5e paces a TX queue by it (tx_maxrate in sysfs,
 * en_main.c mlx5e_set_sq_maxrate) and mlx5_ib a raw packet QP
 * (IBV_QP_RATE_LIMIT, qp.c modify_raw_packet_qp_sq).  The data path
 * spaces the frames (hw-rdma/pacing.c).
 */
#include <string.h>

#include "cmd.h"

unsigned mlx5_pp_rate_reset(Mlx5Fw *fw)
{
    unsigned n = 0;

    for (unsigned i = 0; i < MLX5_PP_RATE_TABLE_SIZE; i++) {
        n += fw->pp_rate[i].rate_kbps != 0;
    }
    memset(fw->pp_rate, 0, sizeof(fw->pp_rate));
    return n;
}

const Mlx5PpRate *mlx5_pp_rate(const Mlx5Fw *fw, uint16_t index)
{
    return index && index < MLX5_PP_RATE_TABLE_SIZE && fw->pp_rate[index].rate_kbps
               ? &fw->pp_rate[index] : NULL;
}

/* SET_PP_RATE_LIMIT: entry rate_limit_index gets the context's rate, or
 * is cleared by a rate of 0 (rl.c mlx5_set_pp_rate_limit_cmd sends a
 * zeroed context to clear).  A rate must lie within the advertised
 * range; index 0 cannot be set. */
unsigned cmd_set_pp_rate_limit(Mlx5Fw *fw, Mlx5Cmd *c)
{
    const uint8_t *ctx = PRM_PTR(set_pp_rate_limit_in, ctx, c->in);
    unsigned index = PRM_GET(set_pp_rate_limit_in, rate_limit_index, c->in);
    uint32_t rate = PRM_GET(set_pp_rate_limit_context, rate_limit, ctx);
    const uint8_t *cap = MLX5_CAP_CUR(fw, MLX5_CAP_QOS);
    Mlx5PpRate *e;

    if (index == 0 || index >= PRM_GET(qos_cap, packet_pacing_rate_table_size, cap)) {
        mlx5emu_trace_pp_rate_err(index, rate, "index 0 or past the table");
        return CMD_FAIL(c, BAD_PARAM, PP_RATE_INDEX);
    }
    if (rate && (rate < PRM_GET(qos_cap, packet_pacing_min_rate, cap) ||
                 rate > PRM_GET(qos_cap, packet_pacing_max_rate, cap))) {
        mlx5emu_trace_pp_rate_err(index, rate, "outside the advertised range");
        return CMD_FAIL(c, BAD_PARAM, PP_RATE);
    }
    e = &fw->pp_rate[index];
    e->rate_kbps = rate;
    e->burst_bytes = rate ? PRM_GET(set_pp_rate_limit_context, burst_upper_bound, ctx) : 0;
    e->typical_bytes = rate ? PRM_GET(set_pp_rate_limit_context, typical_packet_size, ctx) : 0;
    mlx5emu_trace_pp_rate_set(index, e->rate_kbps, e->burst_bytes, e->typical_bytes);
    return MLX5_CMD_STAT_OK;
}

/* An SQ's rate index (CREATE_SQ, MODIFY_SQ): 0, or an entry holding a
 * rate. */
unsigned mlx5_sq_check_rate(Mlx5Fw *fw, Mlx5Cmd *c, uint32_t sqn, uint16_t index)
{
    if (index && !mlx5_pp_rate(fw, index)) {
        mlx5emu_trace_sq_rate_err(sqn, index);
        return CMD_FAIL(c, BAD_PARAM, PP_RATE_NOT_SET);
    }
    return MLX5_CMD_STAT_OK;
}
