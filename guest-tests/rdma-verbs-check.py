#!/usr/bin/env python3
"""Data-validating RC verbs test between two guests, with pyverbs.

Run in both guests:
  scripts/vm --nodes 2 --timeout 900 -- \\
      'python3 /mlx5emu/guest-tests/rdma-verbs-check.py'

1. verbs-data: ROUNDS (default 200) operations drawn from one seeded random
   sequence that both guests generate, so the passive side knows every
   operation in advance: SEND, SEND_WITH_IMM, RDMA_WRITE, RDMA_WRITE_WITH_IMM,
   RDMA_READ, ATOMIC_CMP_AND_SWP and ATOMIC_FETCH_AND_ADD, 0 B .. 4 MiB
   (mostly small), 1..4 SGEs at random offsets, some inline; the requester of
   each round is drawn too, so both directions run.  Every byte that lands is
   compared, with guard bytes around each target, and every CQE field that
   matters (status, opcode, byte_len, imm_data and IBV_WC_WITH_IMM, qp_num,
   wr_id) on both sides.  A third of the way in both sides grow their CQs
   to 256 entries (ibv_resize_cq), two thirds in shrink them to 32.
2. err-*: one fresh QP pair per case, requester alternating between the
   guests: bad rkey (then 2 flushed WRs), WRITE to an MR without remote write,
   READ past an MR's end, RNR with rnr_retry 0, bad lkey, and a peer QP that
   is gone (retry exceeded, timed).
3. mw-*: memory windows (ibv_alloc_mw) on the responder's MR, one fresh QP
   pair each: type 1 (ibv_bind_mw) and type 2 (IBV_WR_BIND_MW) - 4 KiB
   written through the window land where it maps them, 16 B across its end
   are a remote access error and write nothing; a WRITE through a type-1
   window bound again with length 0, a type-2 one after LOCAL_INV and one
   deallocated: remote access error.  (With ERRORS=0 these are skipped too.)
4. dm-*: device memory (ibv_alloc_dm, ibv_reg_dm_mr) on the responder, on a
   device that has it (max_dm_size): 64 KiB written by the peer in one RDMA
   WRITE, read back by an RDMA READ and compared byte for byte on both sides
   (the responder through ibv_memcpy_from_dm); fetch-and-add and
   compare-and-swap on it; a WRITE across its end is a remote access error
   that writes nothing.

Prints "PASS/FAIL <check>: ..." (the data summary on node 0, each error case
on its requester); exit 1 if anything failed on either guest.
Environment: NODE, MY_IP, PEER_IP from scripts/vm; IBDEV (mlx5_0), GID_INDEX
(default: the RoCE v2 GID of MY_IP), SEED (default 1), ROUNDS (default 200),
DURATION (seconds: the rounds also stop once node 0 has run that long),
ERRORS=0 (the data part only: for impaired links, where a lost NAK turns an
error case into a retry timeout, as it would on a real lossy network).
The guests agree over TCP port 5400 (node 0 listens); every wait is bounded.
"""
import enum
import json
import os
import random
import socket
import struct
import sys
import time
from types import SimpleNamespace

from pyverbs.addr import AHAttr, GID, GlobalRoute
from pyverbs.cq import CQ
from pyverbs.device import DM, AllocDmAttr, Context
from pyverbs.mr import DMMR, MR, MW, MWBind, MWBindInfo
from pyverbs.pd import PD
from pyverbs.pyverbs_error import PyverbsError
from pyverbs.qp import QP, QPAttr, QPCap, QPInitAttr
from pyverbs.wr import RecvWR, SendWR, SGE


def verbs_enums():
    """The IBV_* constants as one flat namespace of ints.

    pyverbs moved them around: bookworm has pyverbs.enums, trixie also
    pyverbs.libibverbs_enums (flat), sid's libibverbs_enums groups them in one
    Python enum class per C enum."""
    try:
        import pyverbs.libibverbs_enums as mod
    except ImportError:
        import pyverbs.enums as mod
    names = {}
    for key in dir(mod):
        val = getattr(mod, key)
        if key.startswith('IBV_'):
            names[key] = int(val)
        elif isinstance(val, type) and issubclass(val, enum.Enum):
            for name, member in val.__members__.items():
                names.setdefault(name, int(member.value))
    return SimpleNamespace(**names)


E = verbs_enums()

KiB = 1024
MiB = 1024 * KiB
MTU = 1024
MAX_MSG = 4 * MiB
MR_SIZE = MAX_MSG + 64 * KiB     # room for 4 SGEs, their guards and gaps
POOL_SIZE = MAX_MSG + 256 * KiB  # message payloads are slices of this
G = 64                           # guard bytes checked around every target
FILL = 0xC3                      # what guards (and unused receive space) hold
FILLB = bytes([FILL])
INV = bytes(255 - i for i in range(256))   # scrub = complement of expected
POLL_S = 30                      # deadline for any one completion
TCP_S = 150                      # deadline for any one peer message
PORT = 5400
MASK64 = (1 << 64) - 1
DM_SIZE = 64 * KiB               # device memory the dm-* cases allocate

STATUS = {getattr(E, 'IBV_WC_' + n): n for n in (
    'SUCCESS', 'LOC_LEN_ERR', 'LOC_QP_OP_ERR', 'LOC_EEC_OP_ERR', 'LOC_PROT_ERR',
    'WR_FLUSH_ERR', 'MW_BIND_ERR', 'BAD_RESP_ERR', 'LOC_ACCESS_ERR',
    'REM_INV_REQ_ERR', 'REM_ACCESS_ERR', 'REM_OP_ERR', 'RETRY_EXC_ERR',
    'RNR_RETRY_EXC_ERR', 'LOC_RDD_VIOL_ERR', 'REM_INV_RD_REQ_ERR',
    'REM_ABORT_ERR', 'INV_EECN_ERR', 'INV_EEC_STATE_ERR', 'FATAL_ERR',
    'RESP_TIMEOUT_ERR', 'GENERAL_ERR')}
WC_OPCODE = {getattr(E, 'IBV_WC_' + n): n for n in (
    'SEND', 'RDMA_WRITE', 'RDMA_READ', 'COMP_SWAP', 'FETCH_ADD', 'RECV',
    'RECV_RDMA_WITH_IMM')}

# (name, weight): reads and writes of every size matter most, atomics are
# 8 bytes each and only need a few dozen rounds.
OPS = (('SEND', 3), ('SEND_WITH_IMM', 2), ('RDMA_WRITE', 3),
       ('RDMA_WRITE_WITH_IMM', 2), ('RDMA_READ', 3),
       ('ATOMIC_CMP_AND_SWP', 1), ('ATOMIC_FETCH_AND_ADD', 1))
GATHER_OPS = ('SEND', 'SEND_WITH_IMM', 'RDMA_WRITE', 'RDMA_WRITE_WITH_IMM')
IMM_OPS = ('SEND_WITH_IMM', 'RDMA_WRITE_WITH_IMM')
ATOMIC_OPS = ('ATOMIC_CMP_AND_SWP', 'ATOMIC_FETCH_AND_ADD')
# (weight, smallest, largest): mostly small messages, the occasional
# multi-MiB one that spans thousands of packets.
SIZE_CLASSES = ((4, 0, 0), (30, 1, 64), (20, 65, 1024), (20, 1025, 16 * KiB),
                (14, 16 * KiB + 1, 256 * KiB), (8, 256 * KiB + 1, MiB),
                (4, MiB + 1, MAX_MSG))

ACCESS_ALL = (E.IBV_ACCESS_LOCAL_WRITE | E.IBV_ACCESS_REMOTE_WRITE |
              E.IBV_ACCESS_REMOTE_READ | E.IBV_ACCESS_REMOTE_ATOMIC)


class Fatal(Exception):
    """The two guests cannot go on together (peer gone, protocol drift)."""


def log(msg):
    print(msg, flush=True)


# ---------------------------------------------------------------- the peer

class Peer:
    """Newline-delimited JSON messages with the other guest, each tagged so
    that two scripts drifting apart fail loudly instead of deadlocking."""

    def __init__(self, node, my_ip, peer_ip):
        if node == 0:
            srv = socket.socket()
            srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            srv.bind((my_ip, PORT))
            srv.listen(1)
            srv.settimeout(90)
            self.sock, _ = srv.accept()
            srv.close()
        else:
            deadline = time.monotonic() + 60
            while True:
                try:
                    self.sock = socket.create_connection((peer_ip, PORT), timeout=2)
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.2)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock.settimeout(TCP_S)
        self.rfile = self.sock.makefile('rb')

    def send(self, tag, **kw):
        kw['tag'] = tag
        self.sock.sendall(json.dumps(kw).encode() + b'\n')

    def recv(self, tag):
        line = self.rfile.readline()
        if not line:
            raise Fatal(f'peer closed the connection while we waited for {tag!r}')
        msg = json.loads(line)
        if msg.get('tag') != tag:
            raise Fatal(f'waiting for {tag!r}, the peer sent {msg.get("tag")!r}')
        return msg


# ----------------------------------------------------------- verbs helpers

def gid_index(ibdev, my_ip):
    """The RoCE v2 GID of our IPv4 address, as rdma-lib.sh finds it: the
    kernel adds it from a work queue after link up, so wait a little."""
    if os.environ.get('GID_INDEX'):
        return int(os.environ['GID_INDEX'])
    mapped = 'ffff:%02x%02x:%02x%02x' % tuple(int(x) for x in my_ip.split('.'))
    port = f'/sys/class/infiniband/{ibdev}/ports/1'
    for _ in range(100):
        for i in range(16):
            try:
                with open(f'{port}/gid_attrs/types/{i}') as f:
                    kind = f.read().strip()
                with open(f'{port}/gids/{i}') as f:
                    gid = f.read().strip()
            except OSError:
                continue
            if kind == 'RoCE v2' and mapped in gid:
                return i
        time.sleep(0.1)
    return None


def make_qp(pd, scq, rcq, max_send_wr=16, max_recv_wr=16, inline=256):
    """An RC QP with 4 SGEs each way; the largest inline size the provider
    grants out of 256, 64, 0 (we read back what it granted)."""
    for want in (inline, 64, 0):
        cap = QPCap(max_send_wr=max_send_wr, max_recv_wr=max_recv_wr,
                    max_send_sge=4, max_recv_sge=4, max_inline_data=want)
        try:
            qp = QP(pd, QPInitAttr(qp_type=E.IBV_QPT_RC, scq=scq, rcq=rcq,
                                   cap=cap, sq_sig_all=0))
        except PyverbsError:
            if want == 0:
                raise
            continue
        _, init = qp.query(E.IBV_QP_CAP)
        return qp, init.max_inline_data
    raise AssertionError('unreachable')


def connect(qp, gidx, remote, sq_psn, timeout=14, retry_cnt=7, rnr_retry=7,
            min_rnr_timer=12):
    """RESET -> INIT -> RTR -> RTS toward remote (a dict with gid, qpn, psn),
    with every attribute spelled out rather than left to defaults."""
    a = QPAttr()
    a.qp_state = E.IBV_QPS_INIT
    a.pkey_index = 0
    a.port_num = 1
    a.qp_access_flags = ACCESS_ALL
    qp.modify(a, E.IBV_QP_STATE | E.IBV_QP_PKEY_INDEX | E.IBV_QP_PORT |
              E.IBV_QP_ACCESS_FLAGS)
    a = QPAttr()
    a.qp_state = E.IBV_QPS_RTR
    a.path_mtu = E.IBV_MTU_1024
    a.dest_qp_num = remote['qpn']
    a.rq_psn = remote['psn']
    a.max_dest_rd_atomic = 4
    a.min_rnr_timer = min_rnr_timer
    a.ah_attr = AHAttr(port_num=1, is_global=1,
                       gr=GlobalRoute(dgid=GID(remote['gid']), sgid_index=gidx,
                                      hop_limit=64))
    qp.modify(a, E.IBV_QP_STATE | E.IBV_QP_AV | E.IBV_QP_PATH_MTU |
              E.IBV_QP_DEST_QPN | E.IBV_QP_RQ_PSN |
              E.IBV_QP_MAX_DEST_RD_ATOMIC | E.IBV_QP_MIN_RNR_TIMER)
    a = QPAttr()
    a.qp_state = E.IBV_QPS_RTS
    a.timeout = timeout
    a.retry_cnt = retry_cnt
    a.rnr_retry = rnr_retry
    a.sq_psn = sq_psn
    a.max_rd_atomic = 4
    qp.modify(a, E.IBV_QP_STATE | E.IBV_QP_TIMEOUT | E.IBV_QP_RETRY_CNT |
              E.IBV_QP_RNR_RETRY | E.IBV_QP_SQ_PSN | E.IBV_QP_MAX_QP_RD_ATOMIC)


def poll(cq, n, deadline_s=POLL_S):
    """Up to n completions, waiting at most deadline_s for them.  Spins
    briefly (completions of small ops come fast), then naps so that a slow
    guest does not starve the device emulation."""
    wcs = []
    end = time.monotonic() + deadline_s
    spins = 0
    while len(wcs) < n:
        got, batch = cq.poll(n - len(wcs))
        if got:
            wcs += batch
            continue
        if time.monotonic() > end:
            break
        spins += 1
        if spins > 100:
            time.sleep(0.0002)
    return wcs


def status_name(s):
    return STATUS.get(s, f'status {s}')


def check_wc(wc, wr_id, opcode, qp_num, byte_len=None, imm=None, imm_flag=False):
    """What is wrong with a completion, as a list of phrases."""
    if wc.status != E.IBV_WC_SUCCESS:
        return [f'CQE status {status_name(wc.status)} (vendor_err 0x{wc.vendor_err:x})']
    bad = []
    if wc.wr_id != wr_id:
        bad.append(f'wr_id 0x{wc.wr_id:x}, want 0x{wr_id:x}')
    if wc.opcode != opcode:
        bad.append(f'opcode {WC_OPCODE.get(wc.opcode, wc.opcode)}, want {WC_OPCODE[opcode]}')
    if wc.qp_num != qp_num:
        bad.append(f'qp_num 0x{wc.qp_num:x}, want 0x{qp_num:x}')
    if byte_len is not None and wc.byte_len != byte_len:
        bad.append(f'byte_len {wc.byte_len}, want {byte_len}')
    has_imm = bool(wc.wc_flags & E.IBV_WC_WITH_IMM)
    if has_imm != imm_flag:
        bad.append(f'wc_flags 0x{wc.wc_flags:x}: IBV_WC_WITH_IMM {"missing" if imm_flag else "set"}')
    if imm is not None and has_imm and wc.imm_data != imm:
        bad.append(f'imm_data 0x{wc.imm_data:08x}, want 0x{imm:08x}')
    return bad


# ------------------------------------------------------ operation sequence

def split(rng, size, k):
    """size bytes cut into min(k, size) non-empty pieces (one empty piece for
    a zero-length message)."""
    if size == 0:
        return [0]
    k = min(k, size)
    cuts = sorted(rng.sample(range(1, size), k - 1))
    return [b - a for a, b in zip([0] + cuts, cuts + [size])]


def place(rng, lens, space=MR_SIZE):
    """Non-overlapping offsets for pieces of these lengths, each with G guard
    bytes on both sides, random gaps, and the pieces in shuffled address
    order (the SGE list need not walk memory upwards)."""
    need = sum(lens) + 2 * G * len(lens)
    cuts = sorted(rng.randint(0, space - need) for _ in lens)
    order = list(range(len(lens)))
    rng.shuffle(order)
    offs = [0] * len(lens)
    pos = prev = 0
    for slot, idx in enumerate(order):
        pos += cuts[slot] - prev
        prev = cuts[slot]
        offs[idx] = pos + G
        pos += lens[idx] + 2 * G
    return offs


def pick_size(rng):
    _, lo, hi = rng.choices(SIZE_CLASSES, weights=[c[0] for c in SIZE_CLASSES])[0]
    size = rng.randint(lo, hi)
    if size > MTU and rng.random() < 0.3:   # around a packet boundary
        size = min(max(round(size / MTU) * MTU + rng.choice((-1, 0, 1)), lo), hi)
    return size


def gen_op(rng, rnd, max_inline, atomics):
    """Round rnd's operation.  Both guests call this with the same rng in the
    same state, so every draw happens whatever the outcome (the draws must
    stay in step)."""
    o = SimpleNamespace(round=rnd)
    o.req = rng.randrange(2)
    ops = OPS if atomics else OPS[:5]
    o.kind = rng.choices([k for k, _ in ops], weights=[w for _, w in ops])[0]
    want_inline = rng.random() < 0.5
    o.imm = rng.getrandbits(32)
    o.inline = False
    if o.kind in ATOMIC_OPS:
        o.size = 8
        o.init = rng.getrandbits(64)
        # CAS that swaps and CAS that does not both count
        o.compare = o.init if rng.random() < 0.6 else o.init ^ (rng.getrandbits(64) | 1)
        o.operand = rng.getrandbits(64)
        # MR buffers are page aligned: multiples of 8 keep atomics aligned
        o.roff = G + 8 * rng.randrange((MR_SIZE - 2 * G - 8) // 8)
        o.loff = G + 8 * rng.randrange((MR_SIZE - 2 * G - 8) // 8)
        o.lens = [8]
        if o.kind == 'ATOMIC_CMP_AND_SWP':
            o.new = o.operand if o.compare == o.init else o.init
        else:
            o.new = (o.init + o.operand) & MASK64
        return o
    o.size = pick_size(rng)
    o.pool = rng.randrange(POOL_SIZE - o.size + 1)
    o.lens = split(rng, o.size, rng.randint(1, 4))
    o.offs = place(rng, o.lens)
    o.inline = (want_inline and o.kind in GATHER_OPS and 0 < o.size <= max_inline)
    if o.kind in ('SEND', 'SEND_WITH_IMM'):
        # the receive list is cut differently from the send list, and is
        # sometimes longer than the message
        extra = 0 if rng.random() < 0.6 else rng.randint(1, 2048)
        o.rlens = split(rng, o.size + extra, rng.randint(1, 4))
        o.roffs = place(rng, o.rlens)
    else:
        o.roff = G + rng.randrange(MR_SIZE - 2 * G - o.size + 1)
    if o.kind == 'RDMA_WRITE_WITH_IMM':
        o.rsge = G + rng.randrange(MR_SIZE - 2 * G - 32)
    return o


def describe(o):
    n = len(o.lens)
    return (f'round {o.round} {o.kind} {o.size} B {n} SGE{"s" if n > 1 else ""}'
            f'{" inline" if o.inline else ""}')


# ------------------------------------------------------- memory windows

def scatter_windows(offs, lens, data, what='byte', sge='SGE'):
    """For a scatter list receiving data: per SGE, (offset, scrub, expect,
    label).  The scrub is the complement of what must land, so a byte the
    device forgets cannot match by chance; space past the message's end and
    the guards hold FILL and must keep it."""
    wins = []
    pos = 0
    guard = FILLB * G
    for i, (off, ln) in enumerate(zip(offs, lens)):
        part = data[pos:pos + ln]
        rest = FILLB * (ln - len(part))
        wins.append((off - G, guard + part.translate(INV) + rest + guard,
                     guard + part + rest + guard,
                     (f'{sge} {i}' if len(lens) > 1 else '', pos, ln, len(data), what)))
        pos += ln
    return wins


def first_diff(a, b, rev=False):
    n = len(a)
    step = 4096
    blocks = range(0, n, step)
    for s in (reversed(blocks) if rev else blocks):
        if a[s:s + step] != b[s:s + step]:
            idx = range(s, min(s + step, n))
            for j in (reversed(idx) if rev else idx):
                if a[j] != b[j]:
                    return j
    return None


def where(j, label):
    sge, pos, ln, msg_len, what = label
    in_sge = f' ({sge})' if sge else ''
    if j < G:
        return f'guard byte {G - j} before {what} {pos}{in_sge}'
    if j < G + ln:
        b = pos + j - G
        return f'{what} {b}{in_sge}' + (' (past the message end)' if b >= msg_len else '')
    return f'guard byte {j - G - ln} after {what} {pos + ln - 1}{in_sge}'


def check_windows(mr, wins):
    """Compare each window with what it must hold; one phrase per window
    that differs: first differing byte, last one, and the values."""
    bad = []
    for off, _, expect, label in wins:
        got = mr.read(len(expect), off)
        if got == expect:
            continue
        j = first_diff(got, expect)
        k = first_diff(got, expect, rev=True)
        msg = f'{where(j, label)} differs (got 0x{got[j]:02x}, want 0x{expect[j]:02x})'
        if k != j:
            msg += f', ... through {where(k, label)}'
        bad.append(msg)
    return bad


def scrub(mr, wins):
    for off, pre, _, _ in wins:
        mr.write(pre, len(pre), off)


# ------------------------------------------------------------ the test

class Check:
    def __init__(self):
        self.node = int(os.environ['NODE'])
        self.ibdev = os.environ.get('IBDEV') or 'mlx5_0'
        self.fails = 0
        self.ctx = Context(name=self.ibdev)
        self.pd = PD(self.ctx)
        self.gidx = gid_index(self.ibdev, os.environ['MY_IP'])
        if self.gidx is None:
            raise Fatal(f'no RoCE v2 GID for {os.environ["MY_IP"]} on {self.ibdev}')
        self.gid = str(self.ctx.query_gid(1, self.gidx))
        self.atomics = self.ctx.query_device().atomic_caps != E.IBV_ATOMIC_NONE
        self.peer = Peer(self.node, os.environ['MY_IP'], os.environ['PEER_IP'])
        self.psn_rng = random.Random(0x5EED + self.node)

    def fail(self, msg):
        self.fails += 1
        log(f'FAIL {msg}')

    # ---- 1. data

    def data_setup(self):
        self.scq = CQ(self.ctx, 64)
        self.rcq = CQ(self.ctx, 64)
        self.qp, inline = make_qp(self.pd, self.scq, self.rcq)
        # src: what we send or write, and what the peer READs from us;
        # dst: what we receive, what the peer writes or updates atomically,
        # where our READs and atomic results land
        self.src = MR(self.pd, MR_SIZE, E.IBV_ACCESS_LOCAL_WRITE | E.IBV_ACCESS_REMOTE_READ)
        self.dst = MR(self.pd, MR_SIZE, ACCESS_ALL)
        me = dict(seed=int(os.environ.get('SEED', '1')),
                  rounds=int(os.environ.get('ROUNDS', '200')),
                  duration=float(os.environ.get('DURATION', '0')),
                  gid=self.gid, qpn=self.qp.qp_num, psn=self.psn_rng.getrandbits(24),
                  src=[self.src.buf, self.src.rkey], dst=[self.dst.buf, self.dst.rkey],
                  inline=inline, atomics=self.atomics)
        self.peer.send('hello', **me)
        self.remote = self.peer.recv('hello')
        # node 0's seed and rounds rule, should the two environments differ
        boss = me if self.node == 0 else self.remote
        self.seed, self.rounds, self.duration = boss['seed'], boss['rounds'], boss['duration']
        self.max_inline = min(inline, self.remote['inline'])
        self.use_atomics = self.atomics and self.remote['atomics']
        connect(self.qp, self.gidx, self.remote, me['psn'])
        self.peer.send('connected')
        self.peer.recv('connected')
        if self.node == 0:
            log(f'verbs-data: seed {self.seed}, {self.rounds} rounds, {self.ibdev} '
                f'GID index {self.gidx}, max inline {self.max_inline}')
        if not self.use_atomics:
            self.fail('verbs-data: the device reports no atomics '
                      '(atomic_caps IBV_ATOMIC_NONE on one side); rounds without them')

    def data(self):
        self.data_setup()
        rng = random.Random(self.seed)
        # the payloads: one seeded pool both sides generate, sliced per round
        pool = random.Random(self.seed ^ 0x9E3779B9).randbytes(POOL_SIZE)
        t0 = time.monotonic()
        ops = nbytes = 0
        fails0 = self.fails
        dead = False
        for rnd in range(self.rounds):
            if self.duration and rnd % 50 == 0 and self.time_is_up(t0):
                break
            if rnd in (self.rounds // 3, 2 * self.rounds // 3):
                self.resize_cqs(256 if rnd == self.rounds // 3 else 32)
            o = gen_op(rng, rnd, self.max_inline, self.use_atomics)
            data = pool[o.pool:o.pool + o.size] if o.kind not in ATOMIC_OPS else None
            if o.req == self.node:
                ok = self.active(o, data)
            else:
                ok = self.passive(o, data)
            if ok is None:
                log(f'verbs-data: stopped after round {rnd}: the QP is in error')
                dead = True
                break
            ops += 1
            nbytes += o.size
        for cq, name in ((self.scq, 'send'), (self.rcq, 'receive')):
            # after an error the flushed leftovers are expected
            _, extra = cq.poll(16) if not dead else (0, [])
            for wc in extra:
                self.fail(f'data: stray {name} completion: wr_id 0x{wc.wr_id:x} '
                          f'{status_name(wc.status)} opcode {WC_OPCODE.get(wc.opcode, wc.opcode)}')
        mine = self.fails - fails0
        self.peer.send('data-end', fails=mine, ops=ops, nbytes=nbytes)
        theirs = self.peer.recv('data-end')['fails']
        secs = time.monotonic() - t0
        if self.node == 0:
            verdict = 'PASS' if mine + theirs == 0 else 'FAIL'
            log(f'{verdict} verbs-data ({ops} ops, {nbytes} bytes, seed {self.seed}'
                f'{f", {mine + theirs} failures" if verdict == "FAIL" else ""}; {secs:.0f} s)')
        for o in (self.qp, self.scq, self.rcq, self.src, self.dst):
            o.close()

    def resize_cqs(self, depth):
        """ibv_resize_cq on both CQs between rounds (MODIFY_CQ op_mod 1,
        libmlx5 mlx5_resize_cq): the rounds after it complete through the
        new rings."""
        for cq in (self.scq, self.rcq):
            try:
                cq.resize(depth)
            except PyverbsError as e:
                self.fail(f'verbs-data: resize a CQ to {depth} entries: {e}')

    def time_is_up(self, t0):
        """With DURATION: node 0's clock says when the rounds stop, every 50
        rounds; node 1 hears it."""
        if self.node == 0:
            stop = time.monotonic() - t0 >= self.duration
            self.peer.send('go', stop=stop)
            return stop
        return self.peer.recv('go')['stop']

    def active(self, o, data):
        """Requester side of round o: post, complete, check what came back.
        Returns False on a data or CQE field mismatch, None if the QP went
        to error (the rounds stop), True otherwise."""
        kind = o.kind
        wr_id = 0x10000 + o.round
        wins = []
        if kind in GATHER_OPS:
            pos = 0
            for off, ln in zip(o.offs, o.lens):
                self.src.write(data[pos:pos + ln], ln, off)
                pos += ln
            sges = [SGE(self.src.buf + off, ln, self.src.lkey) for off, ln in zip(o.offs, o.lens)]
        elif kind == 'RDMA_READ':
            wins = scatter_windows(o.offs, o.lens, data)
            sges = [SGE(self.dst.buf + off, ln, self.dst.lkey) for off, ln in zip(o.offs, o.lens)]
        else:
            wins = scatter_windows([o.loff], [8], struct.pack('<Q', o.init), 'result byte')
            sges = [SGE(self.dst.buf + o.loff, 8, self.dst.lkey)]
        scrub(self.dst, wins)
        flags = E.IBV_SEND_SIGNALED | (E.IBV_SEND_INLINE if o.inline else 0)
        wr = SendWR(wr_id=wr_id, opcode=getattr(E, 'IBV_WR_' + kind), num_sge=len(sges),
                    sg=sges, send_flags=flags, imm_data=o.imm if kind in IMM_OPS else 0)
        raddr, rkey = self.remote['src' if kind == 'RDMA_READ' else 'dst']
        if kind in ATOMIC_OPS:
            if kind == 'ATOMIC_CMP_AND_SWP':
                wr.set_wr_atomic(rkey, raddr + o.roff, o.compare, o.operand)
            else:
                wr.set_wr_atomic(rkey, raddr + o.roff, o.operand, 0)
        elif kind not in ('SEND', 'SEND_WITH_IMM'):
            wr.set_wr_rdma(rkey, raddr + o.roff)

        self.peer.recv(f'ready-{o.round}')
        bad, dead = [], False
        try:
            self.qp.post_send(wr)
        except PyverbsError as e:
            bad, dead = [f'post_send: {e}'], True
        if not dead:
            wcs = poll(self.scq, 1)
            if not wcs:
                bad, dead = [f'no send completion within {POLL_S} s'], True
            else:
                want_op, blen = {
                    'SEND': (E.IBV_WC_SEND, None), 'SEND_WITH_IMM': (E.IBV_WC_SEND, None),
                    'RDMA_WRITE': (E.IBV_WC_RDMA_WRITE, None),
                    'RDMA_WRITE_WITH_IMM': (E.IBV_WC_RDMA_WRITE, None),
                    'RDMA_READ': (E.IBV_WC_RDMA_READ, o.size),
                    'ATOMIC_CMP_AND_SWP': (E.IBV_WC_COMP_SWAP, 8),
                    'ATOMIC_FETCH_AND_ADD': (E.IBV_WC_FETCH_ADD, 8)}[kind]
                # mlx5 flags the requester's CQE of a *_WITH_IMM WQE too: it
                # reads the opcode the device echoes from the WQE
                bad = check_wc(wcs[0], wr_id, want_op, self.qp.qp_num, byte_len=blen,
                               imm_flag=kind in IMM_OPS)
                dead = wcs[0].status != E.IBV_WC_SUCCESS
                if not dead:
                    bad += check_windows(self.dst, wins)
        for b in bad:
            self.fail(f'data: {describe(o)}: {b} (requester)')
        self.peer.send(f'done-{o.round}', dead=dead)
        if self.peer.recv(f'checked-{o.round}')['dead']:
            dead = True
        return None if dead else not bad

    def passive(self, o, data):
        """Responder side of round o: prepare what the requester will reach
        (receives, scrubbed targets, READ source, atomic's old value), then
        check what it did."""
        kind = o.kind
        wr_id = 0x20000 + o.round
        wins, mr, recv = [], self.dst, None
        if kind in ('SEND', 'SEND_WITH_IMM'):
            wins = scatter_windows(o.roffs, o.rlens, data, sge='receive SGE')
            recv = [SGE(self.dst.buf + off, ln, self.dst.lkey) for off, ln in zip(o.roffs, o.rlens)]
        elif kind in ('RDMA_WRITE', 'RDMA_WRITE_WITH_IMM'):
            wins = scatter_windows([o.roff], [o.size], data, 'remote byte')
        elif kind == 'RDMA_READ':
            self.src.write(data, o.size, o.roff)
        else:
            old, new = struct.pack('<Q', o.init), struct.pack('<Q', o.new)
            guard = FILLB * G
            wins = [(o.roff - G, guard + old + guard, guard + new + guard,
                     ('', 0, 8, 8, 'target byte'))]
        scrub(mr, wins)
        if kind == 'RDMA_WRITE_WITH_IMM':
            # the immediate consumes a receive WQE but none of its buffer
            rwins = scatter_windows([o.rsge], [32], b'')
            scrub(self.src, rwins)
            recv = [SGE(self.src.buf + o.rsge, 32, self.src.lkey)]
        dead = False
        bad = []
        if recv is not None:
            try:
                self.qp.post_recv(RecvWR(wr_id=wr_id, num_sge=len(recv), sg=recv))
            except PyverbsError as e:
                bad, dead = [f'post_recv: {e}'], True
        self.peer.send(f'ready-{o.round}')
        if self.peer.recv(f'done-{o.round}')['dead']:
            dead = True
        if not dead and recv is not None:
            wcs = poll(self.rcq, 1)
            if not wcs:
                bad, dead = [f'no receive completion within {POLL_S} s'], True
            else:
                want_op = (E.IBV_WC_RECV_RDMA_WITH_IMM if kind == 'RDMA_WRITE_WITH_IMM'
                           else E.IBV_WC_RECV)
                bad = check_wc(wcs[0], wr_id, want_op, self.qp.qp_num, byte_len=o.size,
                               imm=o.imm if kind in IMM_OPS else None,
                               imm_flag=kind in IMM_OPS)
                dead = wcs[0].status != E.IBV_WC_SUCCESS
            if kind == 'RDMA_WRITE_WITH_IMM':
                bad += [f'receive buffer of the immediate: {b}' for b in check_windows(self.src, rwins)]
        if not dead:
            bad += check_windows(mr, wins)
        rlist = (f', receive list {len(o.rlens)} SGEs {sum(o.rlens)} B'
                 if kind in ('SEND', 'SEND_WITH_IMM') else '')
        for b in bad:
            self.fail(f'data: {describe(o)}{rlist}: {b} (responder)')
        self.peer.send(f'checked-{o.round}', dead=dead)
        return None if dead else not bad

    # ---- 2. errors

    def err_case(self, name, requester, run, passive_prep=None, conn=None,
                 remote_mr=None, recvs=0, window=None):
        """One error case on a fresh CQ and QP pair.  run(self, qp, cq, mr,
        remote) on the requester returns (ok, phrase); the responder posts
        recvs receives, gives its MR (remote_mr(pd) or a plain one) - or,
        with window(self, qp, cq, mr), the address, key and length that
        returns - and afterwards reports any receive that completed
        successfully (nothing after a failed request may be executed)."""
        active = self.node == requester
        cq = CQ(self.ctx, 16)
        qp, _ = make_qp(self.pd, cq, cq, max_send_wr=8, max_recv_wr=8, inline=0)
        mr = (remote_mr(self.pd) if (remote_mr and not active) else
              MR(self.pd, 64 * KiB, ACCESS_ALL))
        me = dict(gid=self.gid, qpn=qp.qp_num, psn=self.psn_rng.getrandbits(24),
                  addr=mr.buf, rkey=mr.rkey, length=mr.length)
        self.peer.send(f'{name}-hello', **me)
        remote = self.peer.recv(f'{name}-hello')
        kw = dict(conn or {}) if active else {}
        passive_bad = []
        try:
            if active or name != 'err-peer-gone':
                connect(qp, self.gidx, remote, me['psn'], **kw)
            if not active:
                for i in range(recvs):
                    qp.post_recv(RecvWR(wr_id=0x100 + i, num_sge=1,
                                        sg=[SGE(mr.buf + 4 * KiB * i, 4 * KiB, mr.lkey)]))
                if passive_prep:
                    passive_prep(self, qp, mr)
                if window:
                    win = window(self, qp, cq, mr)
                if name == 'err-peer-gone':
                    qp.close()
        except PyverbsError as e:
            passive_bad.append(f'set-up: {e}')
        self.peer.send(f'{name}-ready', bad=passive_bad if not active else [],
                       win=None if active or not window or passive_bad else win)
        ready = self.peer.recv(f'{name}-ready')
        theirs = ready['bad']
        remote.update(ready.get('win') or {})
        if active:
            try:
                ok, msg = run(self, qp, cq, mr, remote) if not theirs else (False, '')
            except PyverbsError as e:
                ok, msg = False, str(e)
            self.peer.send(f'{name}-done')
            theirs += self.peer.recv(f'{name}-checked')['bad']
            if theirs:
                ok = False
                msg = '; '.join(([msg] if msg else []) + [f'responder: {b}' for b in theirs])
            if ok:
                log(f'PASS {name}: {msg}')
            else:
                self.fail(f'{name}: {msg}')
        else:
            self.peer.recv(f'{name}-done')
            if name != 'err-peer-gone':
                for wc in poll(cq, 16, deadline_s=0.2):
                    if wc.status == E.IBV_WC_SUCCESS:
                        passive_bad.append(f'a receive completed (wr_id 0x{wc.wr_id:x}, '
                                           f'{wc.byte_len} B) after the failed request')
                if passive_prep:
                    passive_bad += passive_prep(self, qp, mr, check=True)
            self.peer.send(f'{name}-checked', bad=passive_bad)
        for o in (qp, cq, mr):
            o.close()

    # ---- 3. memory windows

    def windows(self):
        """Memory windows (ibv_alloc_mw) on the responder's MR, each case on a
        fresh QP pair: a WRITE inside the window lands where the window says
        and one across its end is a remote access error; so is a WRITE
        through a window invalidated (type 1: bound again with length 0;
        type 2: LOCAL_INV) or deallocated."""
        pattern = bytes(range(256)) * 16
        off, length = 8 * KiB, 8 * KiB
        zero = bytes(16)

        def mw_mr(pd):
            return MR(pd, 64 * KiB, ACCESS_ALL | E.IBV_ACCESS_MW_BIND)

        def completed(cq, what):
            wcs = poll(cq, 1)
            if not wcs or wcs[0].status != E.IBV_WC_SUCCESS:
                raise PyverbsError(f'{what}: {status_name(wcs[0].status) if wcs else "no completion"}')

        def bind(qp, cq, mw, info):
            if mw.type == E.IBV_MW_TYPE_1:
                qp.bind_mw(mw, MWBind(info, E.IBV_SEND_SIGNALED))
                completed(cq, 'ibv_bind_mw')
                return mw.rkey
            wr = SendWR(wr_id=0x77, opcode=E.IBV_WR_BIND_MW, send_flags=E.IBV_SEND_SIGNALED)
            wr.set_bind_wr(mw, info)
            qp.post_send(wr)
            completed(cq, 'IBV_WR_BIND_MW')
            return wr.rkey

        def window(mw_type, end=None):
            def make(self, qp, cq, mr):
                mw = MW(self.pd, mw_type)
                self._mw = mw
                rkey = bind(qp, cq, mw, MWBindInfo(mr, mr.buf + off, length,
                                                   E.IBV_ACCESS_REMOTE_WRITE))
                if end == 'unbind':
                    bind(qp, cq, mw, MWBindInfo(mr, mr.buf, 0, 0))
                elif end == 'local-inv':
                    wr = SendWR(wr_id=0x78, opcode=E.IBV_WR_LOCAL_INV,
                                send_flags=E.IBV_SEND_SIGNALED)
                    wr.imm_data = rkey
                    qp.post_send(wr)
                    completed(cq, 'IBV_WR_LOCAL_INV')
                elif end == 'dealloc':
                    mw.close()
                return dict(addr=mr.buf + off, rkey=rkey, length=length)
            return make

        def untouched(self, qp, mr, check=False):
            if not check:
                return []
            bad = []
            if mr.read(16, off + length - 8) != zero:
                bad.append('bytes across the window\'s end were written')
            if self._mw:
                self._mw.close()
                self._mw = None
            return bad

        def landed(self, qp, mr, check=False):
            bad = untouched(self, qp, mr, check)
            if check and mr.read(len(pattern), off) != pattern:
                bad.append('the WRITE through the window did not land in the MR')
            return bad

        def write(wr_id, mr, remote, at, n):
            w = SendWR(wr_id=wr_id, opcode=E.IBV_WR_RDMA_WRITE, num_sge=1,
                       sg=[SGE(mr.buf, n, mr.lkey)], send_flags=E.IBV_SEND_SIGNALED)
            w.set_wr_rdma(remote['rkey'], remote['addr'] + at)
            return w

        def inside_then_across(self, qp, cq, mr, remote):
            mr.write(pattern, len(pattern), 0)
            w1 = write(1, mr, remote, 0, len(pattern))
            w2 = write(2, mr, remote, remote['length'] - 8, 16)
            w1.next_wr = w2         # pyverbs keeps a pointer, not a reference: w2 must live
            qp.post_send(w1)
            ok, r, _ = self._expect(cq, [E.IBV_WC_SUCCESS, E.IBV_WC_REM_ACCESS_ERR])
            return ok, ('4 KiB through the window: done; 16 B across its end: '
                        'REM_ACCESS_ERR' if ok else r)

        def refused(self, qp, cq, mr, remote):
            qp.post_send(write(1, mr, remote, 0, 64))
            ok, r, _ = self._expect(cq, [E.IBV_WC_REM_ACCESS_ERR])
            return ok, 'WRITE through it: REM_ACCESS_ERR' if ok else r

        self._mw = None
        t1, t2 = E.IBV_MW_TYPE_1, E.IBV_MW_TYPE_2
        for name, requester, run, win, check in (
                ('mw-type1', 0, inside_then_across, window(t1), landed),
                ('mw-type2', 1, inside_then_across, window(t2), landed),
                ('mw-type1-unbound', 1, refused, window(t1, 'unbind'), untouched),
                ('mw-type2-local-inv', 0, refused, window(t2, 'local-inv'), untouched),
                ('mw-type2-dealloc', 1, refused, window(t2, 'dealloc'), untouched)):
            self.err_case(name, requester, run, remote_mr=mw_mr, window=win,
                          passive_prep=check)

    # ---- 4. device memory

    def device_memory(self):
        """Device memory on the responder: 64 KiB written through RDMA WRITE
        and read back through RDMA READ, atomics on it, a WRITE across its
        end refused.  The responder is a node whose device has it."""
        size = DM_SIZE
        pattern = bytes((i * 7 + 1) & 0xff for i in range(size))
        mine = self.ctx.query_device_ex().max_dm_size >= size
        self.peer.send('dm-caps', has=mine)
        theirs = self.peer.recv('dm-caps')['has']
        if not mine and not theirs:
            if self.node == 0:
                log('SKIP dm-*: neither device has device memory (max_dm_size)')
            return
        # requester: a node whose peer has device memory, alternating if both
        who = [n for n in (0, 1) if (theirs if n == self.node else mine)]

        def dm_mr(pd):
            self._dm = DM(self.ctx, AllocDmAttr(length=size))
            return DMMR(pd, size, E.IBV_ACCESS_ZERO_BASED | ACCESS_ALL, self._dm, 0)

        def completed(cq, n, ops):
            wcs = poll(cq, n)
            got = [status_name(w.status) for w in wcs]
            if got != ['SUCCESS'] * n:
                return f'{ops}: completions {got or "none"}'
            return ''

        def dm_holds(init):
            # the memory's first contents: hardware does not clear it
            def check(self, qp, mr, check=False):
                if not check:
                    self._dm.copy_to_dm(0, init, size)
                    return []
                got = self._dm.copy_from_dm(0, size)
                self._dm.close()
                if got != expected[0]:
                    j = first_diff(got, expected[0])
                    return [f'device memory differs from what the peer wrote at byte {j}']
                return []
            return check

        expected = [pattern]

        def whole(qp, cq, mr, remote, wr_id, opcode, what):
            w = SendWR(wr_id=wr_id, opcode=opcode, num_sge=1,
                       sg=[SGE(mr.buf, size, mr.lkey)], send_flags=E.IBV_SEND_SIGNALED)
            w.set_wr_rdma(remote['rkey'], remote['addr'])
            qp.post_send(w)
            return completed(cq, 1, f'{what} of 64 KiB')

        def write_read(self, qp, cq, mr, remote):
            mr.write(pattern, size, 0)
            bad = whole(qp, cq, mr, remote, 1, E.IBV_WR_RDMA_WRITE, 'RDMA WRITE')
            if bad:
                return False, bad
            mr.write(bytes(size), size, 0)
            bad = whole(qp, cq, mr, remote, 2, E.IBV_WR_RDMA_READ, 'RDMA READ')
            if bad:
                return False, bad
            got = mr.read(size, 0)
            if got != pattern:
                return False, f'RDMA READ of the device memory differs at byte {first_diff(got, pattern)}'
            return True, '64 KiB RDMA WRITE into device memory, RDMA READ back: byte-exact'

        at, init = 4 * KiB + 8, 1000

        def atomics(self, qp, cq, mr, remote):
            fa = SendWR(wr_id=1, opcode=E.IBV_WR_ATOMIC_FETCH_AND_ADD, num_sge=1,
                        sg=[SGE(mr.buf, 8, mr.lkey)], send_flags=E.IBV_SEND_SIGNALED)
            fa.set_wr_atomic(remote['rkey'], remote['addr'] + at, 5, 0)
            cs = SendWR(wr_id=2, opcode=E.IBV_WR_ATOMIC_CMP_AND_SWP, num_sge=1,
                        sg=[SGE(mr.buf + 8, 8, mr.lkey)], send_flags=E.IBV_SEND_SIGNALED)
            cs.set_wr_atomic(remote['rkey'], remote['addr'] + at, init + 5, 77)
            fa.next_wr = cs         # pyverbs keeps a pointer, not a reference: cs must live
            qp.post_send(fa)
            bad = completed(cq, 2, 'fetch-and-add, compare-and-swap')
            if bad:
                return False, bad
            olds = struct.unpack('<QQ', mr.read(16, 0))
            if olds != (init, init + 5):
                return False, f'atomics returned {olds}, want {(init, init + 5)}'
            return True, 'fetch-and-add +5 then compare-and-swap to 77 on device memory'

        def across_end(self, qp, cq, mr, remote):
            w = SendWR(wr_id=1, opcode=E.IBV_WR_RDMA_WRITE, num_sge=1,
                       sg=[SGE(mr.buf, 16, mr.lkey)], send_flags=E.IBV_SEND_SIGNALED)
            w.set_wr_rdma(remote['rkey'], remote['addr'] + size - 8)
            qp.post_send(w)
            ok, r, _ = self._expect(cq, [E.IBV_WC_REM_ACCESS_ERR])
            return ok, 'WRITE of 16 B across the end of device memory: REM_ACCESS_ERR' if ok else r

        def with_word(v):
            b = bytearray(FILLB * size)
            b[at:at + 8] = struct.pack('<Q', v)
            return bytes(b)

        self._dm = None
        fill = FILLB * size
        cases = (('dm-write-read', write_read, fill, pattern),
                 ('dm-atomics', atomics, with_word(init), with_word(77)),
                 ('dm-across-end', across_end, fill, fill))
        for i, (name, run, first, want) in enumerate(cases):
            expected[0] = want
            self.err_case(name, who[i % len(who)], run, remote_mr=dm_mr,
                          passive_prep=dm_holds(first))

    def _expect(self, cq, statuses, deadline=POLL_S):
        """Collect len(statuses) completions, wr_id 1, 2, ...: (ok, phrase, s)."""
        t0 = time.monotonic()
        wcs = poll(cq, len(statuses), deadline_s=deadline)
        secs = time.monotonic() - t0
        got = [status_name(w.status) for w in wcs]
        want = [status_name(s) for s in statuses]
        ids = [w.wr_id for w in wcs]
        if got == want and ids == list(range(1, len(statuses) + 1)):
            return True, got, secs
        return False, (f'completions {got or "none"} (wr_id {ids}), want {want}'
                       f'{f" (waited {deadline} s)" if len(wcs) < len(statuses) else ""}'), secs

    def errors(self):
        expect = self._expect

        def send_wr(wr_id, mr, length=64, lkey=None, opcode=E.IBV_WR_SEND):
            return SendWR(wr_id=wr_id, opcode=opcode, num_sge=1,
                          sg=[SGE(mr.buf, length, mr.lkey if lkey is None else lkey)],
                          send_flags=E.IBV_SEND_SIGNALED)

        def bad_rkey(self, qp, cq, mr, remote):
            # a key whose index exists but whose variant byte (mkey[7:0]) is
            # wrong: the responder must compare all 32 bits
            w1 = send_wr(1, mr, opcode=E.IBV_WR_RDMA_WRITE)
            w1.set_wr_rdma(remote['rkey'] ^ 0x5a, remote['addr'])
            w2, w3 = send_wr(2, mr), send_wr(3, mr)
            w1.next_wr = w2
            w2.next_wr = w3
            qp.post_send(w1)
            ok, r, _ = expect(cq, [E.IBV_WC_REM_ACCESS_ERR, E.IBV_WC_WR_FLUSH_ERR,
                                   E.IBV_WC_WR_FLUSH_ERR])
            return ok, 'REM_ACCESS_ERR then 2 WR_FLUSH_ERR' if ok else r

        def no_write_mr(pd):
            return MR(pd, 64 * KiB, E.IBV_ACCESS_LOCAL_WRITE | E.IBV_ACCESS_REMOTE_READ)

        def fill_no_write(self, qp, mr, check=False):
            if not check:
                mr.write(FILLB * 4096, 4096, 0)
                return []
            return [] if mr.read(4096, 0) == FILLB * 4096 else \
                ['the MR without remote write was written to']

        def write_no_access(self, qp, cq, mr, remote):
            w = send_wr(1, mr, length=256, opcode=E.IBV_WR_RDMA_WRITE)
            w.set_wr_rdma(remote['rkey'], remote['addr'])
            qp.post_send(w)
            ok, r, _ = expect(cq, [E.IBV_WC_REM_ACCESS_ERR])
            return ok, 'RDMA_WRITE to an MR without REMOTE_WRITE: REM_ACCESS_ERR' if ok else r

        def odd_mr(pd):
            # 60000 B: the end is inside a page, so only an exact length
            # check catches the overrun
            return MR(pd, 60000, ACCESS_ALL)

        def read_oob(self, qp, cq, mr, remote):
            w = send_wr(1, mr, length=200, opcode=E.IBV_WR_RDMA_READ)
            w.set_wr_rdma(remote['rkey'], remote['addr'] + remote['length'] - 100)
            qp.post_send(w)
            ok, r, _ = expect(cq, [E.IBV_WC_REM_ACCESS_ERR])
            return ok, (f'RDMA_READ of 200 B at {remote["length"] - 100} of a '
                        f'{remote["length"]} B MR: REM_ACCESS_ERR' if ok else r)

        def rnr(self, qp, cq, mr, remote):
            qp.post_send(send_wr(1, mr))
            ok, r, _ = expect(cq, [E.IBV_WC_RNR_RETRY_EXC_ERR])
            return ok, 'SEND without a receive, rnr_retry 0: RNR_RETRY_EXC_ERR' if ok else r

        def bad_lkey(self, qp, cq, mr, remote):
            # another mkey index, which nothing registered
            qp.post_send(send_wr(1, mr, length=256, lkey=mr.lkey ^ 0x00f00000))
            ok, r, _ = expect(cq, [E.IBV_WC_LOC_PROT_ERR])
            return ok, 'SEND with a bad lkey: LOC_PROT_ERR' if ok else r

        def peer_gone(self, qp, cq, mr, remote):
            retry_cnt, timeout = 3, 14
            per_try = max(4.096e-6 * (1 << timeout), 0.008)
            want = (retry_cnt + 1) * per_try
            qp.post_send(send_wr(1, mr))
            ok, r, secs = expect(cq, [E.IBV_WC_RETRY_EXC_ERR])
            if not ok:
                return False, r
            # IBA: a transport timer runs between 1 and 4 times its value
            msg = (f'RETRY_EXC_ERR after {secs * 1000:.0f} ms (retry_cnt {retry_cnt}, '
                   f'timeout {timeout}: expected about {want * 1000:.0f} ms)')
            if secs < 0.9 * want:
                return False, msg + ': too early'
            if secs > 4 * want + 1:
                return False, msg + ': too late'
            return True, msg

        self.err_case('err-bad-rkey', 0, bad_rkey, recvs=2)
        self.err_case('err-write-no-access', 1, write_no_access,
                      remote_mr=no_write_mr, passive_prep=fill_no_write)
        self.err_case('err-read-oob', 0, read_oob, remote_mr=odd_mr)
        self.err_case('err-rnr', 1, rnr, conn=dict(rnr_retry=0))
        self.err_case('err-bad-lkey', 0, bad_lkey, recvs=1)
        self.err_case('err-peer-gone', 1, peer_gone, conn=dict(timeout=14, retry_cnt=3))

    def finish(self):
        self.peer.send('end', fails=self.fails)
        return self.fails + self.peer.recv('end')['fails']


def main():
    if not os.environ.get('PEER_IP'):
        log('FAIL setup: needs scripts/vm --nodes 2 (no PEER_IP)')
        return 1
    try:
        c = Check()
    except (Fatal, OSError, PyverbsError) as e:
        log(f'FAIL setup: {e}')
        return 1
    try:
        c.data()
        # On a lossy link an error case can end otherwise, as on real RoCE:
        # a lost NAK leaves the requester to time out (RETRY_EXC_ERR) while
        # the responder, in ERR since the NAK, answers nothing more.
        if os.environ.get('ERRORS', '1') != '0':
            c.errors()
            c.windows()
            c.device_memory()
        total = c.finish()
    except (Fatal, OSError, PyverbsError, json.JSONDecodeError) as e:
        c.fail(f'verbs-check: {type(e).__name__}: {e}')
        return 1
    return 1 if total else 0


if __name__ == '__main__':
    sys.exit(main())
