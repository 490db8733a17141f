#!/bin/bash
# Interop with Linux Soft-RoCE: an mlx5 guest and an rxe guest, run in both:
#   scripts/vm --nodes 2 --peer rxe -- \
#       /mlx5emu/guest-tests/rdma-interop.sh
# ibv_rc_pingpong (data checked where it can), ib_send_bw, ib_write_bw,
# ib_read_bw and ib_atomic_bw (compare-and-swap and fetch-and-add), each
# once with the mlx5 guest as the server and once with the rxe guest as
# the server.  Prints "PASS/FAIL <test>-<server>-server"; exit 1 if one
# failed.
set -u
# shellcheck source=guest-tests/rdma-lib.sh
. /mlx5emu/guest-tests/rdma-lib.sh     # G, GID, pass, fail, pair_run
chk=$(pingpong_chk ibv_rc_pingpong)
# Which guest is which: both know both kinds (scripts/vm --peer rxe makes
# the last guest the rxe one).
kind() { if [ "$1" = $((NODES - 1)) ]; then echo rxe; else echo mlx5; fi; }

# READ and atomics: perftest's client takes the server's outstanding-read
# count as its max_rd_atomic; rxe offers 128, mlx5 (like ConnectX
# hardware, 2^log_max_ra_res_qp) accepts 16, so both sides say -o 16.
ra=(-o 16)
run=0
check() {   # check NAME CMD...: server on node $SERVER, client on the other
    local name=$1-$(kind "$SERVER")-server
    shift
    run=$((run + 1))
    pair_check "$name" 'Mbit/sec|^ *[0-9]+ +[0-9]+ ' "$@"
}

for SERVER in 0 1; do
    check rc_pingpong ibv_rc_pingpong -d "$IBDEV" -g "$GID" -s 65536 -n 50 -p $((18600 + run)) $chk
    for t in send write; do
        check "ib_${t}_bw" "ib_${t}_bw" -d "$IBDEV" -x "$GID" -F -s 65536 -n 200 -p $((19300 + run))
    done
    check ib_read_bw ib_read_bw "${ra[@]}" -d "$IBDEV" -x "$GID" -F -s 65536 -n 200 -p $((19300 + run))
    for op in CMP_AND_SWAP FETCH_AND_ADD; do
        check "ib_atomic_bw-$op" ib_atomic_bw -A "$op" "${ra[@]}" -d "$IBDEV" -x "$GID" -F -n 500 \
            -p $((19300 + run))
    done
done
exit $((fails > 0))
