#!/bin/bash
# Guest side of `scripts/bench rdma`, run in both guests:
#   scripts/vm --nodes 2 [--nic rxe] -- \
#       /mlx5emu/guest-tests/bench-rdma.sh
# perftest between the two (node 0 server, node 1 client): bandwidth of
# send, write and read at 64 B, 4 KiB, 64 KiB and 1 MiB (about 32 MiB per
# run, at least 50 and at most 5000 messages), latency of send, write and
# read at 64 B and of fetch-and-add (8 B), 500 iterations each.  Node 1
# prints "BENCH <test> <size> <value>" lines for the host: MiB/s (BW
# average) or microseconds (t_avg).  Exits non-zero if a test failed.
set -u
# shellcheck source=guest-tests/rdma-lib.sh
. /mlx5emu/guest-tests/rdma-lib.sh     # G, GID, pass, fail, pair_run
run=0
bench() {   # bench TEST SIZE COLUMN TOOL ARGS...: COLUMN of the result line
    local test=$1 size=$2 col=$3 v
    shift 3
    run=$((run + 1))
    if pair_run "b-$run" 600 "$@" -d "$IBDEV" -x "$GID" -F -p $((19700 + run)); then
        v=$(awk -v s="$size" -v c="$col" '$1 == s && NF >= c { v = $c } END { print v }' /tmp/pair.out)
        [ "$NODE" = 1 ] && echo "BENCH $test $size ${v:-?}"
    else
        echo "bench-rdma: $test $size failed: $(tail -2 /tmp/pair.out | tr '\n' ' ')"
        fails=$((fails + 1))
    fi
}
for t in send write read; do
    for s in 64 4096 65536 1048576; do
        n=$(( 32 * 1048576 / s )); n=$(( n < 50 ? 50 : n > 5000 ? 5000 : n ))
        bench "ib_${t}_bw" "$s" 4 "ib_${t}_bw" -s "$s" -n "$n"
    done
done
for t in send write read; do
    bench "ib_${t}_lat" 64 6 "ib_${t}_lat" -s 64 -n 500
done
bench ib_atomic_lat 8 6 ib_atomic_lat -A FETCH_AND_ADD -n 500
exit $((fails > 0))
