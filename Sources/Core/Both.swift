/// Both values when both are there, else nil: a reading that needs two things at once (a
/// distance and a bearing, a converter and its wiring).
public func both<A, B>(_ a: A?, _ b: B?) -> (A, B)? {
    guard let a, let b else { return nil }
    return (a, b)
}
