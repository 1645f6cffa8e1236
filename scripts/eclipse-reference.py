#!/usr/bin/env python3
"""Writes Tests/Domain/Vectors/lunar_eclipses_de421.csv and solar_eclipses_de421.csv: every
lunar and solar eclipse whose greatest eclipse falls in 2000-01-01 .. 2100-12-31 UT, from the
JPL DE421 ephemeris's Chebyshev coefficients (the numpy arrays of the PyPI package de421, the
same data planet-reference.py reads). They are the independent reference the eclipse
predictor's tests compare with; the published NASA canon values are beside them in
*_canon.csv (see eclipses_canon.md).

Lunar eclipses are found with Skyfield's eclipselib.lunar_eclipses (Skyfield 1.55), which wants
a JPL .bsp kernel; the de421 package ships no .bsp, so the DE421 arrays are handed to it through
small segment objects that evaluate the Chebyshev series themselves. Conventions, those of the
Five Millennium Canon of Lunar Eclipses (Espenak & Meeus 2009):
- greatest eclipse: the instant the Moon's centre passes closest to the axis of the Earth's
  shadow, i.e. the maximum of the geocentric angle between the Sun (with aberration) and the
  geometric Moon, found by Skyfield to about one second, plus the Moon's light time (1.3 s)
  so that it is the instant seen from the Earth;
- shadow radii by Danjon's rule (the Earth's radius enlarged by 1/85, 0.99834 for its
  flattening, so 1.01 times the Moon's parallax): penumbra = 1.01 Pm + Ss + Ps,
  umbra = 1.01 Pm - Ss + Ps; NOT Chauvenet's 1/50 enlargement of the Astronomical Almanac,
  which gives umbral magnitudes about 0.005 larger and penumbral ones about 0.026 larger;
- magnitudes: the fraction of the Moon's diameter inside each shadow at greatest eclipse
  (negative umbral magnitude for a penumbral eclipse); the type follows from them.
Skyfield's own magnitudes are not used: it measures the closest approach from the geometric
Sun although it searched with the aberrated one (see lunar_magnitudes), so they are recomputed
at its instants with the apparent Sun and the canon's Sun and Moon radii.

Solar eclipses are computed here from Besselian-element geometry:
- apparent geocentric Sun and Moon (light time, annual aberration, IAU 1976 precession, the
  ephemeris's IAU 1980 nutation), so the shadow axis is the line from the Sun through the Moon;
- greatest eclipse: the instant the shadow axis passes closest to the Earth's centre (the
  minimum of x^2 + y^2 in the fundamental plane), as in the NASA canon; gamma is that distance
  in equatorial Earth radii (6378.137 km), positive when the axis passes north of the centre;
- Moon radius 0.2725076 Earth radii for the penumbra and 0.2722810 for the umbra, Sun radius
  959.63" at 1 au, Earth flattening 1/298.257 (the canon's values);
- type: partial when neither umbra nor antumbra touches the ellipsoid; otherwise total or
  annular by the sign of the umbral radius where the axis meets the surface (or at the limb
  point nearest the axis for a non-central eclipse), and hybrid when that sign changes along
  the central line (sampled each minute when the magnitude is within 0.03 of 1);
- magnitude at greatest eclipse: (L1 - L2)/(L1 + L2) on the central line, where L1, L2 are the
  penumbral and umbral radii in the observer's plane (the Moon/Sun apparent diameter ratio),
  and (L1 - D)/(L1 + L2) at the limb point nearest the axis (D its distance from the axis)
  when the axis misses the Earth.

Times are found in TT (TDB, which differs by under 2 ms) and converted to UT with the
Espenak & Meeus (2006) polynomials for Delta T (the ones the NASA canon uses), evaluated at
y = year + (month - 0.5)/12 of the TT date; UT is given to the second, with a Z.

Checked against the NASA canon (*_canon.csv): the same 230 lunar and 228 solar eclipses with the
same types; greatest eclipse within 3 s (lunar) and 1 s (solar); umbral magnitude within 0.0003,
penumbral within 0.0004, solar magnitude within 0.0001 and gamma within 0.0001.

Needs numpy, de421 and skyfield (pip install numpy de421 skyfield); run from the repository
root.
"""
import datetime, math, os
import numpy as np
import de421
from skyfield.api import load
from skyfield.eclipselib import lunar_eclipses
from skyfield.searchlib import find_minima

DIR = os.path.dirname(de421.__file__)
CONSTANTS = {k.decode(): v for k, v in np.load(DIR + "/constants.npy", allow_pickle=True)}
START, END = CONSTANTS["jalpha"], CONSTANTS["jomega"]
C = CONSTANTS["CLIGHT"] * 86400.0          # km per day
EMRAT = CONSTANTS["EMRAT"]
ARRAYS = {}

def chebyshev(name, jd):
    # Vectorised over jd (TDB Julian dates): returns (components,) or (components, n).
    if name not in ARRAYS:
        ARRAYS[name] = np.load(DIR + "/jpl-%s.npy" % name)
    a = ARRAYS[name]
    jd = np.asarray(jd, dtype=float)
    step = (END - START) / a.shape[0]
    i = np.minimum(((jd - START) // step).astype(int), a.shape[0] - 1)
    x = 2 * ((jd - START - i * step) / step) - 1
    k = a.shape[2]
    t = np.empty((k,) + x.shape)
    t[0] = 1
    t[1] = x
    for n in range(2, k):
        t[n] = 2 * x * t[n - 1] - t[n - 2]
    return np.einsum("...ck,k...->c...", a[i], t)

def emb(jd):
    return chebyshev("earthmoon", jd)

def earth(jd):
    return chebyshev("earthmoon", jd) - chebyshev("moon", jd) / (1 + EMRAT)

def moon(jd):
    return chebyshev("earthmoon", jd) + chebyshev("moon", jd) * EMRAT / (1 + EMRAT)

def sun(jd):
    return chebyshev("sun", jd)

# --- Skyfield adapter: the four segments eclipselib reads, backed by the DE421 arrays --------

class Segment:
    def __init__(self, center, target, function):
        self.center, self.target, self.function = center, target, function
        self.spk_segment = self

    def compute(self, jd, fraction):
        return self.function(np.asarray(jd) + np.asarray(fraction))

    def compute_and_differentiate(self, jd, fraction):
        t = np.asarray(jd) + np.asarray(fraction)
        h = 0.005
        return self.function(t), (self.function(t + h) - self.function(t - h)) / (2 * h)

class DE421:
    segments = [
        Segment(0, 10, sun),
        Segment(0, 3, emb),
        Segment(3, 399, lambda jd: -chebyshev("moon", jd) / (1 + EMRAT)),
        Segment(3, 301, lambda jd: chebyshev("moon", jd) * EMRAT / (1 + EMRAT)),
    ]

# --- time --------------------------------------------------------------------------------

def calendar(jd):
    return datetime.datetime(2000, 1, 1, 12) + datetime.timedelta(days=float(jd) - 2451545.0)

def delta_t(jd_tt):
    # Espenak & Meeus (2006), NASA's "Polynomial expressions for Delta T", 1900-2150.
    d = calendar(jd_tt)
    year = d.year + (d.month - 0.5) / 12
    if year < 1920:
        t = year - 1900; return -2.79 + 1.494119*t - 0.0598939*t**2 + 0.0061966*t**3 - 0.000197*t**4
    if year < 1941:
        t = year - 1920; return 21.20 + 0.84493*t - 0.076100*t**2 + 0.0020936*t**3
    if year < 1961:
        t = year - 1950; return 29.07 + 0.407*t - t**2/233 + t**3/2547
    if year < 1986:
        t = year - 1975; return 45.45 + 1.067*t - t**2/260 - t**3/718
    if year < 2005:
        t = year - 2000; return 63.86 + 0.3345*t - 0.060374*t**2 + 0.0017275*t**3 + 0.000651814*t**4 + 0.00002373599*t**5
    if year < 2050:
        t = year - 2000; return 62.92 + 0.32217*t + 0.005589*t**2
    u = (year - 1820) / 100; return -20 + 32*u*u - 0.5628*(2150 - year)

def utc(jd_tt):
    d = calendar(jd_tt - delta_t(jd_tt) / 86400)
    d = (d + datetime.timedelta(microseconds=500000)).replace(microsecond=0)
    return d.strftime("%Y-%m-%dT%H:%M:%SZ")

# --- apparent geocentric positions, true equator and equinox of date -----------------------

def rz(a):
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, s, 0], [-s, c, 0], [0, 0, 1]])

def rx(a):
    c, s = math.cos(a), math.sin(a)
    return np.array([[1, 0, 0], [0, c, s], [0, -s, c]])

def ry(a):
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, 0, -s], [0, 1, 0], [s, 0, c]])

def of_date(jd):
    t = (jd - 2451545.0) / 36525
    arc = math.pi / 180 / 3600
    zeta = (2306.2181 * t + 0.30188 * t * t + 0.017998 * t ** 3) * arc
    z = (2306.2181 * t + 1.09468 * t * t + 0.018203 * t ** 3) * arc
    theta = (2004.3109 * t - 0.42665 * t * t - 0.041833 * t ** 3) * arc
    precession = rz(-z) @ ry(theta) @ rz(-zeta)
    dpsi, deps = chebyshev("nutations", jd)
    eps0 = (84381.448 - 46.8150 * t - 0.00059 * t * t + 0.001813 * t ** 3) * arc
    return rx(-(eps0 + deps)) @ rz(-dpsi) @ rx(eps0) @ precession

def apparent(body, jd):
    # Light-time corrected geocentric vector (km) with annual aberration, length kept.
    e = earth(jd)
    v = (earth(jd + 0.005) - earth(jd - 0.005)) / 0.01
    tau = 0.0
    for _ in range(4):
        u = body(jd - tau) - e
        tau = np.linalg.norm(u) / C
    r = np.linalg.norm(u)
    p = u / r + v / C
    return r * p / np.linalg.norm(p)

# --- solar eclipses: Besselian geometry -------------------------------------------------------

A_E = 6378.137                              # km, equatorial radius
E2 = 1 / 298.257 * (2 - 1 / 298.257)        # eccentricity squared of the Earth's meridian
K_PEN, K_UMB = 0.2725076, 0.2722810         # Moon radius in Earth radii
AU = CONSTANTS["AU"]
R_SUN = math.tan(math.radians(959.63 / 3600)) * AU / A_E

def besselian(jd):
    n = of_date(jd)
    s, m = n @ apparent(sun, jd) / A_E, n @ apparent(moon, jd) / A_E
    g = s - m
    gl = np.linalg.norm(g)
    w = g / gl                                           # shadow axis, towards the Sun
    a, d = math.atan2(w[1], w[0]), math.asin(w[2])
    ex = np.array([-math.sin(a), math.cos(a), 0.0])
    ey = np.cross(w, ex)
    x, y, z = m @ ex, m @ ey, m @ w
    f1 = math.asin((R_SUN + K_PEN) / gl)
    f2 = math.asin((R_SUN - K_UMB) / gl)
    l1 = z * math.tan(f1) + K_PEN / math.cos(f1)
    l2 = z * math.tan(f2) - K_UMB / math.cos(f2)
    return dict(x=x, y=y, z=z, d=d, w=w, ex=ex, ey=ey, m=m, f1=f1, f2=f2, l1=l1, l2=l2)

def surface_zeta(b):
    # Where the shadow axis meets the ellipsoid (polar semi-axis sqrt(1 - e^2)): the sunward
    # intersection's coordinate along the axis, or None when the axis misses the Earth.
    q = np.array([1.0, 1.0, 1.0 / (1 - E2)])
    m, w = b["m"], b["w"]
    aa, bb, cc = (q * w) @ w, 2 * (q * w) @ m, (q * m) @ m - 1
    disc = bb * bb - 4 * aa * cc
    if disc < 0:
        return None
    s = (-bb + math.sqrt(disc)) / (2 * aa)
    return (m + s * w) @ w

def limb_distance(b):
    # Distance in the fundamental plane from the axis to the Earth's outline, the ellipse with
    # semi-axes 1 (x) and rho1 (y).
    rho1 = math.sqrt(1 - E2 * math.cos(b["d"]) ** 2)
    x, y = b["x"], b["y"]
    th = np.linspace(0, 2 * math.pi, 3601)
    dist = np.hypot(x - np.cos(th), y - rho1 * np.sin(th))
    i = int(np.argmin(dist))
    lo, hi = th[max(i - 1, 0)], th[min(i + 1, len(th) - 1)]
    for _ in range(60):
        m1, m2 = lo + (hi - lo) / 3, hi - (hi - lo) / 3
        f = lambda t: math.hypot(x - math.cos(t), y - rho1 * math.sin(t))
        if f(m1) < f(m2): hi = m2
        else: lo = m1
    t = (lo + hi) / 2
    return math.hypot(x - math.cos(t), y - rho1 * math.sin(t))

def golden(f, lo, hi, tol=1e-7):
    r = (math.sqrt(5) - 1) / 2
    c, d = hi - r * (hi - lo), lo + r * (hi - lo)
    fc, fd = f(c), f(d)
    while hi - lo > tol:
        if fc < fd: hi, d, fd = d, c, fc; c = hi - r * (hi - lo); fc = f(c)
        else: lo, c, fc = c, d, fd; d = lo + r * (hi - lo); fd = f(d)
    return (lo + hi) / 2

def solar_eclipse(jd_new):
    def r2(jd):
        b = besselian(jd)
        return b["x"] ** 2 + b["y"] ** 2
    grid = jd_new + np.linspace(-0.3, 0.3, 61)
    i = int(np.argmin([r2(t) for t in grid]))
    jd = golden(r2, grid[max(i - 1, 0)], grid[min(i + 1, 60)])   # about 0.01 s
    b = besselian(jd)
    gamma = math.copysign(math.hypot(b["x"], b["y"]), b["y"])
    zeta = surface_zeta(b)
    if zeta is not None:
        L1 = b["l1"] - zeta * math.tan(b["f1"])
        L2 = b["l2"] - zeta * math.tan(b["f2"])
        magnitude = (L1 - L2) / (L1 + L2)
        kind = "total" if L2 < 0 else "annular"
        # Hybrid: the umbral radius on the central line changes sign somewhere along it (only
        # looked for when the Moon and Sun are within 3% of the same apparent size).
        signs = set()
        t = jd
        while abs(magnitude - 1) < 0.03:                          # walk back to the start of the central line
            bb = besselian(t - 1 / 1440)
            zz = surface_zeta(bb)
            if zz is None: break
            t -= 1 / 1440
            signs.add(bb["l2"] - zz * math.tan(bb["f2"]) < 0)
        t = jd
        while abs(magnitude - 1) < 0.03:
            bb = besselian(t + 1 / 1440)
            zz = surface_zeta(bb)
            if zz is None: break
            t += 1 / 1440
            signs.add(bb["l2"] - zz * math.tan(bb["f2"]) < 0)
        signs.add(L2 < 0)
        if len(signs) == 2:
            kind = "hybrid"
        return jd, kind, magnitude, gamma
    dist = limb_distance(b)
    if dist > b["l1"]:
        return None                          # the penumbra misses the Earth
    magnitude = (b["l1"] - dist) / (b["l1"] + b["l2"])
    if dist < abs(b["l2"]):
        kind = "total" if b["l2"] < 0 else "annular"     # non-central
    else:
        kind = "partial"
    return jd, kind, magnitude, gamma

# --- lunar eclipses: magnitudes at Skyfield's instants ----------------------------------------

def lunar_magnitudes(jd):
    # Skyfield 1.55 finds the instant with the aberrated Sun but then computes the closest
    # approach, and so the magnitudes and the type, from the geometric Sun: that misplaces the
    # shadow axis by the aberration (about 20"), up to 0.003 in magnitude near the axis, and
    # turned the canon's total eclipse of 2015-04-04 (umbral magnitude 1.0008) partial. So the
    # magnitudes are recomputed here at its instant with the apparent Sun (light time and
    # aberration, as in its search) and the geometric Moon, with the canon's radii: the Sun's
    # 959.63" at 1 au and the Moon's k = 0.2725076 Earth radii (Skyfield: 696340 km, 1737.1 km).
    e = earth(jd)
    s = apparent(sun, jd)
    m = moon(jd) - e
    ds, dm = np.linalg.norm(s), np.linalg.norm(m)
    d = math.acos(max(-1.0, min(1.0, -(s @ m) / ds / dm)))   # Moon to the anti-Sun, radians
    pm, ps = math.asin(A_E / dm), math.asin(A_E / ds)
    ss, sm = math.asin(R_SUN * A_E / ds), math.asin(K_PEN * A_E / dm)
    umbra = 1.01 * pm - ss + ps                  # Danjon: 1/85 on the radius, 0.99834 for the
    penumbra = 1.01 * pm + ss + ps               # flattening, rounded to 1.01 as in the canon
    umbral = (umbra + sm - d) / (2 * sm)
    penumbral = (penumbra + sm - d) / (2 * sm)
    if penumbral <= 0:
        return None
    kind = "total" if umbral >= 1 else "partial" if umbral > 0 else "penumbral"
    return kind, umbral, penumbral, dm / C

def main():
    ts = load.timescale()
    t0, t1 = ts.tt(1999, 12, 30), ts.tt(2101, 1, 2)

    rows = ["greatest_utc,type,magnitude,penumbral_magnitude"]
    t, codes, details = lunar_eclipses(t0, t1, DE421())
    for jd in t.tt:
        found = lunar_magnitudes(jd)
        if found is None:
            continue
        kind, umbral, penumbral, light_time = found
        stamp = utc(jd + light_time)         # as seen from the Earth, like the canon's times
        if "2000" <= stamp[:4] <= "2100":
            rows.append("%s,%s,%.5f,%.5f" % (stamp, kind, umbral, penumbral))
    open("Tests/Domain/Vectors/lunar_eclipses_de421.csv", "w").write("\n".join(rows) + "\n")
    print(len(rows) - 1, "lunar eclipses")

    def elongation(t):
        jd = t.tdb
        s = sun(jd) - earth(jd)
        m = moon(jd) - earth(jd)
        return np.arccos(np.clip((s * m).sum(axis=0) / np.linalg.norm(s, axis=0) / np.linalg.norm(m, axis=0), -1, 1))
    elongation.step_days = 5.0
    t, angle = find_minima(t0, t1, elongation)
    rows = ["greatest_utc,type,magnitude,gamma"]
    for jd, a in zip(t.tt, angle):
        if math.degrees(a) > 1.8:            # no eclipse is possible this far from the node
            continue
        found = solar_eclipse(jd)
        if found is None:
            continue
        jd, kind, magnitude, gamma = found
        stamp = utc(jd)
        if "2000" <= stamp[:4] <= "2100":
            rows.append("%s,%s,%.5f,%.5f" % (stamp, kind, magnitude, gamma))
    open("Tests/Domain/Vectors/solar_eclipses_de421.csv", "w").write("\n".join(rows) + "\n")
    print(len(rows) - 1, "solar eclipses")

main()
