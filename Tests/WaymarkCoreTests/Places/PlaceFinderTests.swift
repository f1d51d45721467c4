import Testing
import WaymarkCore

/// Sites before the gazetteer, the distance limit, and how a place reads.
@Suite struct PlaceFinderTests {
    static let gazetteer = Result { try Gazetteer(copying: try GazetteerFileTests.built(), file: "places.bin") }

    /// A depot (a 100 m circle) 2 km west of Regensburg's point, an unnamed region on Regensburg, and a yard
    /// (a polygon) inside the depot.
    static let sites: RegionIndex = {
        let depot = Coordinate(latitude: 49.015_13, longitude: 12.074_2)
        let regions = [
            Region(id: "depot-north", name: "Depot North", shape: .circle(center: depot, radius: 100)),
            Region(
                id: "unnamed",
                shape: .circle(center: Coordinate(latitude: 49.015_13, longitude: 12.101_61), radius: 500)
            ),
            Region(
                id: "yard",
                name: "Yard 3",
                shape: .polygons([
                    [
                        [
                            Coordinate(latitude: 49.0150, longitude: 12.0740),
                            Coordinate(latitude: 49.0150, longitude: 12.0744),
                            Coordinate(latitude: 49.0153, longitude: 12.0744),
                            Coordinate(latitude: 49.0153, longitude: 12.0740),
                            Coordinate(latitude: 49.0150, longitude: 12.0740),
                        ]
                    ]
                ])
            ),
        ]
        return RegionIndex(regions.map { try! PreparedRegion($0) })
    }()

    @Test(
        "sites win over the gazetteer: inside, near, beyond the site radius",
        arguments: [
            (Coordinate(latitude: 49.015_13, longitude: 12.074_6), "at Depot North"),
            (Coordinate(latitude: 49.0151, longitude: 12.0742), "at Yard 3"),
            (Coordinate(latitude: 49.015_13, longitude: 12.0786), "220 m from Depot North"),
            (Coordinate(latitude: 49.015_13, longitude: 12.0856), "1.2 km W of Regensburg, DE"),
            (Coordinate(latitude: 49.015_13, longitude: 12.1017), "in Regensburg, DE"),
        ]
    )
    func sitesFirst(point: Coordinate, description: String) throws {
        let finder = PlaceFinder(gazetteer: try Self.gazetteer.get(), settings: PlaceSettings(siteRadius: 500))
        #expect(finder.place(at: point, sites: Self.sites)?.description == description)
    }

    @Test func farFromEveryPlaceHasNone() throws {
        let finder = PlaceFinder(gazetteer: try Self.gazetteer.get(), settings: PlaceSettings(maxDistance: 50_000))
        let lookup = finder.lookup(Coordinate(latitude: 30, longitude: -40))
        guard case .tooFar(let nearest, let limit) = lookup else {
            Issue.record("expected too far, got \(lookup)")
            return
        }
        #expect(limit == 50_000 && nearest.distance > 50_000)
        #expect(lookup.json.hasPrefix(#"{"place":null,"reason":"no populated place within 50 km"#))
        #expect(PlaceFinder(gazetteer: nil).lookup(Coordinate(latitude: 0, longitude: 0)) == .none)
    }

    @Test(
        "a place reads as a person says it",
        arguments: [
            (Place(name: "Kelheim", country: "DE", distance: 3_214, bearing: 44), "3.2 km NE of Kelheim, DE"),
            (Place(name: "Kelheim", country: "DE", distance: 18_400, bearing: 181), "18 km S of Kelheim, DE"),
            (Place(name: "Kelheim", country: "DE", distance: 640, bearing: 292), "640 m W of Kelheim, DE"),
            (Place(name: "Kelheim", country: "DE", distance: 0), "in Kelheim, DE"),
            (Place(name: "Kelheim", country: "DE", distance: 199, bearing: 10), "in Kelheim, DE"),
            (Place(name: "Kelheim", country: "DE", distance: 1_000, bearing: 359), "1.0 km N of Kelheim, DE"),
            (Place(name: "Depot North", site: "d", distance: 0), "at Depot North"),
            (Place(name: "Depot North", site: "d", distance: 204), "200 m from Depot North"),
        ]
    )
    func description(place: Place, text: String) {
        #expect(place.description == text)
    }

    @Test func aSiteWithoutAGazetteerHasNoTimeZone() {
        let place = PlaceFinder(gazetteer: nil).place(
            at: Coordinate(latitude: 49.015_13, longitude: 12.074_6),
            sites: Self.sites
        )
        #expect(place?.site == "depot-north" && place?.timezone == nil)
    }

    @Test func eventsCarryTheirPlaces() throws {
        let finder = PlaceFinder(gazetteer: try Self.gazetteer.get())
        let start = Coordinate(latitude: 49.015_13, longitude: 12.074_6)
        let end = Coordinate(latitude: 48.92, longitude: 11.89)
        var trip = Event(
            time: Timestamp(seconds: 1_800_000_000),
            kind: .trip(
                TripSummary(
                    start: Timestamp(seconds: 1_799_999_000),
                    startPosition: start,
                    end: Timestamp(seconds: 1_800_000_000),
                    endPosition: end,
                    endReason: .stationary,
                    distance: 18_000,
                    idleTime: .zero,
                    stops: 0,
                    maxSpeed: nil,
                    averageSpeed: nil,
                    regionsEntered: []
                )
            )
        )
        finder.name(&trip, sites: Self.sites)
        let line = EventEncoder().line(trip)
        // A site keeps the time zone of the nearest place, for trip times in local time.
        let depot =
            #""start_place":{"name":"Depot North","site":"depot-north","timezone":"Europe/Berlin","distance":0}"#
        #expect(line.contains(depot), "\(line)")
        let kelheim = #""end_place":{"name":"Kelheim","country":"DE","admin1":"02","timezone":"Europe/Berlin","#
        #expect(line.contains(kelheim + #""geonameid":2891834,"distance":"#))
        var pause = Event(
            time: Timestamp(seconds: 1_800_000_030),
            kind: .pause(PauseReport(reason: .stationary, position: end, since: Timestamp(seconds: 1_800_000_000)))
        )
        finder.name(&pause, sites: nil)
        #expect(EventEncoder().line(pause).contains(#""place":{"name":"Kelheim","country":"DE""#))
    }
}
