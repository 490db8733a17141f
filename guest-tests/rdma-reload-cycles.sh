#!/bin/bash
# Many driver reloads with RC traffic, in one guest (scripts/faults reload):
#   scripts/vm --trace mlx5_fw_objects_freed -- \
#       'CYCLES=N /mlx5emu/guest-tests/rdma-reload-cycles.sh'
# Each cycle unloads mlx5_ib and mlx5_core, loads them again, waits for the
# netdev, the port and MY_IP's RoCE v2 GID, and runs ibv_rc_pingpong (100
# iterations) between two processes through the device's own loopback.
# Prints "CYCLE n" after each (the host samples QEMU's memory at cycles 10
# and N), then "PASS/FAIL reload-cycles" (all cycles, or the first failure)
# and the dmesg check.  The host checks that each TEARDOWN_HCA found no
# object left (the trace).  Exit 1 if a check failed.
set -u
G=/mlx5emu/guest-tests
IBDEV=${IBDEV:-mlx5_0}
# shellcheck source=guest-tests/check-lib.sh
. "$G/check-lib.sh"                    # fails, pass, fail, dmesg_check
# shellcheck source=guest-tests/netdev-lib.sh
. "$G/netdev-lib.sh"                   # netdev_up, gid_of_ip
# shellcheck source=guest-tests/ready-lib.sh
. "$G/ready-lib.sh"                    # wait_server_ready
[ -n "${MY_IP:-}" ] || { echo "FAIL setup: no address"; exit 1; }

# cycle N: one reload and the traffic after it; the reason on failure.
cycle() {
    local gid
    timeout 60 modprobe -r mlx5_ib mlx5_core || { echo "unload failed"; return 1; }
    timeout 60 modprobe mlx5_core && timeout 60 modprobe mlx5_ib || { echo "load failed"; return 1; }
    netdev_up "$MY_IP" >/dev/null || { echo "no netdev with $MY_IP"; return 1; }
    gid=$(gid_of_ip "$MY_IP") || { echo "no RoCE v2 GID for $MY_IP"; return 1; }
    timeout 60 ibv_rc_pingpong -d "$IBDEV" -g "$gid" -n 100 >/tmp/pp-srv.out 2>&1 &
    wait_server_ready $! || true
    if ! timeout 60 ibv_rc_pingpong -d "$IBDEV" -g "$gid" -n 100 "$MY_IP" >/tmp/pp-cli.out 2>&1 ||
            ! wait $!; then
        echo "ibv_rc_pingpong: $(cat /tmp/pp-srv.out /tmp/pp-cli.out | tail -n 4 | tr '\n' ' ')"
        return 1
    fi
}

t0=$SECONDS
n=0 why=
while [ "$n" -lt "${CYCLES:-1000}" ]; do
    n=$((n + 1))
    why=$(cycle) || break
    why=
    echo "CYCLE $n"
    # the host samples QEMU's memory here
    [ "$n" != 10 ] && [ "$n" != "${CYCLES:-1000}" ] || sleep 3
done
if [ -z "$why" ]; then
    pass "reload-cycles: $n reloads with RC traffic after each, in $((SECONDS - t0)) s"
else
    fail reload-cycles "cycle $n: $why"
fi
dmesg_check
exit $((fails > 0))
