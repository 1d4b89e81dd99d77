"""Witness points, tolerances and custom checks for check_heldout5.py."""
import itertools
import random

import mpmath as mp
import sympy as sp


def register(WITNESS, TOL, NPTS, custom, L):
    W = WITNESS
    W['h5-glm-relu-h-asin-cubic-eps'] = {'m': ['1']}
    W['h5-glm-erf-phi-parabola-eps'] = {'m': ['1/2']}
    W['h5-glm-relu-phi-reflection'] = {'m': ['1']}
    W['h5-glm-softplus-K-reflection'] = {'rho': ['1/2']}
    W['h5-tight-erf-h-lower-m4'] = {'m': ['3/10']}
    W['h5-tight-cos-quartic-25'] = {'m': ['1/2']}
    W['h5-tight-erf-K-chord-neg'] = {'rho': ['-1/2']}
    W['h5-tight-strict-touch'] = {'m': ['1/2']}
    W['h5-tight-relu-K-best-quadratic-eps'] = {'rho': ['1']}
    W['h5-lang-gamma-min-F'] = {'z': ['14616321449683623/10000000000000000']}
    W['h5-lang-gamma-min'] = {'z': ['14616321449683623/10000000000000000']}
    W['h5-lang-ncdf-shift-F'] = {'a': ['1']}
    W['h5-lang-exp-a-quadratic-F'] = {'a': ['1/10']}
    W['h5-bind-m-xi-corner'] = {'m': ['-1'], 'xi': ['2']}
    for i in ('h5-rem-gauss-diff-closed-eps40', 'h5-rem-gauss-diff-closed', 'h5-tight-double-roots-eps30',
              'h5-tight-double-roots', 'h5-nest-erf-mu41-eps35', 'h5-nest-erf-mu41'):
        TOL[i] = '1e-46'
    TOL['h5-lang-abs-power-a'] = '1e-28'  # tanh-sinh on |g|^a near 0 for a -> 0 gives ~1e-33 only
    for i in ('h5-tight-amgm-line-eps20', 'h5-lang-floor-ceil-eps'):
        TOL[i] = '1e-30'
    for i in ('h5-glm-tanh-K-odd', 'h5-glm-sigmoid-K-reflection', 'h5-glm-softplus-K-reflection'):
        TOL[i] = '1e-20'
    NPTS['h5-glm-tanh-K-odd'] = 21
    NPTS['h5-glm-sigmoid-K-reflection'] = 21
    NPTS['h5-glm-softplus-K-reflection'] = 21

    # ------------------------------------------------------------ instance / probability claims
    def instances(family, k, seed_patterns):
        k = int(k)
        s = 1 / mp.sqrt(k)
        for (eps, epsh) in seed_patterns:
            if family == 'orthonormal':
                inst = dict(c=lambda i, e=eps: e[i - 1] * s, chat=lambda i, e=epsh: e[i - 1] * s,
                            lam=lambda i: mp.mpf(1) / k, G=lambda i, j: mp.mpf(1 if i == j else 0))
            elif family == 'glm':
                inst = dict(c=lambda i: s, chat=lambda i: s, lam=lambda i: mp.mpf(1) / k,
                            G=lambda i, j: mp.mpf(0))
            elif family == 'claim2':
                inst = dict(c=lambda i, e=eps: e[i - 1] * s, chat=lambda i, e=epsh: e[i - 1] * s,
                            lam=lambda i: mp.mpf(1),
                            G=lambda i, j, e=eps: mp.mpf(1) if i == j else -e[i - 1] * e[j - 1] * s * s)
            yield (eps, epsh), inst

    def patterns(k, both):
        k = int(k)
        allp = list(itertools.product([-1, 1], repeat=k))
        if both:
            return list(itertools.product(allp, allp)) if len(allp) ** 2 <= 4096 else \
                [(random.Random(q).choice(allp), random.Random(q + 1).choice(allp)) for q in range(512)]
        return [(p, p) for p in allp] if len(allp) <= 4096 else [(random.Random(q).choice(allp),) * 2
                                                                  for q in range(512)]

    def inst_check(stmt):
        lhs, op, rhs = L.parse_claim(stmt['claim'])
        fam = stmt['family'][0]
        prob = stmt.get('prob')
        both = prob is not None and 'c_hat' in prob
        worst = None
        bad = None
        allok = True
        n = 0
        for env in L.configs(stmt, False):
            k = env['k']
            pats = patterns(k, both or 'chat' in stmt['claim'])
            hits = 0
            for (pp, inst) in instances(fam, k, pats):
                model = L.Model(None, fam, dict(inst, k=k))
                lv, rv = L.ev(lhs, env, model), L.ev(rhs, env, model)
                ok = L.relation(lv, op, rv, mp.mpf('1e-38'))
                hits += ok
                n += 1
                if prob is None and not ok:
                    allok = False
                    worst = worst or 'fails at k=%s pattern=%s: lhs=%s rhs=%s' % (
                        k, pp, mp.nstr(lv, 15), mp.nstr(rv, 15))
            if prob is not None:
                P = sp.Rational(hits, len(pats))
                thr = sp.Rational(prob.split()[1])
                if P < thr:
                    allok = False
                    bad = bad or 'k=%s: P = %s < %s (exact enumeration of %d patterns)' % (k, P, thr, len(pats))
                else:
                    worst = 'k=%s: P = %s (exact enumeration of %d patterns) >= %s' % (k, P, len(pats), thr)
        if bad:
            worst = bad
        return allok, '%d instance evaluations; %s' % (n, worst or 'all hold')

    for sid in ['h5-bind-orth-c-norm', 'h5-bind-orth-lam-sum', 'h5-bind-orth-lam-sq-eps',
                'h5-bind-prob-sum-sq', 'h5-bind-prob-sum-sq-09', 'h5-bind-prob-overlap',
                'h5-bind-prob-sign-half', 'h5-bind-prob-sign-strict', 'h5-bind-glm-overlap',
                'h5-bind-claim2-quadform', 'h5-bind-claim2-quadform-F']:
        custom(sid)(inst_check)

    # ------------------------------------------------------------ divergent expectations
    def half_phi(t):
        return mp.exp(-t * t / 2) / mp.sqrt(2 * mp.pi)

    def growth(label, parts):
        """parts: list of truncated values for shrinking cut-offs; divergence if the increments stay
        bounded away from 0 (log growth) or grow."""
        inc = [parts[q + 1] - parts[q] for q in range(len(parts) - 1)]
        div = all(abs(x) > mp.mpf('0.05') for x in inc) and abs(inc[-1]) >= abs(inc[0]) * mp.mpf('0.5')
        return div, '%s truncated integrals %s; increments %s -> %s' % (
            label, [mp.nstr(p, 8) for p in parts], [mp.nstr(x, 6) for x in inc],
            'DIVERGES (no expectation: claim false)' if div else 'converges')

    def div_at(points, f, label):
        # int over [-20, 20] minus eps-neighbourhoods of the singular points, eps = 10^-2 .. 10^-10
        parts = []
        for e in [mp.mpf(10) ** -j for j in (2, 4, 6, 8, 10)]:
            brk = [-20]
            for p0 in points:
                brk += [p0 - e, None, p0 + e]
            brk += [20]
            tot = mp.mpf(0)
            segs = []
            cur = brk[0]
            q = 1
            while q < len(brk):
                if brk[q] is None:
                    cur = brk[q + 1]
                    q += 2
                    continue
                segs.append((cur, brk[q]))
                cur = brk[q]
                q += 1
            for (a, b) in segs:
                tot += mp.quad(lambda t: abs(f(t)) * half_phi(t), [a, b])
            parts.append(tot)
        return growth(label + ' E|f| over [-20,20] minus eps-balls (eps=1e-2..1e-10):', parts)

    def div_tail(f, label):
        parts = []
        for R in [10, 100, 1000, 10000, 100000]:
            parts.append(mp.quad(lambda t: 2 * abs(f(t)) * half_phi(t), [0, 1, 10, R]))
        return growth(label + ' E|f| over [-R,R], R=1e1..1e5:', parts)

    def mk_div(kind, f, points=()):
        def chk(stmt):
            with mp.workdps(30):
                div, ev = div_at(points, f, '') if kind == 'pt' else div_tail(
                    lambda t: f(t) if t > 0 else f(-t), '')
            return (False if div else None), ev  # divergent: the claim is false; else undecided
        return chk

    def wrap(chk):
        return chk

    E2 = lambda t: mp.exp(t * t / 2)
    custom('h5-ex-exp-half')(wrap(mk_div('tail', lambda t: E2(t))))
    custom('h5-ex-exp-half-linear')(wrap(mk_div('tail', lambda t: E2(t) / (1 + abs(t)))))
    custom('h5-ex-exp-half-over-sqrt')(wrap(mk_div('tail', lambda t: E2(t) / mp.sqrt(1 + t * t))))
    custom('h5-ex-abs-minus-one')(wrap(mk_div('pt', lambda t: 1 / abs(t), [0])))
    custom('h5-ex-sign-over-g')(wrap(mk_div('pt', lambda t: mp.sign(t) / t, [0])))
    custom('h5-ex-log-over-abs')(wrap(mk_div('pt', lambda t: mp.log(abs(t)) / abs(t), [0])))
    custom('h5-ex-inv-log-abs')(wrap(mk_div('pt', lambda t: 1 / mp.log(abs(t)), [-1, 1])))
    custom('h5-ex-sin-over-g2')(wrap(mk_div('pt', lambda t: mp.sin(t) / t ** 2, [0])))
    custom('h5-ex-pole-pm1')(wrap(mk_div('pt', lambda t: 1 / (t * t - 1), [-1, 1])))
    custom('h5-lang-abs-power-a-neg')(wrap(mk_div('pt', lambda t: 1 / abs(t), [0])))
    custom('h5-lang-exp-plus-a-boundary')(wrap(mk_div('tail', lambda t: E2(t))))

    # ------------------------------------------------------------ singular but integrable
    def sing_val(f, points):
        """E f for f with |t - p|^(-1/2)-type singularities at the points: substitution t = p +- u^2
        on [p - 1/4, p + 1/4] (u in [0, 1/2]); tanh-sinh elsewhere."""
        tot = mp.mpf(0)
        brk = [-mp.inf, -20]
        for p0 in points:
            brk += [p0 - mp.mpf(1) / 4, p0 + mp.mpf(1) / 4]
            def sub(u, p0=p0):
                u = max(u, mp.mpf(10) ** -20)  # integrand 2u f(p0 +- u^2) is bounded at u = 0
                return 2 * u * (f(p0 + u * u) * half_phi(p0 + u * u) + f(p0 - u * u) * half_phi(p0 - u * u))
            tot += mp.quad(sub, [0, mp.mpf(1) / 2])
        brk += [20, mp.inf]
        brk = sorted(brk)
        for q in range(len(brk) - 1):
            a, b = brk[q], brk[q + 1]
            if any(a == p0 - mp.mpf(1) / 4 and b == p0 + mp.mpf(1) / 4 for p0 in points):
                continue
            tot += mp.quad(lambda t: f(t) * half_phi(t), [a, b])
        return tot

    def sing_check(f, points, op, rhs, label, tol='1e-38'):
        def chk(stmt):
            v = sing_val(f, points)
            r = rhs()
            ok = L.relation(v, op, r, mp.mpf(tol))
            return ok, '%s = %s (substitution t = p +- u^2) %s rhs = %s; diff %s' % (
                label, mp.nstr(v, 30), op, mp.nstr(r, 30), mp.nstr(v - r, 5))
        return chk

    custom('h5-ex-abs-minus-half')(sing_check(lambda t: 1 / mp.sqrt(abs(t)), [0], '==',
                                              lambda: mp.gamma(mp.mpf(1) / 4) / (mp.mpf(2) ** (mp.mpf(1) / 4) * mp.sqrt(mp.pi)),
                                              'E|g|^-1/2'))
    custom('h5-ex-sqrt-shift')(sing_check(lambda t: 1 / mp.sqrt(abs(t - 1)), [1], '>', lambda: mp.mpf(1),
                                          'E|g-1|^-1/2'))
    custom('h5-ex-sqrt-pm1')(sing_check(lambda t: 1 / mp.sqrt(abs(t * t - 1)), [-1, 1], '>', lambda: mp.mpf(1),
                                        'E|g^2-1|^-1/2'))

    def abs099(stmt):
        s = mp.mpf(-99) / 100
        # int_0^1 t^s phi(t) dt with t = u^100: 100 int_0^1 phi(u^100) du
        v = 2 * (100 * mp.quad(lambda u: half_phi(u ** 100), [0, 1]) +
                 mp.quad(lambda t: t ** s * half_phi(t), [1, 10, mp.inf]))
        closed = mp.mpf(2) ** (s / 2) * mp.gamma((s + 1) / 2) / mp.sqrt(mp.pi)
        return v > 50, 'E|g|^-0.99 = %s (substitution t = u^100); closed form %s; > 50' % (
            mp.nstr(v, 25), mp.nstr(closed, 25))
    custom('h5-ex-abs-minus-099')(abs099)

    def parseval(stmt):
        mu = L.mus('tanh')
        e2 = L.Esig2('tanh')
        parts = [mp.fsum(m ** 2 for m in mu[:P + 1]) for P in (20, 40, 60, 80, 90)]
        d = [e2 - p for p in parts]
        ok = d[-1] >= 0 and d[-1] < mp.mpf('1e-9') and all(d[q + 1] < d[q] for q in range(4))
        return ok, 'E tanh^2 - sum_{p<=P} mu_p^2 for P = 20,40,60,80,90: %s (-> 0)' % [mp.nstr(x, 5) for x in d]
    custom('h5-nest-tanh-parseval')(parseval)
