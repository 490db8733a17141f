#!/bin/bash
# Guest side of `scripts/bench eth`, run in both guests:
#   scripts/vm --nodes 2 -- /mlx5emu/guest-tests/bench-eth.sh SECONDS
# Node 0 serves two iperf3 tests (iperf3 -s -1, twice); node 1 runs them, each
# for SECONDS (default 10): "fwd" (node 1 sends to node 0), then "rev" (-R:
# node 0 sends to node 1), and prints each one's iperf3 JSON on one line,
# "BENCH fwd {...}", for the host to parse.  Exits non-zero if a test failed.
set -u
t=${1:-10}
[ -n "${PEER_IP:-}" ] || { echo "bench-eth: no PEER_IP (needs --nodes 2)"; exit 1; }

if [ "$NODE" = 0 ]; then
    rc=0
    for _ in fwd rev; do timeout $((t + 60)) iperf3 -s -1 >/dev/null || rc=1; done
    exit $rc
fi

# run NAME [iperf3 options]: one test; while the test never started (the
# server not listening yet, or still busy with the last test), try again.
run() {
    local name=$1 out rc
    shift
    for _ in $(seq 30); do
        timeout $((t + 60)) iperf3 -J -t "$t" -c "$PEER_IP" "$@" >/tmp/iperf3.json
        rc=$?
        out=$(tr -d '\n' </tmp/iperf3.json)
        if [ "$rc" = 0 ] || ! [[ $out =~ \"intervals\":[[:space:]]*\[\] ]]; then break; fi
        sleep 1
    done
    echo "BENCH $name $out"
    return "$rc"
}
rc=0
run fwd || rc=1
run rev -R || rc=1
exit $rc
