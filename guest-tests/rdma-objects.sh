#!/bin/bash
# The device's objects from the QEMU monitor during a run (hw-rdma/describe.c:
# `info mlx5`, and the device's QOM property `objects` as JSON), in both
# guests of
#   scripts/vm --nodes 2 -- /mlx5emu/guest-tests/rdma-objects.sh
# Node 1 runs ib_write_bw -D 20 against node 0 and meanwhile reads its own
# device's objects through QMP's qom-get, once the QP is there and a second
# later: an RC QP in RTS whose next PSN has moved between the two; after
# the run `info mlx5` lists no RC QP.  Prints PASS/FAIL lines; exit 1 if one failed.
set -u
# shellcheck source=guest-tests/rdma-lib.sh
. /mlx5emu/guest-tests/rdma-lib.sh     # G, GID, pass, fail, wait_server_ready

# The RC QPs of this guest's device as "qpn state sq_psn" lines, from the
# JSON of the `objects` property (qom-get prints it as a JSON string).
rc_qps() {
    local path
    path=$("$G/monitor" info mlx5 | tr -d "\r" | sed -n '1s/.*(\(.*\)):$/\1/p')
    "$G/monitor" qom-get "$path" objects | python3 -c '
import json, sys
d = json.loads(json.loads(sys.stdin.read()))
for q in d["qps"]:
    if q["type"] == "RC":
        print(q["qpn"], q["state"], q["sq_psn"])'
}

bw=(ib_write_bw -d "$IBDEV" -x "$GID" -F -p 19900 -D 20)
if [ "$NODE" = 0 ]; then
    timeout 120 "${bw[@]}" >/tmp/objects-bw.out 2>&1 &
    pid=$!
    wait_server_ready "$pid" || true
    "$G/peer-sync" objects 60 || true
    wait "$pid" || fail objects-server "$(tail -3 /tmp/objects-bw.out | tr '\n' ' ')"
    "$G/peer-sync" objects-done 120 || true
else
    "$G/peer-sync" objects 60 || true
    timeout 120 "${bw[@]}" "$PEER_IP" >/tmp/objects-bw.out 2>&1 &
    pid=$!
    # The first snapshot that shows the QP (connection set-up takes a few
    # seconds under TCG, a monitor round trip up to a few more), then one
    # more: both well inside the 20 s of traffic.
    # Each snapshot's time since the start is kept: under a loaded host a
    # monitor round trip has taken long enough for the traffic to end.
    first= t0=$SECONDS
    for _ in $(seq 40); do
        first=$(rc_qps | grep ' RTS ')
        [ -n "$first" ] && break
        sleep 0.5
    done
    t1=$((SECONDS - t0))
    sleep 1
    second=$(rc_qps)
    t2=$((SECONDS - t0))
    kill -0 "$pid" 2>/dev/null && running=yes || running="no: it had ended"
    wait "$pid"; rc=$?
    after=$("$G/monitor" info mlx5 | tr -d "\r")
    "$G/peer-sync" objects-done 120 || true
    read -r qpn state psn1 <<<"$first"
    psn2=$(awk -v q="$qpn" '$1 == q { print $3 }' <<<"$second")
    if [ "$rc" = 0 ] && [ "${state:-}" = RTS ] && [ -n "$psn2" ] && [ "$psn2" != "$psn1" ]; then
        pass "objects-during-ib_write_bw: RC QP $qpn in RTS, next PSN $psn1 then $psn2 a second later"
    else
        fail objects-during-ib_write_bw "ib_write_bw status $rc; RC QPs '$first' at ${t1} s then '$second' at ${t2} s (ib_write_bw still running: $running)"
    fi
    if grep -q '^  0x[0-9a-f]* *RC ' <<<"$after"; then
        fail objects-after-ib_write_bw "an RC QP is still listed: $(grep ' RC ' <<<"$after")"
    else
        pass "objects-after-ib_write_bw: no RC QP left ($(grep '^qps' <<<"$after"))"
    fi
fi
exit $((fails > 0))
