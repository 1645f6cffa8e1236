import Glibc

/// Runs a program with arguments and collects its standard output (benchmarks run
/// cyclictest this way). Returns nil when the program cannot be started.
func runProgram(_ arguments: [String]) -> (status: Int32, output: String)? {
    measureProgram(arguments).map { ($0.status, $0.output) }
}

/// `runProgram`, with the program's peak resident memory (kilobytes, from the kernel's
/// accounting of the child: what it alone held, not this process).
func measureProgram(_ arguments: [String]) -> (status: Int32, output: String, peakKilobytes: Int)? {
    var pipeFDs: [Int32] = [-1, -1]
    guard pipe(&pipeFDs) == 0 else { return nil }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 1)
    posix_spawn_file_actions_addclose(&actions, pipeFDs[0])
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var cArguments: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for pointer in cArguments { free(pointer) } }
    var pid: pid_t = 0
    let spawned = posix_spawnp(&pid, arguments[0], &actions, nil, &cArguments, environ)
    close(pipeFDs[1])
    guard spawned == 0 else {
        close(pipeFDs[0])
        return nil
    }
    var output: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(pipeFDs[0], $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        if count <= 0 { break }
        output.append(contentsOf: chunk[0..<count])
    }
    close(pipeFDs[0])
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    let exitCode = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    return (exitCode, String(decoding: output, as: UTF8.self), usage.ru_maxrss)
}

/// Starts a program in the background with its output discarded; its process id, or nil.
func startProgram(_ arguments: [String]) -> pid_t? {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var cArguments: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for pointer in cArguments { free(pointer) } }
    var pid: pid_t = 0
    return posix_spawnp(&pid, arguments[0], &actions, nil, &cArguments, environ) == 0 ? pid : nil
}

/// Stops a program started with `startProgram` (SIGTERM, then waits for it).
func stopProgram(_ pid: pid_t) {
    kill(pid, SIGTERM)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
}
