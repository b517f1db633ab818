"""Fit the tower's odds (`sim/tower/odds.py`: the hard bot's tower model and the network's
fallback draw from them) to the physics tower.

Runs 1,200 game-like drops (a fresh fill every 60, battles of 2-15 cubes) and prints, by
how many cubes were inside before the drop, the share of thrown cubes that fell through
and of inside cubes that came loose. `RATES` are these shares per 1024.
Usage: .venv/bin/python tools/fit_tower_model.py   (about 10 s of CPU)

Tests: none run the fit itself; tests/sim/bots/test_tower_model.py checks that the rates it
fitted still match the physics.
"""
import sys, hashlib
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from sim.tower import drop as tower
from sim.chance import ChanceStream
from sim.tower.stats import FILL
stream = ChanceStream(hashlib.sha256(b"fit").digest())
rows=[]
contents=None
for i in range(1200):
    if i % 60 == 0:
        r = tower.drop(tower.EMPTY, FILL, hashlib.sha256(b"fill%d"%i).digest())
        rows.append((0, sum(FILL.values()), sum(r.out.values()), 0)); contents=r.contents
    a=stream.below(5); d=(a+1+stream.below(4))%5
    thrown={a:1+stream.below(8), d:1+stream.below(6)}
    if stream.below(3)==0: thrown[5]=1
    assert contents is not None   # the first round (i == 0) fills the tower
    m=len(contents); n=sum(thrown.values())
    r=tower.drop(contents, thrown, hashlib.sha256(b"b%d"%i).digest())
    out=sum(r.out.values())
    rows.append((m, n, out-r.released, r.released)); contents=r.contents
import collections
b: dict[int, list[int]] = collections.defaultdict(lambda: [0, 0, 0, 0])
for m,n,ot,rel in rows:
    k=min(m//4,7)
    x=b[k]; x[0]+=n; x[1]+=ot; x[2]+=m; x[3]+=rel
for k in sorted(b):
    x=b[k]; print(k*4, "thrown",x[0], "p_out %.3f"%(x[1]/x[0]), "p_rel %.3f"%(x[3]/max(1,x[2])))
import statistics
print("mean inside", statistics.mean(r[0] for r in rows))
