#!/usr/bin/env python3
"""The frames the RoCEv2 codec builds (one per opcode, IPv4 and IPv6, with
and without a VLAN tag), checked by code that shares nothing with it:
tshark decodes each one (Ethernet, IPv4 header checksum, UDP checksum,
InfiniBand BTH) to what the test meant to build, and this script
recomputes each ICRC from the rule of IBTA Annex A17 (as scapy's
contrib/roce.py and Linux rxe_icrc.c apply it) with zlib.  Wireshark shows
the ICRC but does not check it.

usage: roce-tshark.py TEST_ROCE   (exits 77, "skipped", without tshark)
"""
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

FIELDS = ['frame.number', 'vlan.id', 'ip.checksum.status', 'udp.checksum.status',
          'udp.dstport', 'infiniband.bth.opcode', 'infiniband.bth.destqp',
          'infiniband.bth.psn', 'infiniband.bth.padcnt', 'infiniband.invariant.crc',
          '_ws.malformed', '_ws.expert.severity']
UD, XRC, CNP = 0x60, 0xa0, 0x81
GOOD = '1'          # checksum status (PROTO_CHECKSUM_E_GOOD)
NOT_PRESENT = '3'   # IPv4 UDP without checksum (PROTO_CHECKSUM_E_NOT_PRESENT)


def read_pcap(path):
    with open(path, 'rb') as f:
        data = f.read()
    magic, = struct.unpack_from('<I', data)
    assert magic == 0xa1b2c3d4, hex(magic)
    off, frames = 24, []
    while off < len(data):
        _, _, incl, _ = struct.unpack_from('<IIII', data, off)
        frames.append(data[off + 16:off + 16 + incl])
        off += 16 + incl
    return frames


def icrc(frame):
    """The ICRC from scratch: 8 bytes of 0xff, then IP, UDP and BTH with the
    variant fields set to ones, then the rest up to the ICRC; CRC-32."""
    l3 = 18 if frame[12:14] == b'\x81\x00' else 14
    ip = bytearray(frame[l3:])
    if ip[0] >> 4 == 4:
        iph = 20
        ip[1] = 0xff                        # TOS
        ip[8] = 0xff                        # TTL
        ip[10:12] = b'\xff\xff'             # header checksum
        end = struct.unpack_from('!H', ip, 2)[0]
    else:
        iph = 40
        ip[0] |= 0x0f                       # traffic class
        ip[1:4] = b'\xff\xff\xff'           # traffic class, flow label
        ip[7] = 0xff                        # hop limit
        end = 40 + struct.unpack_from('!H', ip, 4)[0]
    ip[iph + 6:iph + 8] = b'\xff\xff'       # UDP checksum
    ip[iph + 12] = 0xff                     # BTH FECN, BECN, resv6
    return zlib.crc32(b'\xff' * 8 + bytes(ip[:end - 4])), bytes(ip[end - 4:end])


def main():
    test_roce = sys.argv[1]
    tshark = shutil.which('tshark')
    if not tshark:
        print('tshark is not installed')
        return 77
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        pcap = os.path.join(tmp, 'roce.pcap')
        env = dict(os.environ, MLX5EMU_ROCE_PCAP=pcap)
        run = subprocess.run([test_roce, '-p', '/roce/pcap'], env=env,
                             capture_output=True, text=True)
        if run.returncode != 0 or not os.path.exists(pcap):
            print(run.stdout, run.stderr)
            return 1
        with open(pcap + '.txt') as f:
            manifest = [line.split() for line in f]
        frames = read_pcap(pcap)
        cmd = [tshark, '-n', '-r', pcap, '-o', 'ip.check_checksum:TRUE',
               '-o', 'udp.check_checksum:TRUE', '--disable-protocol', 'rpcordma',
               '-T', 'fields', '-E', 'separator=;',
               '-E', 'occurrence=f']
        for field in FIELDS:
            cmd += ['-e', field]
        out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    rows = [dict(zip(FIELDS, line.split(';'))) for line in out.splitlines()]
    if not len(frames) == len(manifest) == len(rows) or not frames:
        print(f'{len(frames)} frames, {len(manifest)} manifest lines, {len(rows)} tshark rows')
        return 1

    for frame, (opcode, name, ipv, vlan, qpn, psn, pl), row in zip(frames, manifest, rows):
        what = f'frame {row["frame.number"]} {name} IPv{ipv}{" VLAN" if vlan == "1" else ""}'
        crc, wire = icrc(frame)
        if struct.pack('<I', crc) != wire:
            failures.append(f'{what}: ICRC {wire.hex()}, computed {struct.pack("<I", crc).hex()}')
        want = {
            'vlan.id': '123' if vlan == '1' else '',
            'ip.checksum.status': GOOD if ipv == '4' else '',
            'udp.checksum.status': NOT_PRESENT if ipv == '4' else GOOD,
            'udp.dstport': '4791',
            'infiniband.bth.opcode': opcode,
            'infiniband.bth.destqp': qpn,
            'infiniband.bth.psn': psn,
            'infiniband.bth.padcnt': str(-int(pl) & 3),
            '_ws.malformed': '',
            '_ws.expert.severity': '',
        }
        # tshark shows a CNP as raw bytes, hands a UD payload to its MAD
        # dissectors and does not decode XRC's extension headers: no ICRC
        # field for those (the ICRC is checked above all the same).
        if int(opcode) & 0xe0 not in (UD, XRC) and int(opcode) != CNP:
            want['infiniband.invariant.crc'] = hex(struct.unpack('>I', wire)[0])
        for field, value in want.items():
            got = row[field]
            if field == 'infiniband.bth.destqp' and got:
                got = str(int(got, 0))
            if field == 'infiniband.invariant.crc' and got:
                got = hex(int(got, 0))
            if got != value:
                failures.append(f'{what}: {field} = {row[field]!r}, want {value!r}')
    for f in failures:
        print(f)
    print(f'{len(frames)} frames, {len(failures)} failures')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
