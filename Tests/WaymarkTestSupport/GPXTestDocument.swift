/// GPX documents written in the tests.
public enum GPXTestDocument {
    /// A GPX 1.1 document around `body`: the XML declaration is line 1, `<gpx>` line 2, and `body` starts on line 3.
    public static func gpx(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="Waymark tests" xmlns="http://www.topografix.com/GPX/1/1">
        \(body)
        </gpx>
        """
    }

    /// A document with one track segment holding `points`.
    public static func track(_ points: String) -> String {
        gpx("<trk><trkseg>\n\(points)\n</trkseg></trk>")
    }

    /// A route of three points 0.01° of latitude apart, on lines 4 to 6, without times.
    public static let untimedRoute = gpx(
        """
        <rte>
        <rtept lat="49.00" lon="12.0"/>
        <rtept lat="49.01" lon="12.0"/>
        <rtept lat="49.02" lon="12.0"><fix></fix></rtept>
        </rte>
        """
    )
}
