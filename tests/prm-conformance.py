#!/usr/bin/env python3
"""Check firmware-sim/prm-layouts.h against the kernel's mlx5_ifc.h.

usage: prm-conformance.py PRM_DUMP TOOLS_DIR

PRM_DUMP prints the project's layout table (tests/prm-dump.c); TOOLS_DIR
holds ifc_layout.py, which parses /usr/src/linux-headers-*-common/include/
linux/mlx5/mlx5_ifc.h.  For every layout marked from_ifc: the layout exists
in the header with the same size, and every field has the same bit offset
and width.  A field the installed header does not have (the table has a few
newer ones) is reported and counted, not failed.  A missing header fails:
CI installs linux-headers-amd64, so the check must run there.
"""
import os
import subprocess
import sys


def read_dump(exe):
    layouts = []
    for line in subprocess.run([exe], check=True, capture_output=True,
                               text=True).stdout.splitlines():
        kind, name, a, b = line.split()
        if kind == 'L':
            layouts.append((name, int(a), b == '1', []))
        else:
            layouts[-1][3].append((name, int(a), int(b)))
    return layouts


def main():
    dump, tools = sys.argv[1], sys.argv[2]
    sys.path.insert(0, tools)
    import ifc_layout

    hdr = ifc_layout.default_header()
    if not hdr:
        print('FAIL: mlx5_ifc.h not found (install linux-headers-amd64)')
        return 1
    print(f'header: {hdr}')
    ifc = ifc_layout.Layouts(hdr)
    failures, missing, checked, nlayouts = [], [], 0, 0
    for name, bits, from_ifc, fields in read_dump(dump):
        if not from_ifc:
            continue
        nlayouts += 1
        if name not in ifc.defs:
            failures.append(f'{name}: no mlx5_ifc_{name}_bits in the header')
            continue
        if ifc.size(name) != bits:
            failures.append(f'{name}: size 0x{bits:x} bits, header 0x{ifc.size(name):x}')
        kernel = ifc.fields(name)
        for field, off, width in fields:
            if field not in kernel:
                missing.append(f'{name}.{field}')
                continue
            checked += 1
            koff, kwidth, _ = kernel[field]
            if (koff, kwidth) != (off, width):
                failures.append(f'{name}.{field}: 0x{off:x}/{width}, '
                                f'header 0x{koff:x}/{kwidth}')
    print(f'{nlayouts} layouts, {checked} fields match the header')
    if missing:
        print(f'{len(missing)} fields not in this header version (not a failure):')
        for m in missing:
            print(f'  {m}')
    for f in failures:
        print(f'FAIL: {f}')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
