"""Independent values behind engine_whitebox48.toml (no import of the tool): 60-digit mpmath
quadrature of each Gaussian expectation, split at its singular point and at +-1, +-5, +-20, with
the cancelling numerators N(g)/g^m evaluated by their Taylor series near 0 where the formula loses
digits.  Run from this directory: python whitebox48_values.py (prints name = value)."""
import mpmath as mp

mp.mp.dps = 60
phi = lambda x: mp.exp(-x * x / 2) / mp.sqrt(2 * mp.pi)
cuts = [-mp.inf, -20, -5, -1, 0, 1, 5, 20, mp.inf]


def expect(f):
    return mp.quad(lambda x: f(x) * phi(x), cuts)


def removable(f, series):
    """f away from 0, its Taylor series (a function) within 1e-3 of 0 (no cancellation there)."""
    return lambda x: series(x) if abs(x) < mp.mpf("1e-3") else f(x)


values = {
    "tanh(g)/g": expect(removable(lambda x: mp.tanh(x) / x, lambda x: 1 - x**2 / 3 + 2 * x**4 / 15)),
    "(1 - cos g)/g^2": expect(removable(lambda x: (1 - mp.cos(x)) / x**2, lambda x: mp.mpf(1) / 2 - x**2 / 24)),
    "closed form of (1 - cos g)/g^2": mp.sqrt(mp.pi / 2) * mp.erf(1 / mp.sqrt(2)) - 1 + mp.exp(-mp.mpf(1) / 2),
    "(exp(g) - 1)/g": expect(removable(lambda x: mp.expm1(x) / x, lambda x: 1 + x / 2 + x**2 / 6)),
    "(g - sin g)/g^3": expect(removable(lambda x: (x - mp.sin(x)) / x**3, lambda x: mp.mpf(1) / 6 - x**2 / 120)),
    "log(1 + g^2)/g^2": expect(removable(lambda x: mp.log1p(x * x) / x**2, lambda x: 1 - x**2 / 2)),
    "(exp(g) - 1 - g)/g^2": expect(removable(lambda x: (mp.expm1(x) - x) / x**2,
                                             lambda x: mp.mpf(1) / 2 + x / 6 + x**2 / 24)),
    "(exp(g^2/4) - 1)/g^2": expect(removable(lambda x: mp.expm1(x * x / 4) / x**2, lambda x: mp.mpf(1) / 4 + x**2 / 32)),
    "(sigmoid(g) - 1/2)/g": expect(removable(lambda x: (1 / (1 + mp.exp(-x)) - mp.mpf(1) / 2) / x,
                                             lambda x: mp.mpf(1) / 4 - x**2 / 48)),
    "cosh(log|g|/2)": (mp.power(2, mp.mpf(1) / 4) * mp.gamma(mp.mpf(3) / 4)
                       + mp.power(2, -mp.mpf(1) / 4) * mp.gamma(mp.mpf(1) / 4)) / (2 * mp.sqrt(mp.pi)),
    "exp(-1/g^2)": expect(lambda x: mp.exp(-1 / x**2) if x != 0 else mp.mpf(0)),
}
# divergent ones, by the order of the singularity (no number): cosh(log|g|) ~ 1/(2|g|),
# sinh(log|g|) ~ -1/(2|g|), exp(1/g^2) and exp(1/|g|) faster than any power, log^2|g|/|g|,
# 1/|log|g|| ~ 1/|g - 1| at +-1, (1 - cos g)/g^3 ~ 1/(2g).
if __name__ == "__main__":
    for name, value in values.items():
        print(f"{name} = {mp.nstr(value, 40)}")
