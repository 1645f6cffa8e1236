/// The display's pages, in the order the page keys and the page button step through them.
public enum DisplayPage: String, Sendable, Equatable, CaseIterable {
    case compass, position, level, barometer, sky, chart, track, departures, waves, day, health, connect

    /// The page after this one, wrapping round.
    public var next: DisplayPage {
        let all = Self.allCases
        return all[((all.firstIndex(of: self) ?? 0) + 1) % all.count]
    }

    public var previous: DisplayPage {
        let all = Self.allCases
        return all[((all.firstIndex(of: self) ?? 0) + all.count - 1) % all.count]
    }

    /// The title in the header.
    public var title: String { rawValue.uppercased() }
}
