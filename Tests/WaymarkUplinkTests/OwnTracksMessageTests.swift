import Testing
import WaymarkUplink

/// Events as OwnTracks messages, from the lines the spool keeps.
@Suite struct OwnTracksMessageTests {
    private static let time = #""time":"2029-11-25T16:57:44.750Z""#
    private static let place = #""lat":49.026566667,"lon":12.065271667"#

    @Test(
        "a location per location, a transition per region crossing; OwnTracks' units, whole numbers",
        arguments: [
            (
                #"{"type":"location","seq":3,\#(time),\#(place),"alt_hae":383.3,"alt_msl":336.7,"h_acc":19.4,"v_acc":34.5,"speed":10,"course":131.9,"mode":3}"#,
                "",
                #"{"_type":"location","lat":49.026566667,"lon":12.065271667,"tst":1890320264,"acc":19,"alt":337,"vac":35,"vel":36,"cog":132,"tid":"42","t":"t","inregions":["depot"],"seq":3}"#
            ),
            (
                #"{"type":"location","seq":4,\#(time),\#(place),"alt_hae":383.3,"mode":2}"#,
                "",
                #"{"_type":"location","lat":49.026566667,"lon":12.065271667,"tst":1890320264,"alt":383,"tid":"42","t":"t","inregions":["depot"],"seq":4}"#
            ),
            (
                #"{"type":"region","seq":11,\#(time),"event":"exit","id":"depot",\#(place),"confirmed":"2029-11-25T16:57:44.250Z"}"#,
                "/event",
                #"{"_type":"transition","lat":49.026566667,"lon":12.065271667,"tst":1890320264,"wtst":1890320264,"tid":"42","event":"leave","desc":"depot","t":"c","seq":11}"#
            ),
            // Traccar's OwnTracks decoder: `t` "h" with `rty` 0 braking, 1 acceleration, 2 cornering; "s" overspeed.
            (
                #"{"type":"driving","seq":15,\#(time),"kind":"harsh_braking",\#(place),"peak":4.71,"duration":2,"speed":13.99,"speed_after":0}"#,
                "",
                #"{"_type":"location","lat":49.026566667,"lon":12.065271667,"tst":1890320264,"vel":50,"tid":"42","t":"h","rty":0,"kind":"harsh_braking","peak":4.71,"inregions":["depot"],"seq":15}"#
            ),
            (
                #"{"type":"driving","seq":16,\#(time),"kind":"harsh_cornering",\#(place),"peak":5.05,"duration":2,"speed":15.9,"direction":"left"}"#,
                "",
                #"{"_type":"location","lat":49.026566667,"lon":12.065271667,"tst":1890320264,"vel":57,"tid":"42","t":"h","rty":2,"kind":"harsh_cornering","peak":5.05,"inregions":["depot"],"seq":16}"#
            ),
            (
                #"{"type":"driving","seq":17,\#(time),"kind":"overspeed_start",\#(place),"peak":18,"duration":5,"speed":17,"limit":16.67}"#,
                "",
                #"{"_type":"location","lat":49.026566667,"lon":12.065271667,"tst":1890320264,"vel":61,"tid":"42","t":"s","kind":"overspeed_start","peak":18,"inregions":["depot"],"seq":17}"#
            ),
        ]
    )
    func publication(line: String, topicSuffix: String, payload: String) throws {
        let event = try EventLine(Array(line.utf8))
        let publication = try #require(OwnTracksMessage.publication(for: event, tid: "42", inside: ["depot"]))
        #expect(publication.topicSuffix == topicSuffix)
        #expect(String(decoding: publication.payload, as: UTF8.self) == payload)
    }

    @Test(arguments: [
        #"{"type":"heading","seq":5,\#(time),"magnetic":12.5,"true":15,"accuracy":2,"source":"course"}"#,
        #"{"type":"pause","seq":6,\#(time),"reason":"stationary",\#(place)}"#,
        #"{"type":"location","seq":7,\#(time),"mode":2}"#,
        #"{"type":"driving","seq":8,\#(time),"kind":"overspeed_end",\#(place),"peak":18,"duration":8,"speed":15}"#,
    ])
    func nothingForWhatOwnTracksHasNoMessageFor(line: String) throws {
        #expect(OwnTracksMessage.publication(for: try EventLine(Array(line.utf8)), tid: "42", inside: []) == nil)
    }

    @Test func theLastWillIsAnLWTMessage() {
        #expect(
            String(decoding: OwnTracksMessage.lastWill(connectedAt: 1_890_320_264), as: UTF8.self)
                == #"{"_type":"lwt","tst":1890320264}"#
        )
    }
}
