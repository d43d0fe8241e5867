import Dispatch

/// Where a store commits the actions it receives (VueFlux's `Executor`).
public struct Executor {
    private let run: (@escaping () -> Void) -> Void

    /// Commits each action at once, on the thread that dispatched it.
    public static var immediate: Executor {
        Executor(run: { body in body() })
    }

    /// Commits each action later, on the main queue (VueFlux's default for a store that views
    /// read).
    public static var mainThread: Executor {
        Executor(run: { body in
            let commit = Commit(body)
            DispatchQueue.main.async { commit.body() }
        })
    }

    /// Commits each action later, on `queue` (VueFlux's README runs a store on `.global()`).
    public static func queue(_ queue: DispatchQueue) -> Executor {
        Executor(run: { body in
            let commit = Commit(body)
            queue.async { commit.body() }
        })
    }

    func execute(_ body: @escaping () -> Void) {
        run(body)
    }
}

/// A commit handed to another thread, as VueFlux (written before Swift's concurrency checks)
/// hands it.
private struct Commit: @unchecked Sendable {
    // NB: @unchecked Sendable is safe: the store runs each commit once, on the executor's thread.
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
}
