#!/usr/bin/env python3
"""Where a cold build's time went, from ninja's own log (docs/build.md).

    bench/ninja_steps_by_kind.py build/asan/.ninja_log

Sums the build steps of one build by kind: objects by top folder ('unity:' a batch of
cmake/Unity.cmake), header checks, archives, links. Ninja logs each step's start and end
(ms); on two cores running two steps at a time on an otherwise idle machine, a step's wall
time is about its CPU time. Read the log of a build from scratch: an incremental build
logs only what it rebuilt.
"""
import sys, collections
log = sys.argv[1]
rows = []
for line in open(log):
    if line.startswith('#'): continue
    s, e, _, out, _ = line.rstrip('\n').split('\t')
    rows.append((int(s), int(e), out))
cat = collections.defaultdict(lambda: [0, 0])
def kind(out):
    if 'header_check' in out: return 'header checks'
    if out.endswith('.o'):
        if '/unity/' in out or 'batch_' in out: 
            top = 'unity:' + ('tests' if out.startswith('tests/') else out.split('/')[0])
            return top
        top = out.split('/')[0]
        return 'object:' + top
    if out.endswith('.a'): return 'archive'
    return 'link/other'
for s, e, out in rows:
    k = kind(out)
    cat[k][0] += 1; cat[k][1] += e - s
span = max(e for _, e, _ in rows) - min(s for s, _, _ in rows)
total = sum(v[1] for v in cat.values())
print(f'steps {len(rows)} span {span/60000:.1f} min  sum {total/60000:.1f} step-min')
for k, (n, ms) in sorted(cat.items(), key=lambda x: -x[1][1]):
    print(f'{k:28s} {n:5d} {ms/60000:7.1f} min  {ms/max(n,1)/1000:6.1f} s/step')
