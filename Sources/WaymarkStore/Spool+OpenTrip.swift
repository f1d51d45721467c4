import WaymarkCore

extension Spool {
    /// Saves the trip in progress, replacing the one saved before.
    static func save(_ trip: TripSummary, _ database: Database) throws(SQLiteError) {
        try database.run(
            """
            INSERT OR REPLACE INTO open_trip (id, start, start_lat, start_lon, end, end_lat, end_lon, distance,
                idle, stops, max_speed, avg_speed, regions)
            VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            milliseconds(trip.start),
            trip.startPosition.latitude,
            trip.startPosition.longitude,
            milliseconds(trip.end),
            trip.endPosition.latitude,
            trip.endPosition.longitude,
            trip.distance,
            Int64((trip.idleTime.secondsValue * 1000).rounded()),
            trip.stops,
            trip.maxSpeed,
            trip.averageSpeed,
            trip.regionsEntered.joined(separator: "\n")
        )
    }

    /// The saved trip in progress, ending `interrupted`; nil when none is saved.
    static func openTrip(_ database: Database) throws(SQLiteError) -> TripSummary? {
        try database.first(
            """
            SELECT start, start_lat, start_lon, end, end_lat, end_lon, distance, idle, stops, max_speed, avg_speed,
                regions
            FROM open_trip WHERE id = 1
            """
        ) { row in
            let regions = row.text(at: 11)
            return TripSummary(
                start: timestamp(row.int64(at: 0)),
                startPosition: Coordinate(latitude: row.double(at: 1), longitude: row.double(at: 2)),
                end: timestamp(row.int64(at: 3)),
                endPosition: Coordinate(latitude: row.double(at: 4), longitude: row.double(at: 5)),
                endReason: .interrupted,
                distance: row.double(at: 6),
                idleTime: .milliseconds(row.int64(at: 7)),
                stops: Int(row.int64(at: 8)),
                maxSpeed: row.isNull(at: 9) ? nil : row.double(at: 9),
                averageSpeed: row.isNull(at: 10) ? nil : row.double(at: 10),
                regionsEntered: regions.isEmpty ? [] : regions.split(separator: "\n").map(String.init)
            )
        }
    }
}
