#!/bin/bash
# perftest between two guests (node 0 server, node 1 client), run in both:
#   scripts/vm --nodes 2 -- \
#       /mlx5emu/guest-tests/rdma-perftest.sh
# Every bandwidth and latency test of send, RDMA write and RDMA read with
# -a (all sizes, 2 B .. 8 MiB), the bandwidth tests again with -e (sleep
# on completion events, perftest's --use_event) - but ib_write_bw, which
# perftest refuses to run so ("Events feature not available on WRITE
# verb"); the two atomics the same way but without -a: their size is 8
# bytes and perftest refuses -a ("Message size cannot be changed for Atomic
# tests").  Few
# iterations per size: this is a correctness run under TCG, not a
# benchmark (scripts/bench rdma is).  Prints "PASS/FAIL <test>"; exit 1 if
# one failed.
set -u
# shellcheck source=guest-tests/rdma-lib.sh
. /mlx5emu/guest-tests/rdma-lib.sh     # G, GID, pass, fail, pair_run

run=0
perf() {    # perf NAME TOOL ARGS...
    local name=$1 rc
    shift
    run=$((run + 1))
    pair_run "pt-$run" 300 "$@" -d "$IBDEV" -x "$GID" -F -p $((19000 + run)); rc=$?
    if [ $rc = 0 ]; then
        echo "PASS $name: $(grep -E '^ *[0-9]+ +[0-9]+' /tmp/pair.out | tail -1 | tr -s ' ')"
    else
        echo "FAIL $name: status $rc: $(tail -3 /tmp/pair.out | tr '\n' ' ')"
        fails=$((fails + 1))
    fi
}

for t in send write read; do
    perf "ib_${t}_bw-a" "ib_${t}_bw" -a -n 20
    [ $t = write ] || perf "ib_${t}_bw-a-events" "ib_${t}_bw" -a -n 20 -e
    perf "ib_${t}_lat-a" "ib_${t}_lat" -a -n 20
done
for op in CMP_AND_SWAP FETCH_AND_ADD; do
    perf "ib_atomic_bw-$op" ib_atomic_bw -A "$op" -n 500
    perf "ib_atomic_bw-$op-events" ib_atomic_bw -A "$op" -n 500 -e
    perf "ib_atomic_lat-$op" ib_atomic_lat -A "$op" -n 500
done
exit $((fails > 0))
