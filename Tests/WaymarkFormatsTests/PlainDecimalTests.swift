import Testing
import WaymarkFormats

@Suite struct PlainDecimalTests {
    @Test(arguments: [
        (0.0, "0"), (-0.0, "0"), (12.0, "12"), (-12.5, "-12.5"), (49.026566667, "49.026566667"),
        (0.0000001, "0.0000001"), (1e-10, "0"), (-1e-10, "0"), (0.9999999996, "1"), (-179.9999999996, "-180"),
        (123_456_789.123456789, "123456789.123456791"), (1e15, "1000000000000000"),
        (1.5e20, "150000000000000000000"), (-2.5e-5, "-0.000025"),
    ])
    func numbersArePlainDecimals(value: Double, text: String) {
        var buffer: [UInt8] = []
        PlainDecimal(value).append(to: &buffer)
        #expect(String(decoding: buffer, as: UTF8.self) == text)
    }
}
