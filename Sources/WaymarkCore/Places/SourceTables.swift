/// The countries of a gazetteer's source, and the admin1 codes and time zones its places name, each
/// numbered once in the order first met.
struct SourceTables {
    var countryCodes: [String] = []
    var countryNames: [String] = []
    var countryIndices: [String: UInt8] = [:]
    var admin1 = Numbering()
    var timezones = Numbering()

    /// Reads `iso name` lines after a header line.
    init(countries: [UInt8], name source: String) throws(GazetteerError) {
        var lineNumber = 0
        var problem: GazetteerError?
        GazetteerBuilder.forEachLine(of: countries) { line in
            lineNumber += 1
            guard lineNumber > 1, problem == nil, !line.isEmpty else { return }
            let fields = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
            let code = String(decoding: fields[0], as: UTF8.self)
            guard fields.count == 2, code.utf8.count == 2, code.utf8.allSatisfy({ (65...90).contains($0) }) else {
                problem = GazetteerBuilder.malformed(
                    source,
                    lineNumber,
                    "expected 2 tab-separated fields, an ISO 3166-1 alpha-2 code (two capital letters) and a name"
                )
                return
            }
            guard countryIndices[code] == nil else {
                problem = GazetteerBuilder.malformed(source, lineNumber, "the country \(code) is listed twice")
                return
            }
            guard countryCodes.count < GazetteerLayout.maximumCountries else {
                problem = GazetteerBuilder.malformed(
                    source,
                    lineNumber,
                    "more than \(GazetteerLayout.maximumCountries) countries"
                )
                return
            }
            countryIndices[code] = UInt8(countryCodes.count)
            countryCodes.append(code)
            countryNames.append(String(decoding: fields[1], as: UTF8.self))
        }
        if let problem { throw problem }
    }

    /// Strings numbered from 0 in the order first met.
    struct Numbering {
        private(set) var strings: [String] = []
        private var indices: [String: UInt16] = [:]

        var count: Int { strings.count }

        /// The number of `string`, numbering it if new; saturates at UInt16.max (the builder refuses that many).
        mutating func index(of string: String) -> UInt16 {
            if let index = indices[string] { return index }
            let index = UInt16(clamping: strings.count)
            strings.append(string)
            indices[string] = index
            return index
        }
    }
}
