# Helpers for the RDMA guest tests between two guests (sourced): sets G
# (this directory), GID (the RoCE v2 GID index of MY_IP, from
# guest-tests/init's $GID_INDEX) and fails=0, or exits 1 without a peer or
# a GID; pair_run runs a client/server tool.  Needs scripts/vm --nodes 2.
G=/mlx5emu/guest-tests
IBDEV=${IBDEV:-mlx5_0}
fails=0

[ -n "${PEER_IP:-}" ] || { echo "FAIL setup: needs --nodes 2"; exit 1; }
GID=${GID_INDEX:-}
[ -n "$GID" ] || { echo "FAIL setup: $IBDEV has no RoCE v2 IPv4 GID"; exit 1; }

# pair_run TAG TIMEOUT CMD...: node 0 runs CMD as the server, node 1 runs
# CMD $PEER_IP as the client once the server listens; both return CMD's
# status (output in /tmp/pair.out) and meet again afterwards.
pair_run() {
    local tag=$1 t=$2 pid rc
    shift 2
    if [ "$NODE" = 0 ]; then
        timeout "$t" "$@" >/tmp/pair.out 2>&1 &
        pid=$!
        sleep 0.5
        "$G/peer-sync" "$tag" 60 || true
        wait "$pid"; rc=$?
    else
        "$G/peer-sync" "$tag" 60 || true
        sleep 0.5
        timeout "$t" "$@" "$PEER_IP" >/tmp/pair.out 2>&1; rc=$?
    fi
    "$G/peer-sync" "$tag-done" $((t + 30)) || true
    return $rc
}
