"""Independent truth check of constant_factor.toml (no import of the tool).
(a) exact: lhs - rhs = c * r(v), c constant (sign at 60 digits or exact 0), r rational in v over QQ;
    sign decided on every piece between the exact real roots/poles, and at every root and endpoint;
    a pole in the closed range makes the relation false.
(b) numeric: 50-digit mpmath on a 4001-point grid + exact critical points + points 10^-j from the ends.
Run from this directory: python constant_factor_check.py (written by the helper that wrote the corpus)."""
import re, sys, tomllib
import mpmath as mp
import sympy as sp
from constants import MU, EXTRA
mp.mp.dps = 50

OPS = ["<=", ">=", "==", "<", ">"]
muF, KF, EgF, sigF = sp.Function("mu"), sp.Function("K"), sp.Function("Eg"), sp.Function("sigma")
g = sp.Symbol("g")

def parse(side, var, pval):
    loc = {"mu": muF, "K": KF, "Eg": EgF, "sigma": sigF, "g": g, "pi": sp.pi, "E": sp.E,
           "sqrt": sp.sqrt, "exp": sp.exp, "log": sp.log, var.name: var}
    if pval is not None:
        loc["p"] = sp.Integer(pval)
    e = sp.parse_expr(side, local_dict=loc)
    e = e.replace(lambda a: isinstance(a, sp.Function) and a.func == muF, lambda a: MU[int(a.args[0])])
    e = e.replace(lambda a: isinstance(a, sp.Function) and a.func == KF, lambda a: EXTRA[f"K({a.args[0]})"])
    e = e.replace(lambda a: isinstance(a, sp.Function) and a.func == EgF, lambda a: EXTRA[f"Eg({sp.sstr(a.args[0])})"])
    assert e.free_symbols <= {var}, (side, e)
    return e

def rel(op, d, strict_zero_ok=False):
    # d = lhs - rhs as a number (exact or mp); returns whether relation holds
    return {"<=": d <= 0, ">=": d >= 0, "<": d < 0, ">": d > 0, "==": d == 0}[op]

def exact_decide(op, lhs, rhs, v, a, b):
    d = sp.together(sp.expand(lhs - rhs))
    d = sp.factor(d)
    c, r = d.as_independent(v, as_Add=False)
    cval = sp.N(c, 60)
    if abs(cval) < sp.Float(10)**-55:
        assert sp.simplify(sp.expand(c)) == 0 or sp.nsimplify(sp.radsimp(sp.expand(c))) == 0, c
        csign = 0
    else:
        csign = 1 if cval > 0 else -1
    if d == 0:
        csign, r = 0, sp.Integer(1)
    num, den = sp.fraction(sp.together(r))
    pn, pd = sp.Poly(num, v), sp.Poly(den, v)
    assert pn.domain in (sp.ZZ, sp.QQ) and pd.domain in (sp.ZZ, sp.QQ), (pn, pd)
    # poles of the ORIGINAL sides (a removable pole still makes a side undefined)
    poles = set()
    for side in (lhs, rhs):
        dn = sp.fraction(sp.together(side))[1]
        if dn.has(v):
            poles |= {q for q in sp.real_roots(sp.Poly(dn, v))}
    poles |= set(sp.real_roots(pd)) if pd.degree() > 0 else set()
    roots = set(sp.real_roots(pn)) if pn.degree() > 0 else set()
    inside = lambda q: bool(a <= q) and bool(q <= b)
    pin = sorted({q for q in poles if inside(q)}, key=lambda q: sp.N(q, 60))
    rin = sorted({q for q in roots if inside(q)}, key=lambda q: sp.N(q, 60))
    if pin:
        return False, f"pole(s) {pin} in range", csign, rin, pin
    pts = sorted({a, b, *rin}, key=lambda q: sp.N(q, 60))
    tests = list(pts) + [(pts[i] + pts[i+1])/2 for i in range(len(pts) - 1)]
    for t in tests:
        rv = r.subs(v, t)
        rv = sp.nsimplify(rv) if rv.is_number else rv
        s = csign * (0 if rv == 0 else (1 if sp.N(rv, 60) > 0 else -1))
        if not rel(op, s):
            return False, f"fails at {v}={t} (sign {s})", csign, rin, pin
    return True, "holds", csign, rin, pin

def numeric_decide(op, lhs, rhs, v, a, b, crit):
    fl, fr = sp.lambdify(v, lhs, "mpmath"), sp.lambdify(v, rhs, "mpmath")
    A, B = mp.mpf(sp.N(a, 60)), mp.mpf(sp.N(b, 60))
    pts = [A + (B - A)*i/4000 for i in range(4001)]
    pts += [A + mp.mpf(10)**-j for j in range(3, 12)] + [B - mp.mpf(10)**-j for j in range(3, 12)]
    pts += [mp.mpf(sp.N(q, 60)) for q in crit]
    tol = mp.mpf(10)**-40
    worst = None
    for t in pts:
        if t < A or t > B: continue
        try:
            d = fl(t) - fr(t)
        except ZeroDivisionError:
            return False, f"undefined at {mp.nstr(t, 8)}"
        dz = 0 if abs(d) < tol else d
        if not rel(op, dz):
            return False, f"violated at {v}={mp.nstr(t, 10)}: lhs-rhs={mp.nstr(d, 6)}"
    return True, "no violation"

def main():
    sts = tomllib.load(open(__import__("pathlib").Path(__file__).resolve().parents[1] / "corpus" / "constant_factor.toml", "rb"))["statement"]
    bad = 0
    for s in sts:
        claim = s["claim"]
        op = next(o for o in OPS if f" {o} " in claim)
        L, R = claim.split(f" {op} ")
        pvals, var, a, b = [None], None, None, None
        for q in s.get("for", []):
            m = re.fullmatch(r"(\w+) in \[(.+), (.+)\]", q)
            if m:
                var, a, b = sp.Symbol(m[1], real=True), sp.Rational(sp.sympify(m[2])), sp.Rational(sp.sympify(m[3]))
                continue
            m = re.fullmatch(r"p in \{(.+)\}", q)
            pvals = [int(t) for t in m[1].split(",")]
        ex_all, nu_all, notes = True, True, []
        for pv in pvals:
            lhs, rhs = parse(L, var, pv), parse(R, var, pv)
            ex, why, cs, rin, pin = exact_decide(op, lhs, rhs, var, a, b)
            nu, nwhy = numeric_decide(op, lhs, rhs, var, a, b, list(rin) + list(pin))
            ex_all &= ex; nu_all &= nu
            notes.append(f"p={pv}: c sign {cs}, roots in range {rin}, poles in range {pin}; exact: {why}; numeric: {nwhy}")
        ok = ex_all == nu_all == s["truth"]
        bad += not ok
        print(("OK  " if ok else "BAD ") + s["id"], s["truth"], "|", " || ".join(notes))
    print("statements", len(sts), "true", sum(x["truth"] for x in sts), "mismatches", bad)
    sys.exit(bad != 0)

main()
