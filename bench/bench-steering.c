/*
 * Benchmark of receive flow steering (scripts/bench steering): what a
 * frame costs through the NIC RX tables as they hold more entries, and
 * what CREATE_FLOW_GROUP + DESTROY_FLOW_GROUP cost as the group's range
 * grows.  It measures and prints; it asserts nothing about speed.  Each
 * table is measured against a baseline of the same run: 10 entries for
 * the frames, a one-entry range for the groups.
 *
 * Frames: real UDP frames, parsed and looked up (mlx5_steer_parse +
 * mlx5_steer_lookup) in a root table whose entries match the UDP
 * destination and source ports; the frames cycle through ports that have
 * an entry.  Groups: commands through mlx5_fw_exec, as the driver sends
 * them, on a table of 2^log_max_ft_size entries.
 */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "steering.h"

enum { FRAME_LEN = 64, NFRAMES = 1024, MIN_US = 300000 };

/* A UDP/IPv4 frame to ports (dport, sport) (IEEE 802.3, RFC 791, 768). */
static void udp_frame(uint8_t *f, uint16_t dport, uint16_t sport)
{
    uint8_t *ip = f + ETH_HLEN, *udp = ip + IPV4_HLEN;

    memset(f, 0, FRAME_LEN);
    f[0] = 0x02;
    f[5] = 0x01;
    prm_put_be16(f + ETH_TYPE, ETH_P_IP);
    ip[0] = 0x45;
    prm_put_be16(ip + IPV4_TOT_LEN, FRAME_LEN - ETH_HLEN);
    ip[IPV4_TTL] = 64;
    ip[IPV4_PROTOCOL] = IP_PROTO_UDP;
    prm_put_be16(udp + UDP_SPORT, sport);
    prm_put_be16(udp + UDP_DPORT, dport);
    prm_put_be16(udp + UDP_LEN, FRAME_LEN - ETH_HLEN - IPV4_HLEN);
}

/* A root table holding `n` entries in `ngroups` groups of n / ngroups
 * entries each, all on both ports; entry i has ports (i & 0xffff, i >> 16)
 * and flow tag i. */
static Harness *steering_setup(uint32_t n, uint32_t ngroups, uint32_t *tir)
{
    Harness *h = h_new();
    uint32_t ft, per = n / ngroups;
    HCmd *c;

    h_bringup(h);
    *tir = h_create_tir_direct(h, h_create_rq(h, h_create_cq(h, h->comp_eq.num, 4).num, 4).num);
    ft = h_create_flow_table(h, 17, 0);
    for (uint32_t g = 0; g < ngroups; g++) {
        uint32_t fg = h_create_flow_group_ports(h, ft, g * per, g * per + per - 1,
                                                H_ON_DPORT | H_ON_SPORT);
        for (uint32_t i = g * per; i < g * per + per; i++) {
            h_ok_free(h, h_fte_ports_cmd(0, ft, fg, i, (uint16_t)i, (uint16_t)(i >> 16),
                                         *tir, i));
        }
    }
    c = hcmd_new(OP_SET_FLOW_TABLE_ROOT, 0);
    IN_SET(c, set_flow_table_root_in, table_id, ft);
    h_ok_free(h, c);
    return h;
}

/* Frames per second through steering; every frame must reach its entry. */
static double steering_rate(uint32_t n, uint32_t ngroups)
{
    uint32_t tir, tirn, tag, done = 0;
    Harness *h = steering_setup(n, ngroups, &tir);
    g_autofree uint8_t *frames = g_malloc(NFRAMES * FRAME_LEN);
    uint8_t param[MLX5_MATCH_PARAM_BYTES];
    Mlx5PktInfo pi;
    int64_t t0, us;

    for (uint32_t k = 0; k < NFRAMES; k++) {
        uint32_t i = (uint32_t)(((uint64_t)k * 2654435761u) % n);
        udp_frame(frames + k * FRAME_LEN, (uint16_t)i, (uint16_t)(i >> 16));
    }
    t0 = g_get_monotonic_time();
    do {
        for (uint32_t k = 0; k < NFRAMES; k++) {
            mlx5_steer_parse(frames + k * FRAME_LEN, FRAME_LEN, param, &pi);
            if (mlx5_steer_lookup(h->fw, param, &tirn, &tag) != MLX5_STEER_TIR ||
                tirn != tir || tag != (pi.dport | (uint32_t)pi.sport << 16)) {
                g_error("frame %u steered wrong", k);
            }
        }
        done += NFRAMES;
        us = g_get_monotonic_time() - t0;
    } while (us < MIN_US);
    h_free(h);
    return done * 1e6 / (double)us;
}

/* Microseconds per CREATE_FLOW_GROUP + DESTROY_FLOW_GROUP of `span`
 * entries in a table of 2^22. */
static double group_cycle_us(uint32_t span)
{
    Harness *h = h_new();
    g_autoptr(HCmd) create = hcmd_new(OP_CREATE_FLOW_GROUP, 0);
    g_autoptr(HCmd) destroy = hcmd_new(OP_DESTROY_FLOW_GROUP, 0);
    uint32_t ft, done = 0;
    int64_t t0, us;

    h_bringup(h);
    ft = h_create_flow_table(h, 22, 0);
    IN_SET(create, create_flow_group_in, table_id, ft);
    IN_SET(create, create_flow_group_in, end_flow_index, span - 1);
    IN_SET(destroy, destroy_flow_group_in, table_id, ft);
    t0 = g_get_monotonic_time();
    do {
        h_ok(h, create);
        IN_SET(destroy, destroy_flow_group_in, group_id,
               OUT_GET(create, create_flow_group_out, group_id));
        h_ok(h, destroy);
        done++;
        us = g_get_monotonic_time() - t0;
    } while (us < MIN_US);
    h_free(h);
    return (double)us / done;
}

int main(void)
{
    static const struct { uint32_t n, groups; } tables[] = {
        { 10, 1 }, { 1000, 1 }, { 100000, 1 }, { 1000, 1000 },
    };
    static const uint32_t spans[] = { 1, 1u << 10, 1u << 20, 1u << 22 };
    double base = 0, gbase = 0;

    printf("steering: frames/s through parse + lookup, root table of N entries\n");
    printf("%10s %8s %14s %14s\n", "entries", "groups", "frames/s", "vs 10 entries");
    for (size_t i = 0; i < G_N_ELEMENTS(tables); i++) {
        double r = steering_rate(tables[i].n, tables[i].groups);
        base = i == 0 ? r : base;
        printf("%10u %8u %14.0f %13.2fx\n", tables[i].n, tables[i].groups, r, r / base);
    }
    printf("\nflow groups: CREATE_FLOW_GROUP + DESTROY_FLOW_GROUP, table of 2^22 entries\n");
    printf("%10s %14s %14s\n", "range", "us per pair", "vs 1 entry");
    for (size_t i = 0; i < G_N_ELEMENTS(spans); i++) {
        double us = group_cycle_us(spans[i]);
        gbase = i == 0 ? us : gbase;
        printf("%10u %14.2f %13.2fx\n", spans[i], us, us / gbase);
    }
    return 0;
}
