/// The display's colours. Day is for sunlight and a bright room; night is red on black,
/// which keeps the eyes' dark adaptation on a night trail or in a boat's cockpit.
public enum Theme: String, Sendable, Equatable, CaseIterable {
    case day, night

    public var toggled: Theme { self == .day ? .night : .day }
}
