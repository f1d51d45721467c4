/// Why a region file was rejected as a whole: every problem found in it, in the order of the file.
public struct RegionFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The problems, at least one, ordered by position.
    public var problems: [RegionFileProblem]

    public init(problems: [RegionFileProblem]) {
        self.problems = problems
    }

    /// One line per problem.
    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
