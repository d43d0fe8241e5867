import CoreFoundation
import Foundation
import Synchronization

/// The main thread's run loop, which the shell's sessions run on: a store whose library applies
/// actions on the main queue or the main actor (VueFlux's `.mainThread` executor, a `@MainActor`
/// model) gets its work run while the shell waits for it, as an app's run loop would run it.
@usableFromInline
package enum MainQueue {
    /// Whether the calling thread is the main thread, whose queue only it runs.
    ///
    /// NB: once the shell's entry named the main thread (``claimMainThread()``), a comparison
    /// with it: Foundation's `Thread.isMainThread` asks the kernel twice (the thread's id and the
    /// process's), and this is asked after every `send` of a store object.
    @usableFromInline package static var isCurrent: Bool {
        let main = mainThread.load(ordering: .relaxed)
        guard main != 0 else { return Thread.isMainThread }
        return ThreadIdentity.current.word == main
    }

    /// The main thread (``ThreadIdentity/word``), once the shell's entry named it; 0 before.
    @usableFromInline static let mainThread = Atomic<UInt>(0)

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
    /// source it handled, and an empty turn does not build Foundation's run loop objects.
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
    /// `DispatchQueue.concurrentPerform` does; on the main thread, that thread meanwhile runs
    /// `onMain`, then the main queue, so that a session on another thread whose store applies
    /// actions there (and reports them through its hook) is not kept waiting for it (while
    /// `onMain` runs, it waits for the main queue's next turn).
    ///
    /// - Parameter onMain: work for the main thread (sessions of stores that may belong to the
    ///   main actor), run first; called on the calling thread when that is not the main one.
    package static func concurrentPerform(
        iterations: Int, onMain: (() -> Void)? = nil, _ work: @escaping @Sendable (Int) -> Void
    ) {
        guard isCurrent, iterations > 1 else {
            onMain?()
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
        onMain?()
        let finished = LockedValue(false)
        // NB: the notification runs on the main queue, which wakes the run loop below at once.
        group.notify(queue: .main) { finished.withLock { $0 = true } }
        while !finished.withLock({ $0 }) { run(forAtMost: 1) }
    }
}

extension MainQueue {
    /// Runs what waits on the main queue now (not what that queues in turn), on the main thread
    /// only: after a store object's `send`, the first turn of what its library queued there (a
    /// TCA `Store`'s effect tasks on the main actor).
    @inlinable package static func runReady() {
        guard drainsDirectly.load(ordering: .relaxed), isCurrent else { return }
        runQueued()
    }

    /// Whether the main thread runs the shell outside any block of the main queue (see
    /// ``claimMainThread()``): only then may the shell run the main queue's blocks itself.
    @usableFromInline package static let drainsDirectly = Atomic<Bool>(false)

    /// Called by the shell's entry on the main thread: when it runs there outside any task (a
    /// `main.swift` without `await`, so outside any block of the main queue), the shell runs the
    /// main queue's blocks directly, as its run loop would.
    ///
    /// NB: a block of the main queue that ran the queue again would run the blocks after it
    /// inside it, out of libdispatch's order: the shell does so only where no block runs.
    package static func claimMainThread() {
        guard Thread.isMainThread else { return }
        mainThread.store(ThreadIdentity.current.word, ordering: .relaxed)
        guard withUnsafeCurrentTask(body: { $0 == nil }) else { return }
        drainsDirectly.store(true, ordering: .relaxed)
    }

    /// Runs what waits on the main queue, once, on the main thread; `false` when nothing did.
    ///
    /// NB: on Linux, libdispatch wakes the main thread's run loop through a descriptor that is
    /// readable while blocks wait: read empty here, it is what CoreFoundation's run loop reads.
    package static func runWaiting() -> Bool {
        guard drainsDirectly.load(ordering: .relaxed), isCurrent else { return false }
        #if os(Linux)
            guard let handle = mainQueueHandle else { return false }
            var ready = pollfd(fd: handle, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 0) > 0 else { return false }
            var count: UInt64 = 0
            _ = read(handle, &count, MemoryLayout<UInt64>.size)
            runQueued()
            return true
        #else
            return CFRunLoopRunInMode(kCFRunLoopDefaultMode, 0, true) == .handledSource
        #endif
    }

    @usableFromInline static func runQueued() {
        #if os(Linux)
            mainQueueDrain?(nil)
        #else
            _ = CFRunLoopRunInMode(kCFRunLoopDefaultMode, 0, true)
        #endif
    }
}

#if os(Linux)
    /// libdispatch's entry that CoreFoundation's run loop calls when the main queue's wake-up
    /// fires: it runs the blocks queued when it was called.
    ///
    /// NB: called on the main thread only, as the run loop calls it. Called directly, it is a
    /// check of the queue's head when nothing waits, where a turn of the run loop reads the
    /// clock and polls every source it has: cheap enough to follow every `send` of a store.
    ///
    /// NB: the address is libdispatch's function of that name, whose C signature this is.
    private let mainQueueDrain: (@convention(c) (UnsafeMutableRawPointer?) -> Void)? = Platform.symbol(
        "_dispatch_main_queue_callback_4CF"
    ).map { unsafeBitCast($0, to: (@convention(c) (UnsafeMutableRawPointer?) -> Void).self) }

    /// The descriptor libdispatch makes readable while blocks wait on the main queue.
    ///
    /// NB: the address is libdispatch's function of that name, whose C signature this is.
    private let mainQueueHandle: Int32? = Platform.symbol("_dispatch_get_main_queue_handle_4CF").map {
        unsafeBitCast($0, to: (@convention(c) () -> Int32).self)()
    }
#endif

extension MainQueue {
    /// Runs `work` on the main thread, outside any block of the main queue, where
    /// ``serve(until:)`` runs it: how the page's session runs on the main thread, as the shell's
    /// does, so that a store its library binds to the main actor (a TCA `Store`) is used there.
    package static func perform(_ work: @escaping @Sendable () -> Void) {
        inbox.withLock { $0.append(work) }
        wake()
    }

    /// Wakes the main thread's run loop, which ``serve(until:)`` turns, to look again.
    package static func wake() { DispatchQueue.main.async {} }

    /// Waits until `signal` is signalled (its signaller then calls ``wake()``): on the main thread,
    /// serving what ``perform(_:)`` is given meanwhile (a session of local stores that runs there),
    /// elsewhere blocked on the semaphore.
    package static func wait(for signal: DispatchSemaphore) {
        guard isCurrent else { return signal.wait() }
        serve(until: { signal.wait(timeout: .now()) == .success })
    }

    /// On the main thread: runs what ``perform(_:)`` was given, and what waits on the main queue,
    /// until `isDone` says so (asked again after each ``wake()``).
    package static func serve(until isDone: () -> Bool) {
        while !isDone() {
            let work = inbox.withLock { work in
                defer { work.removeAll() }
                return work
            }
            for item in work { item() }
            if work.isEmpty { _ = CFRunLoopRunInMode(kCFRunLoopDefaultMode, 1, true) }
        }
    }

    private static let inbox = LockedValue<[@Sendable () -> Void]>([])
}
