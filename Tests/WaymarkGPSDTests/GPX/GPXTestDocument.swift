import WaymarkGPSD

/// GPX documents written in the tests.
enum GPXTestDocument {
    /// A GPX 1.1 document around `body`: the XML declaration is line 1, `<gpx>` line 2, and `body` starts on line 3.
    static func gpx(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="Waymark tests" xmlns="http://www.topografix.com/GPX/1/1">
        \(body)
        </gpx>
        """
    }

    /// A document with one track segment holding `points`.
    static func track(_ points: String) -> String {
        gpx("<trk><trkseg>\n\(points)\n</trkseg></trk>")
    }

    static func parse(_ text: String, fileName: String = "test.gpx") throws(GPXError) -> GPXFile {
        try GPXFile.parse(Array(text.utf8), fileName: fileName)
    }
}
