#!/usr/bin/env python3
"""Numeric confirmation of /work/heldout5/engine_heldout5.toml with mpmath at 50 digits.

Written blind to the engine: no `verify` import, no engine run.  Each claim's text is parsed by
SymPy (h5lib.parse_claim) and evaluated by mpmath (h5lib.ev): Gaussian expectations by tanh-sinh
quadrature split at 0, +-0.5, ..., +-40 at twice the working precision (removable points read at
+-10^-30), Hermite coefficients by Gauss-Legendre on [-40, 40] at 200 digits, kernels by their
closed forms (relu, erf) or by E[s(g)s(+-g)] at rho = +-1 and the Hermite series (p <= 90) for
|rho| <= 0.6; glm: h = 2 K', Phi = 2 (K(1) - K(m)).  A quantified claim is evaluated on a grid
(endpoints, 10^-3, 10^-6, 10^-12 from each end, and the witness points of WITNESS) and is taken
to hold when every point holds (equalities within 1e-38 relative, unless TOL says otherwise).
Claims about divergent expectations and claims over instances / probabilities have CUSTOM checks.
Prints one line per id: the numeric evidence and whether it agrees with `truth`.
"""
import itertools
import os
import sys
import tomllib

import mpmath as mp
import sympy as sp

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import h5lib as L  # noqa: E402

mp.mp.dps = 50
HERE = os.path.dirname(os.path.abspath(__file__))

WITNESS = {}   # id -> {var: [values]}
TOL = {}       # id -> relative tolerance for this statement
NPTS = {}      # id -> grid size for a real variable
CUSTOM = {}    # id -> function(stmt) -> (holds: bool, evidence: str)


def custom(fid):
    def deco(f):
        CUSTOM[fid] = f
        return f
    return deco


from h5checks import register  # noqa: E402

register(WITNESS, TOL, NPTS, custom, L)


def configs(stmt, has_eg):
    specs = L.parse_for(stmt.get('for', []))
    sid = stmt['id']
    axes = []
    binds = []
    for (name, kind, data) in specs:
        if kind == 'real':
            n = NPTS.get(sid, 9 if has_eg else 81)
            if len([s for s in specs if s[1] == 'real']) > 1:
                n = NPTS.get(sid, 7 if has_eg else 25)
            axes.append((name, L.real_grid(data[0], data[1], n, WITNESS.get(sid, {}).get(name, ()))))
        elif kind == 'int':
            axes.append((name, [mp.mpf(q) for q in range(data[0], data[1] + 1)]))
        elif kind == 'set':
            axes.append((name, [L.ev(q, {}, L.Model()) for q in data]))
        else:
            binds.append((name, data))
    names = [a[0] for a in axes]
    for vals in itertools.product(*[a[1] for a in axes]):
        env = dict(zip(names, vals))
        for (name, e) in binds:
            env[name] = L.ev(e, env, L.Model())
        yield env


L.configs = configs


def generic(stmt):
    lhs, op, rhs = L.parse_claim(stmt['claim'])
    has_eg = 'Eg(' in stmt['claim']
    acts = stmt.get('activation', [None])
    fams = stmt.get('family', [None])
    tol = mp.mpf(TOL.get(stmt['id'], '1e-38'))
    worst = None
    nfail = 0
    npts = 0
    for act in acts:
        for fam in fams:
            model = L.Model(act, fam)
            for env in configs(stmt, has_eg):
                lv = L.ev(lhs, env, model)
                rv = L.ev(rhs, env, model)
                ok = L.relation(lv, op, rv, tol)
                npts += 1
                gap = lv - rv
                # signed slack: positive = holds with room
                slack = {'==': -abs(gap), '<=': -gap, '<': -gap, '>=': gap, '>': gap}[op]
                if worst is None or slack < worst[0]:
                    worst = (slack, act, {k: mp.nstr(v, 8) for k, v in env.items()}, lv, rv)
                if not ok:
                    nfail += 1
    slack, act, env, lv, rv = worst
    ev = ('%d pts, %d fail; tightest at act=%s %s: lhs=%s rhs=%s lhs-rhs=%s'
          % (npts, nfail, act, env, mp.nstr(lv, 20), mp.nstr(rv, 20), mp.nstr(lv - rv, 6)))
    return nfail == 0, ev


def main():
    data = tomllib.load(open(os.path.join(HERE, 'engine_heldout5.toml'), 'rb'))
    only = set(sys.argv[1:])
    nbad = 0
    n = 0
    for stmt in data['statement']:
        if only and stmt['id'] not in only and stmt['class'] not in only:
            continue
        n += 1
        f = CUSTOM.get(stmt['id'], generic)
        try:
            holds, ev = f(stmt)
        except Exception as exc:  # an error is a disagreement, never a pass
            holds, ev = None, 'ERROR %r' % (exc,)
        agree = holds is not None and holds == stmt['truth']
        nbad += not agree
        print('%-45s truth=%-5s numeric=%-5s %s | %s' % (stmt['id'], stmt['truth'], holds,
                                                      'AGREES' if agree else 'DISAGREES', ev),
              flush=True)
    print('checked %d statements, %d disagreements' % (n, nbad))
    return 1 if nbad else 0


if __name__ == '__main__':
    sys.exit(main())
