#!/usr/bin/env python3
"""Write the fuzzers' seed corpus (fuzz/corpus/<target>/) in the grammar of
fuzz/ops.c (fuzz/README.md "The grammar"):

  - from QEMU trace logs of guest runs (scripts/vm --trace 'mlx5_cmd*'; the
    guest tests' node*.qemu.log): the commands the real drivers sent, by
    name and op_mod, each with an input of its layout's size and the object
    it named put in the layout's first field after op_mod (fuzz-cmd: one
    file per distinct command; fuzz-ops: runs of consecutive commands);
  - from packet captures of guest runs (scripts/vm --capture, node*.pcap):
    frames of distinct kinds as RX_RAW operations (fuzz-rx);
  - scenarios written here: what a driver and a peer do to each kind of
    QP the world has (fuzz/world.h), so the fuzzers start deep.

A trace line carries a command's name, op_mod, status and object, not its
input bytes, doorbells or WQEs: see fuzz/README.md "Corpus" for the trace
events that would carry them.

usage: tools/fuzz-corpus.py [--trace LOG]... [--pcap FILE]... SOURCE_ROOT
(writes into SOURCE_ROOT/fuzz/corpus, replacing the files it wrote before:
those whose names start with trace-, pcap- or scenario-)
"""
import argparse
import glob
import hashlib
import os
import re
import struct
import sys

MAX_RUN = 12            # commands in one fuzz-ops seed from a trace
MAX_RUNS = 24           # such seeds
MAX_FRAMES = 48         # RX_RAW seeds from captures
MAX_FRAME = 9216 + 18   # ops.c MAX_FRAME


class Grammar:
    """The op and segment numbers of fuzz/ops.h and fuzz/ops.c."""

    def __init__(self, root):
        ops_h = open(os.path.join(root, 'fuzz', 'ops.h')).read()
        body = ops_h[ops_h.index('#define FUZZ_OP_LIST'):]
        body = body[:body.index('\n\n')]
        self.op = {n: i for i, n in enumerate(re.findall(r'X\((\w+)\)', body))}
        ops_c = open(os.path.join(root, 'fuzz', 'ops.c')).read()
        segs = re.search(r'enum \{ (SEG_DATA[^}]*)\}', ops_c).group(1)
        self.seg = {n.strip(): i for i, n in enumerate(segs.split(',')) if n.strip()}
        layouts = open(os.path.join(root, 'firmware-sim', 'prm-layouts.h')).read()
        self.field = {(lay, f): (int(off, 16), int(w)) for lay, f, off, w in
                      re.findall(r'F\((\w+), (\w+), (0x[0-9a-f]+), (\d+)\)', layouts)}

    def layout_bytes(self, layout, size, **values):
        """`size` bytes of PRM layout `layout` with the named fields set
        (big-endian bit numbering, as prm-layouts.h places them)."""
        buf = bytearray(size)
        for name, v in values.items():
            off, width = self.field[(layout, name)]
            for i in range(width):
                if v >> (width - 1 - i) & 1:
                    buf[(off + i) // 8] |= 0x80 >> ((off + i) % 8)
        return bytes(buf)


class Commands:
    """Opcodes and layout sizes from firmware-sim (cmd-list.h, prm-layouts.h)."""

    def __init__(self, root):
        fw = os.path.join(root, 'firmware-sim')
        rows = re.findall(r'X\((\w+),\s*(0x[0-9a-f]+),\s*\w+,\s*(\w+),\s*(\w+),',
                          open(os.path.join(fw, 'cmd-list.h')).read())
        self.by_name = {n: (int(op, 16), i, o) for n, op, i, o in rows}
        layouts = open(os.path.join(fw, 'prm-layouts.h')).read()
        self.size = {n: int(b, 16) // 8 for n, b in re.findall(r'L\((\w+), (0x[0-9a-f]+)\)', layouts)}
        self.fields = {}
        for layout, off, width in re.findall(r'F\((\w+), \w+, (0x[0-9a-f]+), (\d+)\)', layouts):
            self.fields.setdefault(layout, []).append((int(off, 16), int(width)))

    def command(self, name, op_mod, obj):
        """(opcode, op_mod, outlen, body) for a traced command; None if unknown."""
        if name not in self.by_name:
            return None
        opcode, lin, lout = self.by_name[name]
        inlen = max(self.size.get(lin, 16), 16)
        outlen = max(self.size.get(lout, 16), 16)
        if name == 'ACCESS_REG':
            inlen += 64
            outlen += 64
        body = bytearray(inlen - 8)
        # the object: the first field after op_mod (bit 0x40 on), 32 bits or less
        fields = [f for f in sorted(self.fields.get(lin, [])) if f[0] >= 0x40 and 0 < f[1] <= 32]
        if fields and not name.startswith(('CREATE_', 'ALLOC_')):
            off, width = fields[0]
            v = obj & ((1 << width) - 1)
            for b in range(width):          # bit `off + b`, most significant first
                if v >> (width - 1 - b) & 1:
                    body[(off + b) // 8 - 8] |= 0x80 >> ((off + b) % 8)
        return opcode, op_mod, outlen, bytes(body)


def le(fmt, *v):
    return struct.pack('<' + fmt, *v)


class Ops:
    """Builds one input, operation by operation."""

    def __init__(self, g):
        self.g = g
        self.b = bytearray()

    def op(self, name):
        self.b += bytes([self.g.op[name]])
        return self

    def cmd_exec(self, opcode, op_mod, outlen, body):
        self.op('CMD_EXEC').b += le('HHHH', opcode, op_mod, outlen, len(body)) + body
        return self

    def cmd_queue(self, slot, flags, opcode, op_mod, outlen, body):
        self.op('CMD_QUEUE').b += bytes([slot, flags]) + le('HHHH', opcode, op_mod, outlen, len(body)) + body
        return self

    def data(self, length, key, off):
        return bytes([self.g.seg['SEG_DATA']]) + le('IBI', length ^ 64, key, off)

    def raddr(self, key, off):
        return bytes([self.g.seg['SEG_RADDR']]) + le('BI', key, off)

    def atomic(self, swap, cmp):
        return bytes([self.g.seg['SEG_ATOMIC']]) + le('QQ', swap, cmp)

    def av(self, qp):
        return bytes([self.g.seg['SEG_AV']]) + le('BI', qp, 0)

    def xrc(self):
        return bytes([self.g.seg['SEG_XRC']]) + le('I', 0)

    def eth(self, cs, mss, hdr):
        return bytes([self.g.seg['SEG_ETH']]) + le('BHB', cs, mss, len(hdr)) + hdr

    def inline(self, data):
        return bytes([self.g.seg['SEG_INLINE'], len(data)]) + data

    def raw(self, data):
        """RAW segments: the bytes as they are, 16 a segment."""
        return [bytes([self.g.seg['SEG_RAW']]) + data[i:i + 16] for i in range(0, len(data), 16)]

    def post_send(self, q, opcode, segs, fm_ce_se=8, imm=0, flags=0, ds=None):
        self.op('POST_SEND').b += bytes([q, opcode, 0, fm_ce_se]) + le('I', imm)
        self.b += bytes([flags | (4 if ds else 0)]) + (bytes([ds]) if ds else b'')
        self.b += bytes([len(segs)]) + b''.join(segs)
        return self

    def mw_bind(self, q, key8, start, length, mr, mr_va, rights=3):
        """A memory window bind (length 0: an invalidation) of the world's
        KLM key as libmlx5 set_bind_wr writes it: UMR control segment, mkey
        context, one KLM entry (the rest of the 64-byte list: the ring's)."""
        mask = sum(1 << b for b in (29, 13, 0, 6, 18, 19, 20, 21))  # FREE KEY LEN START_ADDR LW RR RW A
        ctrl = bytearray(48)
        ctrl[0] = 0x90                                              # INLINE | TRANSLATION_OFFSET
        ctrl[4:6] = struct.pack('>H', 4)
        ctrl[8:16] = struct.pack('>Q', mask)
        mkc = self.g.layout_bytes('mkc', 64, free=0 if length else 1, a=rights >> 2 & 1,
                                  rw=rights >> 1 & 1, rr=rights & 1, lw=1, qpn=0xffffff,
                                  mkey_7_0=key8, start_addr=start, len=length)
        klm = struct.pack('>IIQ', length, mr, mr_va)
        return self.post_send(q, WQE['UMR'], self.raw(bytes(ctrl) + mkc + klm), imm=MKEY_KLM, ds=12)

    def post_recv(self, q, segs, flags=0):
        self.op('POST_RECV').b += bytes([q, flags, len(segs)]) + b''.join(segs)
        return self

    def rx_roce(self, qp, opcode, psn=0, flags=0, payload=b'', reth=(0, 0, 0),
                aeth=(0, 0), ext=None):
        e = ext or {}
        self.op('RX_ROCE').b += bytes([qp, opcode, flags]) + le('IhH', 0, psn, 0)
        self.b += le('IB', e.get('qkey', 0), e.get('src', 0))
        self.b += le('BII', reth[0], reth[1], reth[2])
        self.b += le('BIQQ', e.get('akey', 0), e.get('aoff', 0), e.get('swap', 0), e.get('cmp', 0))
        self.b += le('BI', aeth[0], aeth[1])
        self.b += le('QIBI', 0, e.get('imm', 0), 0, 0)
        self.b += le('HB', 0, 0) + le('H', len(payload)) + payload
        return self

    def rx_raw(self, frame):
        self.op('RX_RAW').b += le('H', len(frame)) + frame
        return self

    def refeed(self, back, muts=(), reseal=1):
        self.op('REFEED').b += bytes([back, len(muts)])
        for off, x in muts:
            self.b += le('HB', off, x)
        self.b += bytes([reseal])
        return self

    def clock(self, ticks):
        self.op('CLOCK').b += le('H', ticks)
        return self

    def simple(self, name):
        return self.op(name)

    def uar_write(self, page, off, size8, val):
        self.op('UAR_WRITE').b += bytes([page]) + le('HBQ', off, 1 if size8 else 0, val)
        return self


# --- the world's tables (fuzz/world.c), by index --------------------------------
# In the order fuzz/world.c makes them: send queues a b c s ini ud gsi umr
# eth-sq uc1 uc2; receive queues a b c srq xrc-srq ud gsi eth-rq uc1 uc2
SQ = {n: i for i, n in enumerate('a b c s ini ud gsi umr eth-sq uc1 uc2'.split())}
RQ = {n: i for i, n in enumerate('a b c srq xrc-srq ud gsi eth-rq uc1 uc2'.split())}
QP = {n: i for i, n in enumerate('a b c s ini tgt ud gsi umr uc1 uc2'.split())}
KEY_RAM, KEY_WINDOW, KEY_BOGUS = 0, 1, 2
KEY_MEMIC = 5                           # 64 KiB of device memory, zero-based (world.c)
# The world's KLM key (key 3, a window the UC QPs may bind) and MTT key
# (key 4), after key 0's, as CREATE_MKEY numbers them (fuzz-replay --run
# fuzz-ops on an empty input with MLX5EMU_TRACE=mlx5_mkey_create shows
# them), and where their ranges start (world.c KLM_BASE, MTT_BASE).
MKEY_RAM, MKEY_KLM, MKEY_MTT, MTT_BASE, KLM_BASE = 0x25a, 0x400, 0x500, 0x50000000, 0x40000000
A_OFF = 9 << 20                         # A_BUF - GUEST_BASE
B_OFF = 10 << 20
WQE = dict(SEND=0x0a, SEND_IMM=0x0b, WRITE=0x08, WRITE_IMM=0x09, READ=0x10, CS=0x11, FA=0x12,
           NOP=0x00, LSO=0x0e, UMR=0x25, SEND_INVAL=0x01)
ROCE = dict(SEND_FIRST=0x00, SEND_MIDDLE=0x01, SEND_LAST=0x02, SEND_ONLY=0x04,
            SEND_ONLY_IMM=0x05, WRITE_ONLY=0x0a, WRITE_FIRST=0x06, READ_REQ=0x0c,
            READ_RESP_ONLY=0x10, READ_RESP_FIRST=0x0d, ACK=0x11, ATOMIC_ACK=0x12, CS=0x13, FA=0x14)
UAR_PAGE = 8                            # the world's UAR (ALLOC_UAR's first)


def eth_udp_header():
    """An Ethernet/IPv4/UDP header to our MAC (the frames mlx5e sends)."""
    eth = bytes([2, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 2]) + b'\x08\x00'
    ip = bytes([0x45, 0, 0, 60, 0, 0, 0x40, 0, 64, 17, 0, 0, 10, 0, 0, 1, 10, 0, 0, 2])
    return eth + ip + struct.pack('>HHHH', 1234, 5678, 40, 0)


def scenarios(g):
    """name -> (targets, bytes)."""
    s = {}
    O = lambda: Ops(g)                  # noqa: E731
    ops = ['fuzz-ops']
    s['rc-send'] = (ops, O().post_send(SQ['a'], WQE['SEND'], [O().data(100, KEY_RAM, A_OFF)])
                    .simple('DRAIN').b)
    s['rc-send-long'] = (ops, O().post_send(SQ['b'], WQE['SEND_IMM'], [O().data(2500, KEY_RAM, A_OFF)],
                                            imm=0x1234).clock(0x1000).simple('DRAIN').b)
    s['rc-write-read'] = (ops, O().post_send(SQ['b'], WQE['WRITE'], [O().raddr(KEY_RAM, B_OFF + 0x1000),
                                                                     O().data(300, KEY_RAM, A_OFF)])
                          .post_send(SQ['b'], WQE['READ'], [O().raddr(KEY_RAM, B_OFF),
                                                            O().data(300, KEY_RAM, A_OFF + 4096)])
                          .simple('TIMER').simple('DRAIN').b)
    s['memic-write-read-atomic'] = (ops, O().post_send(SQ['b'], WQE['WRITE'], [O().raddr(KEY_MEMIC, 0x100),
                                                                               O().data(300, KEY_RAM, A_OFF)])
                                    .post_send(SQ['b'], WQE['READ'], [O().raddr(KEY_MEMIC, 0x100),
                                                                      O().data(300, KEY_MEMIC, 0x8000)])
                                    .post_send(SQ['c'], WQE['FA'], [O().raddr(KEY_MEMIC, 0x8), O().atomic(5, 0),
                                                                    O().data(8, KEY_MEMIC, 0x10)])
                                    .post_send(SQ['a'], WQE['SEND'], [O().data(100, KEY_MEMIC, 0x100)])
                                    .simple('TIMER').simple('DRAIN').b)
    s['rc-atomics'] = (ops, O().post_send(SQ['c'], WQE['CS'], [O().raddr(KEY_RAM, B_OFF), O().atomic(1, 0),
                                                               O().data(8, KEY_RAM, A_OFF)])
                       .post_send(SQ['c'], WQE['FA'], [O().raddr(KEY_RAM, B_OFF), O().atomic(5, 0),
                                                       O().data(8, KEY_RAM, A_OFF)]).simple('DRAIN').b)
    s['srq-send'] = (ops, O().post_recv(RQ['srq'], [O().data(4096, KEY_RAM, B_OFF)])
                     .post_send(SQ['c'], WQE['SEND'], [O().data(1500, KEY_RAM, A_OFF)])
                     .simple('DRAIN').b)
    s['xrc-send'] = (ops, O().post_send(SQ['ini'], WQE['SEND'], [O().xrc(), O().data(200, KEY_RAM, A_OFF)])
                     .post_recv(RQ['xrc-srq'], [O().data(4096, KEY_RAM, B_OFF)]).simple('DRAIN').b)
    s['ud-send'] = (ops, O().post_send(SQ['ud'], WQE['SEND'], [O().av(QP['ud']), O().data(64, KEY_RAM, A_OFF)])
                    .post_send(SQ['gsi'], WQE['SEND'], [O().av(QP['gsi']), O().data(256, KEY_RAM, A_OFF)])
                    .simple('DRAIN').b)
    s['eth-send'] = (ops, O().post_send(SQ['eth-sq'], WQE['SEND'],
                                        [O().eth(0xc0, 0, eth_udp_header()), O().data(32, KEY_RAM, A_OFF)])
                     .post_send(SQ['eth-sq'], WQE['LSO'],
                                [O().eth(0xc0, 536, eth_udp_header()), O().data(3000, KEY_RAM, A_OFF)])
                     .simple('DRAIN').b)
    s['eth-inline'] = (ops, O().post_send(SQ['eth-sq'], WQE['SEND'],
                                          [O().eth(0, 0, eth_udp_header()), O().inline(b'x' * 40)]).b)
    s['refeed-responder'] = (ops + ['fuzz-rx'],
                             O().refeed(4).refeed(4).refeed(3).refeed(4).refeed(4).refeed(4)
                             .simple('DRAIN').b)
    s['refeed-mutated'] = (ops + ['fuzz-rx'], O().refeed(2, [(54, 0x40)]).refeed(1, [(60, 1)], 0).b)
    s['rx-acks'] = (ops + ['fuzz-rx'],
                    O().rx_roce(QP['a'], ROCE['ACK'], psn=2, aeth=(0x1f, 1))
                    .rx_roce(QP['a'], ROCE['READ_RESP_ONLY'], psn=3, aeth=(0, 2), payload=b'r' * 256)
                    .rx_roce(QP['a'], ROCE['ATOMIC_ACK'], psn=4, aeth=(0, 3)).simple('DRAIN').b)
    s['rx-nak'] = (ops + ['fuzz-rx'], O().rx_roce(QP['a'], ROCE['ACK'], psn=1, aeth=(0x60, 0))
                   .rx_roce(QP['a'], ROCE['ACK'], psn=0, aeth=(0x20, 0)).clock(0x2000).b)
    s['rx-requests'] = (ops + ['fuzz-rx'],
                        O().rx_roce(QP['b'], ROCE['SEND_ONLY'], payload=b's' * 64)
                        .rx_roce(QP['b'], ROCE['WRITE_ONLY'], psn=1, reth=(KEY_RAM, B_OFF + 0x2000, 64),
                                 payload=b'w' * 64)
                        .rx_roce(QP['b'], ROCE['READ_REQ'], psn=2, reth=(KEY_RAM, B_OFF, 2000))
                        .rx_roce(QP['b'], ROCE['FA'], psn=3, ext={'akey': KEY_RAM, 'aoff': B_OFF, 'swap': 7})
                        .simple('DRAIN').b)
    s['rx-srq-xrc'] = (ops + ['fuzz-rx'],
                       O().rx_roce(QP['s'], ROCE['SEND_FIRST'], payload=b'1' * 1024)
                       .rx_roce(QP['s'], ROCE['SEND_LAST'], psn=1, payload=b'2' * 100)
                       .rx_roce(QP['tgt'], ROCE['SEND_ONLY'], payload=b'x' * 100).simple('DRAIN').b)
    s['rx-ud'] = (ops + ['fuzz-rx'], O().rx_roce(QP['ud'], ROCE['SEND_ONLY'], payload=b'u' * 100,
                                                  ext={'src': QP['ud']})
                  .rx_roce(QP['gsi'], ROCE['SEND_ONLY'], payload=b'\x01\x03' + b'\0' * 254).b)
    s['timers'] = (ops + ['fuzz-rx'], O().clock(0x1000).simple('TIMER').simple('TIMER').clock(0xffff)
                   .simple('DRAIN').b)
    s['link-reset'] = (ops, O().op('LINK').b + b'\0' + O().op('LINK').b + b'\1'
                       + O().post_send(SQ['a'], WQE['SEND'], [O().data(10, KEY_RAM, A_OFF)]).simple('RESET').b)
    s['uar-doorbells'] = (ops, O().uar_write(0, 0x20, True, 0x1 << 32 | 1).uar_write(0, 0x40, False, 0)
                          .uar_write(0, 0x800, True, 0).uar_write(3, 0x800, True, 0).b)
    # memory windows: a process's UC QP binds the world's KLM key over the
    # MTT key, the peer WRITEs through it; bad binds; a bind and its
    # invalidation (hw-rdma/umr.c window_check)
    s['mw-bind-write'] = (['fuzz-ops', 'fuzz-ops-loopback'], O().mw_bind(SQ['uc1'], 0, KLM_BASE + 0x1000, 0x2000, MKEY_MTT,
                                           MTT_BASE + 0x1000)
                          .post_send(SQ['uc2'], WQE['WRITE'], [O().raddr(3, 0x1000),
                                                               O().data(512, KEY_RAM, A_OFF)])
                          .simple('DRAIN').b)
    s['mw-bind-refused'] = (ops, O().mw_bind(SQ['uc2'], 0x12, 0x1000, 0x200000, MKEY_MTT, MTT_BASE)
                            .mw_bind(SQ['uc1'], 0x13, 0, 0x1000, MKEY_RAM, 0x100000).simple('DRAIN').b)
    s['mw-invalidate'] = (ops, O().mw_bind(SQ['uc1'], 0x14, 0, 0x1000, MKEY_MTT, MTT_BASE)
                          .mw_bind(SQ['uc1'], 0x15, 0, 0, MKEY_MTT, 0).simple('DRAIN').b)
    # FUZZ_REENTER: DMA into the device's own BAR0 ([0, 1 MiB): UAR page 8 at 0x8000)
    re_ = ['fuzz-ops-reenter']
    bf = UAR_PAGE * 4096 + 0x800
    # b's SQ holds a SEND it was not rung for; a peer's RDMA WRITE puts the
    # BlueFlame doorbell for it into UAR page 8 through the window key, so
    # the responder's DMA rings b's SQ from inside the responder
    s['reenter-write-into-bf'] = (re_, O().post_send(SQ['b'], WQE['SEND'], [O().data(8, KEY_RAM, A_OFF)],
                                                     flags=2)
                                  .rx_roce(QP['b'], ROCE['WRITE_ONLY'], reth=(KEY_WINDOW, bf, 8),
                                           payload=struct.pack('>II', WQE['SEND'], 0x101 << 8 | 2))
                                  .simple('DRAIN').b)
    s['reenter-write-cq-arm'] = (re_, O().rx_roce(QP['b'], ROCE['WRITE_ONLY'],
                                                  reth=(KEY_WINDOW, UAR_PAGE * 4096 + 0x20, 8),
                                                  payload=struct.pack('>II', 0, 2)).b)
    s['reenter-read-into-iseg'] = (re_, O().post_send(SQ['a'], WQE['READ'],
                                                      [O().raddr(KEY_RAM, B_OFF), O().data(64, KEY_WINDOW, 0x10)])
                                   .refeed(0).refeed(0).simple('DRAIN').b)
    return s


def trace_commands(path, cmds):
    """(opcode, op_mod, outlen, body) for each command of a QEMU trace log."""
    out = []
    done = re.compile(r'mlx5_cmd_done (\w+) op_mod=(0x[0-9a-f]+) OK obj=(0x[0-9a-f]+)')
    err = re.compile(r'mlx5_cmd_err (\w+)\(0x[0-9a-f]+\) op_mod=(0x[0-9a-f]+)')
    for line in open(path, errors='replace'):
        m = done.search(line) or err.search(line)
        if not m:
            continue
        obj = int(m.group(3), 16) if m.re is done else 0
        c = cmds.command(m.group(1), int(m.group(2), 16), obj)
        if c:
            out.append(c)
    return out


def pcap_frames(path):
    """The frames of a pcap file (Ethernet link type)."""
    with open(path, 'rb') as f:
        hdr = f.read(24)
        if len(hdr) < 24:
            return
        endian = '<' if hdr[:4] in (b'\xd4\xc3\xb2\xa1', b'\x4d\x3c\xb2\xa1') else '>'
        while True:
            rec = f.read(16)
            if len(rec) < 16:
                return
            _, _, incl, _ = struct.unpack(endian + 'IIII', rec)
            yield f.read(incl)


def frame_kind(fr):
    """What makes a frame different for the receive path."""
    et = fr[12:14]
    off = 14
    if et == b'\x81\x00':
        et, off = fr[16:18], 18
    proto = fr[off + 9] if et == b'\x08\x00' and len(fr) > off + 9 else \
        fr[off + 6] if et == b'\x86\xdd' and len(fr) > off + 6 else 0
    dport = 0
    if et == b'\x08\x00' and proto in (6, 17) and len(fr) > off + 24:
        ihl = (fr[off] & 0xf) * 4
        dport = struct.unpack('>H', fr[off + ihl + 2:off + ihl + 4])[0] if len(fr) >= off + ihl + 4 else 0
    return (et, proto, dport == 4791, fr[0] & 1, len(fr) > 1514, len(fr) // 512)


def write(dirpath, name, data, written):
    os.makedirs(dirpath, exist_ok=True)
    with open(os.path.join(dirpath, name), 'wb') as f:
        f.write(data)
    written.append(os.path.join(dirpath, name))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--trace', action='append', default=[], help='a QEMU trace log (glob)')
    ap.add_argument('--pcap', action='append', default=[], help='a packet capture (glob)')
    ap.add_argument('root')
    a = ap.parse_args()
    g, cmds = Grammar(a.root), Commands(a.root)
    corpus = os.path.join(a.root, 'fuzz', 'corpus')
    for old in glob.glob(os.path.join(corpus, '*', '*')):
        if os.path.basename(old).startswith(('trace-', 'pcap-', 'scenario-')):
            os.unlink(old)
    written = []
    for name, (targets, data) in scenarios(g).items():
        for t in targets:
            write(os.path.join(corpus, t), 'scenario-' + name, data, written)
    seen_cmd, runs = set(), 0
    for pattern in a.trace:
        for path in sorted(glob.glob(pattern)):
            seq = trace_commands(path, cmds)
            for c in seq:
                key = (c[0], c[1])
                if key not in seen_cmd:
                    seen_cmd.add(key)
                    name = 'trace-%03x-%x' % key
                    write(os.path.join(corpus, 'fuzz-cmd'), name,
                          struct.pack('>HHHH', c[0], 0, 0, c[1]) + c[3], written)
            # runs of consecutive commands that differ from the runs already kept
            for i in range(0, len(seq), MAX_RUN):
                if runs >= MAX_RUNS:
                    break
                o = Ops(g)
                for c in seq[i:i + MAX_RUN]:
                    o.cmd_exec(*c)
                h = hashlib.sha1(bytes(o.b)).hexdigest()[:10]
                if not os.path.exists(os.path.join(corpus, 'fuzz-ops', 'trace-' + h)):
                    write(os.path.join(corpus, 'fuzz-ops'), 'trace-' + h, bytes(o.b), written)
                    runs += 1
    kinds = set()
    for pattern in a.pcap:
        for path in sorted(glob.glob(pattern)):
            for fr in pcap_frames(path):
                k = frame_kind(fr)
                if k in kinds or len(kinds) >= MAX_FRAMES or len(fr) > MAX_FRAME:
                    continue
                kinds.add(k)
                write(os.path.join(corpus, 'fuzz-rx'), 'pcap-%02d' % len(kinds),
                      Ops(g).rx_raw(fr).b, written)
    total = sum(os.path.getsize(p) for p in written)
    print('%d files, %d bytes' % (len(written), total))


if __name__ == '__main__':
    sys.exit(main())
