#!/bin/bash
# The guests' part of scripts/demo: two guests, each with the emulated
# ConnectX; node 0 shows what the unmodified drivers made of it, both run
# ibv_rc_pingpong and ib_write_bw against each other, then lab 10's
# program with every layer traced (the host turns that into the decoded
# timeline scripts/demo prints).
set -u
# shellcheck source=guest-tests/rdma-lib.sh
. /mlx5emu/guest-tests/rdma-lib.sh     # G, GID, pass, fail, pair_run
step() { [ "$NODE" = 0 ] && printf '\n=== %s\n' "$*"; return 0; }
show() { [ "$NODE" = 0 ] && "$@"; return 0; }

step "the PCI function and the drivers bound to it"
show lspci -nnk -d 15b3:
step "the RDMA device mlx5_ib registered: rdma link, ibv_devinfo"
show rdma link show
show ibv_devinfo -d "$IBDEV"
step "ibv_rc_pingpong between the two guests (4 KiB, 200 round trips)"
if pair_run pp 120 ibv_rc_pingpong -d "$IBDEV" -g "$GID" -s 4096 -n 200 -p 18515; then
    show grep -E 'bytes in|iters in' /tmp/pair.out
else
    fail rc_pingpong "$(tail -3 /tmp/pair.out | tr '\n' ' ')"
fi
step "ib_write_bw between the two guests (64 KiB WRITEs)"
if pair_run wbw 120 ib_write_bw -d "$IBDEV" -x "$GID" -F -s 65536 -n 200 -p 18600; then
    show grep -E '#bytes|^ *65536 ' /tmp/pair.out
else
    fail ib_write_bw "$(tail -3 /tmp/pair.out | tr '\n' ' ')"
fi
step "lab 10's program, every layer traced: WRITE, READ, atomic, SEND"
"$G/peer-sync" lab 60 || true
bash "$G/labs/10-verbs-on-the-wire.sh" | grep -v '^lab: kernel function'
rc=${PIPESTATUS[0]}
exit $(( rc || ${fails:-0} ))
