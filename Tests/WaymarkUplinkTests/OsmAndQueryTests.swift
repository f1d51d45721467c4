import Testing
import WaymarkUplink

/// The members the lines below share: their time and place, and the parameters these make.
private let eventTime = #""time":"2029-11-25T16:57:44.250Z""#
private let eventPlace = #""lat":49.026566667,"lon":12.065271667"#
private let positionParameters = "id=bus-42&timestamp=1890320264250&lat=49.026566667&lon=12.065271667"

/// Events as Traccar's OsmAnd protocol takes them, from the lines the spool keeps.
@Suite struct OsmAndQueryTests {
    @Test(
        "a position per location, pause, resume, region and trip; Traccar's units and keys",
        arguments: [
            (
                #"{"type":"location","seq":3,\#(eventTime),\#(eventPlace),"alt_hae":383.3,"alt_msl":336.7,"h_acc":19,"v_acc":34.5,"speed":10,"course":131.9,"mode":3}"#,
                "\(positionParameters)&speed=19.438&bearing=131.9&altitude=336.7&accuracy=19&seq=3"
            ),
            (
                #"{"type":"location","seq":4,\#(eventTime),\#(eventPlace),"alt_hae":383.3,"mode":2}"#,
                "\(positionParameters)&altitude=383.3&seq=4"
            ),
            (
                #"{"type":"pause","seq":9,\#(eventTime),"reason":"stationary",\#(eventPlace),"since":"2029-11-25T16:55:00.000Z"}"#,
                "\(positionParameters)&motion=false&event=pause&reason=stationary&seq=9"
            ),
            (
                #"{"type":"resume","seq":10,\#(eventTime),"reason":"moving",\#(eventPlace),"distance":212.5}"#,
                "\(positionParameters)&motion=true&event=resume&reason=moving&resumeDistance=212.5&seq=10"
            ),
            (
                #"{"type":"region","seq":11,\#(eventTime),"event":"enter","id":"depot north",\#(eventPlace),"confirmed":"2029-11-25T16:57:44.250Z"}"#,
                "\(positionParameters)&alarm=geofenceEnter&geofence=depot%20north&event=region&seq=11"
            ),
            (
                #"{"type":"region","seq":12,\#(eventTime),"event":"exit","id":"depot",\#(eventPlace),"confirmed":"2029-11-25T16:57:44.250Z"}"#,
                "\(positionParameters)&alarm=geofenceExit&geofence=depot&event=region&seq=12"
            ),
            (
                #"{"type":"trip","seq":13,\#(eventTime),"reason":"stationary",\#(eventPlace),"start_time":"2029-11-25T16:00:00.000Z","start_lat":49,"start_lon":12,"distance":15234.5,"duration":3464.25,"max_speed":27.5,"stops":2}"#,
                "\(positionParameters)&event=trip&tripDistance=15234.5&tripDuration=3464.25&tripMaxSpeed=53.456&seq=13"
            ),
            (
                #"{"type":"trip","seq":14,\#(eventTime),"reason":"shutdown",\#(eventPlace),"start_time":"2029-11-25T16:00:00.000Z","start_lat":49,"start_lon":12,"distance":10,"duration":60,"odometer_m":123456.7}"#,
                "\(positionParameters)&event=trip&odometer=123456.7&tripDistance=10&tripDuration=60&seq=14"
            ),
            (
                #"{"type":"driving","seq":15,\#(eventTime),"kind":"harsh_braking",\#(eventPlace),"peak":4.71,"duration":2,"speed":13.99,"speed_after":0}"#,
                "\(positionParameters)&speed=27.194&alarm=hardBraking&event=driving&kind=harsh_braking&peak=4.71&drivingDuration=2&seq=15"
            ),
            (
                #"{"type":"driving","seq":16,\#(eventTime),"kind":"harsh_acceleration",\#(eventPlace),"peak":2.6,"duration":1,"speed":10}"#,
                "\(positionParameters)&speed=19.438&alarm=hardAcceleration&event=driving&kind=harsh_acceleration&peak=2.6&drivingDuration=1&seq=16"
            ),
            (
                #"{"type":"driving","seq":17,\#(eventTime),"kind":"harsh_cornering",\#(eventPlace),"peak":5.05,"duration":2,"speed":15.9,"direction":"left"}"#,
                "\(positionParameters)&speed=30.907&alarm=hardCornering&event=driving&kind=harsh_cornering&peak=5.05&drivingDuration=2&seq=17"
            ),
            (
                #"{"type":"driving","seq":18,\#(eventTime),"kind":"overspeed_start",\#(eventPlace),"peak":18,"duration":5,"speed":17,"limit":16.67}"#,
                "\(positionParameters)&speed=33.045&alarm=overspeed&event=driving&kind=overspeed_start&peak=34.989&drivingDuration=5&speedLimit=32.404&seq=18"
            ),
            (
                #"{"type":"driving","seq":19,\#(eventTime),"kind":"overspeed_end",\#(eventPlace),"peak":18,"duration":8,"speed":15,"limit":16.67}"#,
                "\(positionParameters)&speed=29.158&event=driving&kind=overspeed_end&peak=34.989&drivingDuration=8&speedLimit=32.404&seq=19"
            ),
        ]
    )
    func sent(line: String, expected: String) throws {
        let event = try EventLine(Array(line.utf8))
        #expect(OsmAndQuery.query(for: event, deviceID: "bus-42") == expected)
    }

    @Test(
        "events Traccar keeps nothing of, and events without a position, are not sent",
        arguments: [
            #"{"type":"heading","seq":1,\#(eventTime),"magnetic":12,"true":15,"accuracy":5,"source":"course","declination":3}"#,
            #"{"type":"status","seq":2,\#(eventTime),"gpsd":"connected","fix_mode":3}"#,
            #"{"type":"error","seq":3,\#(eventTime),"code":"no_device","message":"gone"}"#,
            #"{"type":"pause","seq":4,\#(eventTime),"reason":"no_fix"}"#,
            #"{"type":"region","seq":5,\#(eventTime),"event":"enter",\#(eventPlace)}"#,
        ]
    )
    func notSent(line: String) throws {
        #expect(OsmAndQuery.query(for: try EventLine(Array(line.utf8)), deviceID: "bus-42") == nil)
    }

    @Test("the device id and every other value are percent-encoded but for RFC 3986's unreserved characters")
    func encoding() throws {
        let line = #"{"type":"location","seq":1,\#(eventTime),\#(eventPlace)}"#
        let query = OsmAndQuery.query(for: try EventLine(Array(line.utf8)), deviceID: "bus 42/ä&id=x~_.")
        #expect(query?.hasPrefix("id=bus%2042%2F%C3%A4%26id%3Dx~_.&timestamp=") == true)
    }
}
