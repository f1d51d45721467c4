import Glibc

/// The gpsd executable that reads raw receiver logs for `waymark replay`.
public struct GPSDProgram: Sendable, Equatable {
    /// Where gpsd is looked for when no path is given: Debian's place, a local build's, then `PATH`.
    static let standardPlaces = ["/usr/sbin/gpsd", "/usr/local/sbin/gpsd"]

    /// The executable's path.
    public let path: String

    /// gpsd at `path`, which must be an executable file.
    public init(path: String) {
        self.path = path
    }

    /// The gpsd to run: `override` (the `GPSD` environment variable) when given, else the first executable of
    /// `/usr/sbin/gpsd`, `/usr/local/sbin/gpsd` and `gpsd` in the directories of `searchPath`.
    ///
    /// - Throws: ``ReplayError`` with ``ReplayError/Code/gpsdMissing`` when there is none; `purpose` says what
    ///   the caller needed it for, and starts the message.
    public static func locate(
        override: String?,
        searchPath: String?,
        for purpose: String
    ) throws(ReplayError) -> GPSDProgram {
        try locate(override: override, searchPath: searchPath, for: purpose, places: standardPlaces)
    }

    /// ``locate(override:searchPath:for:)`` with other standard `places` (the tests: a machine without gpsd).
    static func locate(
        override: String?,
        searchPath: String?,
        for purpose: String,
        places: [String]
    ) throws(ReplayError) -> GPSDProgram {
        if let override, !override.isEmpty {
            guard isExecutableFile(override) else {
                throw ReplayError(
                    "\(purpose), and GPSD=\(override) is no executable file: set GPSD to gpsd's path",
                    code: .gpsdMissing
                )
            }
            return GPSDProgram(path: override)
        }
        let searched = (searchPath ?? "").split(separator: ":").map { "\($0)/gpsd" }
        if let found = (places + searched).first(where: isExecutableFile) { return GPSDProgram(path: found) }
        throw ReplayError(
            "\(purpose), and gpsd is not installed (no \(places.joined(separator: ", ")) nor gpsd in PATH): "
                + "install Debian's gpsd package, or set GPSD to gpsd's path",
            code: .gpsdMissing
        )
    }

    private static func isExecutableFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG && access(path, X_OK) == 0
    }
}
