#!/bin/bash
# RDMA inside one guest, through the device's own loopback (RoCE to the
# port's own MAC never reaches the wire), run in one guest:
#   scripts/vm -- /mlx5emu/guest-tests/rdma-loopback.sh
# ibv_rc_pingpong -c, ib_write_bw, ib_read_bw and rping -V (rdma_cm, the CM
# MADs looped through the GSI QP) between two processes of the guest, to
# its own address.  Prints "PASS/FAIL <test>"; exit 1 if one failed.
set -u
G=/mlx5emu/guest-tests
# shellcheck source=guest-tests/check-lib.sh
. "$G/check-lib.sh"
# shellcheck source=guest-tests/ready-lib.sh
. "$G/ready-lib.sh"                    # wait_server_ready
[ -n "${MY_IP:-}" ] && [ -n "${GID_INDEX:-}" ] || { echo "FAIL setup: no address or GID"; exit 1; }
chk=$(pingpong_chk ibv_rc_pingpong)

# local NAME PATTERN SERVER_CMD... -- CLIENT_ARGS...: the server in the
# background, the client (the same command plus CLIENT_ARGS) once it listens.
local_pair() {
    local name=$1 pat=$2 srv=() cli=() rc
    shift 2
    while [ $# -gt 0 ] && [ "$1" != -- ]; do srv+=("$1"); shift; done
    shift
    cli=("$@")
    timeout 120 "${srv[@]}" >/tmp/lb-srv.out 2>&1 &
    wait_server_ready $! || true
    timeout 120 "${cli[@]}" >/tmp/lb-cli.out 2>&1; rc=$?
    wait $! || rc=1
    if [ $rc = 0 ]; then
        pass "$name: $(grep -hE "$pat" /tmp/lb-cli.out | tail -1 | tr -s ' ')"
    else
        fail "$name" "$(tail -2 /tmp/lb-srv.out /tmp/lb-cli.out | tr '\n' ' ')"
    fi
}
phy_tx() { ethtool -S "$DEV" | awk '$1 == "tx_packets_phy:" { print $2 }'; }
tx0=$(phy_tx)
local_pair rc_pingpong-4096 'Mbit/sec' ibv_rc_pingpong -d "$IBDEV" -g "$GID_INDEX" -s 4096 -n 200 $chk -- \
    ibv_rc_pingpong -d "$IBDEV" -g "$GID_INDEX" -s 4096 -n 200 $chk "$MY_IP"
local_pair ib_write_bw-65536 '^ *65536 ' ib_write_bw -d "$IBDEV" -x "$GID_INDEX" -F -s 65536 -n 500 -- \
    ib_write_bw -d "$IBDEV" -x "$GID_INDEX" -F -s 65536 -n 500 "$MY_IP"
local_pair ib_read_bw-65536 '^ *65536 ' ib_read_bw -d "$IBDEV" -x "$GID_INDEX" -F -s 65536 -n 500 -- \
    ib_read_bw -d "$IBDEV" -x "$GID_INDEX" -F -s 65536 -n 500 "$MY_IP"
local_pair rping-C200 'rdma-ping-199:' rping -s -a "$MY_IP" -C 200 -V -v -- \
    rping -c -a "$MY_IP" -C 200 -V -v
# The RDMA traffic stayed inside the device: the physical port sent next
# to nothing (the tools' TCP handshakes use the kernel's own loopback).
tx=$(( $(phy_tx) - tx0 ))
if [ "$tx" -lt 100 ]; then pass "no-wire-traffic: tx_packets_phy +$tx"; else fail no-wire-traffic "tx_packets_phy +$tx"; fi
exit $((fails > 0))
