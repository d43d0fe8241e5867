import Foundation

extension NSCondition {
    /// Waits, the condition locked, until it is signalled or `deadline` passes: `false` once it
    /// passed. The caller checks what it waits for again, as after any wait.
    package func wait(until deadline: ContinuousClock.Instant) -> Bool {
        let left = ContinuousClock.now.duration(to: deadline)
        guard left > .zero else { return false }
        let (seconds, attoseconds) = left.components
        return wait(until: Date(timeIntervalSinceNow: Double(seconds) + Double(attoseconds) * 1e-18))
            || ContinuousClock.now < deadline
    }
}
