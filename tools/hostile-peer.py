#!/usr/bin/env python3
"""A hostile RoCEv2 peer on a guests' link (scripts/hostile-peer runs it).

It joins the link of `scripts/vm --net mcast --mcast GROUP:PORT` (QEMU's
-netdev dgram on a multicast group: every frame reaches every member), so
it sees the guests' frames and its own reach their NICs.  From what it sees
it learns the live RC connections (MACs, IPs, destination QPN, the last PSN
and the remote keys and addresses of RETHs), and it injects, at a bounded
rate, frames of these kinds:

  random      random bytes, to a guest's MAC or to broadcast
  mutated     a seen RoCE frame with bytes flipped after the PSN moved out
              of the window; its ICRC left stale half the time
  psn-ahead   a request of a random opcode to a live QPN, PSN 2^21..2^22
              ahead of the last seen (IBA 9.7.5.1.1: a sequence error)
  dup-read    an RDMA READ request with a PSN up to 2^20 behind (IBA
              9.7.5.1.2: a duplicate, replayed), a huge DMA length (up to
              2^31) and a seen or random rkey and address
  out-of-seq  a MIDDLE or LAST packet behind (a duplicate out of sequence)
  ghost-ack   an ACK, NAK or READ response to a requester's QPN with a PSN
              2^21..2^22 past the last response it saw (IBA 9.7.5.1.5:
              ignored)
  bad-key     an RDMA WRITE with a PSN ahead and an rkey a little off a
              seen one (a freed or never-made key)

None of these can legitimately change a byte of the guests' memory: a
packet with the PSN a responder expects and a valid key is as good as the
real peer's on RoCE, so the injected ones always carry another PSN, taken
from the right one of a QP's two PSN spaces (the requests it receives,
the responses it receives).  What
the guests' traffic must show is that nothing else got through.

Prints one line per kind with how many went, and how many frames it saw;
exit 0.  Needs nothing outside Python's standard library.
"""
import argparse
import random
import signal
import socket
import struct
import time
import zlib

ROCE_PORT = 4791
OUR_MAC = bytes.fromhex('026d6c35ee01')      # locally administered, not a guest's

# IBA 9.2 opcodes (RC: high bits 000)
SEND_FIRST, SEND_MIDDLE, SEND_LAST, SEND_ONLY = 0x00, 0x01, 0x02, 0x04
WRITE_FIRST, WRITE_MIDDLE, WRITE_LAST, WRITE_ONLY = 0x06, 0x07, 0x08, 0x0a
READ_REQUEST = 0x0c
READ_RESP_FIRST, READ_RESP_MIDDLE, READ_RESP_LAST, READ_RESP_ONLY = 0x0d, 0x0e, 0x0f, 0x10
ACKNOWLEDGE = 0x11
CMP_SWAP, FETCH_ADD = 0x13, 0x14
REQUESTS = (SEND_FIRST, SEND_MIDDLE, SEND_LAST, SEND_ONLY, WRITE_FIRST, WRITE_MIDDLE,
            WRITE_LAST, WRITE_ONLY, READ_REQUEST, CMP_SWAP, FETCH_ADD)
WITH_RETH = (WRITE_FIRST, WRITE_ONLY, READ_REQUEST)
KINDS = ('random', 'mutated', 'psn-ahead', 'dup-read', 'out-of-seq', 'ghost-ack', 'bad-key')

ETH, IP4, UDP, BTH = 14, 20, 8, 12


def ip_checksum(hdr):
    s = sum(struct.unpack('!10H', hdr))
    s = (s & 0xffff) + (s >> 16)
    s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff


def icrc(l3):
    """The RoCEv2 invariant CRC over the IPv4 packet `l3` without its ICRC:
    eight 0xff bytes for the absent LRH, then the packet with the fields a
    router may change masked to ones (IBA A17.3.3)."""
    m = bytearray(l3[:IP4 + UDP + BTH])
    m[1] = 0xff                                 # TOS
    m[8] = 0xff                                 # TTL
    m[10:12] = b'\xff\xff'                      # header checksum
    m[IP4 + 6:IP4 + 8] = b'\xff\xff'            # UDP checksum
    m[IP4 + UDP + 4] = 0xff                     # BTH FECN, BECN, resv6
    crc = zlib.crc32(b'\xff' * 8)
    crc = zlib.crc32(bytes(m), crc)
    return zlib.crc32(l3[IP4 + UDP + BTH:], crc)


class Conn:
    """What was seen of one destination QP: the headers that reach it and
    the sequence it is at."""
    def __init__(self, frame, qpn):
        self.hdr = bytes(frame[:ETH + IP4 + UDP])
        self.qpn = qpn
        # A QP has two PSN spaces: the requests it receives (its responder's)
        # and the responses and ACKs it receives (its requester's).
        self.req_psn = self.resp_psn = None
        self.rkeys = set()
        self.vas = set()


class Peer:
    def __init__(self, group, port, seed):
        self.rng = random.Random(seed)
        self.conns = {}                 # (dst MAC, QPN) -> Conn
        self.macs = set()
        self.seen = self.seen_roce = 0
        self.sent = dict.fromkeys(KINDS, 0)
        self.samples = []               # recent RoCE frames, for mutation
        self.rx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.rx.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.rx.bind((group, port))
        mreq = socket.inet_aton(group) + socket.inet_aton('127.0.0.1')
        self.rx.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP, mreq)
        self.rx.setblocking(False)
        self.tx = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.tx.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, socket.inet_aton('127.0.0.1'))
        self.tx.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_LOOP, 1)
        self.dest = (group, port)

    # ---- learning

    def learn(self, f):
        if len(f) < ETH or f[6:12] == OUR_MAC:
            return
        self.seen += 1
        if not f[6] & 1:
            self.macs.add(bytes(f[6:12]))
        if (len(f) < ETH + IP4 + UDP + BTH + 4 or f[12:14] != b'\x08\x00' or f[ETH] != 0x45 or
                f[ETH + 9] != 17 or struct.unpack_from('!H', f, ETH + IP4 + 2)[0] != ROCE_PORT):
            return
        self.seen_roce += 1
        b = ETH + IP4 + UDP
        op = f[b]
        qpn = struct.unpack_from('!I', f, b + 4)[0] & 0xffffff
        psn = struct.unpack_from('!I', f, b + 8)[0] & 0xffffff
        if op >> 5:
            return                      # not RC
        key = (bytes(f[0:6]), qpn)
        c = self.conns.get(key)
        if c is None:
            c = self.conns[key] = Conn(f, qpn)
        if READ_RESP_FIRST <= op <= ACKNOWLEDGE or op == 0x12:     # 0x12: atomic ACK
            c.resp_psn = psn
        else:
            c.req_psn = psn
        if op in WITH_RETH and len(f) >= b + BTH + 16:
            va, rkey, _ = struct.unpack_from('!QII', f, b + BTH)
            c.vas.add(va)
            c.rkeys.add(rkey)
        self.samples.append(bytes(f))
        del self.samples[:-64]

    def drain(self):
        while True:
            try:
                f = self.rx.recv(65536)
            except BlockingIOError:
                return
            self.learn(f)

    # ---- building

    def roce(self, c, op, psn, ext=b'', payload=b''):
        """A RoCEv2 frame to connection c: its headers, our MAC as source."""
        pad = -len(payload) % 4
        bth = struct.pack('!BBHII', op, pad << 4, 0xffff, c.qpn, psn & 0xffffff)
        body = bth + ext + payload + b'\0' * pad
        ip = bytearray(c.hdr[ETH:ETH + IP4])
        struct.pack_into('!H', ip, 2, IP4 + UDP + len(body) + 4)
        struct.pack_into('!H', ip, 10, 0)
        struct.pack_into('!H', ip, 10, ip_checksum(bytes(ip)))
        udp = bytearray(c.hdr[ETH + IP4:ETH + IP4 + UDP])
        struct.pack_into('!HH', udp, 4, UDP + len(body) + 4, 0)
        l3 = bytes(ip) + bytes(udp) + body
        return c.hdr[0:6] + OUR_MAC + b'\x08\x00' + l3 + struct.pack('<I', icrc(l3))

    def pick_conn(self, space):
        """A connection whose `space` ('req_psn' or 'resp_psn') was seen."""
        cs = [c for c in self.conns.values() if getattr(c, space) is not None]
        return self.rng.choice(cs) if cs else None

    def reth(self, c, huge=False):
        r = self.rng
        va = r.choice(sorted(c.vas)) if c.vas and r.random() < 0.7 else r.getrandbits(64)
        rkey = r.choice(sorted(c.rkeys)) if c.rkeys and r.random() < 0.7 else r.getrandbits(32)
        ln = r.choice((1 << 31, (1 << 31) - 1, r.getrandbits(31))) if huge else r.randrange(0, 8192)
        return struct.pack('!QII', va, rkey, ln)

    def make(self, kind):
        r = self.rng
        if kind == 'random':
            dst = r.choice(sorted(self.macs)) if self.macs and r.random() < 0.8 else b'\xff' * 6
            return dst + OUR_MAC + r.randbytes(r.randrange(2, 1500))
        if kind == 'mutated':
            if not self.samples:
                return None
            f = bytearray(r.choice(self.samples))
            b = ETH + IP4 + UDP
            psn = (struct.unpack_from('!I', f, b + 8)[0] + (1 << 22) + r.getrandbits(20)) & 0xffffff
            struct.pack_into('!I', f, b + 8, (f[b + 8] << 24) | psn)
            for _ in range(r.randrange(1, 7)):
                i = r.randrange(b + BTH, len(f)) if len(f) > b + BTH else r.randrange(len(f))
                f[i] ^= 1 << r.randrange(8)
            f[6:12] = OUR_MAC
            if r.random() < 0.5 and len(f) >= b + BTH + 4:
                l3 = bytes(f[ETH:-4])
                f[-4:] = struct.pack('<I', icrc(l3))
            return bytes(f)
        c = self.pick_conn('resp_psn' if kind == 'ghost-ack' else 'req_psn')
        if c is None:
            return None
        psn = c.resp_psn if kind == 'ghost-ack' else c.req_psn
        if kind == 'psn-ahead':
            op = r.choice(REQUESTS)
            ext = self.reth(c, huge=r.random() < 0.5) if op in WITH_RETH else b''
            if op in (CMP_SWAP, FETCH_ADD):
                ext = struct.pack('!QIQQ', r.getrandbits(64) & ~7, r.getrandbits(32),
                                  r.getrandbits(64), r.getrandbits(64))
            return self.roce(c, op, psn + (1 << 21) + r.getrandbits(21), ext,
                             r.randbytes(r.choice((0, 4, 64, 1024))) if op not in (READ_REQUEST, CMP_SWAP, FETCH_ADD) else b'')
        if kind == 'dup-read':
            return self.roce(c, READ_REQUEST, psn - 1 - r.getrandbits(20), self.reth(c, huge=True))
        if kind == 'out-of-seq':
            op = r.choice((SEND_MIDDLE, SEND_LAST, WRITE_MIDDLE, WRITE_LAST))
            return self.roce(c, op, psn - 1 - r.getrandbits(20), b'', r.randbytes(r.choice((4, 256))))
        if kind == 'ghost-ack':
            op = r.choice((ACKNOWLEDGE, ACKNOWLEDGE, READ_RESP_ONLY, READ_RESP_FIRST, READ_RESP_LAST))
            aeth = struct.pack('!I', (r.choice((0x00, 0x60, 0x61, 0x62, 0x63, 0x20)) << 24) |
                               r.getrandbits(24))
            payload = r.randbytes(r.choice((4, 256))) if op != ACKNOWLEDGE else b''
            return self.roce(c, op, psn + (1 << 21) + r.getrandbits(21), aeth, payload)
        if kind == 'bad-key':
            rkey = (r.choice(sorted(c.rkeys)) if c.rkeys else r.getrandbits(32)) ^ (1 << r.randrange(32))
            va = r.choice(sorted(c.vas)) if c.vas else r.getrandbits(64)
            return self.roce(c, WRITE_ONLY, psn + (1 << 21) + r.getrandbits(21),
                             struct.pack('!QII', va, rkey, 64), r.randbytes(64))
        raise ValueError(kind)

    def inject(self):
        kind = self.rng.choice(KINDS)
        f = self.make(kind)
        if f is not None:
            self.tx.sendto(f, self.dest)
            self.sent[kind] += 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--mcast', required=True, help='GROUP:PORT of the link (scripts/vm --mcast)')
    ap.add_argument('--time', type=float, default=60, help='seconds to run (default 60)')
    ap.add_argument('--rate', type=float, default=100, help='frames per second (default 100)')
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--wait', type=float, default=0,
                    help='seconds to only listen first (the guests boot and connect)')
    a = ap.parse_args()
    group, port = a.mcast.rsplit(':', 1)
    p = Peer(group, int(port), a.seed)
    # SIGTERM (the guests' traffic ended first) stops it with its report.
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    t0 = time.monotonic()
    next_at = t0 + a.wait
    while time.monotonic() - t0 < a.wait + a.time and not stop:
        p.drain()
        now = time.monotonic()
        if now >= next_at:
            p.inject()
            next_at += 1 / a.rate
        else:
            time.sleep(min(next_at - now, 0.01))
    print(f'hostile-peer: saw {p.seen} frames ({p.seen_roce} RoCE, {len(p.conns)} RC QPs)')
    for k in KINDS:
        print(f'hostile-peer: injected {k} {p.sent[k]}')
    print(f'hostile-peer: injected total {sum(p.sent.values())}')
    return 0


if __name__ == '__main__':
    raise SystemExit(main())
