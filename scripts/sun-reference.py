#!/usr/bin/env python3
"""Writes Tests/Domain/Vectors/sun_events_de421.csv: sunrise, sunset and the civil, nautical
and astronomical twilights (the Sun's centre at -0.833, -6, -12, -18 degrees, geometric,
topocentric) for 60 random places between 65 S and 65 N and dates 1900-2100, from the JPL
DE421 Sun (with light time, aberration, IAU 1976 precession and the ephemeris's own
nutation), Greenwich apparent sidereal time (IAU 1982 GMST plus the equation of the
equinoxes) and TT - UT from the Espenak-Meeus polynomials. Each row's window is the local
mean solar day (UTC midnight shifted by the longitude); an event that does not happen in it
is empty.

Needs numpy and the DE421 coefficient arrays (pip install de421); run from the repository root.
"""
import math, random
import numpy as np
exec(open("scripts/planet-reference.py").read().split("random.seed(421)")[0])

def delta_t(year):
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

def altitude(jd_ut, lat, lon):
    year = 2000 + (jd_ut - 2451544.5) / 365.2425
    jd_tt = jd_ut + delta_t(year) / 86400
    ra, dec = apparent("sun", jd_tt)
    t = (jd_ut - 2451545.0) / 36525
    gmst = (67310.54841 + (876600*3600 + 8640184.812866)*t + 0.093104*t*t - 6.2e-6*t**3) / 240
    dpsi, deps = chebyshev("nutations", jd_tt)
    tt = (jd_tt - 2451545.0) / 36525
    eps = math.radians((84381.448 - 46.8150*tt - 0.00059*tt*tt + 0.001813*tt**3) / 3600) + deps
    last = math.radians(gmst) + dpsi * math.cos(eps) + math.radians(lon)
    h = last - math.radians(ra)
    phi, d = math.radians(lat), math.radians(dec)
    alt = math.asin(math.sin(phi)*math.sin(d) + math.cos(phi)*math.cos(d)*math.cos(h))
    return math.degrees(alt) - 8.794/3600 * math.cos(alt)   # the Sun's parallax

def crossing(lat, lon, start, level, rising):
    # Rising crossings before local noon, setting ones after it, as the device reports them.
    noon = start + 0.5
    grid = [start + k / 144 for k in range(145)]
    for a, b in zip(grid, grid[1:]):
        if rising and a > noon or not rising and b < noon:
            continue
        fa, fb = altitude(a, lat, lon) - level, altitude(b, lat, lon) - level
        if (fa < 0 <= fb) if rising else (fa >= 0 > fb):
            for _ in range(40):
                m = (a + b) / 2
                fm = altitude(m, lat, lon) - level
                if (fm < 0) == rising: a = m
                else: b = m
            return (a + b) / 2
    return None

random.seed(65)
rows = ["unix_start,latitude,longitude,event,unix_time"]
for _ in range(60):
    jd_midnight = 2415020.5 + random.randrange(0, 73049)
    lat, lon = random.uniform(-65, 65), random.uniform(-180, 180)
    start = jd_midnight - lon / 360
    unix_start = (start - 2440587.5) * 86400
    for name, level, rising in [("astronomicalDawn", -18, True), ("nauticalDawn", -12, True), ("civilDawn", -6, True),
                                ("sunrise", -0.833, True), ("sunset", -0.833, False), ("civilDusk", -6, False),
                                ("nauticalDusk", -12, False), ("astronomicalDusk", -18, False)]:
        t = crossing(lat, lon, start, level, rising)
        rows.append("%.3f,%.6f,%.6f,%s,%s" % (unix_start, lat, lon, name, "" if t is None else "%.3f" % ((t - 2440587.5) * 86400)))
open("Tests/Domain/Vectors/sun_events_de421.csv", "w").write("\n".join(rows) + "\n")
print(len(rows) - 1, "rows")
