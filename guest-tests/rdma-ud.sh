#!/bin/bash
# Datagrams and rdma_cm between two guests, run in both:
#   scripts/vm --nodes 2 --modules mlx5_ib,ib_uverbs,rdma_ucm -- /mlx5emu/guest-tests/rdma-ud.sh
# ibv_ud_pingpong at 64, 512 and 1024 bytes (the path MTU of a 1500-byte
# link), polling and with -e, data checked (-c) where this rdma-core has
# it; then rping -v -V -C 1000 (rdma_cm: CM MADs over
# the GSI QPs, RC data verified by rping), once with each guest as the
# server.  With scripts/vm --peer rxe the same runs against Soft-RoCE.
# Prints "PASS/FAIL <test>"; exit 1 if one failed.
set -u
# shellcheck source=guest-tests/rdma-lib.sh
. /mlx5emu/guest-tests/rdma-lib.sh     # G, GID, pass, fail, pair_run
chk=; ibv_ud_pingpong --help 2>&1 | grep -q -- '--chk' && chk=-c
port=18700
SERVER=0
for size in 64 512 1024; do
    for ev in "" -e; do
        port=$((port + 1))
        pair_check "ud_pingpong-$size${ev:+-events}${chk:+ (data checked)}" 'Mbit/sec' \
            ibv_ud_pingpong -d "$IBDEV" -g "$GID" -s "$size" -n 200 -p "$port" $ev $chk
    done
done
# rping takes the server's address with -a on both sides (the client's
# extra last argument, the peer's address, it ignores); -V makes it check
# every ping's data (a mismatch ends it with an error), -v prints it, the
# last being rdma-ping-999.
for SERVER in 0 1; do
    if [ "$NODE" = "$SERVER" ]; then role=(-s -a "$MY_IP"); else role=(-c -a "$PEER_IP"); fi
    port=$((port + 1))
    pair_check "rping-C1000-node$SERVER-server" 'rdma-ping-999:' \
        rping "${role[@]}" -v -V -C 1000 -p "$port"
done
exit $((fails > 0))
