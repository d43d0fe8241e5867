import Dependencies
import FluxShell
import Synchronization

/// The dependency values a session's commands run with, made once for each session and each
/// set of values around its commands rather than for every command: setting the eight values
/// for every command made a piped line much slower than reusing them (see "Pinned
/// swift-dependencies" in docs/performance.md).
final class PreparedDependencies: Sendable {
    private struct Entry {
        /// The session's environment, which the pinned values read; kept, so that no other
        /// session's can have its identity while the entry lives.
        let environment: ShellEnvironment
        let session: ObjectIdentifier
        /// The values around the session's command when `pinned` was made.
        let outer: DependencyValues
        let pinned: DependencyValues
    }

    /// How many sessions' values are kept: sessions run in parallel (tests, one per core) each
    /// keep theirs, and a session that ended is dropped soon.
    static let capacity = 4
    /// The most recently made first.
    private let entries = Mutex<[Entry]>([])

    /// `outer` with the values pinned to `environment`: made anew only when the session or the
    /// values around its command changed since its last command.
    func values(pinning environment: ShellEnvironment, over outer: DependencyValues) -> DependencyValues {
        let session = environment.identity
        let kept = entries.withLock { entries in
            entries.first { $0.session == session && $0.outer.isIdentical(to: outer) }?.pinned
        }
        if let kept { return kept }
        var pinned = outer
        pinned.pin(to: environment)
        let entry = Entry(environment: environment, session: session, outer: outer, pinned: pinned)
        entries.withLock { entries in
            entries.removeAll { $0.session == session }
            entries.insert(entry, at: 0)
            if entries.count > Self.capacity { entries.removeLast() }
        }
        return pinned
    }
}
