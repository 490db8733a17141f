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
