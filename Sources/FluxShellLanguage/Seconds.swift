import FluxShellSystem

/// Durations as commands write them: in seconds, exactly (`advance 0.3`, `waits 0.3 s on the
/// clock`).
package enum Seconds {
    /// The longest `advance` takes, in seconds (about 31 years).
    package static let maximumAdvance: Int64 = 1_000_000_000

    /// A number of seconds as `advance` takes it: decimal, not negative, at most
    /// ``maximumAdvance``, read exactly (`0.3` is 300 ms, as `.milliseconds(300)` is).
    package static func duration(_ text: Substring) throws(ShellError) -> Duration {
        let usage = ShellError(
            "advance takes a number of seconds, 0 or more (e.g. 0.3 or 5), not '\(text)'", hint: "e.g. advance 0.5")
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = parts[0]
        let fraction = parts.count > 1 ? parts[1] : ""
        guard !(whole.isEmpty && fraction.isEmpty), whole.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            fraction.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
        else { throw usage }
        let significant = whole.drop { $0 == "0" }
        guard significant.count <= 10, let seconds = Int64(whole.isEmpty ? "0" : whole), seconds <= maximumAdvance
        else {
            throw ShellError(
                "advance moves the clock at most \(maximumAdvance) seconds at a time, not \(text)",
                hint: "advance in several steps")
        }
        guard fraction.count <= 18 else {
            throw ShellError(
                "advance takes seconds to at most 18 decimals (attoseconds), not '\(text)'", hint: "e.g. advance 0.001")
        }
        var attoseconds: Int64 = 0
        for (index, digit) in fraction.utf8.enumerated() {
            var place: Int64 = 1
            for _ in 0..<(17 - index) { place *= 10 }
            attoseconds += Int64(digit - 0x30) * place
        }
        guard seconds < maximumAdvance || attoseconds == 0 else {
            throw ShellError(
                "advance moves the clock at most \(maximumAdvance) seconds at a time, not \(text)",
                hint: "advance in several steps")
        }
        return Duration(secondsComponent: seconds, attosecondsComponent: attoseconds)
    }

    /// A duration in seconds, exactly and with no more digits than it needs: `0.3`, `5`.
    package static func text(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        guard attoseconds != 0 else { return String(seconds) }
        var fraction = String(abs(attoseconds))
        fraction = String(repeating: "0", count: 18 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        let sign = seconds < 0 || attoseconds < 0 ? "-" : ""
        return sign + String(abs(seconds)) + "." + fraction
    }
}
