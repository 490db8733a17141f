#!/bin/bash
# A fault in the middle of RC traffic, run in both guests by scripts/faults:
#   kill  both guests run rdma-verbs-check.py's data part; the host kills
#         node 1's QEMU (kill -9).  Node 0's traffic must end within the
#         check's own bounds (its QP's retries exhausted, or the peer's
#         silence), every verbs object the check made must be gone again
#         (rdma res shows the counts of before), the kernel must have no
#         complaint, and the device must still carry RC traffic (an
#         ibv_rc_pingpong through its own loopback).
# Prints "PASS/FAIL <check>" on node 0; exit 1 if one failed.
set -u
# shellcheck source=guest-tests/rdma-lib.sh
. /mlx5emu/guest-tests/rdma-lib.sh     # G, GID, pass, fail, dmesg_check

mode=${1:-}
[ "$mode" = kill ] || { echo "FAIL setup: unknown fault '$mode' (kill)"; exit 1; }
# "pd 3 cq 5 qp 2 cm_id 0 mr 0 ctx 0 srq 0": the device's verbs objects.
res_counts() { rdma res show | sed -n "s/^[0-9]*: *$IBDEV: *//p"; }

before=$(res_counts)
t0=$(date +%s)
# Its lines go to the output indented (they are not this test's results):
# the host waits for "verbs-data: seed" there before it kills.
ERRORS=0 ROUNDS=1000000000 DURATION=900 timeout 1000 \
    python3 "$G/rdma-verbs-check.py" 2>&1 | tee /tmp/vc.out | sed -u 's/^/  check: /'
rc=${PIPESTATUS[0]}
secs=$(($(date +%s) - t0))
if [ "$NODE" != 0 ]; then
    exit 0                              # node 1 does not live to see this
fi
last=$(grep -E '^(FAIL|PASS)|stopped' /tmp/vc.out | tail -2 | tr '\n' ' ')
if [ "$rc" != 0 ] && [ "$rc" != 124 ]; then
    pass "traffic-ended: the check ended (status $rc) after $secs s: $last"
else
    fail traffic-ended "status $rc after $secs s: $last"
fi
hwc=/sys/class/infiniband/$IBDEV/ports/1/hw_counters
seen=
for k in local_ack_timeout_err req_transport_retries_exceeded; do
    seen+=" $k $(cat "$hwc/$k" 2>/dev/null || echo ?)"
done
after=$(res_counts)
if [ "$after" = "$before" ]; then
    pass "no-objects-left: $after;$seen"
else
    fail no-objects-left "before: $before, after: $after"
fi
timeout 60 ibv_rc_pingpong -d "$IBDEV" -g "$GID" -n 100 >/tmp/pp-srv.out 2>&1 &
sleep 1
if timeout 60 ibv_rc_pingpong -d "$IBDEV" -g "$GID" -n 100 "$MY_IP" >/tmp/pp-cli.out 2>&1 && wait $!; then
    pass "device-still-works: $(grep -h 'iters in' /tmp/pp-cli.out | tr -s ' ')"
else
    fail device-still-works "$(tail -2 /tmp/pp-srv.out /tmp/pp-cli.out | tr '\n' ' ')"
fi
dmesg_check
exit $((fails > 0))
