import Foundation

extension Fixtures {
    /// The path of a test tool's program, built from `Tests/Tools/<tool>` by its `build-debian.sh` into `build`
    /// under the temporary directory, once per machine (the script installs the Debian packages it needs when
    /// they are missing and prints the program's path).
    ///
    /// - Parameter build: the build's directory name: a new name for every change of the tool's sources.
    static func buildTool(_ tool: String, into build: String) throws -> String {
        let tools = packageRoot.appendingPathComponent("Tests/Tools/\(tool)")
        let out = FileManager.default.temporaryDirectory.appendingPathComponent(build).path
        let result = try WaymarkBinary.run(
            [tools.appendingPathComponent("build-debian.sh").path, out],
            executable: "/bin/bash",
            timeout: 900
        )
        let path = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
        guard result.status == 0, FileManager.default.isExecutableFile(atPath: path) else {
            throw TestServerError("Tests/Tools/\(tool) did not build (\(out)/build.log): \(result.stderr)")
        }
        return path
    }
}
