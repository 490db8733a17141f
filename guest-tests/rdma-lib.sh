# Helpers for the RDMA guest tests between two guests (sourced): sets G
# (this directory) and GID (the RoCE v2 GID index of MY_IP, from
# guest-tests/init's $GID_INDEX), or exits 1 without a peer or a GID;
# brings check-lib.sh's pass/fail; pair_run runs a client/server tool.
# Needs scripts/vm --nodes 2.
G=/mlx5emu/guest-tests
IBDEV=${IBDEV:-mlx5_0}
# shellcheck source=guest-tests/check-lib.sh
. "$G/check-lib.sh"                    # fails=0, pass, fail, dmesg_check
# shellcheck source=guest-tests/ready-lib.sh
. "$G/ready-lib.sh"                    # wait_server_ready

[ -n "${PEER_IP:-}" ] || { echo "FAIL setup: needs --nodes 2"; exit 1; }
GID=${GID_INDEX:-}
[ -n "$GID" ] || { echo "FAIL setup: $IBDEV has no RoCE v2 IPv4 GID"; exit 1; }

# pair_run TAG TIMEOUT CMD...: node $SERVER (default 0) runs CMD as the
# server, the other node runs CMD $PEER_IP as the client once the server
# is ready (wait_server_ready); both return CMD's status (output in
# /tmp/pair.out) and meet again afterwards.
pair_run() {
    local tag=$1 t=$2 pid rc
    shift 2
    if [ "$NODE" = "${SERVER:-0}" ]; then
        timeout "$t" "$@" >/tmp/pair.out 2>&1 &
        pid=$!
        wait_server_ready "$pid" || true
        "$G/peer-sync" "$tag" 60 || true
        wait "$pid"; rc=$?
    else
        "$G/peer-sync" "$tag" 60 || true
        timeout "$t" "$@" "$PEER_IP" >/tmp/pair.out 2>&1; rc=$?
    fi
    "$G/peer-sync" "$tag-done" $((t + 30)) || true
    return $rc
}

# pair_check NAME PATTERN CMD...: pair_run CMD, then PASS NAME with the
# last output line matching PATTERN, or FAIL with the output's end.
pair_check() {
    local name=$1 pat=$2 rc
    shift 2
    pair_tag=$((${pair_tag:-0} + 1))
    pair_run "pc-$pair_tag" 300 "$@"; rc=$?
    if [ $rc = 0 ]; then
        pass "$name: $(grep -E "$pat" /tmp/pair.out | tail -1 | tr -s ' ')"
    else
        fail "$name" "status $rc: $(tail -6 /tmp/pair.out | tr '\n' ' ')"
    fi
}
