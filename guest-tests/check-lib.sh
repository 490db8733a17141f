# Reporting helpers of the guest tests (source it): each check prints
# "PASS <name>[ detail]" or "FAIL <name>: why" and failures are counted in
# $fails, which the script turns into its exit status.
fails=0
pass() { echo "PASS $*"; }
fail() { echo "FAIL $1: ${*:2}"; fails=$((fails + 1)); }

# dmesg_check [EXTRA_RE]: FAIL if the kernel warned, oopsed or hit a BUG
# (or logged a line matching EXTRA_RE), showing the lines.
dmesg_check() {
    local re="WARNING|Oops|BUG:${1:+|$1}"
    if dmesg | grep -E "$re"; then
        fail dmesg "kernel trouble${1:+ or /$1/} (above)"
    else
        pass dmesg
    fi
}

# pingpong_chk PROG: "-c" if this rdma-core's libibverbs example PROG
# (ibv_rc_pingpong, ibv_ud_pingpong, ...) has --chk, which checks every
# byte received (rdma-core 17 on), else nothing: an older build's
# pingpongs run unchecked (scripts/vm --rdma-core takes any).
pingpong_chk() {
    if "$1" --help 2>&1 | grep -q -- '--chk'; then
        echo -c
    fi
}
