"""Independent numeric evaluator for the heldout5 corpus (mpmath; no `verify` import).

Claims are parsed with SymPy from their text (so the numbers checked are those of the text
itself) and evaluated with mpmath.  Model quantities are the brief's definitions:
K(rho) = sum mu_p^2 rho^p = E[s(X)s(Y)], Kp = K', glm: h = 2 K', Phi = 2 (K(1) - K(m)).
"""
import functools
import re

import mpmath as mp
import sympy as sp

X = sp.Symbol('x')
g = sp.Symbol('g')

ACTS = {
    'relu': sp.Max(0, X),
    'tanh': sp.tanh(X),
    'erf': sp.erf(X),
    'sigmoid': 1 / (1 + sp.exp(-X)),
    'softplus': sp.log(1 + sp.exp(X)),
    'gelu': X * (1 + sp.erf(X / sp.sqrt(2))) / 2,
}


def act_expr(name):
    if name.startswith('expr:'):
        return sp.sympify(name[5:], locals={'x': X})
    return ACTS[name]


FN_NAMES = ['h', 'Phi', 'K', 'Kp', 'mu', 'hcoef', 'sigma', 'dsigma', 'Eg', 'c', 'chat', 'lam',
            'G']
SYM_NAMES = ['k', 'xi', 'd', 'gamma', 'lam_min', 'lam_max', 'C_sigma', 'lstar', 'm', 'rho', 'a',
             'b', 'n', 'p', 'i', 'j', 't', 'x', 'z', 's', 'g', 'l']


def parse_locals():
    loc = {n: sp.Function(n) for n in FN_NAMES}
    for n in SYM_NAMES:
        loc[n] = sp.Symbol(n)
    z = sp.Symbol('zz')
    loc['normal_cdf'] = sp.Lambda(z, (1 + sp.erf(z / sp.sqrt(2))) / 2)
    loc['normal_pdf'] = sp.Lambda(z, sp.exp(-z**2 / 2) / sp.sqrt(2 * sp.pi))
    loc['Gamma'] = sp.gamma
    loc['E'] = sp.E
    loc['oo'] = sp.oo
    loc['ceil'] = sp.ceiling
    loc['Integral'] = lambda f, v, a, b: sp.Integral(f, (v, a, b))
    loc['Sum'] = lambda f, v, a, b: sp.Sum(f, (v, a, b))
    return loc


OPS = ['==', '<=', '>=', '<', '>']


def split_rel(s):
    depth = 0
    i = 0
    while i < len(s):
        ch = s[i]
        if ch in '([':
            depth += 1
        elif ch in ')]':
            depth -= 1
        elif depth == 0:
            for op in OPS:
                if s.startswith(op, i):
                    return s[:i], op, s[i + len(op):]
        i += 1
    raise ValueError('no relation in ' + s)


def parse_claim(s):
    l, op, r = split_rel(s)
    loc = parse_locals()
    return sp.sympify(l, locals=loc, evaluate=False), op, sp.sympify(r, locals=loc, evaluate=False)


# ----------------------------------------------------------------- Gaussian expectations
BREAKS = [-mp.inf, -40, -20, -1.5, -0.5, 0.5, 1.5, 20, 40, mp.inf] + list(range(-12, 13))


def gauss_E(f, extra_breaks=()):
    """E f(g), g ~ N(0,1), by tanh-sinh on pieces, at twice the working precision; f guarded at
    0 (removable points: |g| < 10^-(dps/2) read at +-10^-(dps/2))."""
    d0 = mp.mp.dps
    with mp.workdps(2 * d0 + 10):
        eps = mp.mpf(10) ** (-(d0 // 2 + 5))

        def F(t):
            tt = t
            if abs(tt) < eps:
                tt = eps if tt >= 0 else -eps
            return f(tt) * mp.exp(-tt * tt / 2)

        pts = sorted(set([mp.mpf(b) if b not in (mp.inf, -mp.inf) else b for b in BREAKS] +
                         [mp.mpf(b) for b in extra_breaks]))
        r = mp.quad(F, pts) / mp.sqrt(2 * mp.pi)
    return +r


# Gauss-Legendre grid for Hermite coefficients ---------------------------------------------------
@functools.lru_cache(None)
def gl_nodes(dps):
    with mp.workdps(dps):
        from mpmath.calculus.quadrature import GaussLegendre
        nodes = GaussLegendre(mp.mp).calc_nodes(6, mp.mp.prec)  # 96 nodes on [-1, 1]
        out = []
        a = mp.mpf(-40)
        w = mp.mpf(1)
        while a < 40:
            c = a + w / 2
            for (x, wt) in nodes:
                out.append((c + x * w / 2, wt * w / 2))
            a += w
        return out


PMAX = 90


import os, pickle
_MUCACHE = os.path.join(os.path.dirname(os.path.abspath(__file__)), '.mu_cache.pkl')


@functools.lru_cache(None)
def mus(act):
    cache = {}
    if os.path.exists(_MUCACHE):
        cache = pickle.load(open(_MUCACHE, 'rb'))
    if act in cache:
        return [mp.mpf(v) for v in cache[act]]
    res = _mus(act)
    cache[act] = [mp.nstr(v, 120) for v in res]
    pickle.dump(cache, open(_MUCACHE, 'wb'))
    return res


def _mus(act):
    """normalized Hermite coefficients mu_0..mu_PMAX of the activation (dps 200)."""
    e = act_expr(act)
    with mp.workdps(200):
        f = sp.lambdify(X, e, 'mpmath')
        acc = [mp.mpf(0)] * (PMAX + 1)
        for (x, w) in gl_nodes(200):
            wx = w * f(x) * mp.exp(-x * x / 2)
            h0, h1 = mp.mpf(1), x
            acc[0] += wx * h0
            acc[1] += wx * h1
            for p in range(2, PMAX + 1):
                h0, h1 = h1, x * h1 - (p - 1) * h0
                acc[p] += wx * h1
        res = [acc[p] / mp.sqrt(2 * mp.pi) / mp.sqrt(mp.factorial(p)) for p in range(PMAX + 1)]
    return [+r for r in res]


@functools.lru_cache(None)
def Esig2(act):
    f = sp.lambdify(X, act_expr(act) ** 2, 'mpmath')
    return gauss_E(f)


@functools.lru_cache(None)
def Csig(act):
    f = sp.lambdify(X, sp.diff(act_expr(act), X) ** 2, 'mpmath')
    return gauss_E(f)


@functools.lru_cache(None)
def Kminus1(act):
    e = act_expr(act)
    f = sp.lambdify(X, e * e.subs(X, -X), 'mpmath')
    return gauss_E(f)


def K(act, r):
    r = mp.mpf(r)
    if act == 'relu':
        return (mp.sqrt(1 - r * r) + (mp.pi - mp.acos(r)) * r) / (2 * mp.pi)
    if act == 'erf':
        return 2 / mp.pi * mp.asin(2 * r / 3)
    if r == 1:
        return Esig2(act)
    if r == -1:
        return Kminus1(act)
    mu = mus(act)
    assert abs(r) <= mp.mpf('0.6'), 'series kernel only for |rho| <= 0.6 or rho = +-1'
    return mp.fsum(mu[p] ** 2 * r ** p for p in range(PMAX + 1))


def Kp(act, r):
    r = mp.mpf(r)
    if act == 'relu':
        return (mp.pi - mp.acos(r)) / (2 * mp.pi)
    if act == 'erf':
        return 4 / (mp.pi * mp.sqrt(9 - 4 * r * r))
    if r == 1:
        return Csig(act)
    mu = mus(act)
    assert abs(r) <= mp.mpf('0.6')
    return mp.fsum(p * mu[p] ** 2 * r ** (p - 1) for p in range(1, PMAX + 1))


# ----------------------------------------------------------------- evaluator
MPF = {
    sp.exp: mp.exp, sp.log: mp.log, sp.sin: mp.sin, sp.cos: mp.cos, sp.tanh: mp.tanh,
    sp.sinh: mp.sinh, sp.cosh: mp.cosh, sp.sech: mp.sech, sp.atan: mp.atan, sp.asinh: mp.asinh,
    sp.asin: mp.asin, sp.acos: mp.acos, sp.erf: mp.erf, sp.erfc: mp.erfc, sp.Abs: abs,
    sp.sign: mp.sign, sp.floor: mp.floor, sp.ceiling: mp.ceil, sp.gamma: mp.gamma,
    sp.factorial: mp.factorial, sp.erfi: mp.erfi,
}


class Model:
    def __init__(self, act=None, family=None, inst=None):
        self.act = act
        self.family = family
        self.inst = inst or {}


def eg_value(inner, env, model):
    e = inner
    if model.act is not None:
        a = act_expr(model.act)
        sig = sp.Function('sigma')
        dsig = sp.Function('dsigma')
        e = e.replace(lambda q: isinstance(q, sp.Derivative) and q.expr.func == sig,
                      lambda q: sp.diff(a, X, q.derivative_count).subs(X, q.variables[0]))
        e = e.replace(sig, sp.Lambda(X, a)).replace(dsig, sp.Lambda(X, sp.diff(a, X)))
    free = sorted([s for s in e.free_symbols if s.name != 'g'], key=lambda s: s.name)
    f = sp.lambdify([g] + free, e, 'mpmath')
    vals = [env[s.name] for s in free]
    return gauss_E(lambda t: f(t, *vals))


def ev(e, env, model):
    if e.is_Number:
        return mp.mpf(sp.Rational(e).p) / sp.Rational(e).q if e.is_Rational else mp.mpf(str(e))
    if e is sp.pi:
        return +mp.pi
    if e is sp.E:
        return mp.e
    if e.is_Symbol:
        n = e.name
        if n in env:
            return env[n]
        if n == 'C_sigma':
            return Csig(model.act)
        if n == 'lstar':
            mu = mus(model.act)
            return mp.mpf(next(p for p in range(1, PMAX) if abs(mu[p]) > mp.mpf(10) ** -40))
        if n in model.inst:
            return model.inst[n]
        raise KeyError(n)
    if isinstance(e, sp.Add):
        return mp.fsum(ev(a, env, model) for a in e.args)
    if isinstance(e, sp.Mul):
        r = mp.mpf(1)
        for a in e.args:
            r *= ev(a, env, model)
        return r
    if isinstance(e, sp.Pow):
        b = ev(e.args[0], env, model)
        ex = e.args[1]
        if ex.is_Integer:
            return b ** int(ex)
        return b ** ev(ex, env, model)
    if isinstance(e, (sp.Max, sp.Min)):
        vals = [ev(a, env, model) for a in e.args]
        return max(vals) if isinstance(e, sp.Max) else min(vals)
    if isinstance(e, sp.binomial):
        return mp.binomial(ev(e.args[0], env, model), ev(e.args[1], env, model))
    if e.func in MPF:
        return MPF[e.func](*[ev(a, env, model) for a in e.args])
    if isinstance(e, sp.Lambda):
        raise TypeError
    if isinstance(e, sp.Derivative):
        inner = e.expr
        (var, n), = e.variable_count
        x0 = env[var.name]
        return mp.diff(lambda t: ev(inner, dict(env, **{var.name: t}), model), x0, int(n))
    if isinstance(e, sp.Integral):
        (var, lo, hi), = e.limits
        lo_, hi_ = ev(lo, env, model), ev(hi, env, model)
        return mp.quad(lambda t: ev(e.function, dict(env, **{var.name: t}), model), [lo_, hi_])
    if isinstance(e, sp.Sum) and len(e.limits) > 1:
        def rec(lims, env2):
            (var, lo, hi) = lims[-1]
            lo_, hi_ = int(ev(lo, env2, model)), int(ev(hi, env2, model))
            tot = []
            for q in range(lo_, hi_ + 1):
                e3 = dict(env2, **{var.name: mp.mpf(q)})
                tot.append(rec(lims[:-1], e3) if len(lims) > 1 else ev(e.function, e3, model))
            return mp.fsum(tot)
        return rec(list(e.limits), env)
    if isinstance(e, sp.Sum):
        (var, lo, hi), = e.limits
        lo_ = int(ev(lo, env, model))
        hi_ = int(ev(hi, env, model))
        return mp.fsum(ev(e.function, dict(env, **{var.name: mp.mpf(q)}), model)
                       for q in range(lo_, hi_ + 1))
    name = getattr(e.func, '__name__', None)
    if name == 'Eg':
        return eg_value(e.args[0], env, model)
    if name in ('h', 'Phi', 'K', 'Kp', 'mu', 'hcoef'):
        v = ev(e.args[0], env, model)
        if name == 'K':
            return K(model.act, v)
        if name == 'Kp':
            return Kp(model.act, v)
        if name == 'h':
            assert model.family == 'glm'
            return 2 * Kp(model.act, v)
        if name == 'Phi':
            assert model.family == 'glm'
            return 2 * (K(model.act, 1) - K(model.act, v))
        if name == 'mu':
            return mus(model.act)[int(v)]
        if name == 'hcoef':
            q = int(v)
            return 2 * (q + 1) * mus(model.act)[q + 1] ** 2
    if name in ('c', 'chat', 'lam', 'G'):
        args = tuple(int(ev(a, env, model)) for a in e.args)
        return model.inst[name](*args)
    raise NotImplementedError(str(e.func))


def relation(lv, op, rv, tol):
    if op == '==':
        return abs(lv - rv) <= tol * (1 + abs(rv))
    if op == '<=':
        return lv <= rv + tol * (1 + abs(rv))
    if op == '>=':
        return lv >= rv - tol * (1 + abs(rv))
    if op == '<':
        return lv < rv and not abs(lv - rv) <= tol * (1 + abs(rv))
    if op == '>':
        return lv > rv and not abs(lv - rv) <= tol * (1 + abs(rv))
    raise ValueError(op)


def parse_for(specs):
    """list of (name, kind, data) from the `for` strings."""
    out = []
    for s in specs:
        m = re.match(r'\s*(\w+)\s+in\s+\[(.*),(.*)\]\s*$', s)
        if m:
            out.append((m.group(1), 'real', (sp.sympify(m.group(2), rational=True), sp.sympify(m.group(3), rational=True))))
            continue
        m = re.match(r'\s*(\w+)\s+in\s+(-?\d+)\.\.(\d+)\s*$', s)
        if m:
            out.append((m.group(1), 'int', (int(m.group(2)), int(m.group(3)))))
            continue
        m = re.match(r'\s*(\w+)\s+in\s+\{(.*)\}\s*$', s)
        if m:
            out.append((m.group(1), 'set', [sp.sympify(q) for q in m.group(2).split(',')]))
            continue
        m = re.match(r'\s*(\w+)\s*=\s*(.*)$', s)
        if m:
            out.append((m.group(1), 'bind', sp.sympify(m.group(2), locals=parse_locals())))
            continue
        raise ValueError(s)
    return out


def real_grid(lo, hi, npts, extra=()):
    lo, hi = mp.mpf(sp.Rational(lo).p) / sp.Rational(lo).q, mp.mpf(sp.Rational(hi).p) / sp.Rational(hi).q
    pts = [lo + (hi - lo) * q / (npts - 1) for q in range(npts)]
    for j in (3, 6, 12):
        pts += [lo + (hi - lo) * mp.mpf(10) ** -j, hi - (hi - lo) * mp.mpf(10) ** -j]
    pts += [mp.mpf(sp.Rational(q).p) / sp.Rational(q).q for q in extra]
    return sorted(set(pts))
