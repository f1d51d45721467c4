/// What is wrong with a header, key or value, without its position, which the parser adds to make a
/// ``TOMLSyntaxError``.
struct TOMLRefusal: Error {
    var message: String

    init(_ message: String) {
        self.message = message
    }
}
