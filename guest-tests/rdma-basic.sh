#!/bin/bash
# RDMA device registration, run in one guest:
#   scripts/vm -- /mlx5emu/guest-tests/rdma-basic.sh
# Prints "PASS <check>" / "FAIL <check>: why"; exits 1 if a check failed.
# Checks: rdma link shows mlx5_0 port 1 ACTIVE / LINK_UP on the mlx5 netdev;
# ibv_devinfo -v reports the firmware, limits, PORT_ACTIVE and link layer
# Ethernet; the GID table holds RoCE v2 GIDs for the netdev's IPv4 and IPv6
# addresses; the kernel's GSI QP (QP1) is in RTS; after each of three
# driver reloads (modprobe -r removes mlx5_core with mlx5_ib: a new netdev,
# brought up and addressed again) all of it is back.
set -u
# shellcheck source=guest-tests/check-lib.sh
. /mlx5emu/guest-tests/check-lib.sh    # fails, pass, fail, dmesg_check
expect() {  # expect NAME PATTERN TEXT: PASS if TEXT matches the extended regex
    if grep -qE "$2" <<<"$3"; then pass "$1"; else fail "$1" "no /$2/ in: $(head -c 300 <<<"$3" | tr '\n' ' ')"; fi
}
IP=${MY_IP:-169.254.77.1}
# shellcheck source=guest-tests/netdev-lib.sh
. /mlx5emu/guest-tests/netdev-lib.sh
netdev_up "$IP"

# gids_of TYPE: the GIDs of that type ("RoCE v2") in mlx5_0 port 1
gids_of() {
    local d=/sys/class/infiniband/mlx5_0/ports/1 i
    for i in $(seq 0 15); do
        [ "$(cat "$d/gid_attrs/types/$i" 2>/dev/null)" = "$1" ] && cat "$d/gids/$i"
    done
}
v4gid=$(printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x' ${IP//./ })

check_device() {   # check_device ROUND
    local r=$1 out i
    for i in $(seq 50); do      # GIDs are added by a work queue after the port is up
        gids_of "RoCE v2" | grep -q "$v4gid" && break
        sleep 0.1
    done
    expect "$r/rdma-link" "mlx5_0/1 state ACTIVE physical_state LINK_UP netdev $DEV" "$(rdma link show)"
    out=$(ibv_devinfo -v -d mlx5_0)
    expect "$r/fw_ver" "fw_ver:[[:space:]]+22\.43\.1014" "$out"
    expect "$r/port-active" "state:[[:space:]]+PORT_ACTIVE" "$out"
    expect "$r/link-layer" "link_layer:[[:space:]]+Ethernet" "$out"
    expect "$r/max_qp" "max_qp:[[:space:]]+[1-9]" "$out"
    expect "$r/max_mr_size" "max_mr_size:[[:space:]]+0x[1-9a-f]" "$out"
    expect "$r/atomic_cap" "atomic_cap:[[:space:]]+ATOMIC_HCA" "$out"
    expect "$r/gid-v2-ipv4" "$v4gid" "$(gids_of "RoCE v2")"
    expect "$r/gid-v2-ipv6" "^fe80:" "$(gids_of "RoCE v2")"
    expect "$r/gsi-qp" "lqpn 1 type GSI state RTS" "$(rdma res show qp)"
}

check_device load
for n in 1 2 3; do
    if modprobe -r mlx5_ib mlx5_core && modprobe mlx5_core && modprobe mlx5_ib && netdev_up "$IP"; then
        pass "reload-$n"
        check_device "reload-$n"
    else
        fail "reload-$n" "modprobe status $?"
    fi
done
dmesg_check 'mlx5_ib.*(fail|error)'
exit $((fails > 0))
