"""Closed forms of the constants used, each checked against 50-digit mpmath quadrature."""
import mpmath as mp
import sympy as sp
mp.mp.dps = 50

def He(p, x):  # probabilists' Hermite by recurrence
    a, b = mp.mpf(1), x
    if p == 0: return a
    for n in range(1, p):
        a, b = b, x*b - n*a
    return b

phi = lambda g: mp.exp(-g*g/2)/mp.sqrt(2*mp.pi)
relu = lambda g: max(g, 0)

def mu_quad(p):  # E[relu(g) He_p(g)]/sqrt(p!)
    return mp.quad(lambda g: g*He(p, g)*phi(g), [0, 5, 20, mp.inf])/mp.sqrt(mp.factorial(p))

def mu_exact(p):  # relu: mu0=1/sqrt(2pi), mu1=1/2, odd p>=3: 0, even p>=2: (-1)^(p/2+1) (p-3)!!/sqrt(2 pi p!)
    if p == 0: return 1/sp.sqrt(2*sp.pi)
    if p == 1: return sp.Rational(1, 2)
    if p % 2: return sp.Integer(0)
    return (-1)**(p//2 + 1)*sp.factorial2(p - 3)/sp.sqrt(2*sp.pi*sp.factorial(p))

MU = {p: mu_exact(p) for p in range(0, 11)}
# other relu constants: K(0) = (E relu)^2, Eg(sigma(g)) = E relu, Eg(g**2*sigma(g)) = E[g^3; g>0]
EXTRA = {"K(0)": 1/(2*sp.pi), "Eg(sigma(g))": 1/sp.sqrt(2*sp.pi), "Eg(g**2*sigma(g))": sp.sqrt(2/sp.pi)}
EXTRA_QUAD = {
    "K(0)": mp.quad(lambda g: relu(g)*phi(g), [0, 5, 20, mp.inf])**2,
    "Eg(sigma(g))": mp.quad(lambda g: g*phi(g), [0, 5, 20, mp.inf]),
    "Eg(g**2*sigma(g))": mp.quad(lambda g: g**3*phi(g), [0, 5, 20, mp.inf]),
}

if __name__ == "__main__":
    for p in range(11):
        q = mu_quad(p); e = sp.N(MU[p], 50)
        print(p, sp.simplify(MU[p]), mp.nstr(q, 30), "diff", mp.nstr(abs(q - mp.mpf(str(e))), 3))
        assert abs(q - mp.mpf(str(e))) < mp.mpf(10)**-45
    for k, v in EXTRA.items():
        d = abs(EXTRA_QUAD[k] - mp.mpf(str(sp.N(v, 50))))
        print(k, v, mp.nstr(EXTRA_QUAD[k], 30), "diff", mp.nstr(d, 3)); assert d < mp.mpf(10)**-45
    # also the brief's suggested mu(4) = -1/(4 sqrt(6 pi)) -- compare
    print("brief mu4 candidate", sp.N(-1/(4*sp.sqrt(6*sp.pi)), 20), "vs", sp.N(MU[4], 20))
