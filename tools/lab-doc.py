#!/usr/bin/env python3
"""Write a lab's page (docs/labs/NN-NAME.md) from a run of it.

usage: lab-doc.py LAB_SCRIPT LOGDIR > docs/labs/NN-NAME.md
       (scripts/lab NN --write-doc does this; it also writes the excerpt's
       picture next to the page, as NN-NAME.svg)

The page has the lab's command, what it shows (its script's comment),
the causal chains every run is checked for, an excerpt of this run's
timeline - the events of the first chain, from its first step to its
last, as layer and event without times - its picture, and the sources to
read next.  tests/check-lab-docs.py checks that a committed page still has
that structure: its excerpt's device events exist, and the lab's first
chain holds on the excerpt.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import timeline  # noqa: E402

GAP_MAX = 6
SVG_MAX = 150


def fields(path):
    """The lab's `# lab-FIELD: value` headers (lists), and its comment."""
    heads, comment = {}, []
    for line in open(path):
        m = re.match(r'^# lab-(\w+): (.*)$', line)
        if m:
            heads.setdefault(m.group(1), []).append(m.group(2))
        elif line.startswith('#') and heads and not line.startswith('#!'):
            comment.append(line[1:].strip())
        elif not line.startswith('#'):
            break
    return heads, '\n'.join(comment).strip()


def excerpt_line(e):
    where = 'wire' if e.layer == 'wire' else f'node{e.node}'
    return f'{where:6} {e.layer:11} {e.name} {e.text}'.rstrip()


def excerpt(events, found):
    """The events from a chain's first step to its last; where two steps
    are far apart, the few events after the earlier one, then "...".
    """
    lines = []
    for a, b in zip(found, found[1:] + [found[-1] + 1]):
        gap = events[a:b]
        lines += [excerpt_line(e) for e in gap[:GAP_MAX]]
        if len(gap) > GAP_MAX:
            lines.append('...')
    return lines


def main(argv):
    script, logdir = argv
    name = os.path.basename(script)[:-3]
    heads, comment = fields(script)
    events = timeline.build(logdir, keep_all=heads.get('filter') == ['all'])
    spans = [timeline.match_order(events, chain) for chain in heads['order']]
    if any(f[-1] is None for f in spans):
        sys.exit('lab-doc: this run does not have every chain the lab names')
    shown = sorted({i for f in spans for i in range(f[0], f[-1] + 1)})[:SVG_MAX]
    svg = os.path.join(os.path.dirname(os.path.abspath(script)), '..', '..', 'docs', 'labs',
                       name + '.svg')
    timeline.svg([events[i] for i in shown], f'mlx5emu lab {name}: {heads["title"][0]}', svg)
    num = name[:2]
    out = [f'# Lab {num}: {heads["title"][0]}', '',
           f'Part {heads["part"][0]} of the series this project teaches from.', '',
           '```sh', f'scripts/lab {num}', '```', '', ' '.join(comment.split()), '',
           '## What to look at', '',
           f'Layers: {" ".join(heads["layers"][0].split())}.  Every run is checked for these '
           'causal chains (each event after the one before it; `node:layer:pattern`, node 1 '
           'the requester, 0 the responder):', '']
    out += [f'{i + 1}. `{o}`' for i, o in enumerate(heads['order'])]
    out += ['', "## A run's timeline", '',
            'For each chain, the events from its first step to its last ("..." where the '
            f'run did more between two steps; `scripts/lab {num} --write-doc` wrote this '
            'from a run; the times are left out).']
    for i, found in enumerate(spans):
        out += ['', f'Chain {i + 1}:', '', '```']
        out += excerpt(events, found)
        out += ['```']
    out += ['', f'![the chains as a sequence diagram]({name}.svg)', '',
            '## Read next', '']
    out += [f'- {r}' for r in heads.get('read', [])]
    print('\n'.join(out))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
