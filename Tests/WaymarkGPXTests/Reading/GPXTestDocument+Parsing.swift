import WaymarkGPX
import WaymarkTestSupport

extension GPXTestDocument {
    static func parse(_ text: String, fileName: String = "test.gpx") throws(GPXError) -> GPXFile {
        try GPXFile.parse(Array(text.utf8), fileName: fileName)
    }
}
