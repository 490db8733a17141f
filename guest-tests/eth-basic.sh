#!/bin/bash
# Ethernet smoke test between two guests, run in both:
#   scripts/vm --nodes 2 -- /mlx5emu/guest-tests/eth-basic.sh
# Prints "PASS <check>" / "FAIL <check>" lines; exits non-zero on a failure.
# Checks: ping and ping -6 to the peer, iperf3 TCP (node 1 sends to node 0),
# ethtool -t (link, speed, health, loopback), jumbo frames at MTU 9000.
set -u
fails=0
check() {   # check NAME CMD...: run with a deadline, PASS/FAIL by status
    local name=$1
    shift
    if timeout 60 "$@" >/tmp/check.out 2>&1; then
        echo "PASS $name"
    else
        echo "FAIL $name: $(tail -3 /tmp/check.out | tr '\n' ' ')"
        fails=$((fails + 1))
    fi
}
[ -n "${PEER_IP:-}" ] || { echo "FAIL setup: no PEER_IP (needs --nodes 2)"; exit 1; }

check ping ping -c 20 -i 0.05 -W 5 "$PEER_IP"
check ping6 ping -6 -c 20 -i 0.05 -W 5 "$PEER_IP6"
if [ "$NODE" = 0 ]; then
    check iperf3-server iperf3 -s -1
else
    sleep 2
    check iperf3 iperf3 -t 3 -c "$PEER_IP"
fi
check ethtool-selftest ethtool -t "$DEV"
ip link set "$DEV" mtu 9000
# The peer raises its MTU at about the same time: allow 20 s for 3 replies.
check jumbo ping -c 3 -w 20 -i 0.5 -s 8900 -M do "$PEER_IP"
sleep 3                                 # let the peer finish its pings
exit $((fails > 0))
