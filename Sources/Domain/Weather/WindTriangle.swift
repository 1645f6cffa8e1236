import Glibc
import LodestoneCore

/// The wind as the vane and cups measure it aboard (apparent: what blows over a moving deck)
/// and the wind that blows over the water or the ground (true). On a boat the vane turns with
/// the hull, so it gives the apparent angle from the bow; the true wind is the vector triangle
/// of the apparent wind and the boat's own motion over the ground. On a fixed mast the vane's
/// north mark gives the direction itself: there is only the true wind.
public enum WindTriangle {
    public struct Wind: Sendable, Equatable {
        /// m/s.
        public var speed: Double
        /// Apparent: degrees from the bow, starboard positive, -180..180. True: degrees true the
        /// wind blows from, 0..<360.
        public var angle: Double
        public init(speed: Double, angle: Double) { (self.speed, self.angle) = (speed, angle) }
    }

    /// The boat's motion over the ground, when its fix is fresh.
    public struct Motion: Sendable, Equatable {
        public var speed: Double
        public var course: Double
        public init(speed: Double, course: Double) { (self.speed, self.course) = (speed, course) }
    }

    /// Below this speed over the ground (m/s) a boat is at rest: a receiver's course is noise.
    public static let underWay = 0.3

    /// Apparent and true from a vane reading `vane` (degrees) and a speed (m/s). `aboard`: the
    /// vane turns with the hull. `heading`: the hull's true heading, when known.
    public static func resolve(
        speed: Double, vane: Double, aboard: Bool, heading: Double?,
        motion: Motion?
    ) -> (apparent: Wind?, true: Wind?) {
        guard speed.isFinite, speed >= 0, vane.isFinite else { return (nil, nil) }
        guard aboard else {
            // A fixed mast: the vane gives the true direction. Nothing moves under it, so there
            // is no apparent wind to speak of: an angle "off the bow" of a device in a hand or
            // on a jetty would name a bow that is not there.
            return (nil, Wind(speed: speed, angle: Angle.heading(vane)))
        }
        let apparent = Wind(speed: speed, angle: Angle.signed(vane))
        guard let heading, heading.isFinite else { return (apparent, nil) }
        let from = Angle.radians(heading + apparent.angle)
        // The air's motion past the boat (towards where the apparent wind goes), north and east.
        var north = -speed * cos(from), east = -speed * sin(from)
        if let motion, motion.speed.isFinite, motion.speed >= underWay, motion.course.isFinite {
            north += motion.speed * cos(Angle.radians(motion.course))
            east += motion.speed * sin(Angle.radians(motion.course))
        }
        let trueSpeed = (north * north + east * east).squareRoot()
        let trueFrom = trueSpeed > 1e-9 ? Angle.heading(Angle.degrees(atan2(-east, -north))) : Angle.heading(heading + apparent.angle)
        return (apparent, Wind(speed: trueSpeed, angle: trueFrom))
    }
}
