#!/bin/bash
# ibv_rc_pingpong between two guests (node 0 server, node 1 client), run in
# both: scripts/vm --nodes 2 --modules mlx5_ib,ib_uverbs -- \
#           /mlx5emu/guest-tests/rdma-pingpong.sh
# Sizes 1, 4096, 65536 and 1048576 bytes, polling and with -e (completion
# events), with -c (the receiver checks the data) where this rdma-core has
# it; then ib_write_bw at 64 KiB.  Prints "PASS/FAIL <check>"; exits 1 if
# one failed.
set -u
# shellcheck source=guest-tests/rdma-lib.sh
. /mlx5emu/guest-tests/rdma-lib.sh     # G, GID, pass, fail, pair_run
chk=; ibv_rc_pingpong --help 2>&1 | grep -q -- '--chk' && chk=-c

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
# ib_write_bw at 64 KiB: perftest on every release, too
if pair_run wbw 300 ib_write_bw -d "$IBDEV" -x "$GID" -F -s 65536 -n 500 -p 18600; then
    echo "PASS ib_write_bw-65536: $(grep -E '^ *65536 ' /tmp/pair.out | tr -s ' ')"
else
    echo "FAIL ib_write_bw-65536: $(tail -3 /tmp/pair.out | tr '\n' ' ')"
    fails=$((fails + 1))
fi
exit $((fails > 0))
