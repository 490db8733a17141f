#!/bin/bash
# A fault in the middle of RC traffic, run in both guests by scripts/faults:
#   kill  node 0 writes to node 1 with ib_write_bw (node 1 the server); the
#         host kills node 1's QEMU (kill -9) once the bandwidth runs.  Node
#         0's QP must retry, exhaust its retries and fail the WQE
#         (RETRY_EXC_ERR: ib_write_bw ends with an error, the port's
#         req_transport_retries_exceeded counts it), every verbs object the
#         run made must be gone again (rdma res lists none with its
#         command), the kernel must have no complaint, and the device must
#         still carry RC traffic (ibv_rc_pingpong through its own loopback).
#   reboot the same, but node 1 resets itself (QEMU's system_reset through
#         guest-tests/monitor, the reset button: no driver shutdown) after
#         FAULT_AFTER seconds (default 10) of traffic; scripts/faults lets
#         QEMU reboot instead of exiting.  Node 0 checks as for kill, then
#         waits for node 1's second boot, and the two must carry RC traffic
#         again (ib_write_bw, node 1 the server).
# Prints "PASS/FAIL <check>" on node 0 (and, for reboot, on node 1's second
# boot); exit 1 if one failed.
set -u
# shellcheck source=guest-tests/rdma-lib.sh
. /mlx5emu/guest-tests/rdma-lib.sh     # G, GID, pass, fail, dmesg_check

mode=${1:-}
case $mode in kill|reboot) ;; *) echo "FAIL setup: unknown fault '$mode' (kill, reboot)"; exit 1 ;; esac
# A reset leaves this mark in the job directory (which outlives it): a
# guest that finds it is node 1 booted again.
mark=/job/fault-reset-done
# The verbs objects the run made that are still there (rdma res names each
# user object's command; the kernel's own, some made on first use such as
# mlx5_ib's UMR CQ, have none).
res_left() {
    local k
    for k in qp cq mr pd srq; do
        rdma res show "$k" 2>/dev/null | grep -c 'comm ib_write_bw' | sed "s/^/$k /"
    done | grep -v ' 0$' | tr '\n' ' '
}

# traffic_after_reboot: node 1's second boot and node 0 meet again and
# write with ib_write_bw, node 1 the server.
traffic_after_reboot() {
    if SERVER=1 pair_run after-reboot 120 ib_write_bw -d "$IBDEV" -x "$GID" -F -n 200 -p 19501; then
        pass "traffic-after-reboot: $(grep -E '^ *65536 ' /tmp/pair.out | tr -s ' ')"
    else
        fail traffic-after-reboot "$(tail -3 /tmp/pair.out | tr '\n' ' ')"
    fi
}

bw=(ib_write_bw -d "$IBDEV" -x "$GID" -F -D 600 -s 65536 -p 19500)
if [ "$NODE" != 0 ] && [ -e "$mark" ]; then
    pass "rebooted: node 1 is up again after its reset, $(cut -d' ' -f1 /proc/uptime) s into this boot"
    "$G/peer-sync" rebooted 600 || fail sync "node 0 never came to meet the rebooted node 1"
    traffic_after_reboot
    dmesg_check
    exit $((fails > 0))
fi
if [ "$NODE" != 0 ]; then
    timeout 700 "${bw[@]}" >/tmp/bw.out 2>&1 &
    wait_server_ready $! || true
    "$G/peer-sync" bw-listening 120 || true
    if [ "$mode" = reboot ]; then
        "$G/peer-sync" bw-running 120 || true
        sleep "${FAULT_AFTER:-10}"
        touch "$mark"
        "$G/monitor" system_reset
    fi
    wait
    exit 0                              # node 1 does not live to see this
fi
"$G/peer-sync" bw-listening 120 || true
t0=$(date +%s)
# Its lines go to the output indented (they are not this test's results):
# for kill, the host kills once the "#bytes" header says the bandwidth runs;
# for reboot, node 1 is told so.
timeout 700 stdbuf -oL "${bw[@]}" "$PEER_IP" > >(tee /tmp/bw.out | sed -u 's/^/  ib_write_bw: /') 2>&1 &
bwpid=$!
if [ "$mode" = reboot ]; then
    for _ in $(seq 600); do
        grep -q '#bytes' /tmp/bw.out 2>/dev/null && break
        kill -0 "$bwpid" 2>/dev/null || break
        sleep 0.2
    done
    "$G/peer-sync" bw-running 120 || true
fi
wait "$bwpid"; rc=$?
secs=$(($(date +%s) - t0))
last=$(grep -iE 'error|fail' /tmp/bw.out | tail -2 | tr '\n' ' ')
if [ "$rc" != 0 ] && [ "$rc" != 124 ]; then
    pass "traffic-ended: ib_write_bw ended (status $rc) after $secs s: $last"
else
    fail traffic-ended "status $rc after $secs s: $last"
fi
hwc=/sys/class/infiniband/$IBDEV/ports/1/hw_counters
seen=
for k in local_ack_timeout_err req_transport_retries_exceeded; do
    seen+=" $k $(cat "$hwc/$k" 2>/dev/null || echo ?)"
done
if [ "$(cat "$hwc/req_transport_retries_exceeded" 2>/dev/null || echo 0)" -gt 0 ]; then
    pass "retries-exhausted:$seen"
else
    fail retries-exhausted "$seen"
fi
left=$(res_left)
if [ -z "$left" ]; then
    pass "no-objects-left: rdma res lists none of ib_write_bw's"
else
    fail no-objects-left "rdma res still lists ib_write_bw's: $left"
fi
timeout 60 ibv_rc_pingpong -d "$IBDEV" -g "$GID" -n 100 >/tmp/pp-srv.out 2>&1 &
wait_server_ready $! || true
if timeout 60 ibv_rc_pingpong -d "$IBDEV" -g "$GID" -n 100 "$MY_IP" >/tmp/pp-cli.out 2>&1 && wait $!; then
    pass "device-still-works: $(grep -h 'iters in' /tmp/pp-cli.out | tr -s ' ')"
else
    fail device-still-works "$(tail -2 /tmp/pp-srv.out /tmp/pp-cli.out | tr '\n' ' ')"
fi
if [ "$mode" = reboot ]; then
    "$G/peer-sync" rebooted 600 || fail sync "node 1 did not come back after its reset"
    traffic_after_reboot
fi
dmesg_check
exit $((fails > 0))
