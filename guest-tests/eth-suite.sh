#!/bin/bash
# The Ethernet acceptance suite, run in both guests of
#   scripts/vm --nodes 2 --smp 2 --capture -- /mlx5emu/guest-tests/eth-suite.sh
# guest-tests/run-eth runs it and checks on the host what only the host can
# see: the filter-dump capture (frame sizes, checksums) and the COUNTER lines
# both guests print (one guest's tx against the other's rx).
# Each step prints "PASS <step>" or "FAIL <step>: why"; the guests meet at
# named rendezvous points (guest-tests/peer-sync) between steps.  Node 0 is
# mostly the receiver, node 1 the sender.  Exit status: 1 if a step failed.
set -u
fails=0
G=/mlx5emu/guest-tests
pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: ${*:2}"; fails=$((fails + 1)); }
check() {   # check NAME CMD...: PASS/FAIL by the command's status
    local name=$1
    shift
    if timeout 120 "$@" >/tmp/check.out 2>&1; then pass "$name"; else fail "$name" "$(tail -3 /tmp/check.out | tr '\n' ' ')"; fi
}
sync() { "$G/peer-sync" "$1" "${2:-120}" || fail "sync-$1" "the peer did not arrive"; }
stat() { ethtool -S "$DEV" | awk -v k="$1:" '$1 == k { print $2 }'; }
peer_mac=$(printf '02:6d:6c:35:00:%02x' $((1 - NODE + 1)))
capture() { $MONITOR qom-set /objects/capture0 status "$1" >/dev/null; }
json() {    # json FILE EXPR: a value from iperf3 -J output (d = the document)
    python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$@"
}
# shellcheck source=guest-tests/netdev-lib.sh
. "$G/netdev-lib.sh"
[ -n "${PEER_IP:-}" ] || { echo "FAIL setup: needs scripts/vm --nodes 2"; exit 1; }
capture off                 # on only for the TSO capture step
iperf3 -s -D

# --- reachability: 1000 pings each way, ARP and ND ----------------------------
check ping-1000 sh -c "ping -q -c 1000 -i 0.005 -W 2 $PEER_IP | grep -q ' 0% packet loss'"
check ping6-1000 sh -c "ping -6 -q -c 1000 -i 0.005 -W 2 $PEER_IP6 | grep -q ' 0% packet loss'"
check arp sh -c "ip neigh show $PEER_IP dev $DEV | grep -q 'lladdr $peer_mac'"
check nd sh -c "ip -6 neigh show ${PEER_IP6%%%*} dev $DEV | grep -q 'lladdr $peer_mac'"

# --- offloads: ethtool -k, then a TSO run under capture ----------------------
k=$(ethtool -k "$DEV")
for f in tx-checksumming tcp-segmentation-offload rx-checksumming; do
    grep -q "^$f: on" <<<"$k" && pass "offload-$f" || fail "offload-$f" "$(grep "^$f:" <<<"$k")"
done
sync tso
if [ "$NODE" = 1 ]; then
    capture on
    tso0=$(stat tx_tso_packets)
    check tso-iperf3 iperf3 -c "$PEER_IP" -n 20M
    # An MSS of 88: an LSO of hundreds of segments, which the device sends
    # in chunks of 64 across its slices (hw-rdma/eth-tx.c).
    check tso-iperf3-mss88 iperf3 -c "$PEER_IP" -n 2M -M 88
    capture off
    [ "$(stat tx_tso_packets)" -gt "$tso0" ] && pass tso-used || fail tso-used "tx_tso_packets did not grow"
    echo "CAPTURE tso"         # run-eth checks node1.pcap: frames <= MTU, checksums good
fi
sync tso-done

# --- iperf3: TCP 10 s each way without retransmits, UDP, paced, 4 streams ---
# A retransmission the receiver reports as a duplicate (D-SACK, RFC 2883)
# repaired no loss: the original had arrived.  Under TCG a guest's ACKs can
# stall past the sender's tail-loss-probe timeout (2 SRTT + 2 jiffies), and
# the probe resends the last segment; virtio-net guests show the same.  So
# the check is "no segment was lost": retransmits minus D-SACKed duplicates
# must be 0, and the line says how many probes were spurious.  Node 1 sees
# both: as the sender (fwd) the D-SACKs it received, as the receiver (rev)
# the ones it sent.
nstat_get() { nstat -sz "$1" | awk -v k="$1" '$1 == k { print $2 }'; }
if [ "$NODE" = 1 ]; then
    for dir in fwd rev; do
        opt=; dsack=TcpExtTCPDSACKRecvSegs
        [ $dir = rev ] && opt=-R dsack=TcpExtTCPDSACKOldSent
        nstat -n
        if iperf3 -c "$PEER_IP" -t 10 $opt -J >/tmp/tcp-$dir.json 2>&1; then
            r=$(json /tmp/tcp-$dir.json 'd["end"]["sum_sent"].get("retransmits", -1)')
            bps=$(json /tmp/tcp-$dir.json 'int(d["end"]["sum_received"]["bits_per_second"] / 1e6)')
            dup=$(nstat_get $dsack)
            echo "iperf3-tcp-$dir: $r retransmits, ${dup:-0} D-SACKed as duplicates" \
                "(TLPs: $(nstat_get TcpExtTCPLossProbes), RTOs: $(nstat_get TcpExtTCPTimeouts))"
            if [ "$r" = 0 ]; then
                pass "iperf3-tcp-$dir ($bps Mbit/s, 0 retransmits)"
            elif [ "$r" -gt 0 ] && [ "$r" -le "${dup:-0}" ]; then
                pass "iperf3-tcp-$dir ($bps Mbit/s, 0 lost; $r spurious retransmits D-SACKed by the receiver)"
            else
                fail "iperf3-tcp-$dir" "$r retransmits, only ${dup:-0} D-SACKed as duplicates"
            fi
        else
            fail "iperf3-tcp-$dir" "$(tail -2 /tmp/tcp-$dir.json)"
        fi
    done
    if iperf3 -c "$PEER_IP" -u -b 50M -t 5 -J >/tmp/udp.json 2>&1; then
        lost=$(json /tmp/udp.json 'd["end"]["sum"]["lost_percent"]')
        n=$(json /tmp/udp.json 'd["end"]["sum"]["packets"]')
        python3 -c "import sys; sys.exit(not ($n > 1000 and $lost < 5))" && pass "iperf3-udp ($n datagrams, $lost% lost)" \
            || fail iperf3-udp "$n datagrams, $lost% lost"
    else
        fail iperf3-udp "$(tail -2 /tmp/udp.json)"
    fi
    # Packet pacing: every TX queue held to 50 Mbit/s (mlx5e sets a rate
    # of the device's table and names it in each SQ: en_main.c
    # mlx5e_set_tx_maxrate; hw-rdma/pacing.c spaces the frames).  What
    # arrives may not beat it - the run above went far faster - and it
    # must still arrive.
    for q in /sys/class/net/"$DEV"/queues/tx-*/tx_maxrate; do echo 50 >"$q"; done
    if iperf3 -c "$PEER_IP" -t 4 -J >/tmp/paced.json 2>&1; then
        bps=$(json /tmp/paced.json 'int(d["end"]["sum_received"]["bits_per_second"] / 1e6)')
        [ "$bps" -gt 0 ] && [ "$bps" -le 55 ] && pass "tx-maxrate ($bps Mbit/s at 50)" \
            || fail tx-maxrate "$bps Mbit/s received at tx_maxrate 50"
    else
        fail tx-maxrate "$(tail -2 /tmp/paced.json)"
    fi
    for q in /sys/class/net/"$DEV"/queues/tx-*/tx_maxrate; do echo 0 >"$q"; done
fi
sync rss
# RSS: 4 streams to node 0 must reach both of its RX queues.  Which queue a
# stream lands on depends on the driver's random Toeplitz key; 4 streams all
# hash to one of 2 queues with probability 1/8, so up to 4 attempts with
# other source ports.
for attempt in 1 2 3 4; do
    if [ "$NODE" = 0 ]; then
        a0=$(stat rx0_packets) a1=$(stat rx1_packets)
        sync "rss-$attempt-go"; sync "rss-$attempt-done"
        d0=$(($(stat rx0_packets) - a0)) d1=$(($(stat rx1_packets) - ${a1:-0}))
        res="rx0 +$d0, rx1 +$d1"
        both=0; [ "$d0" -gt 100 ] && [ "$d1" -gt 100 ] && both=1
        "$G/peer-sync" "rss-$attempt-$both" >/dev/null
    else
        sync "rss-$attempt-go"
        iperf3 -c "$PEER_IP" -P 4 -t 3 --cport $((40000 + attempt * 10)) >/dev/null 2>&1
        sync "rss-$attempt-done"
        "$G/peer-sync" "rss-$attempt-1" >/dev/null 2>&1 && both=1 || both=0
        res="attempt $attempt"
    fi
    [ "$both" = 1 ] && break
done
if [ "$(nproc)" -lt 2 ]; then
    echo "SKIP rss-both-queues: one vCPU, one channel (run with --smp 2)"
elif [ "$both" = 1 ]; then pass "rss-both-queues ($res)"; else fail rss-both-queues "$res"; fi

# --- VLAN sub-interface ---------------------------------------------------------
ip link add link "$DEV" name "$DEV.10" type vlan id 10
ip addr add "169.254.78.$((NODE + 1))/24" dev "$DEV.10"
ip link set "$DEV.10" up
sync vlan
check vlan-ping ping -c 20 -i 0.05 -W 5 "169.254.78.$((2 - NODE))"
sync vlan-done
ip link del "$DEV.10"

# --- multicast: node 0 joins a group, node 1 sends to it ------------------------
MCAST=239.77.0.1
if [ "$NODE" = 0 ]; then
    python3 - "$MCAST" "$MY_IP" >/tmp/mc.out 2>&1 <<'PY' &
import socket, struct, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("", 5300))
s.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP,
             socket.inet_aton(sys.argv[1]) + socket.inet_aton(sys.argv[2]))
s.settimeout(15)
n = 0
try:
    while n < 20:
        s.recv(100); n += 1
except OSError:
    pass
print(n)
PY
    sleep 1                 # joined (IGMP report sent, L2 filter added)
    sync mcast; sync mcast-sent
    wait
    n=$(tail -1 /tmp/mc.out)
    [ "$n" -ge 10 ] 2>/dev/null && pass "multicast-join ($n/20 datagrams)" || fail multicast-join "$(cat /tmp/mc.out)"
else
    sync mcast
    python3 - "$MCAST" "$MY_IP" <<'PY'
import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, socket.inet_aton(sys.argv[2]))
for i in range(20):
    s.sendto(b"mlx5emu multicast %d" % i, (sys.argv[1], 5300)); time.sleep(0.05)
PY
    sync mcast-sent
fi

# --- counters: both guests dump ethtool -S at a quiet moment ------------------
sync counters
sleep 2
for c in tx_packets_phy rx_packets_phy tx_bytes_phy rx_bytes_phy \
         tx_multicast_phy rx_multicast_phy tx_broadcast_phy rx_broadcast_phy \
         tx_vport_unicast_packets rx_vport_unicast_packets \
         tx_vport_unicast_bytes rx_vport_unicast_bytes rx_discards_phy; do
    echo "COUNTER $c $(stat $c)"
done
sync counters-done

# --- a frame to a foreign unicast MAC: dropped, unless promiscuous ----------
# Node 0 sends 10 frames (ethertype 0x88b5, local experimental) to
# 02:00:00:00:00:99; node 1 counts them with a packet socket (which does not
# turn promiscuous mode on by itself).
foreign() {   # foreign STEP: one round; node 1 prints the count it saw
    if [ "$NODE" = 1 ]; then
        # Listen for 6 s from when the socket is bound (it says so in
        # /tmp/foreign.ready); a slow start under a loaded host must not eat
        # into the window or lose the count.
        rm -f /tmp/foreign.ready
        timeout 60 python3 -c '
import socket, sys, time
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x88b5))
s.bind((sys.argv[1], 0)); s.settimeout(0.5); n = 0
open("/tmp/foreign.ready", "w").close()
end = time.time() + 6
while time.time() < end:
    try:
        n += s.recv(2000)[12:14] == b"\x88\xb5"
    except OSError:
        pass
print(n)' "$DEV" >/tmp/foreign.out &
        for _ in $(seq 300); do [ -e /tmp/foreign.ready ] && break; sleep 0.1; done
        sync "$1"; wait; cat /tmp/foreign.out
    else
        sync "$1"
        python3 -c '
import socket, sys
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW); s.bind((sys.argv[1], 0))
src = open("/sys/class/net/%s/address" % sys.argv[1]).read().strip()
f = bytes.fromhex("020000000099") + bytes.fromhex(src.replace(":", "")) + b"\x88\xb5" + bytes(50)
for _ in range(10):
    s.send(f)' "$DEV"
    fi
}
sync foreign
n=$(foreign foreign-off)
[ "$NODE" = 1 ] && { [ "$n" = 0 ] && pass "foreign-mac-dropped" || fail foreign-mac-dropped "$n frames seen with promisc off"; }
[ "$NODE" = 1 ] && ip link set "$DEV" promisc on
n=$(foreign foreign-on)
[ "$NODE" = 1 ] && { [ "$n" = 10 ] && pass "foreign-mac-promisc" || fail foreign-mac-promisc "$n/10 frames seen with promisc on"; }
[ "$NODE" = 1 ] && ip link set "$DEV" promisc off

# --- link: ip link down/up on node 1 as seen by node 0; monitor set_link -----
sync link
if [ "$NODE" = 0 ]; then
    out=$(ping -c 40 -i 0.25 -W 1 "$PEER_IP" | grep 'packets transmitted')
    sent=$(awk '{print $1}' <<<"$out") got=$(awk '{print $4}' <<<"$out")
    if [ "$((sent - got))" -ge 6 ] && ping -c 3 -w 20 "$PEER_IP" >/dev/null; then
        pass "peer-link-down-up ($out)"
    else
        fail peer-link-down-up "$out"
    fi
else
    sleep 3; ip link set "$DEV" down; sleep 4; ip link set "$DEV" up
    netdev_up "$MY_IP" || fail link-up-again "no carrier"
fi
sync set-link
if [ "$NODE" = 1 ]; then
    waitcarrier() {   # waitcarrier V: seconds until carrier is V (max 2 s)
        local t0=$EPOCHREALTIME
        for _ in $(seq 40); do
            [ "$(cat "/sys/class/net/$DEV/carrier")" = "$1" ] && {
                python3 -c "print(round($EPOCHREALTIME - $t0, 2))"; return 0; }
            sleep 0.05
        done
        return 1
    }
    $MONITOR set_link n0 off
    t=$(waitcarrier 0) && pass "set_link-off (carrier 0 after $t s)" || fail set_link-off "carrier still 1 after 2 s"
    $MONITOR set_link n0 on
    t=$(waitcarrier 1) && pass "set_link-on (carrier 1 after $t s)" || fail set_link-on "carrier still 0 after 2 s"
fi
sync set-link-done
check ping-after-link ping -c 5 -i 0.2 -w 20 "$PEER_IP"

# --- driver reload (node 0) and FLR (node 1) in the middle of iperf3 ---------
disrupt() {   # disrupt NAME NODE ACTION: NODE does ACTION 4 s into the other's iperf3
    sync "$1"
    if [ "$NODE" = "$2" ]; then
        sleep 4
        $3 && netdev_up "$MY_IP" && pass "$1-done" || fail "$1-done" "$DEV not back"
    else
        iperf3 -c "$PEER_IP" -t 12 >/tmp/$1.out 2>&1 && r=completed || r=failed
        echo "$1: iperf3 $r ($(grep -m1 -o '[0-9.]* [MG]bits/sec.*receiver' /tmp/$1.out))"
    fi
    sync "$1-after" 180
    check "$1-traffic-after" ping -c 5 -i 0.2 -w 30 "$PEER_IP"
}
reload() { modprobe -r mlx5_ib 2>/dev/null; modprobe -r mlx5_core && modprobe mlx5_core; }
flr() {
    local bdf; bdf=$(basename "$(readlink "/sys/class/net/$DEV/device")")
    echo "$bdf" >/sys/bus/pci/drivers/mlx5_core/unbind &&
        echo 1 >"/sys/bus/pci/devices/$bdf/reset" &&
        echo "$bdf" >/sys/bus/pci/drivers/mlx5_core/bind
}
disrupt reload-mid-iperf3 0 reload
disrupt flr-mid-iperf3 1 flr
check ping6-after ping -6 -c 5 -i 0.2 -w 30 "${PEER_IP6%%%*}%$DEV"

sync end
exit $((fails > 0))
