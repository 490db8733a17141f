#!/bin/bash
# RDMA over an impaired link, run in both guests of
#   scripts/vm --nodes 2 --impair drop=2%,dup=1%,reorder=1% \
#       -- /mlx5emu/guest-tests/rdma-impaired.sh
# The data-validating verbs test (its data part: with NAKs lost, error
# cases end in retry timeouts, as on a real lossy network) and ib_write_bw
# -a must pass; the filter-impair counters prove the link really dropped,
# duplicated and reordered frames.  Prints "PASS/FAIL <check>"; exit 1 if
# one failed.
set -u
# shellcheck source=guest-tests/rdma-lib.sh
. /mlx5emu/guest-tests/rdma-lib.sh     # G, GID, pass, fail, pair_run

ERRORS=0 timeout 600 python3 "$G/rdma-verbs-check.py" || fails=$((fails + 1))
if pair_run wbw 600 ib_write_bw -a -n 5 -d "$IBDEV" -x "$GID" -F -p 19400; then
    pass "ib_write_bw-a-impaired: $(grep -E '^ *8388608 ' /tmp/pair.out | tr -s ' ')"
else
    fail ib_write_bw-a-impaired "$(tail -3 /tmp/pair.out | tr '\n' ' ')"
fi
counts= idle=
for k in dropped duplicated reordered passed; do
    v=$($MONITOR qom-get /objects/impair0 "$k" | tr -dc 0-9)
    counts+=" $k ${v:-?}"
    [ "$k" = passed ] || [ "${v:-0}" -gt 0 ] || idle+=" $k"
done
if [ -z "$idle" ]; then
    pass "impair-active (frames this guest sent:$counts)"
else
    fail impair-active "none$idle (frames this guest sent:$counts)"
fi
# The transport saw the losses, and says so in the port's hw_counters
# (Q counters): gaps and duplicates as responder, NAKs and timeouts as
# requester.
hwc=/sys/class/infiniband/$IBDEV/ports/1/hw_counters
seen= sum=0
for k in out_of_sequence duplicate_request packet_seq_err implied_nak_seq_err local_ack_timeout_err; do
    v=$(cat "$hwc/$k" 2>/dev/null || echo 0)
    seen+=" $k $v"; sum=$((sum + v))
done
if [ "$sum" -gt 0 ]; then pass "hw_counters-recovery:$seen"; else fail hw_counters-recovery "all 0:$seen"; fi
exit $((fails > 0))
