#!/bin/bash
# Every pair of guests on one segment runs rping at the same time, run in all:
#   scripts/vm --nodes 4 --nics mlx5,rxe,mlx5,rxe \
#       -- /mlx5emu/guest-tests/rdma-mesh.sh [COUNT]
# For each pair i < j, node i serves and node j connects: rping -v -V -C COUNT
# (default 200) through rdma_cm, data checked by rping.  With 4 guests each
# runs 3 rpings at once (6 pairs).  Also checks that ARP reached everyone.
# Prints "PASS/FAIL <test>"; exit 1 if one failed.
set -u
G=/mlx5emu/guest-tests
# shellcheck source=guest-tests/check-lib.sh
. "$G/check-lib.sh"
# shellcheck source=guest-tests/ready-lib.sh
. "$G/ready-lib.sh"                    # wait_server_ready
count=${1:-200}
read -r -a ips <<<"$NODE_IPS"
[ "${#ips[@]}" -ge 2 ] || { echo "FAIL setup: needs --nodes 2 or more"; exit 1; }
[ -n "$IBDEV" ] || { echo "FAIL setup: no RDMA device"; exit 1; }
port() { echo $((19000 + 10 * $1 + $2)); }

"$G/peer-sync" mesh-start 120 || fail sync "mesh-start"
for ((j = 0; j < NODES; j++)); do
    [ "$j" = "$NODE" ] && continue
    if ping -c 2 -W 5 "${ips[j]}" >/dev/null; then pass "ping-node$j"; else fail "ping-node$j" "no answer"; fi
done
pids=() names=()
for ((j = NODE + 1; j < NODES; j++)); do
    rping -s -a "$MY_IP" -p "$(port "$NODE" "$j")" -v -V -C "$count" >"/tmp/rping-srv-$j.out" 2>&1 &
    pids+=($!) names+=("rping-node$NODE-serves-node$j")
done
for p in "${pids[@]}"; do wait_server_ready "$p" || true; done
"$G/peer-sync" mesh-servers 120 || fail sync "mesh-servers"
for ((i = 0; i < NODE; i++)); do
    rping -c -a "${ips[i]}" -p "$(port "$i" "$NODE")" -v -V -C "$count" >"/tmp/rping-cli-$i.out" 2>&1 &
    pids+=($!) names+=("rping-node$NODE-to-node$i")
done
for k in "${!pids[@]}"; do
    out=/tmp/rping-$( [[ ${names[k]} == *serves* ]] && echo srv-${names[k]##*node} || echo cli-${names[k]##*node}).out
    if wait "${pids[k]}" && grep -q "rdma-ping-$((count - 1)):" "$out"; then
        pass "${names[k]}: $(grep -c 'ping data' "$out") pings checked"
    else
        fail "${names[k]}" "$(tail -3 "$out" | tr '\n' ' ')"
    fi
done
"$G/peer-sync" mesh-done 300 || fail sync "mesh-done"
dmesg_check
exit $((fails > 0))
