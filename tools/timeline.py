#!/usr/bin/env python3
"""One timeline across every layer of an mlx5emu run (scripts/lab).

A lab leaves in its log directory, for each guest N:
  nodeN.qemu.log     the device's trace events, each stamped with the host's
                     time (QEMU -msg timestamp=on), among them mlx5_dev_clock
                     lines: the device clock (QEMU's virtual clock) as read,
                     which tie the device's clock to the host's;
  nodeN/ftrace.txt   the guest's ftrace buffer on CLOCK_MONOTONIC: kernel
                     functions, tracepoints, uprobes on libibverbs and
                     libmlx5, and the application's trace_marker lines;
  nodeN/anchors.txt  "anchor MONO_BEFORE DEVICE_CLOCK MONO_AFTER" lines
                     (guest-tests/c/lab-probe): guest clock against device;
  nodeN/lab.pcap     what went on the wire (QEMU filter-dump, added for the
                     lab through the monitor); its frames are placed just
                     after the device that sent them built them.
Everything is put on the host's clock (microseconds), one clock for all
guests, merged, filtered to the objects the lab's application used, and
written as text (timeline.txt) and as an SVG sequence diagram
(timeline.svg).

usage: timeline.py LOGDIR [--all] [--order SPEC]... [--svg-title T]
  --all       keep every event in the lab's window, not only those of its QPs
  --order S   check that events appear in this causal order; S is
              "N:LAYER:REGEX > N:LAYER:REGEX > ..."; exit 1 if not
"""
import glob
import html
import os
import re
import subprocess
import sys

DEV_RE = re.compile(r'^\d+@(\d+)\.(\d+):(mlx5_\w+) (.*)$')
FTRACE_RE = re.compile(r'^\s*(.+?)-(\d+)\s+\[\d+\]\s+\S+\s+(\d+)\.(\d+):\s+(.*)$')
# The device's firmware (firmware-sim/: commands, object state, events);
# the rest of its events are the data path's (hw-rdma/).
FW_EVENTS = ('mlx5_cmd', 'mlx5_eq', 'mlx5_fw', 'mlx5_qp_create', 'mlx5_qp_state', 'mlx5_cq_create',
             'mlx5_mkey_create', 'mlx5_wq_', 'mlx5_dev_', 'mlx5_page_fault', 'mlx5_memic',
             'mlx5_port', 'mlx5_reg_', 'mlx5_vport', 'mlx5_gid', 'mlx5_flow', 'mlx5_srq_create',
             'mlx5_mcg', 'mlx5_query_special', 'mlx5_pp_rate', 'mlx5_obj_limit', 'mlx5_host_mem')
LANES = ['application', 'libibverbs', 'libmlx5', 'kernel', 'firmware', 'datapath']


class Event:
    def __init__(self, t, node, layer, name, text):
        self.t, self.node, self.layer, self.name, self.text = t, node, layer, name, text

    def line(self, t0):
        where = 'wire' if self.layer == 'wire' else f'node{self.node}'
        return f'{(self.t - t0):12.1f}  {where:6} {self.layer:11} {self.name} {self.text}'.rstrip()


def device_events(path, node):
    """The device's events in host microseconds, and the host - device offset."""
    events, offset = [], None
    for line in open(path, errors='replace'):
        m = DEV_RE.match(line.rstrip('\n'))
        if not m:
            continue
        t = int(m.group(1)) * 1000000 + int(m.group(2))
        name, text = m.group(3), m.group(4)
        if name == 'mlx5_dev_clock' and offset is None:
            offset = t - int(re.search(r'(\d+) ns', text).group(1)) / 1000.0
        layer = 'firmware' if name.startswith(FW_EVENTS) else 'datapath'
        events.append(Event(t, node, layer, name, text))
    return events, offset


def guest_clock(path):
    """A function from guest CLOCK_MONOTONIC ns to device clock ns: through
    the tightest anchor of those taken at the lab's start and of those at
    its end (the device clock read between two guest clock reads; the first
    read of a batch can take a millisecond under load, and its midpoint is
    that much less sure)."""
    pts = []
    for line in open(path):
        f = line.split()
        if len(f) == 4 and f[0] == 'anchor':
            pts.append((int(f[3]) - int(f[1]), (int(f[1]) + int(f[3])) / 2.0, int(f[2])))
    if not pts:
        return None
    mid = (pts[0][1] + pts[-1][1]) / 2
    (_, m0, d0), (_, m1, d1) = (min(p for p in pts if p[1] <= mid),
                                min(p for p in pts if p[1] >= mid))
    # anchors closer than 100 ms (a lab that loads the driver has them only
    # at its end) cannot measure a drift: their microsecond error would be
    # multiplied over the whole lab
    slope = (d1 - d0) / (m1 - m0) if m1 - m0 > 1e8 else 1.0
    return lambda mono: d0 + (mono - m0) * slope


# --- uverbs' two ABIs, named as rdma-core's copies of the kernel's uapi
# headers name them (the host's /usr/include/rdma, from libibverbs-dev) ---

UAPI = '/usr/include/rdma'
ENUM_RE = re.compile(r'enum\s+(\w*)\s*\{(.*?)\}', re.S)


def c_enums(path, consts):
    """Every enum of a C header: {enum name: [(member, value)]}; `consts`
    gains the members (and the header's simple #defines)."""
    try:
        src = re.sub(r'/\*.*?\*/|//[^\n]*', '', open(path).read(), flags=re.S)
    except OSError:
        return {}
    for name, val in re.findall(r'#define\s+(\w+)\s+\(?(\d+)U?L?\)?\s*$', src, re.M):
        consts[name] = int(val)
    enums = {}
    for ename, body in ENUM_RE.findall(src):
        members, nxt = [], 0
        for item in [i.strip() for i in body.split(',') if i.strip()]:
            member, _, expr = item.partition('=')
            member, expr = member.strip(), re.sub(r'(\d+)U?L*\b', r'\1', expr.strip())
            if expr:
                expr = re.sub(r'[A-Za-z_]\w*', lambda m: str(consts.get(m.group(0), '?')), expr)
                if not re.fullmatch(r'[\d\s()<>|+x]+', expr):
                    break                       # not a constant this parser knows
                nxt = eval(expr, {'__builtins__': {}})
            members.append((member, nxt))
            consts[member] = nxt
            nxt += 1
        enums[ename or f'#{len(enums)}'] = members     # unnamed ones kept apart
    return enums


def method_object(ename, consts):
    """The object an enum of methods belongs to, by the uapi's names:
    uverbs_methods_cq -> UVERBS_OBJECT_CQ; the driver's (mlx5_ib_*_methods)
    -> its own MLX5_IB_OBJECT_* or a core object it adds methods to."""
    if ename.startswith('uverbs_methods_'):
        x, spaces = ename[len('uverbs_methods_'):].upper(), ('UVERBS_OBJECT_',)
    elif ename.startswith('mlx5_ib_') and ename.endswith('_methods'):
        x, spaces = ename[len('mlx5_ib_'):-len('_methods')].upper(), ('MLX5_IB_OBJECT_',
                                                                       'UVERBS_OBJECT_')
    else:
        return None
    for name in [sp + n for sp in spaces for n in (x, x.removesuffix('_OBJ'))]:
        if name in consts:
            return consts[name]
    return None


def uverbs_names():
    """(objects by id, methods by (object, id), write commands, extended ones)."""
    consts = {}
    enums = c_enums(os.path.join(UAPI, 'ib_user_ioctl_cmds.h'), consts)
    enums.update(c_enums(os.path.join(UAPI, 'mlx5_user_ioctl_cmds.h'), consts))
    verbs = c_enums(os.path.join(UAPI, 'ib_user_verbs.h'), {})
    objects = {v: n for e in ('uverbs_default_objects', 'mlx5_ib_objects')
               for n, v in enums.get(e, [])}
    methods = {}
    for ename, members in enums.items():
        obj = method_object(ename, consts)
        for n, v in members if obj is not None else []:
            methods[(obj, v)] = n
    write = {v: n for n, v in verbs.get('ib_uverbs_write_cmds', [])}
    ex = {v: n for members in verbs.values() for n, v in members
          if n.startswith('IB_USER_VERBS_EX_CMD_')}
    return objects, methods, write, ex


UVERBS = None


def uverbs_text(name, text):
    """A lab's kprobes on ib_uverbs_ioctl and ib_uverbs_write (lab-lib.sh
    lab_uverbs_probes), their fetched fields named."""
    global UVERBS
    UVERBS = UVERBS or uverbs_names()
    objects, methods, write, ex = UVERBS
    f = {k: int(v, 0) for k, v in re.findall(r'(\w+)=(0x[0-9a-f]+|\d+)', text)}
    if name == 'uverbs_write' and 'cmd' in f:
        cmd = f['cmd'] & 0xff
        label = (ex if f['cmd'] & 0x80000000 else write).get(cmd, f'command {cmd}')
        return f'write() {label}: {f.get("in_words", 0)} words in, {f.get("out_words", 0)} out'
    if name != 'uverbs_ioctl' or 'object' not in f:
        return text
    obj, meth, n = f['object'], f['method'], f.get('nattrs', 0)
    attrs = []
    for i in range(min(n, 6)):
        aid = f.get(f'id{i}', 0)
        a = f'{aid:#x}' + (' (driver)' if aid & 0x1000 else '')
        if objects.get(obj) == 'UVERBS_OBJECT_DEVICE' and methods.get((obj, meth)) == \
                'UVERBS_METHOD_INVOKE_WRITE' and aid == 2:      # UVERBS_ATTR_WRITE_CMD
            a += ' = ' + write.get(f.get(f'data{i}', -1), f'command {f.get(f"data{i}", -1)}')
        attrs.append(a)
    more = ' ...' if n > 6 else ''
    return (f'ioctl {objects.get(obj, f"object {obj:#x}")} '
            f'{methods.get((obj, meth), f"method {meth:#x}")}, {n} attributes: '
            f'{" ".join(attrs)}{more}')


def guest_layer(name, text):
    if name == 'tracing_mark_write':
        return 'application', text
    if name in ('uverbs_ioctl', 'uverbs_write'):
        return 'kernel', uverbs_text(name, text)
    if name.startswith('ibv_'):
        return 'libibverbs', ''
    if name.startswith('mlx5_') and (text.startswith('(0x') or ' ret=' in text):
        return 'libmlx5', re.sub(r'^\(0x[0-9a-f]+( <- 0x[0-9a-f]+)?\)\s*', '', text)
    return 'kernel', text


def ftrace_events(path, node, to_device, offset):
    events = []
    for line in open(path, errors='replace'):
        m = FTRACE_RE.match(line.rstrip('\n'))
        if not m:
            continue
        comm, _, sec, usec, rest = m.groups()
        mono = int(sec) * 1000000000 + int(usec) * 1000
        if ' <-' in rest and ':' not in rest.split(' <-')[0]:
            name, text = rest.split(' <-')[0], 'called by ' + rest.split(' <-')[1]
        else:
            name, _, text = rest.partition(': ')
        layer, text = guest_layer(name, text)
        t = to_device(mono) / 1000.0 + offset
        events.append(Event(t, node, layer, name, f'[{comm}] {text}'.strip()))
    return events


def tx_key(opcode, qp, psn):
    return (int(opcode, 0), int(qp, 0), int(psn))


def device_tx(dev):
    """The frames the devices sent, by (opcode, destination QP, PSN), in
    order: a capture's frame is placed just after its sender built it."""
    sent = {}
    for e in dev:
        m = re.match(r'tx BTH\{opcode=\S*\((0x[0-9a-f]+)\) .*dest_qp=(0x[0-9a-f]+) .*psn=(\d+)\}',
                     e.text) if e.name == 'mlx5_roce_fields' else None
        if m:
            sent.setdefault(tx_key(*m.groups()), []).append(e.t)
    return sent


def wire_events(pcap, dev):
    """The RoCE frames of a capture, decoded by tshark, on the host's clock."""
    fields = ['frame.time_epoch', 'infiniband.bth.opcode', 'infiniband.bth.destqp',
              'infiniband.bth.psn', '_ws.col.Info', '_ws.malformed']
    cmd = ['tshark', '-n', '-r', pcap, '-Y', 'udp.dstport == 4791', '-T', 'fields',
           '-E', 'separator=\t', '-E', 'occurrence=f']
    for f in fields:
        cmd += ['-e', f]
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        print(f'timeline: tshark could not read {pcap}: {e}', file=sys.stderr)
        return []
    rows = [dict(zip(fields, line.split('\t'))) for line in out.splitlines()]
    sent, shift, events = device_tx(dev), None, []
    for r in rows:
        op, qp, psn = (r['infiniband.bth.opcode'], r['infiniband.bth.destqp'],
                       r['infiniband.bth.psn'])
        at = sent.get(tx_key(op, qp, psn)) if op and qp and psn else None
        stamp = float(r['frame.time_epoch']) * 1e6
        if at:
            t = at.pop(0)
            shift = stamp - t
            t += 0.5
        elif shift is not None:
            t = stamp - shift       # a frame no device of the run sent
        else:
            continue
        bad = ' MALFORMED' if r.get('_ws.malformed') else ''
        events.append(Event(t, -1, 'wire', 'frame', f'{r["_ws.col.Info"]} psn={psn}{bad}'))
    return events


# The guest's interrupt path runs for every completion event, the
# Ethernet queues' too: kept only after an interrupt the lab's CQs raised.
IRQ_PATH = ('irq_handler_entry', 'irq_int_handler', 'mlx5_eq_comp_int')

NUM_RE = {k: re.compile(rf'\b{k}=0x([0-9a-f]+)') for k in ('sq', 'wq', 'qp', 'qpn', 'dest_qp', 'cq', 'eq')}


def refs(e, key):
    m = NUM_RE[key].search(e.text)
    return int(m.group(1), 16) if m else None


def relevant(events, qpns):
    """The device's events about the lab's QPs, their CQs, and the events
    and interrupts those CQs raised; everything else from other layers."""
    cqs = {(e.node, refs(e, 'cq')) for e in events
           if e.name == 'mlx5_cqe_fields' and refs(e, 'qpn') in qpns}
    keep, last_eq, last_msix = [], {}, {}
    for e in events:
        if e.layer in ('firmware', 'datapath'):
            if any(refs(e, k) in qpns for k in ('sq', 'wq', 'qp', 'qpn', 'dest_qp')):
                keep.append(e)
            elif refs(e, 'cq') is not None and (e.node, refs(e, 'cq')) in cqs:
                keep.append(e)
                if e.name == 'mlx5_cq_event':
                    last_eq[e.node] = (refs(e, 'eq'), e.t)
            elif e.name in ('mlx5_eqe', 'mlx5_eq_interrupt', 'mlx5_dev_msix', 'mlx5_eq_doorbell'):
                eq, t = last_eq.get(e.node, (None, 0))
                if (e.name == 'mlx5_dev_msix' or refs(e, 'eq') == eq) and e.t - t < 2000:
                    keep.append(e)
                    if e.name == 'mlx5_dev_msix':
                        last_msix[e.node] = e.t
            continue
        if e.name in IRQ_PATH:
            if e.t - last_msix.get(e.node, -1e9) < 1000:
                keep.append(e)
            continue
        if e.layer == 'wire' and not any(f'QP={q:#08x}'.lower() in e.text.lower() or
                                         f'qp=0x{q:06x}' in e.text.lower() for q in qpns):
            continue
        keep.append(e)
    return keep


def step_matches(e, step):
    node, layer, rx = step.split(':', 2)
    return ((node == '*' or (node == 'wire' and e.layer == 'wire') or str(e.node) == node) and
            (layer == '*' or e.layer == layer) and re.search(rx, f'{e.name} {e.text}'))


def match_order(events, spec):
    """The index of the event each step of spec matched, each after the
    previous step's; the steps after the first that found none are None."""
    at, found = 0, []
    for step in [s.strip() for s in spec.split(' > ')]:
        i = next((i for i in range(at, len(events)) if step_matches(events[i], step)), None)
        found.append(i)
        if i is None:
            break
        at = i + 1
    return found


def check_order(events, spec):
    steps = [s.strip() for s in spec.split(' > ')]
    found = match_order(events, spec)
    if found[-1] is None:
        return [f'order: no {steps[len(found) - 1]!r} after {steps[len(found) - 2]!r}'
                if len(found) > 1 else f'order: no {steps[0]!r}']
    return []


def svg(events, title, path):
    nodes = sorted({e.node for e in events if e.node >= 0}, reverse=True)
    lanes = []
    for i, n in enumerate(nodes):
        ln = [f'{n}:{lane}' for lane in LANES]   # shown as 'nodeN lane'
        lanes += ln if i == 0 else list(reversed(ln))
        if i == 0:
            lanes.append('wire')
    if 'wire' not in lanes:
        lanes.append('wire')
    col = {lane: 90 + 120 * i for i, lane in enumerate(lanes)}
    width, row = 90 + 120 * len(lanes) + 400, 22
    height = 80 + row * len(events)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           'font-family="monospace" font-size="11">',
           f'<text x="10" y="20" font-size="14">{html.escape(title)}</text>',
           '<defs><marker id="a" markerWidth="8" markerHeight="8" refX="7" refY="4" '
           'orient="auto"><path d="M0,0 L8,4 L0,8 z"/></marker></defs>']
    for lane, x in col.items():
        out.append(f'<line x1="{x}" y1="50" x2="{x}" y2="{height}" stroke="#ccc"/>')
        name = lane if lane == 'wire' else f'node{lane.replace(":", " ")}'
        out.append(f'<text x="{x}" y="45" text-anchor="middle">{html.escape(name)}</text>')
    # An arrow into each event from the one before it on the same guest,
    # or from the wire for what arrived; and into the wire from its sender.
    last, prev = {}, None
    for i, e in enumerate(events):
        lane = 'wire' if e.layer == 'wire' else f'{e.node}:{e.layer}'
        x, y = col.get(lane, 10), 70 + row * i
        from_wire = prev and prev[2] == 'wire' and e.layer == 'datapath'
        src = prev if e.layer == 'wire' or from_wire else last.get(e.node)
        if src and src[0] != x and i - src[1] <= 12:
            out.append(f'<line x1="{src[0]}" y1="{70 + row * src[1]}" x2="{x}" y2="{y}" '
                       'stroke="#36c" marker-end="url(#a)"/>')
        out.append(f'<circle cx="{x}" cy="{y}" r="3"/>')
        label = html.escape(f'{e.name} {e.text}'[:90])
        out.append(f'<text x="{x + 6}" y="{y - 3}">{label}</text>')
        prev = (x, i, e.layer)
        if e.layer != 'wire':
            last[e.node] = prev
    out.append('</svg>')
    with open(path, 'w') as f:
        f.write('\n'.join(out) + '\n')


def load(logdir):
    events, nodes = [], sorted(glob.glob(os.path.join(logdir, 'node[0-9].qemu.log')))
    dev_all = []
    for path in nodes:
        node = int(os.path.basename(path)[4])
        dev, offset = device_events(path, node)
        dev_all += dev
        events += dev
        job = os.path.join(logdir, f'node{node}')
        anchors, ftrace = os.path.join(job, 'anchors.txt'), os.path.join(job, 'ftrace.txt')
        to_device = guest_clock(anchors) if os.path.exists(anchors) else None
        if to_device and offset is not None and os.path.exists(ftrace):
            events += ftrace_events(ftrace, node, to_device, offset)
        elif os.path.exists(ftrace):
            print(f'timeline: node{node}: no clock anchors, its guest events left out',
                  file=sys.stderr)
    pcap = os.path.join(logdir, 'node0', 'lab.pcap')
    if os.path.exists(pcap):
        events += wire_events(pcap, dev_all)
    events.sort(key=lambda e: e.t)
    return events


def window(events):
    """From the application's first line to its last."""
    app = [e.t for e in events if e.layer == 'application']
    if not app:
        return events
    return [e for e in events if app[0] - 1 <= e.t <= app[-1] + 1]


def build(logdir, keep_all=False):
    """The lab's events in order: its window, its objects (unless keep_all)."""
    events = window(load(logdir))
    qpns = {int(q, 16) for e in events if e.layer == 'application'
            for q in re.findall(r'QP 0x([0-9a-f]+)\b', e.text)}
    if not keep_all and qpns:
        peers = {refs(e, 'dest_qp') for e in events if e.name == 'mlx5_roce_fields'}
        events = relevant(events, qpns | (peers - {None}))
    return events


def main(argv):
    args, orders, keep_all, title = [], [], False, 'mlx5emu lab'
    it = iter(argv)
    for a in it:
        if a == '--all':
            keep_all = True
        elif a == '--order':
            orders.append(next(it))
        elif a == '--svg-title':
            title = next(it)
        else:
            args.append(a)
    if len(args) != 1:
        sys.exit(__doc__)
    logdir = args[0]
    events = build(logdir, keep_all)
    t0 = events[0].t if events else 0
    with open(os.path.join(logdir, 'timeline.txt'), 'w') as f:
        f.write(f'{"time (us)":>12}  {"where":6} {"layer":11} event\n')
        f.writelines(e.line(t0) + '\n' for e in events)
    svg(events, title, os.path.join(logdir, 'timeline.svg'))
    failures = [f for spec in orders for f in check_order(events, spec)]
    failures += [f'tshark calls a frame malformed: {e.text}' for e in events
                 if e.layer == 'wire' and e.text.endswith(' MALFORMED')]
    for f in failures:
        print(f'timeline: {f}', file=sys.stderr)
    print(f'timeline: {len(events)} events, layers: '
          f'{" ".join(sorted({e.layer for e in events}))}', file=sys.stderr)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
