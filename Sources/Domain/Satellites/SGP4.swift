import Glibc

/// SGP4/SDP4: the orbit propagator NORAD's element sets are made for (Hoots and Roehrich,
/// Spacetrack Report #3, 1980, as revised by Vallado, Crawford, Hujsak and Kelso, "Revisiting
/// Spacetrack Report #3", AIAA 2006-6753), with the WGS-72 constants the elements are fitted
/// with. Near-Earth orbits (period under 225 minutes) use SGP4; deep-space ones add the Sun's
/// and Moon's perturbations and the 12- and 24-hour resonances (SDP4).
public struct SGP4: Sendable {
    /// Why a propagation failed (Vallado's error codes 1-6).
    public enum Failure: Int, Error, Sendable {
        case eccentricityOutOfRange = 1, meanMotionNegative, perturbedEccentricityOutOfRange, semiLatusRectumNegative
        case decayed = 6
    }

    // WGS-72.
    static let mu = 398_600.8, radius = 6378.135
    static let xke = 60 / (radius * radius * radius / mu).squareRoot()
    static let j2 = 0.001_082_616, j3 = -0.000_002_538_81, j4 = -0.000_001_655_97
    static let j3oj2 = j3 / j2
    static let twoPi = 2 * Double.pi
    static let x2o3 = 2.0 / 3.0

    public let elements: TwoLineElements
    // Elements and secular rates.
    var ecco = 0.0, inclo = 0.0, nodeo = 0.0, argpo = 0.0, mo = 0.0, no = 0.0, bstar = 0.0
    var isimp = false, deep = false
    var aycof = 0.0, con41 = 0.0, cc1 = 0.0, cc4 = 0.0, cc5 = 0.0, d2 = 0.0, d3 = 0.0, d4 = 0.0, delmo = 0.0, eta = 0.0
    var argpdot = 0.0, omgcof = 0.0, sinmao = 0.0, t2cof = 0.0, t3cof = 0.0, t4cof = 0.0, t5cof = 0.0
    var x1mth2 = 0.0, x7thm1 = 0.0, mdot = 0.0, nodedot = 0.0, xlcof = 0.0, xmcof = 0.0, nodecf = 0.0
    var deepSpace = DeepSpace()
    var gsto = 0.0

    /// Sets up the propagator for an element set.
    public init(_ tle: TwoLineElements) throws(Failure) {
        elements = tle
        (ecco, inclo, nodeo, argpo, mo, bstar) = (tle.eccentricity, tle.inclination, tle.node, tle.perigee, tle.meanAnomaly, tle.bstar)
        let epoch = tle.epochJulianDay - 2_433_281.5
        let ss = 78 / Self.radius + 1
        let qzms2t = pow((120 - 78) / Self.radius, 4)
        // Recover the original mean motion and semi-major axis from the Kozai mean motion.
        let eccsq = ecco * ecco, omeosq = 1 - eccsq, rteosq = omeosq.squareRoot()
        let cosio = cos(inclo), cosio2 = cosio * cosio
        let ak = pow(Self.xke / tle.meanMotion, Self.x2o3)
        let d1 = 0.75 * Self.j2 * (3 * cosio2 - 1) / (rteosq * omeosq)
        var del = d1 / (ak * ak)
        let adel = ak * (1 - del * del - del * (1.0 / 3.0 + 134 * del * del / 81))
        del = d1 / (adel * adel)
        no = tle.meanMotion / (1 + del)
        let ao = pow(Self.xke / no, Self.x2o3)
        let sinio = sin(inclo), po = ao * omeosq
        let con42 = 1 - 5 * cosio2
        con41 = -con42 - cosio2 - cosio2
        let posq = po * po, rp = ao * (1 - ecco)
        // Greenwich sidereal time at epoch.
        let ts70 = epoch - 7305, ds70 = (ts70 + 1e-8).rounded(.down), tfrac = ts70 - ds70
        let c1 = 1.720_279_169_407_036_39e-2, thgr70 = 1.732_134_385_650_937_4, fk5r = 5.075_514_194_322_694_42e-15
        gsto = fmod(thgr70 + c1 * ds70 + (c1 + Self.twoPi) * tfrac + ts70 * ts70 * fk5r, Self.twoPi)
        if gsto < 0 { gsto += Self.twoPi }

        guard omeosq >= 0 || no >= 0 else { throw Failure.eccentricityOutOfRange }
        isimp = rp < 220 / Self.radius + 1
        var sfour = ss, qzms24 = qzms2t
        let perige = (rp - 1) * Self.radius
        if perige < 156 {
            sfour = perige < 98 ? 20 : perige - 78
            qzms24 = pow((120 - sfour) / Self.radius, 4)
            sfour = sfour / Self.radius + 1
        }
        let pinvsq = 1 / posq
        let tsi = 1 / (ao - sfour)
        eta = ao * ecco * tsi
        let etasq = eta * eta, eeta = ecco * eta, psisq = abs(1 - etasq)
        let coef = qzms24 * pow(tsi, 4), coef1 = coef / pow(psisq, 3.5)
        let cc2 = coef1 * no * (ao * (1 + 1.5 * etasq + eeta * (4 + etasq)) + 0.375 * Self.j2 * tsi / psisq * con41 * (8 + 3 * etasq * (8 + etasq)))
        cc1 = bstar * cc2
        let cc3 = ecco > 1e-4 ? -2 * coef * tsi * Self.j3oj2 * no * sinio / ecco : 0
        x1mth2 = 1 - cosio2
        cc4 =
            2 * no * coef1 * ao * omeosq
            * (eta * (2 + 0.5 * etasq) + ecco * (0.5 + 2 * etasq)
                - Self.j2 * tsi / (ao * psisq)
                * (-3 * con41 * (1 - 2 * eeta + etasq * (1.5 - 0.5 * eeta))
                    + 0.75 * x1mth2 * (2 * etasq - eeta * (1 + etasq)) * cos(2 * argpo)))
        cc5 = 2 * coef1 * ao * omeosq * (1 + 2.75 * (etasq + eeta) + eeta * etasq)
        let cosio4 = cosio2 * cosio2
        let temp1 = 1.5 * Self.j2 * pinvsq * no, temp2 = 0.5 * temp1 * Self.j2 * pinvsq, temp3 = -0.46875 * Self.j4 * pinvsq * pinvsq * no
        mdot = no + 0.5 * temp1 * rteosq * con41 + 0.0625 * temp2 * rteosq * (13 - 78 * cosio2 + 137 * cosio4)
        argpdot = -0.5 * temp1 * con42 + 0.0625 * temp2 * (7 - 114 * cosio2 + 395 * cosio4) + temp3 * (3 - 36 * cosio2 + 49 * cosio4)
        let xhdot1 = -temp1 * cosio
        nodedot = xhdot1 + (0.5 * temp2 * (4 - 19 * cosio2) + 2 * temp3 * (3 - 7 * cosio2)) * cosio
        let xpidot = argpdot + nodedot
        omgcof = bstar * cc3 * cos(argpo)
        xmcof = ecco > 1e-4 ? -Self.x2o3 * coef * bstar / eeta : 0
        nodecf = 3.5 * omeosq * xhdot1 * cc1
        t2cof = 1.5 * cc1
        xlcof = -0.25 * Self.j3oj2 * sinio * (3 + 5 * cosio) / (abs(cosio + 1) > 1.5e-12 ? 1 + cosio : 1.5e-12)
        aycof = -0.5 * Self.j3oj2 * sinio
        delmo = pow(1 + eta * cos(mo), 3)
        sinmao = sin(mo)
        x7thm1 = 7 * cosio2 - 1

        if Self.twoPi / no >= 225 {
            deep = true
            isimp = true
            deepSpace = DeepSpace(epoch: epoch, ecco: ecco, argpo: argpo, inclo: inclo, nodeo: nodeo, no: no)
            deepSpace.initialise(
                eccsq: eccsq, argpo: argpo, mo: mo, mdot: mdot, no: no, nodeo: nodeo, nodedot: nodedot,
                xpidot: xpidot, ecco: ecco, inclo: inclo, gsto: gsto)
        }
        if !isimp {
            let cc1sq = cc1 * cc1
            d2 = 4 * ao * tsi * cc1sq
            let temp = d2 * tsi * cc1 / 3
            d3 = (17 * ao + sfour) * temp
            d4 = 0.5 * temp * ao * tsi * (221 * ao + 31 * sfour) * cc1
            t3cof = d2 + 2 * cc1sq
            t4cof = 0.25 * (3 * d3 + cc1 * (12 * d2 + 10 * cc1sq))
            t5cof = 0.2 * (3 * d4 + 12 * cc1 * d3 + 6 * d2 * d2 + 15 * cc1sq * (2 * d2 + cc1sq))
        }
        // The epoch's state without the lunar-solar periodics, as the reference initialisation
        // computes it: an element set that cannot give even that is refused here.
        _ = try propagate(minutes: 0, initial: true)
    }

    /// Whether the orbit is a deep-space one (a period of 225 minutes or more: SDP4).
    public var isDeepSpace: Bool { deep }

    /// The same propagator, with the deep-space resonance already integrated up to `minutes`
    /// after the epoch: every later propagation beyond it starts there (same results, a
    /// fraction of the work for old elements of resonant orbits). Near-Earth orbits are unchanged.
    public func prepared(near minutes: Double) -> SGP4 {
        guard deep else { return self }
        var copy = self
        copy.deepSpace.advanceCheckpoint(to: minutes, argpo: argpo, argpdot: argpdot, no: no)
        return copy
    }

    /// Position (km) and velocity (km/s) in the TEME frame `minutes` after the epoch.
    public func propagate(minutes t: Double) throws(Failure) -> (position: (Double, Double, Double), velocity: (Double, Double, Double)) {
        try propagate(minutes: t, initial: false)
    }

    func propagate(minutes t: Double, initial: Bool) throws(Failure) -> (position: (Double, Double, Double), velocity: (Double, Double, Double)) {
        var ds = deepSpace
        let xmdf = mo + mdot * t, argpdf = argpo + argpdot * t, nodedf = nodeo + nodedot * t
        var argpm = argpdf, mm = xmdf
        let t2 = t * t
        var nodem = nodedf + nodecf * t2
        var tempa = 1 - cc1 * t, tempe = bstar * cc4 * t, templ = t2cof * t2
        if !isimp {
            let delomg = omgcof * t
            let delm = xmcof * (pow(1 + eta * cos(xmdf), 3) - delmo)
            let temp = delomg + delm
            mm = xmdf + temp
            argpm = argpdf - temp
            let t3 = t2 * t, t4 = t3 * t
            tempa = tempa - d2 * t2 - d3 * t3 - d4 * t4
            tempe = tempe + bstar * cc5 * (sin(mm) - sinmao)
            templ = templ + t3cof * t3 + t4 * (t4cof + t * t5cof)
        }
        var nm = no, em = ecco, inclm = inclo
        if deep {
            ds.space(
                t: t, argpo: argpo, argpdot: argpdot, gsto: gsto, no: no, em: &em, argpm: &argpm, inclm: &inclm, mm: &mm,
                nodem: &nodem, nm: &nm)
        }
        guard nm > 0 else { throw Failure.meanMotionNegative }
        let am = pow(Self.xke / nm, Self.x2o3) * tempa * tempa
        nm = Self.xke / pow(am, 1.5)
        em -= tempe
        guard em < 1, em >= -0.001 else { throw Failure.eccentricityOutOfRange }
        if em < 1e-6 { em = 1e-6 }
        mm += no * templ
        var xlm = mm + argpm + nodem
        nodem = fmod(nodem, Self.twoPi)
        argpm = fmod(argpm, Self.twoPi)
        xlm = fmod(xlm, Self.twoPi)
        mm = fmod(xlm - argpm - nodem, Self.twoPi)

        var ep = em, xincp = inclm, argpp = argpm, nodep = nodem, mp = mm
        var sinip = sin(inclm), cosip = cos(inclm)
        var aycof = self.aycof, xlcof = self.xlcof, con41 = self.con41, x1mth2 = self.x1mth2, x7thm1 = self.x7thm1
        if deep {
            ds.periodics(t: t, initial: initial, ep: &ep, inclp: &xincp, nodep: &nodep, argpp: &argpp, mp: &mp)
            if xincp < 0 {
                xincp = -xincp
                nodep += .pi
                argpp -= .pi
            }
            guard ep >= 0, ep <= 1 else { throw Failure.perturbedEccentricityOutOfRange }
            sinip = sin(xincp)
            cosip = cos(xincp)
            aycof = -0.5 * Self.j3oj2 * sinip
            xlcof = -0.25 * Self.j3oj2 * sinip * (3 + 5 * cosip) / (abs(cosip + 1) > 1.5e-12 ? 1 + cosip : 1.5e-12)
        }
        // Long-period periodics.
        let axnl = ep * cos(argpp)
        var temp = 1 / (am * (1 - ep * ep))
        let aynl = ep * sin(argpp) + temp * aycof
        let xl = mp + argpp + nodep + temp * xlcof * axnl
        // Kepler's equation.
        let u = fmod(xl - nodep, Self.twoPi)
        var eo1 = u, tem5 = 9999.9, iteration = 1
        var sineo1 = 0.0, coseo1 = 0.0
        while abs(tem5) >= 1e-12 && iteration <= 10 {
            sineo1 = sin(eo1)
            coseo1 = cos(eo1)
            tem5 = 1 - coseo1 * axnl - sineo1 * aynl
            tem5 = (u - aynl * coseo1 + axnl * sineo1 - eo1) / tem5
            if abs(tem5) >= 0.95 { tem5 = tem5 > 0 ? 0.95 : -0.95 }
            eo1 += tem5
            iteration += 1
        }
        // Short-period periodics.
        let ecose = axnl * coseo1 + aynl * sineo1
        let esine = axnl * sineo1 - aynl * coseo1
        let el2 = axnl * axnl + aynl * aynl
        let pl = am * (1 - el2)
        guard pl >= 0 else { throw Failure.semiLatusRectumNegative }
        let rl = am * (1 - ecose)
        let rdotl = am.squareRoot() * esine / rl
        let rvdotl = pl.squareRoot() / rl
        let betal = (1 - el2).squareRoot()
        temp = esine / (1 + betal)
        let sinu = am / rl * (sineo1 - aynl - axnl * temp)
        let cosu = am / rl * (coseo1 - axnl + aynl * temp)
        var su = atan2(sinu, cosu)
        let sin2u = (cosu + cosu) * sinu, cos2u = 1 - 2 * sinu * sinu
        temp = 1 / pl
        let temp1 = 0.5 * Self.j2 * temp, temp2 = temp1 * temp
        if deep {
            let cosisq = cosip * cosip
            con41 = 3 * cosisq - 1
            x1mth2 = 1 - cosisq
            x7thm1 = 7 * cosisq - 1
        }
        let mrt = rl * (1 - 1.5 * temp2 * betal * con41) + 0.5 * temp1 * x1mth2 * cos2u
        su -= 0.25 * temp2 * x7thm1 * sin2u
        let xnode = nodep + 1.5 * temp2 * cosip * sin2u
        let xinc = xincp + 1.5 * temp2 * cosip * sinip * cos2u
        let mvt = rdotl - nm * temp1 * x1mth2 * sin2u / Self.xke
        let rvdot = rvdotl + nm * temp1 * (x1mth2 * cos2u + 1.5 * con41) / Self.xke
        let sinsu = sin(su), cossu = cos(su), snod = sin(xnode), cnod = cos(xnode), sini = sin(xinc), cosi = cos(xinc)
        let xmx = -snod * cosi, xmy = cnod * cosi
        let ux = xmx * sinsu + cnod * cossu, uy = xmy * sinsu + snod * cossu, uz = sini * sinsu
        let vx = xmx * cossu - cnod * sinsu, vy = xmy * cossu - snod * sinsu, vz = sini * cossu
        guard mrt >= 1 else { throw Failure.decayed }
        let kmps = Self.radius * Self.xke / 60
        return (
            (mrt * ux * Self.radius, mrt * uy * Self.radius, mrt * uz * Self.radius),
            ((mvt * ux + rvdot * vx) * kmps, (mvt * uy + rvdot * vy) * kmps, (mvt * uz + rvdot * vz) * kmps)
        )
    }
}
