import GRDB
import WaymarkCore

extension Spool {
    /// Saves the trip in progress, replacing the one saved before.
    static func save(_ trip: TripSummary, _ db: Database) throws {
        try db.execute(
            sql: """
                INSERT OR REPLACE INTO open_trip (id, start, start_lat, start_lon, end, end_lat, end_lon, distance,
                    idle, stops, max_speed, avg_speed, regions)
                VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                milliseconds(trip.start), trip.startPosition.latitude, trip.startPosition.longitude,
                milliseconds(trip.end), trip.endPosition.latitude, trip.endPosition.longitude, trip.distance,
                Int64((trip.idleTime.secondsValue * 1000).rounded()), trip.stops, trip.maxSpeed, trip.averageSpeed,
                trip.regionsEntered.joined(separator: "\n"),
            ]
        )
    }

    /// The saved trip in progress, ending `interrupted`; nil when none is saved.
    static func openTrip(_ db: Database) throws -> TripSummary? {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM open_trip WHERE id = 1") else { return nil }
        let regions: String = row["regions"]
        return TripSummary(
            start: timestamp(row["start"]),
            startPosition: Coordinate(latitude: row["start_lat"], longitude: row["start_lon"]),
            end: timestamp(row["end"]),
            endPosition: Coordinate(latitude: row["end_lat"], longitude: row["end_lon"]),
            endReason: .interrupted,
            distance: row["distance"],
            idleTime: .milliseconds(row["idle"] as Int64),
            stops: row["stops"],
            maxSpeed: row["max_speed"],
            averageSpeed: row["avg_speed"],
            regionsEntered: regions.isEmpty ? [] : regions.split(separator: "\n").map(String.init)
        )
    }
}
