extension RegionFile {
    /// One region of a region file: an area (a circle or polygons) or a beacon region. Ids are unique across
    /// both kinds.
    public enum Entry: Hashable, Sendable {
        case geographic(Region)
        case beacon(BeaconRegion)

        public var id: String {
            switch self {
            case .geographic(let region): region.id
            case .beacon(let region): region.id
            }
        }

        public var name: String? {
            get {
                switch self {
                case .geographic(let region): region.name
                case .beacon(let region): region.name
                }
            }
            set {
                switch self {
                case .geographic(var region):
                    region.name = newValue
                    self = .geographic(region)
                case .beacon(var region):
                    region.name = newValue
                    self = .beacon(region)
                }
            }
        }

        /// The geographic region; nil for a beacon region.
        public var region: Region? {
            if case .geographic(let region) = self { region } else { nil }
        }

        /// The beacon region; nil for a geographic region.
        public var beaconRegion: BeaconRegion? {
            if case .beacon(let region) = self { region } else { nil }
        }
    }
}
