# shellcheck shell=bash
# Host-side machinery of the guest-test drivers run-bringup, run-eth and
# run-rdma: options, one scripts/vm run per stage, the stage's result lines,
# its summary row and the exit status.  scripts/test adds up the rows
# (count_tests: field 3 "PASS", field 5 "FAIL"), so their format lives here
# only.  The files of stage NAME, in $logdir:
#   NAME/         scripts/vm's log dir (nodeN.qemu.log, nodeN/output, ...)
#   NAME.log      scripts/vm's output
#   NAME.rc       its exit status; NAME.time: its wall time in seconds
#   NAME.report   the result lines the driver printed, which the row counts
# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"

logdir='' status=0 rows=()

# parse_options NAME... -- "$@": "--NAME VALUE" sets the variable NAME (a
# driver sets the defaults before), --logdir DIR sets $logdir, --help prints
# the driver's header comment.  Anything else stops the driver: a typo must
# not run the whole suite with the defaults.
parse_options() {
    local names=" logdir "
    while [ "$1" != -- ]; do names+="$1 "; shift; done
    shift
    while [ $# -gt 0 ]; do
        case $1 in
            -h|--help) sed -n '2,/^# Exit status/p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
            --*) [[ $names == *" ${1#--} "* ]] || die "unknown option $1 (see --help)"
                 [ $# -ge 2 ] || die "$1 needs a value"
                 printf -v "${1#--}" '%s' "$2"; shift 2 ;;
            *) die "unknown argument $1 (see --help)" ;;
        esac
    done
}

# logdir_init KIND: a fresh $MLX5EMU_CACHE/runs/KIND-DATE-PID unless --logdir
# named one
logdir_init() {
    logdir=${logdir:-$MLX5EMU_CACHE/runs/$1-$(date +%Y%m%d-%H%M%S)-$$}
    mkdir -p "$logdir"
}

# vm_stage NAME VM-ARGS... -- COMMAND: one scripts/vm run into $logdir/NAME
# (inside network namespace $NETNS if set).  It never fails: the status goes
# to NAME.rc, so that the driver runs every stage and stages can run in the
# background.
vm_stage() {
    local name=$1 t0=$SECONDS rc=0
    shift
    ${NETNS:+ip netns exec "$NETNS"} "$MLX5EMU_ROOT/scripts/vm" --logdir "$logdir/$name" "$@" \
        >"$logdir/$name.log" 2>&1 || rc=$?
    echo "$rc" >"$logdir/$name.rc"
    echo $((SECONDS - t0)) >"$logdir/$name.time"
}

# vm_rc NAME: scripts/vm's exit status in stage NAME ("?" if it never ended)
vm_rc() { cat "$logdir/$1.rc" 2>/dev/null || echo '?'; }

# guest_results NAME [PREFIX]: the guests' "[nodeN] PASS|FAIL|SKIP ..." lines
# of stage NAME; PREFIX (a sed replacement, \1 = N) replaces "[nodeN] ".
# Anchored: the "[nodeN console]" tail of a failed guest holds kernel lines,
# not results.
guest_results() {
    grep -E '^\[node[0-9]+\] (PASS|FAIL|SKIP) ' "$logdir/$1.log" |
        sed "s/^\[node\([0-9]*\)\] /${2:-&}/" || true
}

# vm_result NAME [WHO]: a FAIL line if scripts/vm failed in stage NAME (a
# guest timed out, crashed or never ran its command: results are missing)
vm_result() {
    local rc; rc=$(vm_rc "$1")
    [ "$rc" = 0 ] || fail_line "${2:-$1}" "scripts/vm exit status $rc (log $logdir/$1.log)"
}

# pass_line / fail_line NAME DETAIL...: a result line "PASS NAME: DETAIL"
pass_line() { echo "PASS $1: ${*:2}"; }
fail_line() { echo "FAIL $1: ${*:2}"; }
# check_line NAME STATUS DETAIL...: PASS if STATUS is 0, as a command's status
check_line() {
    if [ "$2" = 0 ]; then pass_line "$1" "${@:3}"; else fail_line "$1" "${@:3}"; fi
}

# teardowns QEMU_LOG: the object-table trace ("--trace mlx5_fw_objects_freed")
# of every TEARDOWN_HCA and DISABLE_HCA, as "LINE-NUMBER:line"; after a clean
# driver unload they read "freed 0 objects, 0 remain"
teardowns() { grep -nE '^mlx5_fw_objects_freed (TEARDOWN_HCA|DISABLE_HCA):' "$1" || true; }

# objects_check NAME QEMU_LOG MIN: host/objects: at least MIN teardowns (one
# per driver unload), none of which left objects in the tables
objects_check() {
    local n left
    n=$(teardowns "$2" | grep -c . || true)
    left=$(teardowns "$2" | grep -vc ', 0 remain' || true)
    if [ "$n" -ge "$3" ] && [ "$left" = 0 ]; then
        pass_line "$1" "host/objects: $n teardowns, all with 0 objects left"
    else
        fail_line "$1" "host/objects: $n teardowns (>= $3 expected), $left left objects behind"
    fi
}

# lab_check NAME LAB LOGDIR: host/LAB: the lab's timeline from a stage's
# run (tools/timeline.py) has every layer the lab names, in the causal
# order its "# lab-order:" lines say (a doorbell before its frame, the
# frame before the peer's CQE, the CQE before the EQE and the interrupt...)
lab_check() {
    local file=$MLX5EMU_ROOT/guest-tests/labs/$2.sh args=() o out layers want
    while IFS= read -r o; do args+=(--order "$o"); done < <(sed -n 's/^# lab-order: //p' "$file")
    want=$(sed -n 's/^# lab-layers: //p' "$file")
    if out=$(python3 "$MLX5EMU_ROOT/tools/timeline.py" "$3" "${args[@]}" 2>&1); then
        layers=$(sed -n 's/.*layers: //p' <<<"$out")
        for o in $want; do
            [[ " $layers " == *" $o "* ]] || { fail_line "$1" "host/$2: no $o events ($out)"; return; }
        done
        pass_line "$1" "host/$2: $(sed -n 's/^timeline: //p' <<<"$out" | tail -1), in causal order"
    else
        fail_line "$1" "host/$2: $(tr '\n' ' ' <<<"$out")"
    fi
}

# host_stage NAME CMD...: a stage run on the host, no guest: CMD's output
# is the stage's report (as report does), its status NAME.rc (as vm_stage)
host_stage() {
    local name=$1
    shift
    "$@" 2>&1 | report "$name"
    echo "${PIPESTATUS[0]}" >"$logdir/$name.rc"
}

# report NAME: print the result lines of stage NAME (its input) and keep
# them in NAME.report for tally
report() { tee "$logdir/$1.report"; }

# A result line as the drivers print them: "PASS ..." or "FAIL ..." from a
# host check or a guest, the latter maybe behind "[nodeN] " or a label
# ("sid: ", "verbs node1: ").  Nothing else counts: not "[mlx5emu] node0:"
# lines, nor the indented details and guest notes.
RESULT_PREFIX='^(\[node[0-9]+\] |[a-z0-9-]+( node[0-9]+)?: )?'

# tally NAME [MORE]: the summary row of stage NAME, its PASS and FAIL lines
# in NAME.report, then MORE.  A FAIL line or a failed scripts/vm run fails
# the driver.
tally() {
    local f=$logdir/$1.report p n
    p=$(grep -cE "${RESULT_PREFIX}PASS " "$f" || true)
    n=$(grep -cE "${RESULT_PREFIX}FAIL " "$f" || true)
    [ "$n" = 0 ] && [ "$(vm_rc "$1")" = 0 ] || status=1
    rows+=("$(printf '  %-13s %3s PASS %3s FAIL' "$1" "$p" "$n")${2:-}")
}

# finish: print the summary rows; exit 0 only if every stage passed
finish() {
    printf '%s\n' "${rows[@]}"
    exit "$status"
}
