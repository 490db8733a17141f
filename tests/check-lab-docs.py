#!/usr/bin/env python3
"""The labs' pages (docs/labs/) cannot go stale unnoticed: every lab of
guest-tests/labs/ has its page and picture; the page has the sections
tools/lab-doc.py writes; the device events its excerpt shows still exist
in hw/trace-events; and the lab's first causal chain - the one every run
of the lab is checked for - holds on the excerpt.  (Regenerate a page
with scripts/lab NN --write-doc.)

usage: check-lab-docs.py SOURCE_ROOT
"""
import glob
import os
import re
import sys

SECTIONS = ['## What to look at', "## A run's timeline", '## Read next']


def main():
    root = sys.argv[1]
    sys.path.insert(0, os.path.join(root, 'tools'))
    import timeline
    events = {m.group(1) for m in re.finditer(r'^(mlx5_\w+)\(', open(
        os.path.join(root, 'hw', 'trace-events')).read(), re.M)}
    failures, labs = [], sorted(glob.glob(os.path.join(root, 'guest-tests', 'labs', '[0-9][0-9]-*.sh')))
    for lab in labs:
        name = os.path.basename(lab)[:-3]
        page = os.path.join(root, 'docs', 'labs', name + '.md')
        if not os.path.exists(page) or not os.path.exists(page[:-3] + '.svg'):
            failures.append(f'{name}: no docs/labs/{name}.md and .svg')
            continue
        text = open(page).read()
        failures += [f'{name}.md: no "{s}"' for s in SECTIONS if s not in text]
        section = text.split("## A run's timeline", 1)[-1].split('## Read next')[0]
        blocks = re.findall(r'^```\n(.*?)^```', section, re.S | re.M)
        chains = re.findall(r'^# lab-order: (.*)$', open(lab).read(), re.M)
        if len(blocks) != len(chains):
            failures.append(f'{name}.md: {len(blocks)} excerpts for {len(chains)} chains')
        for k, (block, chain) in enumerate(zip(blocks, chains)):
            evs = []
            for i, line in enumerate(block.splitlines()):
                if line == '...':
                    continue            # events left out between two steps
                f = line.split(None, 3)
                if len(f) < 3 or not (f[0] == 'wire' or re.match(r'node\d$', f[0])):
                    failures.append(f'{name}.md: chain {k + 1} line {i + 1}: {line!r}')
                    continue
                node = -1 if f[0] == 'wire' else int(f[0][4:])
                evs.append(timeline.Event(i, node, f[1], f[2], f[3] if len(f) > 3 else ''))
                if f[1] in ('firmware', 'datapath') and f[2] not in events:
                    failures.append(f'{name}.md: {f[2]} is not a trace event any more')
            failures += [f'{name}.md chain {k + 1}: {x}' for x in timeline.check_order(evs, chain)]
    print(f'{len(labs)} labs')
    for f in failures:
        print(f'FAIL: {f}')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
