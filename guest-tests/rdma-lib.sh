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

# pair_attempt TAG TIMEOUT CMD...: one run of CMD as pair_run describes,
# without the closing rendezvous; returns CMD's status.
pair_attempt() {
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
    return $rc
}

# listen_race RC: true if this side's attempt lost perftest -R's race.
# perftest's client sends its rdma_cm REQ right after the TCP exchange with
# its server, and the server calls rdma_listen only after that exchange
# (perftest_communication.c, create_rdma_cm_connection): when the client's
# guest gets there first, the server's CM answers with a REJ, reason 8
# (invalid service ID, IBA 12.6.7.2), and perftest's own retry then crashes
# (rdma_cm_client_connection reuses the ids rdma_cm_destroy_cma freed).
# The server, never asked, waits until its timeout (status 124).  Nothing
# of this reaches the device: the REQ and the REJ are correct MADs.
listen_race() {
    if [ "$NODE" = "${SERVER:-0}" ]; then
        [ "$1" = 124 ]
    else
        [ "$1" != 0 ] && grep -q 'RDMA_CM_EVENT_REJECTED; error: 8\.' /tmp/pair.out
    fi
}

# pair_run TAG TIMEOUT CMD...: node $SERVER (default 0) runs CMD as the
# server, the other node runs CMD $PEER_IP as the client once the server
# is ready (wait_server_ready); both return CMD's status (output in
# /tmp/pair.out) and meet again afterwards.  A pair that lost perftest -R's
# listen race (listen_race) runs again, up to 3 times in all: both sides
# agree on it through the name of the closing rendezvous, which differs
# unless both saw the race.
pair_run() {
    local tag=$1 t=$2 rc try=1 verdict
    shift 2
    while :; do
        pair_attempt "$tag-$try" "$t" "$@"; rc=$?
        verdict="done"
        [ $try -lt 3 ] && listen_race $rc && verdict=again
        "$G/peer-sync" "$tag-$try-$verdict" $((t + 30)) && [ $verdict = again ] || break
        echo "note $tag: perftest -R's client came before its server's rdma_listen (REJ, invalid service ID): the pair runs again"
        try=$((try + 1))
    done
    return $rc
}

# pair_check NAME PATTERN CMD...: pair_run CMD (within $PAIR_TIMEOUT
# seconds, default 300), then PASS NAME with the last output line matching
# PATTERN, or FAIL with the output's end.
pair_check() {
    local name=$1 pat=$2 rc
    shift 2
    pair_tag=$((${pair_tag:-0} + 1))
    pair_run "pc-$pair_tag" "${PAIR_TIMEOUT:-300}" "$@"; rc=$?
    if [ $rc = 0 ]; then
        pass "$name: $(grep -E "$pat" /tmp/pair.out | tail -1 | tr -s ' ')"
    else
        fail "$name" "status $rc: $(tail -6 /tmp/pair.out | tr '\n' ' ')"
    fi
}
