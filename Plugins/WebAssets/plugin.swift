import Foundation
import PackagePlugin

/// Compiles the web app (the `web/` folder) into the target: each file becomes a string in a
/// generated `WebAssets.swift`, so the binary serves the app with nothing beside it, and the
/// files are edited in one place only.
@main struct WebAssetsPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let web = context.package.directoryURL.appending(path: "web")
        let names = (try? FileManager.default.subpathsOfDirectory(atPath: web.path())) ?? []
        var files: [String] = [], folders: [String] = []
        for name in names where !name.split(separator: "/").contains(where: { $0.hasPrefix(".") }) {
            var directory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: web.appending(path: name).path(), isDirectory: &directory) else { continue }
            if directory.boolValue { folders.append(name) } else { files.append(name) }
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "WebAssets.swift")
        // SwiftPM keeps this plan until the package's sources change, so the tool lists web/
        // itself when it runs, and the folders are inputs too: a file added or removed changes
        // its folder, which runs the tool again.
        return [
            .buildCommand(
                displayName: "Compiling the web app's files into \(target.name)",
                executable: try context.tool(named: "web-assets").url,
                arguments: [web.path(), output.path()],
                inputFiles: [web] + folders.sorted().map { web.appending(path: $0) } + files.sorted().map { web.appending(path: $0) },
                outputFiles: [output])
        ]
    }
}
