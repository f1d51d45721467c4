import Testing
import WaymarkCore

@Suite struct TimestampTests {
    /// 2010-04-11T16:57:44Z, the first fix of the Regensburg capture.
    static let regensburg: Int64 = 1_271_005_064

    struct Step: Sendable, CustomTestStringConvertible {
        let start: Timestamp
        let duration: Duration
        let end: Timestamp
        let testDescription: String
    }

    static let steps: [Step] = [
        Step(
            start: Timestamp(seconds: 10, nanoseconds: 900_000_000),
            duration: .milliseconds(200),
            end: Timestamp(seconds: 11, nanoseconds: 100_000_000),
            testDescription: "forward across a second boundary"
        ),
        Step(
            start: Timestamp(seconds: 11, nanoseconds: 100_000_000),
            duration: .milliseconds(-200),
            end: Timestamp(seconds: 10, nanoseconds: 900_000_000),
            testDescription: "backward across a second boundary"
        ),
        Step(
            start: Timestamp(seconds: 0),
            duration: .nanoseconds(-1),
            end: Timestamp(seconds: -1, nanoseconds: 999_999_999),
            testDescription: "one nanosecond before the epoch"
        ),
        Step(
            start: Timestamp(seconds: 5),
            duration: .seconds(-10),
            end: Timestamp(seconds: -5),
            testDescription: "whole seconds into the negative"
        ),
        Step(
            start: Timestamp(seconds: 1, nanoseconds: 500_000_000),
            duration: .milliseconds(-1500),
            end: Timestamp(seconds: 0),
            testDescription: "back to exactly zero"
        ),
        Step(
            start: Timestamp(seconds: 7, nanoseconds: 999_999_999),
            duration: .nanoseconds(1),
            end: Timestamp(seconds: 8),
            testDescription: "one nanosecond carries into the seconds"
        ),
        Step(
            start: Timestamp(seconds: regensburg, nanoseconds: 250_000_000),
            duration: .seconds(86_400) + .milliseconds(800),
            end: Timestamp(seconds: regensburg + 86_401, nanoseconds: 50_000_000),
            testDescription: "a day and a fraction"
        ),
        Step(
            start: Timestamp(seconds: -14_182_940),
            duration: .zero,
            end: Timestamp(seconds: -14_182_940),
            testDescription: "zero before 1970"
        ),
    ]

    @Test(arguments: steps)
    func advancedByDurationLandsOnTheExpectedInstant(_ step: Step) {
        #expect(step.start.advanced(by: step.duration) == step.end)
    }

    @Test(arguments: steps)
    func durationSinceIsTheInverseOfAdvanced(_ step: Step) {
        #expect(step.end.duration(since: step.start) == step.duration)
        #expect(step.start.duration(since: step.end) == .zero - step.duration)
    }

    @Test func durationSinceALaterInstantIsNegative() {
        let earlier = Timestamp(seconds: 100, nanoseconds: 999_000_000)
        let later = Timestamp(seconds: 101, nanoseconds: 1_000_000)
        #expect(later.duration(since: earlier) == .milliseconds(2))
        #expect(earlier.duration(since: later) == .milliseconds(-2))
        #expect(earlier.duration(since: later) < .zero)
    }

    @Test func orderIsBySecondsThenNanoseconds() {
        let ordered = [
            Timestamp(seconds: -2, nanoseconds: 999_999_999),
            Timestamp(seconds: -1),
            Timestamp(seconds: -1, nanoseconds: 1),
            Timestamp(seconds: 0),
            Timestamp(seconds: 0, nanoseconds: 999_999_999),
            Timestamp(seconds: 1),
        ]
        #expect(ordered.reversed().sorted() == ordered)
        for (earlier, later) in zip(ordered, ordered.dropFirst()) {
            #expect(earlier < later)
            #expect(!(later < earlier))
        }
    }

    struct Conversion: Sendable, CustomTestStringConvertible {
        let value: Double
        let seconds: Int64
        let nanoseconds: Int32
        var testDescription: String { "\(value)" }
    }

    @Test(arguments: [
        Conversion(value: 0, seconds: 0, nanoseconds: 0),
        Conversion(value: 1.5, seconds: 1, nanoseconds: 500_000_000),
        Conversion(value: -0.5, seconds: -1, nanoseconds: 500_000_000),
        Conversion(value: -1, seconds: -1, nanoseconds: 0),
        Conversion(value: 1.999_999_999_9, seconds: 2, nanoseconds: 0),
        Conversion(value: -1e-10, seconds: 0, nanoseconds: 0),
        Conversion(value: 1_271_005_064.25, seconds: 1_271_005_064, nanoseconds: 250_000_000),
    ])
    func secondsSince1970ConvertsToWholeSecondsAndNanoseconds(_ conversion: Conversion) {
        let timestamp = Timestamp(secondsSince1970: conversion.value)
        #expect(timestamp.seconds == conversion.seconds)
        #expect(timestamp.nanoseconds == conversion.nanoseconds)
        #expect(abs(timestamp.secondsSince1970 - conversion.value) < 1e-6)
    }

    @Test func descriptionIsTheISO8601Text() {
        let timestamp = Timestamp(seconds: Self.regensburg, nanoseconds: 123_000_000)
        #expect(timestamp.description == "2010-04-11T16:57:44.123Z")
        #expect("\(timestamp)" == timestamp.iso8601)
    }
}
