/// The answer to "where is this?" (``PlaceFinder/lookup(_:sites:)``).
public enum PlaceLookup: Hashable, Sendable {
    /// An operator's site, or the nearest populated place within `max_distance`.
    case found(Place)
    /// The nearest populated place is farther than `max_distance`: at sea, in a desert.
    case tooFar(nearest: Place, maxDistance: Double)
    /// No gazetteer (and no site there), or a coordinate out of range.
    case none

    /// The place, when there is one to name.
    public var place: Place? {
        if case .found(let place) = self { return place }
        return nil
    }
}
