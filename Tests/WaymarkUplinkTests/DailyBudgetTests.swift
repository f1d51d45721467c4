import Testing
import WaymarkCore
import WaymarkUplink

/// `max_bytes_per_day`: bytes counted per UTC day.
@Suite struct DailyBudgetTests {
    static let day = Timestamp(seconds: 20_000 * 86_400)

    @Test func exhaustedAtTheLimitAndWholeAgainAtMidnight() {
        var budget = DailyBudget(limit: 1000)
        #expect(!budget.isExhausted(at: Self.day))
        budget.spend(600, at: Self.day.advanced(by: .seconds(10)))
        #expect(!budget.isExhausted(at: Self.day.advanced(by: .seconds(20))))
        budget.spend(400, at: Self.day.advanced(by: .seconds(30)))
        #expect(budget.isExhausted(at: Self.day.advanced(by: .seconds(86_399))))
        #expect(!budget.isExhausted(at: Self.day.advanced(by: .seconds(86_400))))
        budget.spend(10, at: Self.day.advanced(by: .seconds(86_401)))
        #expect(budget.spent == 10)
    }

    @Test(arguments: [(0, 86_400), (86_399, 1), (43_200, 43_200)])
    func untilTomorrow(secondsIntoTheDay: Int64, expected: Int64) {
        #expect(
            DailyBudget.untilTomorrow(from: Self.day.advanced(by: .seconds(secondsIntoTheDay))) == .seconds(expected)
        )
    }

    @Test func aClockBefore1970CountsItsOwnDays() {
        var budget = DailyBudget(limit: 1)
        budget.spend(1, at: Timestamp(seconds: -1))
        #expect(budget.isExhausted(at: Timestamp(seconds: -86_400)))
        #expect(!budget.isExhausted(at: Timestamp(seconds: 0)))
    }
}
