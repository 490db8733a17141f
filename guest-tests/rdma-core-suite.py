#!/usr/bin/env python3
"""rdma-core's own test suite on this guest's RDMA device: the referee.

python3-pyverbs ships the suite in /usr/share/doc/rdma-core/tests (some
files gzipped; scripts/build-guest keeps the directory).  It is copied to
/tmp, unpacked and run as its README says:

  python3 run_tests.py -v --dev $IBDEV --gid $GID_INDEX

Every test that needs two players runs both on this one device (through
its loopback).  Prints one line of counts - ran, ok, skipped, failed,
errors - and:
  - on the mlx5 device, a FAIL line for every failure or error that is not
    in guest-tests/rdma-core-suite.known (each line there: a test, then why
    it fails today), and a note for every listed test that no longer fails
    (drop it from the list); the check passes when nothing unlisted failed;
  - on any other device (Soft-RoCE, the reference run beside it) the counts
    and the failures, as information: they are not this project's.
Then the skip reasons, most frequent first (docs/conformance.md explains
each).  The whole unittest report goes to /job/suite-$IBDEV.log: on the
host, the node's directory of the run (scripts/vm).

Environment: IBDEV and GID_INDEX (guest-tests/init), SUITE_TIMEOUT (s,
default 2400), SUITE_ARGS (extra run_tests.py arguments, e.g. a test name),
SUITE_HUGEPAGES (2 MiB pages reserved for the huge-page tests, default 64).
"""
import collections
import gzip
import os
import re
import shutil
import subprocess
import sys

SRC = '/usr/share/doc/rdma-core/tests'
WORK = '/tmp/rdma-core-tests'
KNOWN = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'rdma-core-suite.known')

# unittest's verbose lines and its report (Python 3.11+ names the test in
# full inside the parentheses: module.Class.test).
HEAD = re.compile(r'^(test\w*) \(([\w.]+)\)(?: \.\.\. (.*))?$')
TAIL = re.compile(r' \.\.\. (ok|FAIL|ERROR|skipped.*|expected failure|unexpected success)$')
BAD = re.compile(r'^(FAIL|ERROR): (\w+) \(([\w.]+)\)', re.M)
RAN = re.compile(r'^Ran (\d+) tests? in', re.M)


def short(name, where):
    """Class.test, whichever way unittest printed it."""
    parts = where.split('.')
    cls = parts[-2] if parts[-1] == name and len(parts) > 1 else parts[-1]
    return f'{cls}.{name}'


def results_of(out):
    """{Class.test: result}: a test's line, its result at the end of it or,
    after the first line of its docstring, of the next."""
    results, pending = {}, None
    for line in out.splitlines():
        m = HEAD.match(line)
        if m:
            pending = short(m.group(1), m.group(2))
            if m.group(3):
                results[pending], pending = m.group(3), None
            continue
        m = TAIL.search(line)
        if m and pending:
            results[pending], pending = m.group(1), None
    return results


def reasons_of(out):
    """{Class.test: the last line of its traceback} from unittest's report."""
    why = {}
    for block in out.split('=' * 70):
        m = BAD.search(block)
        if m:
            parts = block.split('-' * 70)      # header, traceback, [the summary]
            lines = [ln for ln in (parts[1] if len(parts) > 1 else '').splitlines() if ln.strip()]
            why[short(m.group(2), m.group(3))] = lines[-1].strip()[:240] if lines else ''
    return why


def unpack():
    shutil.rmtree(WORK, ignore_errors=True)
    shutil.copytree(SRC, WORK)
    for root, _, files in os.walk(WORK):
        for f in files:
            if f.endswith('.gz'):
                path = os.path.join(root, f)
                with gzip.open(path) as src, open(path[:-3], 'wb') as dst:
                    shutil.copyfileobj(src, dst)
                os.unlink(path)


def known_failures():
    known = {}
    with open(KNOWN) as f:
        for line in f:
            line = line.split('#', 1)
            test = line[0].strip()
            if test:
                known[test] = line[1].strip() if len(line) > 1 else ''
    return known


def main():
    dev, gid = os.environ.get('IBDEV'), os.environ.get('GID_INDEX')
    if not dev or not gid or not os.path.isdir(SRC):
        print(f'FAIL suite: needs IBDEV, GID_INDEX and {SRC} '
              f'(IBDEV={dev}, GID_INDEX={gid})')
        return 1
    ours = dev.startswith('mlx5')
    unpack()
    # The huge-page tests (MRs over 2 MiB pages) need some reserved.
    try:
        with open('/proc/sys/vm/nr_hugepages', 'w') as f:
            f.write(os.environ.get('SUITE_HUGEPAGES', '64'))
    except OSError as e:
        print(f'note: no huge pages reserved: {e}')
    # The suite's multi-process tests (DMTest.test_multi_process_alloc_dm)
    # hand Process objects bound to their test case - and its device
    # context - to multiprocessing, which only works when children fork:
    # Python 3.14 (sid) starts them from a fork server by default and
    # cannot pickle the context.  rdma-core 65 predates that; run it as it
    # was written, as one would on hardware with this Python.
    script = os.path.join(WORK, 'run_tests.py')
    cmd = ['python3', '-c', "import multiprocessing, runpy, sys; "
           "multiprocessing.set_start_method('fork'); sys.argv[0] = sys.argv[1]; "
           "del sys.argv[1]; runpy.run_path(sys.argv[0], run_name='__main__')",
           script, '-v', '--dev', dev, '--gid', gid]
    cmd += os.environ.get('SUITE_ARGS', '').split()
    try:
        p = subprocess.run(cmd, cwd=WORK, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=int(os.environ.get('SUITE_TIMEOUT', '2400')))
        out, status = p.stdout.decode(errors='replace'), p.returncode
    except subprocess.TimeoutExpired as e:
        out, status = (e.stdout or b'').decode(errors='replace'), 'timeout'
    # The whole unittest report, kept with the run's logs on the host
    # (/job is the node's directory there: scripts/vm).
    for d in ('/job', '/tmp'):
        try:
            with open(f'{d}/suite-{dev}.log', 'w') as f:
                f.write(out)
            break
        except OSError:
            continue
    ran = RAN.search(out)
    results = results_of(out)
    bad = {short(n, w): kind for kind, n, w in BAD.findall(out)}
    skips = collections.Counter(re.sub(r"^skipped ['\"]?(.*?)['\"]?$", r'\1', r)
                                for r in results.values() if r.startswith('skipped'))
    nfail = sum(1 for k in bad.values() if k == 'FAIL')
    nerr = len(bad) - nfail
    nok = sum(1 for r in results.values() if r == 'ok')
    counts = (f'ran {ran.group(1) if ran else "?"}, ok {nok}, skipped {sum(skips.values())}, '
              f'failed {nfail}, errors {nerr}')
    if not ran:
        print(f'FAIL suite-{dev}: the suite did not finish (status {status}; '
              f'{len(results)} results): {out.strip().splitlines()[-1:] }')
        return 1
    why = reasons_of(out)
    rc = 0
    if ours:
        known = known_failures()
        new = sorted(t for t in bad if t not in known)
        fixed = sorted(t for t in known if t not in bad and t in results)
        print(f'suite-{dev}: {counts}')
        for t in new:
            print(f'FAIL suite-{dev} {t}: {bad[t]} (not in {os.path.basename(KNOWN)}): '
                  f'{why.get(t, "")}')
        for t in sorted(t for t in bad if t in known):
            print(f'known failure {t}: {known[t]} ({why.get(t, "")})')
        for t in fixed:
            print(f'note: {t} no longer fails ({results[t]}): '
                  f'drop it from {os.path.basename(KNOWN)}')
        if new:
            rc = 1
        else:
            print(f'PASS suite-{dev}: {counts}; {len(bad)} failing, all listed as known')
    else:
        print(f'PASS suite-{dev} (reference, not judged): {counts}')
        for t in sorted(bad):
            print(f'reference {bad[t]}: {t}: {why.get(t, "")}')
    for reason, n in skips.most_common():
        print(f'skipped {n:3d}: {reason[:160]}')
    return rc


if __name__ == '__main__':
    sys.exit(main())
