import CoreFoundation
import Foundation
import Synchronization

/// The main thread's run loop, which the shell's sessions run on: a store whose library applies
/// actions on the main queue or the main actor (VueFlux's `.mainThread` executor, a `@MainActor`
/// model) gets its work run while the shell waits for it, as an app's run loop would run it.
@usableFromInline
package enum MainQueue {
    /// Whether the calling thread is the main thread, whose queue only it runs.
    @usableFromInline package static var isCurrent: Bool { Thread.isMainThread }

    /// Whether the main thread runs the main queue for sessions on other threads now (see
    /// ``concurrentPerform(iterations:_:)``).
    private static let runsForOthers = Atomic<Bool>(false)

    /// Whether ``run(forAtMost:)`` lets what waits on the main queue run: on the main thread, or
    /// on another while the main thread runs the main queue for it.
    @usableFromInline package static var canRun: Bool { isCurrent || runsForOthers.load(ordering: .acquiring) }

    /// Runs what waits on the main queue and the main actor, for at most `seconds` when nothing
    /// does (0: returns at once); on the main thread only (elsewhere it does nothing).
    ///
    /// NB: CoreFoundation's run loop, not `RunLoop.run(mode:before:)`: it returns after the first
    /// source it handled, and an empty turn costs 3 µs against Foundation's 22 µs (measured on
    /// this machine, 10,000 turns).
    @usableFromInline package static func run(forAtMost seconds: Double = 0) {
        guard isCurrent else {
            // NB: the main queue is serial: once this runs there, what was queued before it ran.
            if runsForOthers.load(ordering: .acquiring) { DispatchQueue.main.sync {} }
            return
        }
        _ = CFRunLoopRunInMode(kCFRunLoopDefaultMode, seconds, true)
    }
}

extension MainQueue {
    /// Runs `work` for each of `iterations` at once on other threads, as
    /// `DispatchQueue.concurrentPerform` does; on the main thread, that thread meanwhile runs the
    /// main queue, so that a session on another thread whose store applies actions there (and
    /// reports them through its hook) is not kept waiting for it.
    package static func concurrentPerform(iterations: Int, _ work: @escaping @Sendable (Int) -> Void) {
        guard isCurrent, iterations > 1 else {
            // NB: one job on the main thread runs there: the main queue runs for it as it waits.
            if isCurrent, iterations == 1 { return work(0) }
            return DispatchQueue.concurrentPerform(iterations: iterations, execute: work)
        }
        runsForOthers.store(true, ordering: .releasing)
        defer { runsForOthers.store(false, ordering: .releasing) }
        let group = DispatchGroup()
        for index in 0..<iterations {
            DispatchQueue.global().async(group: group) { work(index) }
        }
        let finished = LockedValue(false)
        // NB: the notification runs on the main queue, which wakes the run loop below at once.
        group.notify(queue: .main) { finished.withLock { $0 = true } }
        while !finished.withLock({ $0 }) { run(forAtMost: 1) }
    }
}
