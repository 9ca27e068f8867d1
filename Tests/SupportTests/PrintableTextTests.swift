import Support
import Testing

/// Peer- and user-supplied text reaches log lines and messages only through `printable`.
@Suite("Printable text")
struct PrintableTextTests {
    @Test("control characters, DEL, C1 and line separators are written as escapes")
    func escapes() {
        #expect(printable("a\nb") == "a\\u{a}b")
        #expect(printable("x\u{7F}") == "x\\u{7f}")
        #expect(printable("\u{85}") == "\\u{85}")
        #expect(printable("\u{2028}") == "\\u{2028}")
        #expect(printable("Living Room é 👍") == "Living Room é 👍")
    }

    @Test("at most 64 scalars, with an ellipsis where it was cut")
    func cut() {
        let exact = String(repeating: "a", count: 64)
        #expect(printable(exact) == exact)
        #expect(printable(exact + "b") == exact + "…")
    }
}

@Suite("Log throttle")
struct LogThrottleTests {
    @Test("the first line passes, the rest of the interval are counted, the next says how many")
    func holdsBack() {
        let throttle = LogThrottle(interval: .seconds(60))
        let start = ContinuousClock.now
        #expect(throttle.admit(now: start) == 0)
        #expect(throttle.admit(now: start + .seconds(1)) == nil)
        #expect(throttle.admit(now: start + .seconds(59)) == nil)
        #expect(throttle.admit(now: start + .seconds(60)) == 2)
        #expect(throttle.admit(now: start + .seconds(61)) == nil)
    }
}

@Suite("Durations in milliseconds")
struct DurationMillisecondsTests {
    @Test("whole milliseconds drop the fraction; a wait rounds up so it never becomes 0")
    func conversions() {
        #expect(Duration.microseconds(1_999).wholeMilliseconds == 1)
        #expect(Duration.microseconds(1).millisecondsRoundedUp == 1)
        #expect(Duration.seconds(2).millisecondsRoundedUp == 2_000)
        #expect(Duration.microseconds(1_500).fractionalMilliseconds == 1.5)
        #expect(Duration.zero.millisecondsRoundedUp == 0)
    }
}
