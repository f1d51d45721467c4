/// One address as the builder holds it.
struct SourceAddress {
    var houseNumber: UInt32
    var street: UInt32
    var locality: UInt32
    /// 1e-7 degree.
    var latitude: Int32 = 0
    var longitude: Int32 = 0
    /// The OSM object: id × 2, + 1 for a way.
    var object: UInt64 = 0

    /// Earth-centred, metres, rounded to Float.
    var position: (x: Float, y: Float, z: Float) {
        let exact = EarthCentered(SourcePlace.coordinate(latitude: latitude, longitude: longitude))
        return (Float(exact.x), Float(exact.y), Float(exact.z))
    }
}
