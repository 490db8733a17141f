#!/bin/bash
# Datagrams and rdma_cm between two guests, run in both:
#   scripts/vm --nodes 2 -- /mlx5emu/guest-tests/rdma-ud.sh
# ibv_ud_pingpong at 64, 512 and 1024 bytes (the path MTU of a 1500-byte
# link), polling and with -e, data checked (-c) where this rdma-core has
# it; then rping -v -V -C 1000 (rdma_cm: CM MADs over
# the GSI QPs, RC data verified by rping), once with each guest as the
# server; then malformed RoCE frames each way must show in the mlx5
# receiver's rx_discards_phy.  With scripts/vm --peer rxe the same runs
# against Soft-RoCE.
# Prints "PASS/FAIL <test>"; exit 1 if one failed.
set -u
# shellcheck source=guest-tests/rdma-lib.sh
. /mlx5emu/guest-tests/rdma-lib.sh     # G, GID, pass, fail, pair_run
chk=$(pingpong_chk ibv_ud_pingpong)
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
# Frames to the RoCE port that no QP can take - 10 with a bad ICRC, 10 cut
# short inside the BTH - sent as plain UDP to 4791 by each guest: the mlx5
# device drops them and counts them in the port's discards (PPCNT
# if_in_discards, ethtool's rx_discards_phy).
discards() { ethtool -S "$DEV" 2>/dev/null | awk '$1 == "rx_discards_phy:" { print $2 }'; }
before=$(discards)
"$G/peer-sync" bogus-roce 60 || true
python3 -c 'import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for _ in range(10):
    s.sendto(bytes([0x64]) + bytes(43), (sys.argv[1], 4791))   # UD SEND_ONLY, ICRC wrong
    s.sendto(bytes([0x64, 0, 0xff]), (sys.argv[1], 4791))       # shorter than a BTH
' "$PEER_IP"
sleep 2
"$G/peer-sync" bogus-roce-done 60 || true
after=$(discards)
if [ "$NIC" != mlx5 ]; then
    :                                   # Soft-RoCE has no such counter
elif [ -n "$before" ] && [ -n "$after" ] && [ $((after - before)) -ge 20 ]; then
    pass "malformed-roce-counted: rx_discards_phy +$((after - before)) for 20 bad frames"
else
    fail "malformed-roce-counted: rx_discards_phy ${before:-?} -> ${after:-?} for 20 bad frames"
fi
exit $((fails > 0))
