# shellcheck shell=bash
# The guest's half of a lab (scripts/lab): watch user space and the
# kernel with ftrace while the lab's program runs, and leave what was seen
# in the job directory for tools/timeline.py, which merges it with the
# device's trace and the capture that QEMU recorded on the host.
#
#   lab_watch KERNEL_FUNCS...   the device's trace events the lab names
#                               (its "# lab-device:" line, switched on in
#                               this guest's QEMU through the monitor), a
#                               capture of the link,
#                               ftrace's function tracer on these kernel
#                               functions (names as in the baseline source;
#                               one that this kernel lacks or inlined is
#                               said and skipped), uprobes on libibverbs'
#                               verbs and libmlx5's data path, the clock
#                               anchors; tracing on
#   lab_event SYSTEM/EVENT      also a tracepoint (e.g. irq/irq_handler_entry)
#   lab_uverbs_probes           also kprobes on uverbs' two entry points,
#                               ib_uverbs_ioctl (object, method, attribute
#                               ids) and ib_uverbs_write (the command),
#                               fetched from the caller's memory and named
#                               by tools/timeline.py
#   lab_mark TEXT...            "app: TEXT" in the trace buffer (the
#                               application's lane) and on the output; with
#                               LAB_STEP (scripts/lab --step) a pause after
#                               it, as guest-tests/c/lib/lab.c lab_mark
#   lab_done                    tracing off; /job/ftrace.txt, /job/anchors.txt,
#                               /job/lab.pcap
#
# Everything is timed on CLOCK_MONOTONIC (trace_clock mono), which
# guest-tests/c/lab-probe ties to the device's clock.

T=/sys/kernel/tracing
LAB_UPROBES="ibv_open_device ibv_alloc_pd ibv_reg_mr ibv_reg_mr_iova2 ibv_reg_dmabuf_mr ibv_create_cq
 ibv_create_comp_channel ibv_create_qp ibv_modify_qp ibv_get_cq_event ibv_ack_cq_events
 ibv_dereg_mr ibv_destroy_qp ibv_destroy_cq ibv_dealloc_pd ibv_close_device"

# The lab's uprobes and kprobes disabled and removed.
lab_probes_off() {
    [ ! -e $T/events/lab/enable ] || echo 0 >$T/events/lab/enable
    echo >$T/uprobe_events 2>/dev/null
    echo >$T/kprobe_events 2>/dev/null
}

lab_tracefs() {
    [ -e $T/trace ] || mount -t tracefs nodev $T || { echo "lab: no tracefs"; return 1; }
    echo 0 >$T/tracing_on
    echo nop >$T/current_tracer
    echo >$T/set_ftrace_filter
    lab_probes_off
    echo >$T/trace
    echo mono >$T/trace_clock
    echo 8192 >$T/buffer_size_kb
}

# One uprobe: NAME at FILE:OFFSET (entry), or its return with its value.
lab_uprobe() {
    echo "p:lab/$1 $2:$3" >>$T/uprobe_events &&
        echo 1 >$T/events/lab/$1/enable
}

lab_uretprobe() {
    echo "r:lab/$1_ret $2:$3 ret=\$retval:s32" >>$T/uprobe_events &&
        echo 1 >$T/events/lab/$1_ret/enable
}

lab_uprobes() {
    local name path off
    # libmlx5's data path: addresses from the context's ops table
    while read -r name path off; do
        case $name in
            # polled in a loop: only the calls that found a completion
            mlx5_poll_cq*) lab_uretprobe "$name" "$path" "$off" &&
                          echo 'ret > 0' >$T/events/lab/${name}_ret/filter ;;
            *) lab_uprobe "$name" "$path" "$off" ;;
        esac || echo "lab: no uprobe on $name"
    done < <(lab-probe ops 2>/dev/null)
    # libibverbs' exported verbs
    while read -r name path off; do
        lab_uprobe "$name" "$path" "$off" || echo "lab: no uprobe on $name"
    done < <(lab-probe syms $LAB_UPROBES)
}

# The device's events this lab watches (HMP trace-event) and a capture of
# what goes on the wire (QEMU's filter-dump on this guest's link, into
# /job/lab.pcap, both directions): on or off, in one monitor request.
lab_device() {
    local ev
    {
        for ev in $(sed -n 's/^# lab-device: //p' "$0") mlx5_dev_clock; do
            echo "trace-event $ev $1"
        done
        case $1 in
            on) echo "object_add filter-dump,id=labcap,netdev=n0,file=@JOB@/lab.pcap" ;;
            off) echo "object_del labcap" ;;
        esac
    } | "$MONITOR" --batch >/dev/null || echo "lab: the monitor refused some of: device events $1, capture $1"
}

lab_watch() {
    local f n=0
    lab_tracefs || return 1
    lab_device on
    for f in "$@"; do
        if echo "$f" >>$T/set_ftrace_filter 2>/dev/null; then
            n=$((n + 1))
        else
            echo "lab: kernel function $f is not traceable here (inlined or absent)"
        fi
    done
    [ $n -gt 0 ] && echo function >$T/current_tracer
    lab_uprobes
    # no RDMA device yet (a lab that loads the driver): lab_done's anchors
    lab-probe clock 3 >/job/anchors.txt 2>/dev/null ||
        echo "lab: no RDMA device to read the device's clock through yet"
    echo 1 >$T/tracing_on
}

lab_mark() {
    echo "app: $*" >$T/trace_marker
    echo "lab: $*"
    [ -n "${LAB_STEP:-}" ] || return 0
    echo "lab-step: paused; the device's objects now (info mlx5):"
    "$MONITOR" 'info mlx5' || echo "lab-step: the monitor did not answer"
    echo "lab-step: waiting for Enter on the host"
    while [ ! -e /job/continue ]; do sleep 0.2; done
    rm -f /job/continue
}

lab_event() {
    echo 1 >"$T/events/$1/enable" || echo "lab: no tracepoint $1"
}

# ib_uverbs_ioctl(file, cmd, arg): arg (%dx) points at the caller's
# struct ib_uverbs_ioctl_hdr (object_id at +2, method_id +4, num_attrs +6)
# and its attributes from +24, 16 bytes each (attr_id at +0, data at +8);
# ib_uverbs_write(file, buf, count, pos): buf (%si) at struct
# ib_uverbs_cmd_hdr (command, in_words, out_words).  rdma/ib_user_ioctl_cmds.h
lab_uverbs_probes() {
    local args="object=+u2(%dx):x16 method=+u4(%dx):x16 nattrs=+u6(%dx):u16" i
    for i in 0 1 2 3 4 5; do
        args="$args id$i=+u$((24 + 16 * i))(%dx):x16 data$i=+u$((32 + 16 * i))(%dx):x64"
    done
    { echo "p:lab/uverbs_ioctl ib_uverbs_ioctl $args" >>$T/kprobe_events &&
        echo 1 >$T/events/lab/uverbs_ioctl/enable; } || echo "lab: no kprobe on ib_uverbs_ioctl"
    { echo "p:lab/uverbs_write ib_uverbs_write cmd=+u0(%si):x32 in_words=+u4(%si):u16 out_words=+u6(%si):u16" \
        >>$T/kprobe_events && echo 1 >$T/events/lab/uverbs_write/enable; } ||
        echo "lab: no kprobe on ib_uverbs_write"
}

lab_done() {
    echo 0 >$T/tracing_on
    lab-probe clock 3 >>/job/anchors.txt
    lab_device off
    cat $T/trace >/job/ftrace.txt
    echo "lab: $(grep -vc '^#' /job/ftrace.txt) kernel and user-space events recorded"
    # the probes go with the lab: a process started afterwards is not traced
    lab_probes_off
    echo nop >$T/current_tracer
}
