/// Why the spool could not do what was asked: a message for a person, a code for the agent.
public struct SpoolError: Error, CustomStringConvertible, Sendable {
    public struct Code: Hashable, Sendable {
        private enum Value: Hashable, Sendable {
            case unusable
            case failed
        }

        private let value: Value

        /// The file is no spool, or is damaged: it must be moved aside.
        public static let unusable = Code(value: .unusable)
        /// A read or write failed (a full disk, an I/O error); the file may be fine.
        public static let failed = Code(value: .failed)
    }

    public var code: Code
    public var message: String
    public var cause: (any Error)?

    public init(_ code: Code, _ message: String, cause: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.cause = cause
    }

    public var description: String { message }
}
