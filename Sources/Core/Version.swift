import CLinux

/// The program's version, and the source revision it was built from (from the package
/// manifest's view of the git checkout), for `lodestone --version` and the socket's VERSION.
public enum Version {
    public static let number = "0.3.0"
    public static var revision: String { String(cString: lodestone_revision()) }
    /// "lodestone 0.3.0 (3f2a9c1b0e77)".
    public static var line: String { "lodestone \(number) (\(revision))" }
}
