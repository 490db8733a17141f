#!/bin/bash
# Two guests each started by its own scripts/vm, linked over UDP (--net udp
# between two hosts, or two network namespaces as guest-tests/run-eth's
# two-hosts run makes them), run in both:
#   scripts/vm --net udp --local A:PORT --remote B:PORT --node 0 -- /mlx5emu/guest-tests/two-hosts.sh
#   scripts/vm --net udp --local B:PORT --remote A:PORT --node 1 -- /mlx5emu/guest-tests/two-hosts.sh
# The guests meet first (they boot independently), then: 1000 pings each
# way, iperf3 TCP for 3 s (node 1 to node 0), ibv_rc_pingpong at 4 KiB and
# 1 MiB (data checked where it can).  Prints "PASS/FAIL <check>"; exits 1
# if one failed.
set -u
G=/mlx5emu/guest-tests
"$G/peer-sync" start 300 || { echo "FAIL meet: the other guest never came (peer-sync start)"; exit 1; }
# shellcheck source=guest-tests/rdma-lib.sh
. "$G/rdma-lib.sh"                     # G, GID, pass, fail, pair_check
ping -q -c 2 -W 2 "$PEER_IP" >/dev/null
r=$(ping -q -c 1000 -i 0.005 -W 2 "$PEER_IP" | grep 'packet loss')
case $r in *" 0% packet loss"*) pass "ping-1000: $r" ;; *) fail ping-1000 "$r" ;; esac
"$G/peer-sync" pinged 120 || true
SERVER=0
if [ "$NODE" = 0 ]; then iperf=(-s -1 -B "$MY_IP"); else iperf=(-t 3 -c); fi
pair_check iperf3 'receiver' iperf3 -f m "${iperf[@]}"
chk=$(pingpong_chk ibv_rc_pingpong)
pair_check "rc_pingpong-4096${chk:+ (data checked)}" 'Mbit/sec' \
    ibv_rc_pingpong -d "$IBDEV" -g "$GID" -s 4096 -n 200 -p 18801 $chk
pair_check "rc_pingpong-1M${chk:+ (data checked)}" 'Mbit/sec' \
    ibv_rc_pingpong -d "$IBDEV" -g "$GID" -s 1048576 -n 20 -p 18802 $chk
exit $((fails > 0))
