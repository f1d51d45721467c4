import Glibc
import WaymarkFormats
import WaymarkSystem

extension Configuration {
    /// The largest file ``load(contentsOf:)`` reads: far beyond any configuration, and a guard against being
    /// pointed at a device or a log file.
    static let maximumFileSize = 1 << 20

    /// Reads and checks the configuration file at `path`.
    ///
    /// Issues name the file by its last path component, as ``parse(_:fileName:)`` does.
    ///
    /// - Throws: ``ConfigurationError`` with every problem in the file, or with one issue naming `path` if the
    ///   file cannot be read (with the system's reason), is larger than 1 MiB or is not UTF-8 text.
    public static func load(contentsOf path: String) throws(ConfigurationError) -> Configuration {
        try loadDocument(contentsOf: path).configuration
    }

    /// Reads and checks the configuration file at `path` as ``load(contentsOf:)`` does, and returns its
    /// document too, where the lines of its keys are.
    static func loadDocument(
        contentsOf path: String
    ) throws(ConfigurationError) -> (configuration: Configuration, document: TOMLDocument, fileName: String) {
        let fileName = path.split(separator: "/").last.map(String.init) ?? path
        let bytes = try contents(ofFile: path)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ConfigurationError(issues: [
                ConfigurationIssue(
                    file: fileName,
                    line: lineOfFirstInvalidUTF8(in: bytes),
                    message: "the file is not UTF-8 text"
                )
            ])
        }
        let (configuration, document) = try parseDocument(text, fileName: fileName)
        return (configuration, document, fileName)
    }

    private static func contents(ofFile path: String) throws(ConfigurationError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw unreadable(path, reason: SystemError.reason(errno)) }
        defer { close(descriptor) }
        var contents: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = SystemCall.retryingInterrupts {
                chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            }
            if count < 0 { throw unreadable(path, reason: SystemError.reason(errno)) }
            if count == 0 { return contents }
            contents += chunk[..<count]
            if contents.count > maximumFileSize {
                throw unreadable(path, reason: "it is larger than 1 MiB, too large for a configuration file")
            }
        }
    }

    private static func unreadable(_ path: String, reason: String) -> ConfigurationError {
        ConfigurationError(issues: [ConfigurationIssue(file: path, message: "cannot read the file: \(reason)")])
    }

    private static func lineOfFirstInvalidUTF8(in bytes: [UInt8]) -> Int {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var line = 1
        while case .valid(let scalar) = parser.parseScalar(from: &iterator) {
            if scalar.count == 1 && scalar.first == UInt8(ascii: "\n") {
                line += 1
            }
        }
        return line
    }
}
