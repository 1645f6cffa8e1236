import Glibc

/// A secret (the MQTT password) read from a file of its own, and only from where secrets
/// belong: the configuration file's folder, systemd's credentials (`$CREDENTIALS_DIRECTORY`)
/// or /etc/lodestone. The file must be a regular file owned by the service's user or root that
/// nobody else may read (0600 or 0400). Anything else is refused before a byte is read: a
/// setting naming `../../../../etc/passwd`, `/etc/shadow`, a link out of those folders or a
/// FIFO would otherwise send another file's first line to a broker, or hang the start.
public enum SecretFile {
    public static let systemFolder = "/etc/lodestone"

    public struct Refusal: Error, CustomStringConvertible, Equatable {
        public var description: String
    }

    /// Where a secret may be: the folders, as given (before resolving links).
    public static func places(configurationFolder: String?) -> [String] {
        var places: [String] = []
        if let configurationFolder { places.append(configurationFolder) }
        if let credentials = getenv("CREDENTIALS_DIRECTORY") { places.append(String(cString: credentials)) }
        places.append(systemFolder)
        return places
    }

    /// The path a setting's value names: a bare name among the credentials when systemd gave
    /// some, a relative path from the configuration file's folder, an absolute one as is.
    public static func resolve(_ path: String, configurationFolder: String?) -> String {
        if !path.contains("/"), let credentials = getenv("CREDENTIALS_DIRECTORY") { return String(cString: credentials) + "/" + path }
        if !path.hasPrefix("/"), let configurationFolder { return configurationFolder + "/" + path }
        return path
    }

    /// The bytes of the secret file `path` names (at most `limit`), or why not, in one line
    /// that says what is allowed.
    public static func read(_ path: String, configurationFolder: String?, limit: Int = 4096) -> Result<[UInt8], Refusal> {
        let given = resolve(path, configurationFolder: configurationFolder)
        let places = places(configurationFolder: configurationFolder)
        func refused(_ reason: String) -> Result<[UInt8], Refusal> {
            .failure(
                Refusal(
                    description: "refusing \(given): \(reason); a secret is read only from a regular file in "
                        + places.joined(separator: ", ") + ", owned by this user (\(geteuid())) or root, mode 0600 or 0400"))
        }
        guard let real = realPath(given) else {
            return .failure(Refusal(description: "cannot read \(given): \(String(cString: strerror(errno)))"))
        }
        let folders = places.compactMap(realPath)
        guard folders.contains(where: { real.hasPrefix($0 == "/" ? "/" : $0 + "/") }) else {
            return refused(real == given ? "it is outside those folders" : "it leads to \(real), outside those folders")
        }
        // Checked on what was opened (never through a link, never blocking on a pipe), so the
        // file cannot be swapped between the check and the read.
        let fd = open(real, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return .failure(Refusal(description: "cannot read \(given): \(String(cString: strerror(errno)))")) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { return .failure(Refusal(description: "cannot read \(given): \(String(cString: strerror(errno)))")) }
        let kind = status.st_mode & S_IFMT
        guard kind == S_IFREG else { return refused("it is \(GuardedOpen.kindName(kind)), not a regular file") }
        guard status.st_uid == geteuid() || status.st_uid == 0 else { return refused("it is owned by user \(status.st_uid)") }
        guard [0o600, 0o400].contains(status.st_mode & 0o7777) else {
            return refused("its mode is 0\(String(status.st_mode & 0o7777, radix: 8)) ('chmod 600 \(given)')")
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count <= limit {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return .failure(Refusal(description: "cannot read \(given): \(String(cString: strerror(errno)))")) }
            if count == 0 { return .success(bytes) }
            bytes += chunk[0..<count]
        }
        return .failure(Refusal(description: "cannot read \(given): it is larger than \(limit) bytes, the most a secret file may hold"))
    }

    /// The path with every link and `..` resolved; nil (errno set) when it cannot be.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
