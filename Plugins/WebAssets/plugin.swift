import Foundation
import PackagePlugin

/// Compiles the web app (the `web/` folder) into the target: each file becomes a string in a
/// generated `WebAssets.swift`, so the binary serves the app with nothing beside it, and the
/// files are edited in one place only.
@main struct WebAssetsPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let web = context.package.directoryURL.appending(path: "web")
        let names = (try? FileManager.default.subpathsOfDirectory(atPath: web.path())) ?? []
        let files = names.filter { name in
            var directory: ObjCBool = false
            return !name.split(separator: "/").contains { $0.hasPrefix(".") }
                && FileManager.default.fileExists(atPath: web.appending(path: name).path(), isDirectory: &directory) && !directory.boolValue
        }.sorted()
        let output = context.pluginWorkDirectoryURL.appending(path: "WebAssets.swift")
        return [
            .buildCommand(
                displayName: "Compiling the web app's \(files.count) files into \(target.name)",
                executable: try context.tool(named: "web-assets").url,
                arguments: [web.path(), output.path()] + files,
                inputFiles: files.map { web.appending(path: $0) },
                outputFiles: [output])
        ]
    }
}
