extension PlaceFinder {
    /// Names the places of `event`: a `pause`'s position, a `trip`'s start and end. Other events are left as
    /// they are, and so are positions without a place (far from any, or no gazetteer).
    public func name(_ event: inout Event, sites: RegionIndex?) {
        switch event.kind {
        case .pause(var pause):
            guard let position = pause.position else { return }
            pause.place = place(at: position, sites: sites)
            event.kind = .pause(pause)
        case .trip(var trip):
            trip.startPlace = place(at: trip.startPosition, sites: sites)
            trip.endPlace = place(at: trip.endPosition, sites: sites)
            event.kind = .trip(trip)
        default:
            return
        }
    }
}
