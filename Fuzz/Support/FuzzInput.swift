/// What every fuzz target shares: the input as bytes, and the check that turns a broken promise into a crash
/// libFuzzer keeps (a crash, a hang and running out of memory it catches by itself).

/// The bytes libFuzzer hands a target, copied: the readers take arrays, as they take a file's contents.
func fuzzInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
    guard let data, size > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: data, count: size))
}

/// Stops the run when a reader breaks a promise it makes (a round trip, a bound): libFuzzer then writes the
/// input beside the message, and the input becomes a fixture test.
func require(
    _ condition: Bool,
    _ message: @autoclosure () -> String,
    file: StaticString = #fileID,
    line: UInt = #line
) {
    if !condition { fatalError(message(), file: file, line: line) }
}

/// The input split at its first byte `separator`: a target that takes two things (an HTTP status line and a
/// body, a command and its accepted set) takes them from one input, so that libFuzzer mutates both.
func split(_ input: [UInt8], at separator: UInt8) -> (head: ArraySlice<UInt8>, tail: ArraySlice<UInt8>) {
    guard let index = input.firstIndex(of: separator) else { return (input[...], []) }
    return (input[..<index], input[(index + 1)...])
}
