import LodestoneCore

/// `lodestone docs man|reference DIR`: writes the manual pages, or the reference pages of the
/// docs folder, from the command table, the commands' help and the settings table.
enum DocsCommand {
    static let help = """
        Usage: lodestone docs man DIR
               lodestone docs reference DIR

        man writes lodestone.1, lodestone-COMMAND.1 for every command and lodestone.json.5 into
        DIR (the package installs them; 'man -l DIR/lodestone.1' reads one in place). reference
        writes the docs' reference pages commands.md and settings.md. Both are made from the
        command table, each command's help and the table of settings, so they never disagree
        with 'lodestone help' and 'lodestone config keys'; the tests compare docs/reference
        with what this writes.

        Example:
          lodestone docs man /tmp/man && man -l /tmp/man/lodestone-track.1
        """

    static func main(_ arguments: ArraySlice<String>) throws(UsageError) -> Int32 {
        let options = try Options(arguments, spec: OptionSpec(valued: [], flags: []), command: "docs")
        let kinds = ["man", "reference"]
        guard let kind = options.positional.first else {
            throw UsageError(message: "'docs' needs what to write: man or reference, and a folder (see 'lodestone docs --help')")
        }
        guard kinds.contains(kind) else {
            throw UsageError.unknown("docs kind", kind, among: kinds)
        }
        guard options.positional.count == 2 else { throw UsageError(message: "'docs \(kind)' needs one folder to write into") }
        let folder = options.positional[1]
        let pages = MainActor.assumeIsolated { kind == "man" ? ManualPages.all(version: Version.number) : ReferencePages.all() }
        guard makeDirectories(folder) else {
            Log.error("cannot create \(folder)")
            return 1
        }
        for page in pages {
            guard writeFileAtomically(folder + "/" + page.file, Array(page.text.utf8)) else {
                Log.error("cannot write \(folder)/\(page.file)")
                return 1
            }
        }
        writeOut("wrote \(pages.count) pages to \(folder)\n")
        return 0
    }
}
