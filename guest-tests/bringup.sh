#!/bin/bash
# Bring-up checks for the mlx5 NIC, run as root INSIDE a guest:
#   scripts/vm --release sid -- /mlx5emu/guest-tests/bringup.sh
# (guest-tests/run-bringup runs it on sid, trixie and bookworm with the QEMU
# traces its host-side checks need).
#
# Checks, each printed as a "PASS <check>: ..." or "FAIL <check>: ..." line:
#   ident      lspci -nnk shows [15b3:101d] and "Kernel driver in use: mlx5_core";
#              ethtool -i: driver mlx5_core and firmware-version $BRINGUP_FW;
#              devlink dev info: running fw.version $BRINGUP_FW
#   boot       after $BRINGUP_IDLE s idle: dmesg clean (see dmesg_bad) and
#              probe-to-netdev under $BRINGUP_PROBE_MAX s of guest time
#   link       ip link set up -> carrier 1 within 5 s, ethtool "Link detected:
#              yes" and a numeric Speed; ip link set down -> carrier 0
#   rmmod, flr, remove   $BRINGUP_CYCLES cycles each of
#              modprobe -r [mlx5_ib] mlx5_core + modprobe mlx5_core,
#              unbind + echo 1 > /sys/bus/pci/devices/BDF/reset (FLR) + bind,
#              echo 1 > .../remove + echo 1 > /sys/bus/pci/rescan;
#              each followed by: find the netdev again, link up (carrier 1
#              within 5 s), probe-to-netdev under the limit when a probe ran,
#              dmesg since the cycle started clean
#   ib         modprobe mlx5_ib returns within its deadline, no kernel
#              WARNING/Oops/BUG, the netdev still links up; dmesg is reported
#   final      the driver unloads; then the unbound function is reset (bus
#              reset) so the host can see "mlx5_fw_reset reset: freed 0 objects"
# The host-side checks of the QEMU trace (object tables empty after every
# unload, every reset reached the device) are in guest-tests/run-bringup; this
# script prints "UNLOAD n: what", "UNLOADS n" and "RESETS n" lines for them.
#
# "Clean dmesg": no line from an mlx5 driver matching fail|error|timeout|
# compromised (case-insensitive), and no kernel WARNING, Oops, BUG, "cut here",
# hung-task or general-protection report anywhere.
#
# Probe-to-netdev time, in kernel timestamps: from the probe's "mlx5_core BDF:
# firmware version: x.y.z" line (mlx5_function_enable: the driver's first line,
# printed before it waits for the firmware) to
#   - in a cycle: the "BRINGUP[n]: probe returned" line this script writes to
#     /dev/kmsg the moment modprobe / the rescan write returns, provided the
#     netdev exists then (probe is synchronous: the PCI probe registers the
#     auxiliary mlx5_core.eth device, whose probe registers the netdev);
#   - at boot (probed by the guest init, no marker): the netdev's first
#     "mlx5_core BDF IF: Link up|down" line (its first open, which the init
#     does right after modprobe).
# Both are upper bounds of probe + netdev registration; neither depends on a
# driver message that differs between 6.1, 6.12 and 7.x.
#
# Every command runs under a hard deadline (run_dl) and is abandoned, never
# waited for, when stuck; a process left in D state means the kernel is wedged
# (rtnl or the device lock held): the remaining steps are then reported as
# FAIL "not run" instead of piling more stuck processes on.
#
# Environment: BRINGUP_FW (22.43.1014), BRINGUP_CYCLES (10), BRINGUP_IDLE (60),
# BRINGUP_PROBE_MAX (3), BRINGUP_STEPS (default "ident boot link rmmod flr
# remove ib final"), BRINGUP_DEADLINE (whole script, s; default 1080).
set -euo pipefail

FW=${BRINGUP_FW:-22.43.1014}
CYCLES=${BRINGUP_CYCLES:-10}
IDLE=${BRINGUP_IDLE:-60}
PROBE_MAX=${BRINGUP_PROBE_MAX:-3}
STEPS=" ${BRINGUP_STEPS:-ident boot link rmmod flr remove ib final} "
DEADLINE=${BRINGUP_DEADLINE:-1080}
VENDOR=0x15b3 DEVICE=0x101d
CARRIER_LIMIT=5          # s, ip link set up -> carrier 1
NETDEV_LIMIT=10          # s, driver bound -> netdev present
TMP=$(mktemp -d /tmp/bringup.XXXXXX)

npass=0 nfail=0 failed=() WEDGED='' unloads=0 resets=0
pass() { npass=$((npass + 1)); echo "PASS $1: ${*:2}"; }
fail() { nfail=$((nfail + 1)); failed+=("$1"); echo "FAIL $1: ${*:2}"; }
info() { echo "     $*"; }
indent() { sed 's/^/       | /'; }
step() { [[ $STEPS == *" $1 "* ]]; }
# Guest time in centiseconds (/proc/uptime has two decimals), no exec.
now() { local u _; read -r u _ </proc/uptime; echo $((10#${u/./})); }
secs() { printf '%d.%02d' $(($1 / 100)) $(($1 % 100)); }
elapsed() { secs $(($(now) - $1)); }                 # elapsed START: "s.cc"
over() { [ $(($(now) - $1)) -gt $(($2 * 100)) ]; }    # over START LIMIT_S
fle() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b) }'; }   # float a <= b

summary() {
    echo "UNLOADS $unloads"
    echo "RESETS $resets"
    echo "== bringup on $(uname -r): $npass passed, $nfail failed${failed:+ (${failed[*]})}"
}
# Overall deadline: a watchdog ends the script (the steps never wait on a
# stuck process, so only a sleep or a short command can be running).
main_pid=$$
( sleep "$DEADLINE"
  kill -TERM "$main_pid"
  for c in $(cat /proc/"$main_pid"/task/*/children); do [ "$c" = "$BASHPID" ] || kill -KILL "$c"; done ) &
watchdog=$!
trap 'kill "$watchdog" 2>/dev/null || true; summary' EXIT
trap 'fail deadline "the whole script passed ${DEADLINE} s"; exit 124' TERM

# --- commands with a hard deadline ----------------------------------------
pstate() { local s; s=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null) && echo "${s%% *}"; }
# run_dl SECS CMD...: run CMD (stdout+stderr to $TMP/out) for at most SECS
# seconds.  Returns CMD's status the moment it exits (a FIFO, no polling), or
# 124 after printing where it is stuck; a CMD that a SIGKILL cannot end (D
# state) sets WEDGED.
run_dl() {
    local secs=$1 fd rc cpid
    shift
    rm -f "$TMP/fifo" "$TMP/pid" "$TMP/out"   # new inodes: an abandoned CMD keeps the old
    mkfifo "$TMP/fifo"
    exec {fd}<>"$TMP/fifo"
    ( "$@" >"$TMP/out" 2>&1 </dev/null & cpid=$!; echo "$cpid" >"$TMP/pid"
      wait "$cpid"; echo $? >"$TMP/fifo" ) &
    if read -r -t "$secs" -u "$fd" rc; then
        exec {fd}<&-
        wait $! 2>/dev/null || true
        return "$rc"
    fi
    exec {fd}<&-
    cpid=$(cat "$TMP/pid")
    echo "     DEADLINE: '$*' still running after ${secs} s (pid $cpid, state $(pstate "$cpid")); kernel stack:"
    indent <"/proc/$cpid/stack" 2>/dev/null || true
    kill -KILL "$cpid" 2>/dev/null || true
    sleep 1
    if [ -n "$(pstate "$cpid")" ]; then
        WEDGED="'$*' (pid $cpid, state $(pstate "$cpid"))"
        echo "     the kernel is wedged: $WEDGED survives SIGKILL"
    fi
    return 124
}
sysfs_write() {   # sysfs_write SECS VALUE FILE, in a child so a hang is abandoned
    run_dl "$1" sh -c 'echo "$1" > "$2"' _ "$2" "$3"
}
# not_run NAME: FAIL NAME if the kernel is wedged (then skip the step)
not_run() {
    [ -n "$WEDGED" ] || return 1
    fail "$1" "not run: the kernel is wedged since $WEDGED"
}

# --- dmesg ------------------------------------------------------------------
markno=0 MARK=__boot__
mark() {   # mark TEXT: a numbered marker line in the kernel log; sets $MARK
    markno=$((markno + 1))
    MARK="BRINGUP[$markno]:"
    echo "$MARK $*" >/dev/kmsg
}
since_mark() {   # the kernel log after the line with $MARK (all before any mark)
    dmesg | awk -v m="$MARK" 'm == "__boot__" || f { print } index($0, m) { f = 1 }'
}
# dmesg_bad: the offending lines of a kernel log on stdin.  The kernel's echo
# of the guest's command line (mlx5emu_timeout=...) is not a driver line.
CRASH_RE='WARNING:|Oops|(^|[^A-Za-z])BUG[: ]|cut here|general protection|blocked for more than|Call Trace:'
dmesg_bad() {
    awk -v crash="$CRASH_RE" '
        /mlx5emu_[a-z]+=/ { next }
        tolower($0) ~ /mlx5/ && tolower($0) ~ /fail|error|timeout|compromised/ { print; next }
        $0 ~ crash { print }'
}
dmesg_crash() { awk -v crash="$CRASH_RE" '$0 ~ crash { print }'; }
check_clean() {   # check_clean NAME: the log since $MARK
    local bad
    bad=$(since_mark | dmesg_bad)
    if [ -z "$bad" ]; then pass "$1" "dmesg clean"; return 0; fi
    fail "$1" "dmesg has $(wc -l <<<"$bad") bad line(s):"
    head -40 <<<"$bad" | indent
    return 1
}
# probe_time BDF END: seconds from the first "mlx5_core BDF: firmware version"
# line (the PCI core's "resetting" also carries the driver's name) to the
# first line after it containing END (a fixed string) or, with END empty, the
# first "mlx5_core BDF IF: Link up|down"; "none" without a probe line, "noend"
# without an end line.
probe_time() {
    awk -v bdf="$1" -v end="$2" '
        function ts(s) { s = $0; sub(/^\[ */, "", s); sub(/\].*/, "", s); return s + 0 }
        !start && index($0, "mlx5_core " bdf ": firmware version") { start = ts(); next }
        start && !done && (end != "" ? index($0, end) : index($0, "mlx5_core " bdf " ") && / Link (up|down)$/) {
            printf "%.3f\n", ts() - start; done = 1 }
        END { if (!start) print "none"; else if (!done) print "noend" }'
}
check_probe() {   # check_probe NAME BDF END [required]: probe time since $MARK
    local t
    t=$(since_mark | probe_time "$2" "$3")
    case $t in
        none) if [ "${4:-}" = required ]; then fail "$1" "no 'mlx5_core $2: firmware version' line in dmesg"; else info "$1: no probe ran"; fi ;;
        noend) fail "$1" "probe started but no '${3:-Link up/down}' line after it" ;;
        *) if fle "$t" "$PROBE_MAX"; then pass "$1" "probe to netdev ${t} s (limit ${PROBE_MAX} s)"
           else fail "$1" "probe to netdev ${t} s > ${PROBE_MAX} s"; fi ;;
    esac
}

# --- device and netdev (shell builtins only: execs are slow under TCG) ------
find_bdf() {   # the PCI function 15b3:101d
    local d v i
    for d in /sys/bus/pci/devices/*; do
        read -r v <"$d/vendor" && read -r i <"$d/device" || continue
        [ "$v" = $VENDOR ] && [ "$i" = $DEVICE ] && { echo "${d##*/}"; return 0; }
    done
    return 1
}
bound() { [ -e "/sys/bus/pci/drivers/mlx5_core/$1" ]; }
find_netdev() {   # the netdev of PCI function BDF
    local n
    for n in "/sys/bus/pci/devices/$1/net/"*; do
        [ -e "$n" ] && { echo "${n##*/}"; return 0; }
    done
    return 1
}
wait_netdev() {   # wait_netdev BDF: echo the netdev name, within NETDEV_LIMIT s
    local t0 n
    t0=$(now)
    until n=$(find_netdev "$1"); do
        over "$t0" "$NETDEV_LIMIT" && return 1
        sleep 0.1
    done
    echo "$n"
}
carrier() { local c; read -r c <"/sys/class/net/$1/carrier" 2>/dev/null && echo "$c" || echo none; }
# link_up NAME DEV: ip link set up, then carrier 1 within CARRIER_LIMIT s
link_up() {
    local t0
    if ! run_dl 30 ip link set "$2" up; then
        fail "$1" "ip link set $2 up failed: $(cat "$TMP/out")"; return 1
    fi
    t0=$(now)
    until [ "$(carrier "$2")" = 1 ]; do
        if over "$t0" "$CARRIER_LIMIT"; then
            fail "$1" "$2 carrier is $(carrier "$2") $(elapsed "$t0") s after ip link set up"; return 1
        fi
        sleep 0.1
    done
    pass "$1" "$2 up, carrier 1 after $(elapsed "$t0") s"
}
# link_down NAME DEV: ip link set down, then no carrier within CARRIER_LIMIT s
# (a down netdev's carrier file gives EINVAL: "none" counts as 0)
link_down() {
    local t0 c l
    if ! run_dl 30 ip link set "$2" down; then
        fail "$1" "ip link set $2 down failed: $(cat "$TMP/out")"; return 1
    fi
    t0=$(now)
    while c=$(carrier "$2"); [ "$c" = 1 ]; do
        if over "$t0" "$CARRIER_LIMIT"; then fail "$1" "$2 carrier still 1 $(elapsed "$t0") s after ip link set down"; return 1; fi
        sleep 0.1
    done
    l=$(ip -o link show "$2")
    if [[ $l == *LOWER_UP* ]]; then fail "$1" "$2 down but still LOWER_UP"; return 1; fi
    pass "$1" "$2 down, carrier ${c/none/0 (EINVAL: not running)}, operstate $(cat "/sys/class/net/$2/operstate")"
}

unload() {   # unload NAME: modprobe -r [mlx5_ib] mlx5_core; the device ends unbound
    local mods=(mlx5_core)
    grep -q '^mlx5_ib ' /proc/modules && mods=(mlx5_ib mlx5_core)
    bound "$BDF" && { unloads=$((unloads + 1)); echo "UNLOAD $unloads: $1"; }
    if ! run_dl 60 modprobe -r "${mods[@]}"; then
        fail "$1" "modprobe -r ${mods[*]} failed: $(cat "$TMP/out")"; return 1
    fi
    if bound "$BDF" || find_netdev "$BDF" >/dev/null; then
        fail "$1" "after modprobe -r the device is still bound or has a netdev"; return 1
    fi
}
# after_probe NAME [required]: right after modprobe/rescan returned: marks the
# log, then the driver must be bound to the function with a netdev that links
# up (sets BDF, DEV); then the probe time and dmesg since the cycle's mark
after_probe() {
    local name=$1 endmark rc=0
    markno=$((markno + 1)); endmark="BRINGUP[$markno]: probe returned"
    echo "$endmark" >/dev/kmsg
    BDF=$(find_bdf) || { fail "$name" "no PCI function $VENDOR:$DEVICE"; check_clean "$name" || true; return 1; }
    bound "$BDF" || { fail "$name" "mlx5_core not bound to $BDF"; check_clean "$name" || true; return 1; }
    if ! DEV=$(find_netdev "$BDF"); then
        [ "${2:-}" = required ] && info "$name: no netdev yet when the probe returned"
        endmark=""
        DEV=$(wait_netdev "$BDF") || { fail "$name" "no netdev for $BDF within ${NETDEV_LIMIT} s"; check_clean "$name" || true; return 1; }
    fi
    link_up "$name" "$DEV" || { check_clean "$name" || true; return 1; }
    check_probe "$name" "$BDF" "$endmark" "${2:-}" || rc=1
    check_clean "$name" || rc=1
    return $rc
}

# ===========================================================================
echo "== bringup on $(uname -r) ($(. /etc/os-release; echo "${PRETTY_NAME:-?}")), uptime $(secs "$(now)") s"
BDF=$(find_bdf) || { fail setup "no PCI function $VENDOR:$DEVICE (lspci: $(lspci -nn | grep -i 15b3 || true))"; exit 1; }
DEV=${DEV:-}
[ -n "$DEV" ] || DEV=$(find_netdev "$BDF") || true
info "device $BDF, netdev ${DEV:-none}, steps:$STEPS"

if step ident; then
    if run_dl 30 lspci -nnk -s "$BDF"; then
        out=$(cat "$TMP/out")
        if grep -q '\[15b3:101d\]' <<<"$out" && grep -q 'Kernel driver in use: mlx5_core' <<<"$out"; then
            pass ident/lspci "$(head -1 <<<"$out"); driver in use: mlx5_core"
        else fail ident/lspci "unexpected lspci -nnk:"; indent <<<"$out"; fi
    else fail ident/lspci "lspci failed"; indent <"$TMP/out"; fi

    if [ -z "$DEV" ]; then fail ident/ethtool "no netdev"
    elif run_dl 30 ethtool -i "$DEV"; then
        drv=$(awk -F': ' '$1 == "driver" { print $2 }' "$TMP/out")
        fwv=$(awk -F': ' '$1 == "firmware-version" { print $2 }' "$TMP/out")
        if [ "$drv" = mlx5_core ] && [[ "$fwv" == "$FW" || "$fwv" == "$FW "* ]]; then
            pass ident/ethtool "driver $drv, firmware-version $fwv"
        else fail ident/ethtool "driver '$drv', firmware-version '$fwv' (want mlx5_core, $FW)"; fi
    else fail ident/ethtool "ethtool -i failed"; indent <"$TMP/out"; fi

    if run_dl 30 devlink dev info "pci/$BDF"; then
        run=$(awk '/^ *running:/ { r = 1; next } /^ *[a-z]+:$/ { r = 0 } r && $1 == "fw.version" { print $2 }' "$TMP/out")
        if [ "$run" = "$FW" ]; then pass ident/devlink "running fw.version $run"
        else fail ident/devlink "running fw.version '${run}' (want $FW):"; indent <"$TMP/out"
             dmesg | grep -i 'fw query\|mlx5_fw_version' | tail -3 | indent || true; fi
    else fail ident/devlink "devlink dev info pci/$BDF failed"; indent <"$TMP/out"; fi
fi

if step boot; then
    info "idling ${IDLE} s (uptime $(elapsed 0) s)"
    sleep "$IDLE"
    MARK=__boot__
    check_probe boot/probe "$BDF" "" required || true
    check_clean boot/dmesg || true
fi

if step link && ! not_run link; then
    if [ -z "$DEV" ]; then fail link "no netdev"
    else
        link_down link/down0 "$DEV" || true
        link_up link/up "$DEV" || true
        if run_dl 30 ethtool "$DEV"; then
            det=$(awk -F': ' '/Link detected:/ { print $2 }' "$TMP/out")
            spd=$(awk -F': ' '/Speed:/ { print $2 }' "$TMP/out")
            if [ "$det" = yes ] && [[ $spd =~ ^[0-9]+Mb/s$ ]]; then pass link/ethtool "Link detected: $det, Speed: $spd"
            else fail link/ethtool "Link detected: '$det', Speed: '$spd'"; indent <"$TMP/out"; fi
        else fail link/ethtool "ethtool $DEV failed"; indent <"$TMP/out"; fi
        link_down link/down "$DEV" || true
        link_up link/up-again "$DEV" || true
    fi
fi

# cycle KIND I: one cycle; returns non-zero if anything in it failed
cycle() {
    local kind=$1 i=$2 name="$1/$2" old
    mark "$kind cycle $i"
    case $kind in
        rmmod)
            unload "$name" || { check_clean "$name" || true; return 1; }
            run_dl 60 modprobe mlx5_core || { fail "$name" "modprobe mlx5_core failed: $(cat "$TMP/out")"; check_clean "$name" || true; return 1; }
            after_probe "$name" required ;;
        flr)
            # A Function Level Reset wipes the function (command queue,
            # every object), as on hardware.  mlx5_core has no
            # reset_prepare/reset_done handlers, so it cannot survive an FLR
            # underneath it: the FLR is done with the function unbound, the
            # way users reset a function before handing it on, then the
            # driver probes the fresh function.
            old=$DEV
            bound "$BDF" || { fail "$name" "driver not bound before the FLR"; return 1; }
            unloads=$((unloads + 1)); echo "UNLOAD $unloads: $name"
            sysfs_write 60 "$BDF" /sys/bus/pci/drivers/mlx5_core/unbind || { fail "$name" "unbind failed: $(cat "$TMP/out")"; check_clean "$name" || true; return 1; }
            resets=$((resets + 1))
            sysfs_write 30 1 "/sys/bus/pci/devices/$BDF/reset" || { fail "$name" "echo 1 > reset failed: $(cat "$TMP/out")"; check_clean "$name" || true; return 1; }
            sysfs_write 60 "$BDF" /sys/bus/pci/drivers/mlx5_core/bind || { fail "$name" "bind after the FLR failed: $(cat "$TMP/out")"; check_clean "$name" || true; return 1; }
            DEV=$(wait_netdev "$BDF") || { fail "$name" "no netdev after FLR"; check_clean "$name" || true; return 1; }
            [ "$DEV" = "$old" ] || info "$name: netdev $old is now $DEV"
            after_probe "$name" required ;;
        remove)
            bound "$BDF" && { unloads=$((unloads + 1)); echo "UNLOAD $unloads: $name"; }
            sysfs_write 60 1 "/sys/bus/pci/devices/$BDF/remove" || { fail "$name" "echo 1 > remove failed: $(cat "$TMP/out")"; check_clean "$name" || true; return 1; }
            [ ! -e "/sys/bus/pci/devices/$BDF" ] || { fail "$name" "$BDF still present after remove"; return 1; }
            sysfs_write 60 1 /sys/bus/pci/rescan || { fail "$name" "echo 1 > rescan failed: $(cat "$TMP/out")"; check_clean "$name" || true; return 1; }
            after_probe "$name" required ;;
    esac
}
for kind in rmmod flr remove; do
    step "$kind" || continue
    not_run "$kind" && continue
    t0=$(now) ok=0
    for i in $(seq 1 "$CYCLES"); do
        if cycle "$kind" "$i"; then ok=$((ok + 1)); continue; fi
        info "$kind: cycle $i failed; skipping the remaining $kind cycles"
        [ -z "$WEDGED" ] || break
        # Leave a usable device for the next step if possible.
        if ! { BDF=$(find_bdf) && bound "$BDF" && DEV=$(find_netdev "$BDF"); }; then
            info "trying to recover with modprobe -r/modprobe"
            run_dl 60 modprobe -r mlx5_ib mlx5_core || true
            [ -n "$WEDGED" ] || run_dl 60 modprobe mlx5_core || true
            BDF=$(find_bdf) || true; DEV=$(wait_netdev "$BDF") || true
        fi
        break
    done
    if [ "$ok" = "$CYCLES" ]; then pass "$kind" "$ok/$CYCLES cycles clean in $(elapsed "$t0") s"
    else fail "$kind" "$ok/$CYCLES cycles clean"; fi
done

if step ib && ! not_run mlx5_ib; then
    mark "modprobe mlx5_ib"
    t0=$(now)
    if run_dl 120 modprobe mlx5_ib; then ibrc=0; else ibrc=$?; fi
    if [ "$ibrc" = 124 ]; then fail mlx5_ib/return "modprobe mlx5_ib hung (deadline 120 s)"
    else pass mlx5_ib/return "modprobe mlx5_ib returned status $ibrc after $(elapsed "$t0") s$([ -s "$TMP/out" ] && echo ": $(head -3 "$TMP/out")")"; fi
    crash=$(since_mark | dmesg_crash)
    if [ -z "$crash" ]; then pass mlx5_ib/crash "no kernel WARNING/Oops/BUG"
    else fail mlx5_ib/crash "kernel trouble:"; head -60 <<<"$crash" | indent; fi
    if run_dl 10 cat /proc/uptime; then pass mlx5_ib/alive "guest alive (a new process ran), uptime $(elapsed 0) s"
    else fail mlx5_ib/alive "cannot run a process"; fi
    info "mlx5_ib: dmesg since modprobe mlx5_ib:"
    since_mark | head -40 | indent || true
    info "mlx5_ib: RDMA devices: $(ls /sys/class/infiniband 2>/dev/null | tr '\n' ' ')"
    if [ -n "$WEDGED" ]; then not_run mlx5_ib/link
    elif BDF=$(find_bdf) && DEV=$(find_netdev "$BDF"); then
        link_down mlx5_ib/link-down "$DEV" || true
        link_up mlx5_ib/link-up "$DEV" || true
    else fail mlx5_ib/link "no netdev after modprobe mlx5_ib"; fi
fi

if step final && ! not_run final; then
    mark "final unload"
    BDF=$(find_bdf) || true
    if unload final/unload; then
        pass final/unload "driver unloaded, $BDF unbound"
        # Reset the unbound function so the device reports what its tables
        # still held (host check: "mlx5_fw_reset reset: freed 0 objects").  A
        # bus reset (the root port's secondary bus reset) where possible, not
        # an FLR, so that this check does not depend on the FLR one.
        if [[ " $(cat "/sys/bus/pci/devices/$BDF/reset_method" 2>/dev/null) " == *" bus "* ]]; then
            sysfs_write 10 bus "/sys/bus/pci/devices/$BDF/reset_method" || true
        fi
        resets=$((resets + 1))
        if sysfs_write 30 1 "/sys/bus/pci/devices/$BDF/reset"; then
            pass final/reset "reset of the unbound $BDF (method $(cat "/sys/bus/pci/devices/$BDF/reset_method" 2>/dev/null))"
        else fail final/reset "echo 1 > reset failed: $(cat "$TMP/out")"; fi
    fi
    check_clean final/dmesg || true
fi

[ "$nfail" = 0 ]
