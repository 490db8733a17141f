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
# Prints "PASS/FAIL <check>" on node 0; exit 1 if one failed.
set -u
# shellcheck source=guest-tests/rdma-lib.sh
. /mlx5emu/guest-tests/rdma-lib.sh     # G, GID, pass, fail, dmesg_check

mode=${1:-}
[ "$mode" = kill ] || { echo "FAIL setup: unknown fault '$mode' (kill)"; exit 1; }
# The verbs objects the run made that are still there (rdma res names each
# user object's command; the kernel's own, some made on first use such as
# mlx5_ib's UMR CQ, have none).
res_left() {
    local k
    for k in qp cq mr pd srq; do
        rdma res show "$k" 2>/dev/null | grep -c 'comm ib_write_bw' | sed "s/^/$k /"
    done | grep -v ' 0$' | tr '\n' ' '
}

bw=(ib_write_bw -d "$IBDEV" -x "$GID" -F -D 600 -s 65536 -p 19500)
if [ "$NODE" != 0 ]; then
    timeout 700 "${bw[@]}" >/tmp/bw.out 2>&1
    exit 0                              # node 1 does not live to see this
fi
sleep 3
t0=$(date +%s)
# Its lines go to the output indented (they are not this test's results):
# the host kills once the "#bytes" header says the bandwidth runs.
timeout 700 stdbuf -oL "${bw[@]}" "$PEER_IP" 2>&1 | tee /tmp/bw.out | sed -u 's/^/  ib_write_bw: /'
rc=${PIPESTATUS[0]}
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
sleep 1
if timeout 60 ibv_rc_pingpong -d "$IBDEV" -g "$GID" -n 100 "$MY_IP" >/tmp/pp-cli.out 2>&1 && wait $!; then
    pass "device-still-works: $(grep -h 'iters in' /tmp/pp-cli.out | tr -s ' ')"
else
    fail device-still-works "$(tail -2 /tmp/pp-srv.out /tmp/pp-cli.out | tr '\n' ' ')"
fi
dmesg_check
exit $((fails > 0))
