#!/usr/bin/env python3
"""No function of the device (firmware-sim/, hw-rdma/) is longer than
MAX_LINES, counted from the first line of its signature to its closing
brace.  The tree's style puts a function's braces alone at column 0, which
is what this reads.

usage: check-functions.py SOURCE_ROOT
"""
import glob
import os
import re
import sys

MAX_LINES = 60
DIRS = ('firmware-sim', 'hw-rdma')


def functions(path):
    """(name, first line, line count) of each function definition."""
    lines = open(path, encoding='utf-8').read().split('\n')
    i = 0
    while i < len(lines):
        if lines[i] != '{':
            i += 1
            continue
        start = i - 1
        # the signature: the lines up to the brace that are not blank,
        # a comment, a preprocessor line or the end of a declaration
        while start > 0 and lines[start - 1].strip() and \
                not lines[start - 1].startswith(('}', '#', '/*', ' *')) and \
                not lines[start - 1].rstrip().endswith((';', '*/')):
            start -= 1
        end = i
        while end < len(lines) and lines[end] != '}':
            end += 1
        m = re.search(r'(\w+)\s*\(', ' '.join(lines[start:i]))
        yield (m.group(1) if m else '?', start + 1, end - start + 1)
        i = end + 1


def main():
    root = sys.argv[1]
    paths = sorted(p for d in DIRS for ext in ('c', 'h')
                   for p in glob.glob(os.path.join(root, d, '*.' + ext)))
    count, longest, failures = 0, 0, []
    for path in paths:
        for name, line, n in functions(path):
            count += 1
            longest = max(longest, n)
            if n > MAX_LINES:
                failures.append(f'{os.path.relpath(path, root)}:{line}: {name}() is {n} lines '
                                f'(at most {MAX_LINES})')
    print(f'{count} functions in {", ".join(DIRS)}; the longest {longest} lines')
    for f in failures:
        print(f'FAIL: {f}')
    return 1 if failures or count == 0 else 0


if __name__ == '__main__':
    sys.exit(main())
