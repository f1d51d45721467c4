import CLibGPS

/// Facts about the libgps this binary was built against.
public enum LibGPS {
    /// `GPSD_API_MAJOR_VERSION.GPSD_API_MINOR_VERSION` of the header (11.0 is gpsd 3.22).
    public static var apiVersion: String { "\(waymark_api_major()).\(waymark_api_minor())" }
}
