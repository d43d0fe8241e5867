import Foundation

extension NSCondition {
    /// Waits, the condition locked, until it is signalled or `deadline` passes: `false` once it
    /// passed. The caller checks what it waits for again, as after any wait.
    ///
    /// On the main thread, the main queue runs meanwhile (``MainQueue``), in turns of at most a
    /// millisecond: what the caller waits for may be work queued there.
    package func wait(until deadline: ContinuousClock.Instant) -> Bool {
        let left = ContinuousClock.now.duration(to: deadline)
        guard left > .zero else { return false }
        let (seconds, attoseconds) = left.components
        let time = Double(seconds) + Double(attoseconds) * 1e-18
        guard MainQueue.isCurrent else {
            return wait(until: Date(timeIntervalSinceNow: time)) || ContinuousClock.now < deadline
        }
        unlock()
        MainQueue.run(forAtMost: min(time, 0.001))
        lock()
        return true
    }
}
