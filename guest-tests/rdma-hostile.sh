#!/bin/bash
# Byte-verified RC traffic while a hostile peer injects frames into the
# link, run in both guests by scripts/hostile-peer:
#   scripts/vm --nodes 2 --net mcast --mcast GROUP:PORT \
#       -- \
#       '[TRAFFIC=nvme] DURATION=S /mlx5emu/guest-tests/rdma-hostile.sh'
# TRAFFIC=verbs (default): rdma-verbs-check.py's data part (every byte that
# lands compared, guard bytes around each target, every CQE field) runs for
# DURATION seconds; TRAFFIC=nvme: rdma-nvme.sh once (fio and sha256 verify
# every block).  Then the port's counters must show that the device saw and dropped the
# injected frames: rx_discards_phy (ICRC, length, header errors) and the
# responder's sequence and duplicate counters (hw_counters).  Prints
# "PASS/FAIL <check>"; exit 1 if one failed.
set -u
# shellcheck source=guest-tests/rdma-lib.sh
. /mlx5emu/guest-tests/rdma-lib.sh     # G, pass, fail, dmesg_check

case ${TRAFFIC:-verbs} in
    verbs)
        ERRORS=0 ROUNDS=1000000000 DURATION=${DURATION:-60} timeout $((${DURATION:-60} + 900)) \
            python3 "$G/rdma-verbs-check.py" || fails=$((fails + 1)) ;;
    nvme) "$G/rdma-nvme.sh" || fails=$((fails + 1)) ;;
    *) fail setup "TRAFFIC=$TRAFFIC: verbs or nvme" ;;
esac
hwc=/sys/class/infiniband/$IBDEV/ports/1/hw_counters
seen= sum=0
for k in out_of_sequence duplicate_request packet_seq_err local_ack_timeout_err; do
    v=$(cat "$hwc/$k" 2>/dev/null || echo 0)
    seen+=" $k $v"; sum=$((sum + v))
done
disc=$(ethtool -S "$DEV" | awk '$1 == "rx_discards_phy:" {print $2}')
if [ "${disc:-0}" -gt 0 ] && [ "$sum" -gt 0 ]; then
    pass "counters-show-injected: rx_discards_phy $disc,$seen"
else
    fail counters-show-injected "rx_discards_phy ${disc:-?},$seen"
fi
dmesg_check
exit $((fails > 0))
