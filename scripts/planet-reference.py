#!/usr/bin/env python3
"""Writes Tests/Domain/Vectors/planets_de421.csv: apparent geocentric right ascension and
declination (true equator and equinox of date) of the seven planets at 30 instants
1900-2100, from the JPL DE421 ephemeris's Chebyshev coefficients, with light time, annual
aberration, IAU 1976 precession and the ephemeris's own IAU 1980 nutation. It is the
independent reference the planet tests compare with.

Needs numpy and the DE421 coefficient arrays (pip install de421); run from the repository root.
"""
import math, os, random
import numpy as np
import de421

DIR = os.path.dirname(de421.__file__)
CONSTANTS = {k.decode(): v for k, v in np.load(DIR + "/constants.npy", allow_pickle=True)}
START, END = CONSTANTS["jalpha"], CONSTANTS["jomega"]
C = CONSTANTS["CLIGHT"] * 86400.0          # km per day
EMRAT = CONSTANTS["EMRAT"]
ARRAYS = {}

def chebyshev(name, jd):
    a = ARRAYS.setdefault(name, np.load(DIR + "/jpl-%s.npy" % name))
    step = (END - START) / a.shape[0]
    i = min(int((jd - START) // step), a.shape[0] - 1)
    x = 2 * ((jd - START - i * step) / step) - 1
    coefficients = a[i]
    t = np.zeros(coefficients.shape[1]); t[0] = 1; t[1] = x
    for k in range(2, len(t)):
        t[k] = 2 * x * t[k - 1] - t[k - 2]
    return coefficients @ t

def earth(jd):
    return chebyshev("earthmoon", jd) - chebyshev("moon", jd) / (1 + EMRAT)

def rz(a):
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, s, 0], [-s, c, 0], [0, 0, 1]])

def rx(a):
    c, s = math.cos(a), math.sin(a)
    return np.array([[1, 0, 0], [0, c, s], [0, -s, c]])

def ry(a):
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, 0, -s], [0, 1, 0], [s, 0, c]])

def apparent(body, jd):
    e = earth(jd)
    v = (earth(jd + 0.005) - earth(jd - 0.005)) / 0.01
    tau = 0.0
    for _ in range(4):
        u = chebyshev(body, jd - tau) - e
        tau = np.linalg.norm(u) / C
    p = u / np.linalg.norm(u) + v / C
    p /= np.linalg.norm(p)
    t = (jd - 2451545.0) / 36525
    arc = math.pi / 180 / 3600
    zeta = (2306.2181 * t + 0.30188 * t * t + 0.017998 * t ** 3) * arc
    z = (2306.2181 * t + 1.09468 * t * t + 0.018203 * t ** 3) * arc
    theta = (2004.3109 * t - 0.42665 * t * t - 0.041833 * t ** 3) * arc
    precession = rz(-z) @ ry(theta) @ rz(-zeta)
    dpsi, deps = chebyshev("nutations", jd)
    eps0 = (84381.448 - 46.8150 * t - 0.00059 * t * t + 0.001813 * t ** 3) * arc
    nutation = rx(-(eps0 + deps)) @ rz(-dpsi) @ rx(eps0)
    x, y, zz = nutation @ precession @ p
    return math.degrees(math.atan2(y, x)) % 360, math.degrees(math.asin(zz))

random.seed(421)
rows = ["planet,jd_tt,ra_deg,dec_deg"]
instants = [2415020.5 + random.uniform(0, 73049) for _ in range(30)]   # 1900-01-01 .. 2100-01-01
for body in ["mercury", "venus", "mars", "jupiter", "saturn", "uranus", "neptune"]:
    for jd in instants:
        ra, dec = apparent(body, jd)
        rows.append("%s,%.6f,%.7f,%.7f" % (body, jd, ra, dec))
open("Tests/Domain/Vectors/planets_de421.csv", "w").write("\n".join(rows) + "\n")
print(len(rows) - 1, "rows")
