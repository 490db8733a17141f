#!/usr/bin/env python3
"""Read the bit layouts of the kernel's mlx5_ifc.h.

mlx5_ifc.h describes every PRM layout as `struct mlx5_ifc_<name>_bits` whose
members are `u8 field[width]` (width in bits) or nested layouts; a field's bit
offset is the sum of the widths before it (bit 0 = MSB of byte 0).  Unions
take the size of their largest member.  This module computes
{layout: {field: (bit_offset, width)}} so the project's own declarative
tables can be checked against the kernel's (tests/prm-conformance) and so a
developer can look an offset up:  tools/ifc_layout.py create_eq_in eq_context
"""
import glob
import re
import sys

FIELD_RE = re.compile(r'^\s*u8\s+(\w+)\s*\[\s*(0x[0-9a-fA-F]+|\d+)\s*\]\s*;')
# u8 name[count][width]; and the flexible u8 name[][width];
ARRAY_RE = re.compile(r'^\s*u8\s+(\w+)\s*\[\s*(0x[0-9a-fA-F]+|\d+)?\s*\]\s*\[\s*(0x[0-9a-fA-F]+|\d+)\s*\]\s*;')
NESTED_RE = re.compile(r'^\s*(struct|union)\s+mlx5_ifc_(\w+?)(?:_bits)?\s+(\w+)\s*(\[\s*(0x[0-9a-fA-F]+|\d+)?\s*\])?\s*;')
START_RE = re.compile(r'^\s*(struct|union)\s+mlx5_ifc_(\w+?)(?:_bits)?\s*\{')


def default_header():
    for pat in ('/usr/src/linux-headers-*-common/include/linux/mlx5/mlx5_ifc.h',
                '/usr/src/linux-headers-*/include/linux/mlx5/mlx5_ifc.h',
                '/usr/include/linux/mlx5/mlx5_ifc.h'):
        hits = sorted(glob.glob(pat))
        if hits:
            return hits[-1]
    return None


INLINE_START_RE = re.compile(r'^\s*(struct|union)\s*\{')
INLINE_END_RE = re.compile(r'^\s*\}\s*(\w+)\s*;')


def parse(path):
    """Return {name: (kind, [(field, width_bits or None, nested_name, count)])}.

    Inline anonymous blocks (`union { ... } name;`) become layouts of their
    own named "<parent>.<name>", so their members keep the block's offset.
    """
    defs = {}
    stack = []          # [name, kind, members] of the open blocks
    text = open(path, encoding='utf-8', errors='replace').read()
    text = re.sub(r'/\*.*?\*/', '', text, flags=re.S)
    for line in text.splitlines():
        if not stack:
            m = START_RE.match(line)
            if m:
                stack.append([m.group(2), m.group(1), []])
            continue
        m = INLINE_START_RE.match(line)
        if m:
            stack.append([None, m.group(1), []])
            continue
        m = INLINE_END_RE.match(line)
        if m and len(stack) > 1 and stack[-1][0] is None:
            _, kind, members = stack.pop()
            synth = f'{stack[0][0]}.{m.group(1)}'
            defs[synth] = (kind, members)
            stack[-1][2].append((m.group(1), None, synth, 1))
            continue
        if re.match(r'^\s*\}\s*;', line):
            name, kind, members = stack.pop()
            if name is not None and not stack:
                defs[name] = (kind, members)
            continue
        cur = stack[-1]
        m = FIELD_RE.match(line)
        if m:
            cur[2].append((m.group(1), int(m.group(2), 0), None, 1))
            continue
        m = ARRAY_RE.match(line)
        if m:
            count = int(m.group(2), 0) if m.group(2) else 0
            cur[2].append((m.group(1), int(m.group(3), 0) * count, None, count))
            continue
        m = NESTED_RE.match(line)
        if m:
            if m.group(4):      # name[N], or the flexible name[]
                count = int(m.group(5), 0) if m.group(5) else 0
            else:
                count = 1
            cur[2].append((m.group(3), None, m.group(2), count))
    return defs


class Layouts:
    def __init__(self, path):
        # mlx5_ifc.h nests layouts that live in its siblings (mlx5_ifc_fpga.h, ...)
        self.defs = {}
        for p in sorted(glob.glob(path.rsplit('/', 1)[0] + '/mlx5_ifc*.h')):
            if p != path:
                self.defs.update(parse(p))
        self.defs.update(parse(path))
        self._size = {}

    def size(self, name):
        if name in self._size:
            return self._size[name]
        kind, members = self.defs[name]
        sizes = [self._member_size(m) for m in members]
        s = (max(sizes) if sizes else 0) if kind == 'union' else sum(sizes)
        self._size[name] = s
        return s

    def _member_size(self, m):
        _, width, nested, count = m
        return width if width is not None else self.size(nested) * count

    def fields(self, name):
        """{field: (bit_offset, width_bits, nested_layout_or_None)}"""
        kind, members = self.defs[name]
        out = {}
        off = 0
        for m in members:
            sz = self._member_size(m)
            out[m[0]] = (off if kind == 'struct' else 0, sz, m[2])
            if kind == 'struct':
                off += sz
        return out


def main(argv):
    hdr = default_header()
    if not hdr:
        sys.exit('mlx5_ifc.h not found (install linux-headers-amd64)')
    lay = Layouts(hdr)
    if len(argv) < 2:
        sys.exit('usage: ifc_layout.py LAYOUT [FIELD...]')
    if argv[1] == '--emit':
        # --emit LAYOUT [FIELD...]: print an X-macro block for prm-layouts.h
        name = argv[2]
        flds = lay.fields(name)
        want = argv[3:] or [f for f in flds if not f.startswith('reserved')]
        lines = [f'#define PRM_FIELDS_{name}(F) \\']
        for f in want:
            off, w, _ = flds[f]
            lines.append(f'    F({name}, {f}, 0x{off:x}, {w}) \\')
        print('\n'.join(lines))
        print(f'    /* end {name}: {lay.size(name)} bits */')
        return
    name = argv[1]
    flds = lay.fields(name)
    want = argv[2:] or list(flds)
    print(f'# {name}: {lay.size(name)} bits ({lay.size(name) // 8} bytes)')
    for f in want:
        off, w, nested = flds[f]
        extra = f' ({nested})' if nested else ''
        print(f'F({f}, 0x{off:x}, {w}){extra}  # byte 0x{off // 8:x} bit {off % 8}')


if __name__ == '__main__':
    main(sys.argv)
