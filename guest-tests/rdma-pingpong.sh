#!/bin/bash
# ibv_rc_pingpong between two guests (node 0 server, node 1 client), run in
# both: scripts/vm --nodes 2 --modules mlx5_ib,ib_uverbs -- \
#           /mlx5emu/guest-tests/rdma-pingpong.sh
# Sizes 1, 4096, 65536 and 1048576 bytes, polling and with -e (completion
# events), with -c (the receiver checks the data) where this rdma-core has
# it.  Prints "PASS/FAIL <check>"; exits 1 if one failed.
set -u
G=/mlx5emu/guest-tests
fails=0
[ -n "${PEER_IP:-}" ] || { echo "FAIL setup: needs --nodes 2"; exit 1; }

# The RoCE v2 GID of our IPv4 address (added by a work queue after link up).
gid_index() {
    local d=/sys/class/infiniband/mlx5_0/ports/1 i _
    for _ in $(seq 50); do
        for i in $(seq 0 15); do
            [ "$(cat "$d/gid_attrs/types/$i" 2>/dev/null)" = "RoCE v2" ] &&
                grep -q "ffff:$(printf '%02x%02x:%02x%02x' ${MY_IP//./ })" "$d/gids/$i" &&
                { echo "$i"; return 0; }
        done
        sleep 0.1
    done
    return 1
}
GID=$(gid_index) || { echo "FAIL setup: no RoCE v2 IPv4 GID"; exit 1; }
chk=; ibv_rc_pingpong --help 2>&1 | grep -q -- '--chk' && chk=-c

run=0
for size in 1 4096 65536 1048576; do
    n=$(( size >= 65536 ? 20 : 200 ))
    for ev in "" -e; do
        run=$((run + 1))
        name="rc_pingpong-$size${ev:+-events}"
        args=(-d mlx5_0 -g "$GID" -s "$size" -n "$n" -p $((18515 + run)) $ev $chk)
        if [ "$NODE" = 0 ]; then
            timeout 120 ibv_rc_pingpong "${args[@]}" >/tmp/pp.out 2>&1 &
            pid=$!
            sleep 0.5
            "$G/peer-sync" "pp-$run" 60 || true
            wait "$pid"; rc=$?
        else
            "$G/peer-sync" "pp-$run" 60 || true
            sleep 0.5
            timeout 120 ibv_rc_pingpong "${args[@]}" "$PEER_IP" >/tmp/pp.out 2>&1; rc=$?
        fi
        if [ $rc = 0 ]; then
            echo "PASS $name${chk:+ (data checked)}: $(grep -m1 'Mbit/sec' /tmp/pp.out)"
        else
            echo "FAIL $name: status $rc: $(tail -3 /tmp/pp.out | tr '\n' ' ')"
            fails=$((fails + 1))
        fi
        "$G/peer-sync" "pp-$run-done" 150 || true
    done
done
exit $((fails > 0))
