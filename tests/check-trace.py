#!/usr/bin/env python3
"""hw/trace-events parses with tools/gen-trace.py, each event's format has
one conversion per argument, and every mlx5emu_trace_*() the core calls
(firmware-sim/, hw-rdma/) is an event.

usage: check-trace.py SOURCE_ROOT
"""
import glob
import importlib.util
import os
import re
import sys


def main():
    root = sys.argv[1]
    spec = importlib.util.spec_from_file_location(
        'gen_trace', os.path.join(root, 'tools', 'gen-trace.py'))
    gen_trace = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen_trace)

    events = {}
    failures = []
    for name, args, _, fmt in gen_trace.events(os.path.join(root, 'hw', 'trace-events')):
        if name in events:
            failures.append(f'{name}: defined twice')
        events[name] = args
        conversions = fmt.replace('%%', '').count('%')
        if conversions != len(args):
            failures.append(f'{name}: {len(args)} arguments, {conversions} conversions')

    called = set()
    for path in sorted(glob.glob(os.path.join(root, 'firmware-sim', '*.[ch]')) +
                       glob.glob(os.path.join(root, 'hw-rdma', '*.[ch]'))):
        text = open(path, encoding='utf-8').read()
        for ev in re.findall(r'\bmlx5emu_trace_(\w+?)(?:_enabled)?\s*\(', text):
            called.add(ev)
            if 'mlx5_' + ev not in events:
                failures.append(f'{os.path.relpath(path, root)}: mlx5emu_trace_{ev}() '
                                f'has no mlx5_{ev} in hw/trace-events')

    print(f'{len(events)} events, {len(called)} called from the core')
    for f in failures:
        print(f'FAIL: {f}')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
