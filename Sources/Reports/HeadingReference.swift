/// Which north the display's main heading counts from: true (the map's, the declination
/// applied; the default) or magnetic (what a hand-bearing compass and an older chart's
/// compass rose read). The other is shown beside it.
public enum HeadingReference: String, Sendable, Equatable, CaseIterable {
    case `true`, magnetic

    public var toggled: HeadingReference { self == .true ? .magnetic : .true }
}
