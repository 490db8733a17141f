#!/usr/bin/env python3
"""The labs' pages (docs/labs/) cannot go stale unnoticed: every lab of
guest-tests/labs/ has its page and picture; the page has the sections
tools/lab-doc.py writes; the device events its excerpt shows still exist
in hw/trace-events; and the lab's causal chains - the ones every run of
the lab is checked for - hold on the excerpts.  The picture is an SVG a
browser opens (well-formed XML), with a lane for every layer the lab
names and, for every frame a chain names on the wire, an arrow from the
sender into the wire and one out of it to the receiver.  (Regenerate a
page with scripts/lab NN --write-doc.)

usage: check-lab-docs.py SOURCE_ROOT
"""
import glob
import os
import re
import sys
import xml.etree.ElementTree as ET

SECTIONS = ['## What to look at', "## A run's timeline", '## Read next']


SVG = '{http://www.w3.org/2000/svg}'


def svg_failures(name, path, lab):
    """The picture: XML, the lab's lanes, arrows into and out of each wire
    frame its chains name."""
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        return [f'{name}.svg: not well-formed XML: {e}']
    texts = [(float(t.get('x', 0)), float(t.get('y', 0)), t.text or '') for t in root.iter(SVG + 'text')]
    lanes = {t for x, y, t in texts if y == 45}
    layers = re.findall(r'^# lab-layers: (.*)$', open(lab).read(), re.M)[0].split()
    failures = [f'{name}.svg: no lane for {layer}' for layer in layers
                if not any(lane == layer or lane.endswith(' ' + layer) for lane in lanes)]
    wire_x = next((x for x, y, t in texts if y == 45 and t == 'wire'), None)
    arrows = [(float(a.get('x1')), float(a.get('x2')), float(a.get('y2')))
              for a in root.iter(SVG + 'line') if a.get('marker-end')]
    frames = [rx for chain in re.findall(r'^# lab-order: (.*)$', open(lab).read(), re.M)
              for step in chain.split(' > ') if step.strip().startswith('wire:')
              for rx in [step.strip().split(':', 2)[2]]]
    for rx in frames:
        at = [y + 3 for x, y, t in texts if x == (wire_x or -1) + 6 and re.search(rx, t)]
        into = any(x2 == wire_x and y2 in at for _, x2, y2 in arrows)
        out = any(x1 == wire_x and x2 != wire_x for x1, x2, _ in arrows)
        if not at or not into or not out:
            failures.append(f'{name}.svg: no arrows into and out of the wire for {rx!r}')
    return failures


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
        failures += svg_failures(name, page[:-3] + '.svg', lab)
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
