# Shared by guest test scripts (source it): wait for a server process to
# be ready for its client instead of giving it a fixed head start.  Under a
# loaded host a fixed second was not always enough: a client whose rdma_cm
# REQ finds no listener gets a REJ (and perftest -R's retry after that
# crashes in its own clean-up), a verbs tool's TCP connect is refused.

# tree_pids PID: PID and all its descendants, one per line.
tree_pids() {
    ps -e -o pid=,ppid= | awk -v root="$1" '
        { parent[$1] = $2 }
        END { for (p in parent) for (q = p; q != ""; q = parent[q])
                  if (q == root) { print p; break } else if (q <= 1) break }'
}

# server_ready PID: true once PID's process tree can take a client: it owns
# a listening TCP socket (the verbs tools and perftest exchange their QP
# numbers over TCP), a listening RDMA CM id (rdma_cm tools, perftest -R), or
# a CM id on a multicast group the interface has joined (mckey's receiver).
server_ready() {
    local pids group
    pids=$(tree_pids "$1" | tr '\n' '|'); pids=${pids%|}
    [ -n "$pids" ] || return 1
    ss -Hltnp 2>/dev/null | grep -qE "pid=($pids)," && return 0
    rdma res show cm_id 2>/dev/null | grep -qE "state LISTEN .* pid ($pids) " && return 0
    group=$(rdma res show cm_id 2>/dev/null |
        sed -nE "s/.* pid ($pids) .*dst-addr (2(2[4-9]|3[0-9])\.[0-9.]+):.*/\2/p" | head -1)
    [ -n "$group" ] && ip maddr show dev "$DEV" | grep -qE "inet +${group//./\\.}( |$)"
}

# wait_server_ready PID [LIMIT_S]: poll server_ready for up to LIMIT_S
# (default 30).  Returns 1 if PID ended or the limit passed; callers go on
# regardless and the test fails on its own terms.
wait_server_ready() {
    local end=$((SECONDS + ${2:-30}))
    until server_ready "$1"; do
        kill -0 "$1" 2>/dev/null && [ $SECONDS -lt $end ] || return 1
        sleep 0.1
    done
}
