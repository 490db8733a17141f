#!/bin/bash
# Shared receive queues between two guests, run in both:
#   scripts/vm --nodes 2 -- /mlx5emu/guest-tests/rdma-srq.sh
# ibv_srq_pingpong (16 RC QPs on one SRQ each side) at 64 and 4096 bytes,
# polling and with -e, the data checked (-c) where this rdma-core has it; then, between two mlx5 guests only (Soft-RoCE has no
# XRC), ibv_xsrq_pingpong (XRC: a send QP, a receive QP and an XRC SRQ each
# side; XRC=0 skips it).  Each side once as the server.  Prints "PASS/FAIL <test>"; exit 1
# if one failed.
set -u
# shellcheck source=guest-tests/rdma-lib.sh
. /mlx5emu/guest-tests/rdma-lib.sh     # G, GID, pass, fail, pair_check
chk=$(pingpong_chk ibv_srq_pingpong)
port=18800
for SERVER in 0 1; do
    for size in 64 4096; do
        for ev in "" -e; do
            port=$((port + 1))
            pair_check "srq_pingpong-$size${ev:+-events}-node$SERVER-server${chk:+ (data checked)}" \
                'Mbit/sec' ibv_srq_pingpong -d "$IBDEV" -g "$GID" -s "$size" -n 200 -p "$port" $ev $chk
        done
    done
done
# XRC=0: skip XRC (a Soft-RoCE peer, which has none)
if [ "${XRC:-1}" = 1 ]; then
    for SERVER in 0 1; do
        port=$((port + 1))
        pair_check "xsrq_pingpong-node$SERVER-server" '^success' \
            ibv_xsrq_pingpong -d "$IBDEV" -g "$GID" -n 200 -p "$port"
    done
fi
exit $((fails > 0))
