#!/bin/bash
# The quick tier (scripts/test --quick, guest-tests/run-quick), run in both
# guests of a pair: a few minutes that cover what a driver or rdma-core
# change most often breaks, for the edit-build-test loop.
#   bring-up   mlx5_core's netdev up, ethtool's driver and firmware; the
#              modules a Debian system loads at boot loaded without
#              --modules (guest-tests/coldplug); mlx5_0 ACTIVE in rdma link;
#              ibv_devinfo's port, and the libibverbs and provider it loaded
#   Ethernet   ping and ping -6, iperf3 TCP for 3 s (node 1 to node 0)
#   RC         ibv_rc_pingpong (data checked where it can), ib_write_bw,
#              ib_read_bw, ib_send_lat
#   UD         ibv_ud_pingpong
#   rdma_cm    rping (data verified) and ib_send_bw -R
# With scripts/vm --rdma-core, every verbs tool must have loaded libibverbs
# and its provider from $RDMA_CORE (LD_DEBUG=libs shows which).
# Prints "PASS/FAIL <check>"; exits 1 if one failed.
set -u
# shellcheck source=guest-tests/rdma-lib.sh
. /mlx5emu/guest-tests/rdma-lib.sh     # G, GID, pass, fail, pair_check

# libs NAME: sets $libs to the libibverbs and provider that a run with
# LD_DEBUG_OUTPUT=/tmp/ld-NAME initialised (ld.so's "calling init:" lines;
# libibverbs initialises every provider it knows, the NIC's is the one);
# returns 1 under --rdma-core if they are not the build's.
libs() {
    local f verbs prov pat='librxe-'
    [ "$NIC" = mlx5 ] && pat='libmlx5[-.]'
    f=$(ls -t /tmp/ld-"$1".* 2>/dev/null | head -1)
    verbs=$(sed -n 's/.*calling init: \(.*libibverbs\.so[.0-9]*\)$/\1/p' "$f" 2>/dev/null | head -1)
    prov=$(sed -n "s/.*calling init: \(.*$pat.*\)\$/\1/p" "$f" 2>/dev/null | head -1)
    libs="libibverbs ${verbs:-?}, provider ${prov:-?}"
    [ -z "${RDMA_CORE:-}" ] || { [[ $verbs == "$RDMA_CORE"/* ]] && [[ $prov == "$RDMA_CORE"/* ]]; }
}
# traced NAME: the words that run a command with ld.so's library trace
traced() { echo env LD_DEBUG=libs "LD_DEBUG_OUTPUT=/tmp/ld-$1"; }

# --- bring-up ---------------------------------------------------------------
drv=$(ethtool -i "$DEV" 2>/dev/null | awk '$1 == "driver:" { print $2 }')
fw=$(ethtool -i "$DEV" 2>/dev/null | awk '$1 == "firmware-version:" { print $2 }')
if [ "$drv" = "${NIC/mlx5/mlx5_core}" ] && [ "$(cat "/sys/class/net/$DEV/carrier")" = 1 ]; then
    pass "bring-up: $DEV ($drv, firmware ${fw:-?}) up with carrier on $(uname -r)"
else
    fail bring-up "$DEV: driver ${drv:-none}, carrier $(cat "/sys/class/net/$DEV/carrier" 2>/dev/null)"
fi
want="ib_uverbs rdma_ucm"
[ "$NIC" = mlx5 ] && want="mlx5_ib $want ib_umad"
missing=
for m in $want; do [ -d "/sys/module/$m" ] || missing+=" $m"; done
if [ -z "$missing" ]; then
    pass "modules-at-boot: $want"
else
    fail modules-at-boot "not loaded at boot:$missing"
fi
link=$(rdma link show "$IBDEV/1" 2>&1)
if [[ $link == *"state ACTIVE"* ]]; then
    pass "rdma-link: $(tr -s ' ' <<<"$link")"
else
    fail rdma-link "$IBDEV/1: $link"
fi
if $(traced devinfo) ibv_devinfo -d "$IBDEV" >/tmp/devinfo 2>&1 && grep -q 'PORT_ACTIVE' /tmp/devinfo; then
    pass "ibv_devinfo: port 1 PORT_ACTIVE"
else
    fail ibv_devinfo "$(tail -3 /tmp/devinfo | tr '\n' ' ')"
fi
if libs devinfo; then pass "ibv_devinfo-libraries: $libs"; else fail ibv_devinfo-libraries "not --rdma-core's: $libs"; fi

# --- Ethernet -----------------------------------------------------------------
for v in 4 6; do
    peer=$PEER_IP; [ $v = 6 ] && peer=$PEER_IP6
    if ping -"$v" -c 5 -i 0.1 -W 5 "$peer" >/tmp/ping.out 2>&1; then
        pass "ping$v: $(grep -o '[0-9]* received' /tmp/ping.out), $(grep -o 'rtt.*' /tmp/ping.out)"
    else
        fail "ping$v" "$(tail -2 /tmp/ping.out | tr '\n' ' ')"
    fi
done
SERVER=0
if [ "$NODE" = 0 ]; then iperf=(-s -1 -B "$MY_IP"); else iperf=(-t 3 -c); fi
pair_check iperf3 'receiver' iperf3 -f m "${iperf[@]}"

# --- RC, UD, rdma_cm ----------------------------------------------------------
chk=$(pingpong_chk ibv_rc_pingpong)
port=18900
next() { port=$((port + 1)); }
next; pair_check "rc_pingpong-4096${chk:+ (data checked)}" 'Mbit/sec' \
    ibv_rc_pingpong -d "$IBDEV" -g "$GID" -s 4096 -n 100 -p "$port" $chk
next; pair_check "ib_write_bw-64K" '^ *[0-9]+ +[0-9]+' \
    $(traced write_bw) ib_write_bw -d "$IBDEV" -x "$GID" -F -s 65536 -n 200 -p "$port"
if libs write_bw; then pass "ib_write_bw-libraries: $libs"; else fail ib_write_bw-libraries "not --rdma-core's: $libs"; fi
next; pair_check "ib_read_bw-64K" '^ *[0-9]+ +[0-9]+' \
    ib_read_bw -d "$IBDEV" -x "$GID" -F -s 65536 -n 100 -p "$port"
next; pair_check "ib_send_lat-64" '^ *[0-9]+ +[0-9]+' \
    ib_send_lat -d "$IBDEV" -x "$GID" -F -s 64 -n 200 -p "$port"
chk=$(pingpong_chk ibv_ud_pingpong)
next; pair_check "ud_pingpong-1024${chk:+ (data checked)}" 'Mbit/sec' \
    ibv_ud_pingpong -d "$IBDEV" -g "$GID" -s 1024 -n 100 -p "$port" $chk
if [ "$NODE" = 0 ]; then role=(-s -a "$MY_IP"); else role=(-c -a "$PEER_IP"); fi
next; pair_check "rping-C100 (rdma_cm, data verified)" 'rdma-ping-99:' \
    rping "${role[@]}" -v -V -C 100 -p "$port"
next; pair_check "ib_send_bw-R (rdma_cm)" '^ *[0-9]+ +[0-9]+' \
    ib_send_bw -d "$IBDEV" -R -F -s 4096 -n 200 -p "$port"
exit $((fails > 0))
