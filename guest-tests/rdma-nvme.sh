#!/bin/bash
# NVMe over RDMA (the kernel's nvmet-rdma and nvme-rdma) between two guests,
# run in both:
#   scripts/vm --nodes 2 [--nics rxe,rxe] --timeout 1500 -- \
#       /mlx5emu/guest-tests/rdma-nvme.sh
# Node 0 is the target: a RAM disk (brd, else null_blk memory_backed=1) of
# NVME_MIB + NVME_MIB/4 + 16 MiB exported by nvmet through configfs (any host
# allowed, namespace 1, an rdma port on MY_IP:4420).  Node 1 is the host:
# nvme discover, nvme connect, then on the namespace fio writes NVME_MIB MiB
# (default 256) of 128 KiB blocks with crc32c verify headers and reads them
# back verified, and dd writes NVME_MIB/4 MiB of random data after that
# region and reads it back (sha256 compared); nvme disconnect (the block
# device must go), connect again, both regions must still hold the same data
# (fio --verify_only, sha256), disconnect again.  The target stays up until
# the host is done, then takes its configuration down.  Each step is bounded
# by timeout; NVME_STEP_TIMEOUT (default 60 s) for the nvme commands,
# NVME_IO_TIMEOUT (default 120 + 4 s/MiB) for each fio/dd pass.
# NVME_FLAP=S (scripts/faults flap): one more fio write-and-verify pass on
# the host while its own link goes down for S seconds and up again
# ($MONITOR set_link); nvme-rdma may recover and reconnect meanwhile, but
# fio must finish with no error and every block verified.
# Prints "PASS/FAIL <step>"; exit 1 if one failed.
set -u
# shellcheck source=guest-tests/rdma-lib.sh
. /mlx5emu/guest-tests/rdma-lib.sh     # G, pass, fail, dmesg_check

MIB=${NVME_MIB:-256}                    # the fio region, from offset 0
DD_MIB=$((MIB / 4))                     # the dd region, right after it
[ "$DD_MIB" -ge 1 ] || DD_MIB=1
DISK_MIB=$((MIB + DD_MIB + 16))
NQN=nqn.2024-01.org.mlx5emu:rdma-nvme
PORT=4420
T=${NVME_STEP_TIMEOUT:-60}
IO_T=${NVME_IO_TIMEOUT:-$((120 + 4 * MIB))}
CFG=/sys/kernel/config/nvmet
# The whole host side, for the target's final barrier.
HOST_T=$((6 * T + 4 * IO_T + 300))
dev=''

# ------------------------------------------------------------- target ----
target_setup() {
    local dev='' s=$CFG/subsystems/$NQN p=$CFG/ports/1
    if timeout "$T" modprobe nvmet && timeout "$T" modprobe nvmet-rdma; then
        pass "target-modules: nvmet nvmet-rdma"
    else
        fail target-modules "cannot load nvmet / nvmet-rdma"; return 1
    fi
    if timeout "$T" modprobe brd rd_nr=1 rd_size=$((DISK_MIB * 1024)) && [ -b /dev/ram0 ]; then
        dev=/dev/ram0
    elif timeout "$T" modprobe null_blk nr_devices=1 memory_backed=1 gb=1 bs=4096 &&
        [ -b /dev/nullb0 ]; then
        dev=/dev/nullb0
    fi
    if [ -n "$dev" ]; then
        pass "target-ramdisk: $dev, $(($(blockdev --getsize64 "$dev") >> 20)) MiB"
    else
        fail target-ramdisk "neither brd nor null_blk made a block device"; return 1
    fi
    mountpoint -q /sys/kernel/config || mount -t configfs configfs /sys/kernel/config
    if mkdir "$s" && echo 1 >"$s/attr_allow_any_host" &&
        mkdir "$s/namespaces/1" && echo -n "$dev" >"$s/namespaces/1/device_path" &&
        echo 1 >"$s/namespaces/1/enable" &&
        mkdir "$p" && echo rdma >"$p/addr_trtype" && echo ipv4 >"$p/addr_adrfam" &&
        echo "$MY_IP" >"$p/addr_traddr" && echo "$PORT" >"$p/addr_trsvcid" &&
        ln -s "$s" "$p/subsystems/$NQN"; then
        pass "target-configfs: $NQN, namespace 1 on $dev, rdma port $MY_IP:$PORT"
    else
        fail target-configfs "configuring nvmet failed"; return 1
    fi
}

target_teardown() {
    local s=$CFG/subsystems/$NQN p=$CFG/ports/1 ok=1
    [ -d "$CFG" ] || return 0
    [ -L "$p/subsystems/$NQN" ] && { rm "$p/subsystems/$NQN" || ok=0; }
    [ -d "$p" ] && { rmdir "$p" || ok=0; }
    if [ -d "$s" ]; then
        [ -d "$s/namespaces/1" ] && { echo 0 >"$s/namespaces/1/enable"; rmdir "$s/namespaces/1" || ok=0; }
        rmdir "$s" || ok=0
    fi
    if [ $ok = 1 ] && timeout "$T" modprobe -r nvmet-rdma nvmet; then
        pass target-teardown
    else
        fail target-teardown "configfs entries or modules would not go"
    fi
}

# --------------------------------------------------------------- host ----
# nvme_dev: the namespace's block device of our subsystem, if there is one
nvme_dev() {
    local b
    for b in /sys/block/nvme*n*; do
        [[ ${b##*/} =~ ^nvme[0-9]+n[0-9]+$ ]] || continue
        [ "$(cat "$b/device/subsysnqn" 2>/dev/null)" = "$NQN" ] && [ -b "/dev/${b##*/}" ] &&
            { echo "/dev/${b##*/}"; return 0; }
    done
    return 1
}
# wait_dev SECONDS [gone]: wait for the block device (and set $dev), or
# with "gone" until none of our subsystem is left
wait_dev() {
    local i d
    for ((i = 0; i < $1 * 5; i++)); do
        if d=$(nvme_dev); then
            [ -n "${2:-}" ] || { dev=$d; return 0; }
        else
            [ -z "${2:-}" ] || return 0
        fi
        sleep 0.2
    done
    return 1
}
connect() { # NAME
    local t0=$SECONDS rc
    timeout "$T" nvme connect -t rdma -n "$NQN" -a "$PEER_IP" -s "$PORT" >/tmp/connect.out 2>&1; rc=$?
    if [ $rc != 0 ]; then
        fail "$1" "status $rc: $(tr '\n' ' ' </tmp/connect.out)"; return 1
    fi
    if wait_dev "$T"; then
        pass "$1: $dev, $(($(blockdev --getsize64 "$dev") >> 20)) MiB, in $((SECONDS - t0)) s"
    else
        fail "$1" "connected, but no block device for $NQN within $T s"; return 1
    fi
}
disconnect() { # NAME
    local rc
    timeout "$T" nvme disconnect -n "$NQN" >/tmp/disconnect.out 2>&1; rc=$?
    if [ $rc = 0 ] && grep -q 'disconnected 1 controller' /tmp/disconnect.out; then
        if wait_dev "$T" gone; then
            pass "$1: $(tr '\n' ' ' </tmp/disconnect.out)and $dev is gone"
        else
            fail "$1" "$dev is still there $T s after the disconnect"
        fi
    else
        fail "$1" "status $rc: $(tr '\n' ' ' </tmp/disconnect.out)"
    fi
}
FIO=(fio --name=nvme-verify --bs=128k --size="${MIB}M" --direct=1 --ioengine=libaio --iodepth=8
     --rw=write --verify=crc32c --do_verify=1)
# fio_check NAME EXTRA...: fio over the fio region, PASS if it ends with
# status 0, err=0 and no verify error
fio_check() {
    local name=$1 rc t0=$SECONDS
    shift
    timeout "$IO_T" "${FIO[@]}" --filename="$dev" "$@" >/tmp/fio.out 2>&1; rc=$?
    if [ $rc = 0 ] && grep -q 'err= *0:' /tmp/fio.out &&
        ! grep -qiE 'verify.*(fail|bad)|bad magic|crc32c.*(fail|wanted)' /tmp/fio.out; then
        pass "$name: $MIB MiB in $((SECONDS - t0)) s," \
             "$(grep -E '^ *(WRITE|READ):' /tmp/fio.out | sed 's/^ *//; s/ (.*//' | tr '\n' ' ')"
    else
        fail "$name" "status $rc: $(grep -iE 'err=|verify|error' /tmp/fio.out | head -5 | tr '\n' ' ')"
        tail -15 /tmp/fio.out
    fi
}
# fio_under_flap: fio_check while the link goes down for NVME_FLAP seconds,
# 10 s into the pass; the kernel's recovery lines are reported, not failed.
fio_under_flap() {
    local before after flips
    before=$(dmesg | grep -cE 'nvme.*(error recovery|reconnect|Successfully)')
    flips=$(cat "/sys/class/net/$DEV/carrier_changes")
    ( sleep 10; $MONITOR set_link n0 off >/dev/null; sleep "$NVME_FLAP"
      $MONITOR set_link n0 on >/dev/null ) &
    fio_check "fio-verify-under-flap (link down ${NVME_FLAP} s)"
    wait
    after=$(dmesg | grep -cE 'nvme.*(error recovery|reconnect|Successfully)')
    flips=$(($(cat "/sys/class/net/$DEV/carrier_changes") - flips))
    echo "  meanwhile: $flips carrier changes, $((after - before)) nvme recovery lines in dmesg"
}

region_sum() { # the dd region's sha256 as read back from $dev
    timeout "$IO_T" dd if="$dev" bs=1M skip="$MIB" count="$DD_MIB" iflag=direct status=none |
        sha256sum | cut -d' ' -f1
}

host() {
    local want got
    if timeout "$T" modprobe nvme-rdma; then
        pass "host-modules: nvme-rdma"
    else
        fail host-modules "cannot load nvme-rdma"; return 1
    fi
    if timeout "$T" nvme discover -t rdma -a "$PEER_IP" -s "$PORT" >/tmp/discover.out 2>&1 &&
        grep -q "subnqn: *$NQN" /tmp/discover.out; then
        pass "discover: $NQN at $PEER_IP:$PORT"
    else
        fail discover "$(tail -5 /tmp/discover.out | tr '\n' ' ')"
    fi
    connect connect || return 1
    fio_check fio-write-verify-crc32c
    [ -z "${NVME_FLAP:-}" ] || fio_under_flap
    head -c $((DD_MIB << 20)) /dev/urandom >/tmp/rand
    want=$(sha256sum </tmp/rand | cut -d' ' -f1)
    if timeout "$IO_T" dd if=/tmp/rand of="$dev" bs=1M seek="$MIB" oflag=direct conv=fsync status=none; then
        got=$(region_sum)
        if [ "$got" = "$want" ]; then
            pass "dd-sha256: $DD_MIB MiB at $MIB MiB written and read back, sha256 ${want:0:16}"
        else
            fail dd-sha256 "read back ${got:0:16}, wrote ${want:0:16}"
        fi
    else
        fail dd-sha256 "dd to $dev failed"
    fi
    disconnect disconnect
    connect reconnect || return 1
    got=$(region_sum)
    if [ "$got" = "$want" ]; then
        pass "dd-sha256-after-reconnect: ${want:0:16}"
    else
        fail dd-sha256-after-reconnect "read back ${got:0:16}, wrote ${want:0:16}"
    fi
    fio_check fio-verify-after-reconnect --verify_only
    disconnect disconnect-again
}

if [ "$NODE" = 0 ]; then
    target_setup
    "$G/peer-sync" nvme-target-ready 300 || fail sync nvme-target-ready
    "$G/peer-sync" nvme-host-done "$HOST_T" || fail sync nvme-host-done
    target_teardown
else
    "$G/peer-sync" nvme-target-ready 300 || fail sync nvme-target-ready
    host
    nvme_dev >/dev/null && timeout "$T" nvme disconnect -n "$NQN" >/dev/null 2>&1
    "$G/peer-sync" nvme-host-done 120 || fail sync nvme-host-done
fi
if [ -n "${NVME_FLAP:-}" ]; then
    dmesg_check 'I/O error|blk_update_request'     # recovery is expected, data errors are not
else
    dmesg_check 'nvme.*(error|fail|timed? ?out)|I/O error'
fi
exit $((fails > 0))
