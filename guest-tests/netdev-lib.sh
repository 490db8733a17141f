# Shared by guest test scripts (source it): helpers for the mlx5 netdev.
#
# netdev_up IP: after a driver reload or FLR the netdev is new and down:
# find it (sets DEV), bring it up with IP/24, wait up to 10 s for carrier
# and for IPv6 duplicate address detection.  Returns 1 if it never came.
netdev_up() {
    local ip=$1 i
    for i in $(seq 100); do
        DEV=$(ls /sys/bus/pci/drivers/mlx5_core/*/net/ 2>/dev/null | head -1)
        [ -n "$DEV" ] && break
        sleep 0.1
    done
    [ -n "$DEV" ] || return 1
    ip link set "$DEV" up && ip addr replace "$ip/24" dev "$DEV" || return 1
    for i in $(seq 100); do
        [ "$(cat "/sys/class/net/$DEV/carrier" 2>/dev/null)" = 1 ] && \
            [ -z "$(ip -6 addr show dev "$DEV" tentative)" ] && return 0
        sleep 0.1
    done
    return 1
}

# gid_of_ip IP: the index of IP's RoCE v2 GID on $IBDEV's port 1 once the
# port has it (after a reload mlx5_ib adds it as the address comes back);
# waits up to 10 s, returns 1 if it never came.
gid_of_ip() {
    local v4gid i _
    v4gid=$(printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x' ${1//./ })
    for _ in $(seq 100); do
        for i in $(seq 0 15); do
            [ "$(cat "/sys/class/infiniband/$IBDEV/ports/1/gid_attrs/types/$i" 2>/dev/null)" = "RoCE v2" ] &&
                [ "$(cat "/sys/class/infiniband/$IBDEV/ports/1/gids/$i")" = "$v4gid" ] &&
                { echo "$i"; return 0; }
        done
        sleep 0.1
    done
    return 1
}
