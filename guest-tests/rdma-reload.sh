#!/bin/bash
# Driver reloads under a running verbs application, in two guests:
#   scripts/vm --nodes 2 --trace mlx5_fw_objects_freed -- \
#       /mlx5emu/guest-tests/rdma-reload.sh
# Ten times: node 1 serves ib_write_bw, node 0 runs the client for 20 s and
# 3 s into it unloads mlx5_ib and mlx5_core (ib_uverbs disassociates the
# application from the device) and loads them again.  The client must end
# (any status) and the guest live on; then the netdev, the port and the
# GID come back and a short ib_write_bw between the two passes.  The host
# side (guest-tests/run-rdma) checks that each teardown left no device
# object behind.  Prints "PASS/FAIL <check>"; exit 1 if one failed.
set -u
# shellcheck source=guest-tests/rdma-lib.sh
. /mlx5emu/guest-tests/rdma-lib.sh     # G, GID, pass, fail, pair_run
# shellcheck source=guest-tests/netdev-lib.sh
. "$G/netdev-lib.sh"
SERVER=1

for n in $(seq "${CYCLES:-10}"); do
    port=$((19500 + 2 * n)) t1=
    if [ "$NODE" = 0 ]; then
        "$G/peer-sync" "rl-$n" 120 || true
        timeout 60 ib_write_bw -d "$IBDEV" -x "$GID" -F -D 20 -p "$port" "$PEER_IP" >/tmp/app.out 2>&1 &
        app=$!
        sleep 3
        kill -0 "$app" 2>/dev/null && running=yes || running=no
        t0=$(date +%s.%N)
        if modprobe -r mlx5_ib mlx5_core; then
            t1=$(date +%s.%N)
            kill -0 "$app" 2>/dev/null && after="was still running" || after="had ended"
        fi
        if [ -n "${t1:-}" ] && modprobe mlx5_core && modprobe mlx5_ib &&
            netdev_up "$MY_IP" && GID=$(gid_of_ip "$MY_IP"); then
            wait "$app"; rc=$?
            if [ "$running" = yes ]; then
                took=$(awk "BEGIN { printf \"%.1f\", $t1 - $t0 }")
                pass "reload-$n (unload took $took s under the running application;" \
                     "after it the application $after; its exit status: $rc)"
            else
                fail "reload-$n" "the application was not running at the unload ($(tail -1 /tmp/app.out))"
            fi
        else
            fail "reload-$n" "the driver did not come back"
            wait "$app"
        fi
        "$G/peer-sync" "rl-$n-done" 120 || true
    else
        timeout 60 ib_write_bw -d "$IBDEV" -x "$GID" -F -D 20 -p "$port" >/tmp/app.out 2>&1 &
        app=$!
        wait_server_ready "$app" || true
        "$G/peer-sync" "rl-$n" 120 || true
        wait "$app"
        "$G/peer-sync" "rl-$n-done" 120 || true
    fi
    if pair_run "rl-$n-after" 120 ib_write_bw -d "$IBDEV" -x "$GID" -F -n 200 -p $((port + 1)); then
        pass "write-after-reload-$n"
    else
        fail "write-after-reload-$n" "$(tail -2 /tmp/pair.out | tr '\n' ' ')"
    fi
done
dmesg_check
exit $((fails > 0))
