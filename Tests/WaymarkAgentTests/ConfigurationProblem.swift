import WaymarkAgent

/// What `Configuration.parse` says of `text` read as `waymark.toml`: the one line of its error, or nil when it
/// reads the text.
func configurationProblem(_ text: String) -> String? {
    do {
        _ = try Configuration.parse(text, fileName: "waymark.toml")
        return nil
    } catch {
        return error.description
    }
}
