import Testing
import WaymarkCore

@testable import WaymarkAgent

/// `[driving]`: km/h in the file, m/s in the settings; out-of-range values named with their line.
@Suite struct DrivingConfigurationTests {
    @Test func speedsAreKilometresPerHourInTheFile() throws {
        let text = """
            [driving]
            min_speed = 20
            cornering_min_speed = 36
            overspeed_limit = 90
            overspeed_hysteresis = 3.6
            harsh_braking = 3.1
            min_duration = "0s"
            """
        let driving = try Configuration.parse(text, fileName: "waymark.toml").driving
        #expect(driving.minSpeed == 20 / 3.6)
        #expect(driving.corneringMinSpeed == 10)
        #expect(driving.overspeedLimit == 25)
        #expect(driving.overspeedHysteresis == 1)
        #expect(driving.harshBraking == 3.1)
        #expect(driving.minDuration == .zero)
        #expect(try Configuration.parse("", fileName: "waymark.toml").driving.overspeedLimit == nil)
    }

    @Test(
        arguments: [
            (
                "[driving]\nharsh_braking = 0",
                "waymark.toml:2: [driving] harsh_braking = 0: must be a number of m/s² from 0.1 to 20"
            ),
            (
                "[driving]\n\noverspeed_limit = -5",
                "waymark.toml:3: [driving] overspeed_limit = -5: must be a number of km/h from 1 to 500"
            ),
            (
                "[driving]\nwindow = \"0s\"",
                "waymark.toml:2: [driving] window = \"0s\": must be a duration more than 0s and at most 3s"
            ),
        ]
    )
    func rejects(text: String, expected: String) {
        let error = #expect(throws: ConfigurationError.self) { try Configuration.parse(text, fileName: "waymark.toml") }
        #expect(error?.description == expected)
    }
}
