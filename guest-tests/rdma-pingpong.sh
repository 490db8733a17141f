#!/bin/bash
# ibv_rc_pingpong between two guests (node 0 server, node 1 client), run in
# both: scripts/vm --nodes 2 -- \
#           /mlx5emu/guest-tests/rdma-pingpong.sh
# Sizes 1, 4096, 65536 and 1048576 bytes, polling and with -e (completion
# events), with -c (the receiver checks the data) where this rdma-core has
# it; ibv_uc_pingpong at 4 KiB; then ib_write_bw at 64 KiB.  Prints
# "PASS/FAIL <check>"; exits 1 if one failed.
set -u
# shellcheck source=guest-tests/rdma-lib.sh
. /mlx5emu/guest-tests/rdma-lib.sh     # G, GID, pass, fail, pair_run
chk=$(pingpong_chk ibv_rc_pingpong)

run=0
for size in 1 4096 65536 1048576; do
    n=$(( size >= 65536 ? 20 : 200 ))
    for ev in "" -e; do
        run=$((run + 1))
        name="rc_pingpong-$size${ev:+-events}"
        args=(-d "$IBDEV" -g "$GID" -s "$size" -n "$n" -p $((18515 + run)) $ev $chk)
        pair_run "pp-$run" 120 ibv_rc_pingpong "${args[@]}"; rc=$?
        if [ $rc = 0 ]; then
            echo "PASS $name${chk:+ (data checked)}: $(grep -m1 'Mbit/sec' /tmp/pair.out)"
        else
            echo "FAIL $name: status $rc: $(tail -3 /tmp/pair.out | tr '\n' ' ')"
            fails=$((fails + 1))
        fi
    done
done
# UC: ibv_uc_pingpong's SENDs of 4 KiB (4 packets at its MTU of 1024)
# with nothing acknowledged; a lost packet would end it in a timeout.
ucchk=$(pingpong_chk ibv_uc_pingpong)
if pair_run pp-uc 120 ibv_uc_pingpong -d "$IBDEV" -g "$GID" -s 4096 -n 200 -p 18540 $ucchk; then
    echo "PASS uc_pingpong-4096${ucchk:+ (data checked)}: $(grep -m1 'Mbit/sec' /tmp/pair.out)"
else
    echo "FAIL uc_pingpong-4096: status $?: $(tail -3 /tmp/pair.out | tr '\n' ' ')"
    fails=$((fails + 1))
fi
# ib_write_bw at 64 KiB: perftest on every release, too; the server's
# port counts the WRITE requests it executed (hw_counters, Q counters).
hwc=/sys/class/infiniband/$IBDEV/ports/1/hw_counters
writes0=$(cat "$hwc/rx_write_requests" 2>/dev/null || echo 0)
if pair_run wbw 300 ib_write_bw -d "$IBDEV" -x "$GID" -F -s 65536 -n 500 -p 18600; then
    echo "PASS ib_write_bw-65536: $(grep -E '^ *65536 ' /tmp/pair.out | tr -s ' ')"
else
    echo "FAIL ib_write_bw-65536: $(tail -3 /tmp/pair.out | tr '\n' ' ')"
    fails=$((fails + 1))
fi
if [ "$NODE" = 0 ] && [ "$NIC" = mlx5 ]; then
    writes=$(( $(cat "$hwc/rx_write_requests" 2>/dev/null || echo 0) - writes0 ))
    if [ "$writes" -ge 500 ]; then
        pass "hw_counters-rx_write_requests: $writes for ib_write_bw's 500+ writes"
    else
        fail hw_counters-rx_write_requests "$writes, want >= 500 ($(ls "$hwc" 2>&1 | tr '\n' ' '))"
    fi
fi
exit $((fails > 0))
