/// What a session runs each command inside: the place to make a library the stores read from
/// (swift-dependencies, the app's own environment) answer with the session's
/// ``ShellEnvironment``. An effect's task, started inside, keeps what the scope set (task-local
/// values) for as long as it runs.
///
/// ```swift
/// struct PinnedClock: SessionScope {
///     func run<R, E: Error>(in environment: ShellEnvironment, _ body: () throws(E) -> R) throws(E) -> R {
///         try AppEnvironment.$current.withValue(AppEnvironment(now: { environment.now })) { try body() }
///     }
/// }
/// catalog.scope = PinnedClock()
/// ```
public protocol SessionScope: Sendable {
    /// Runs `body`, one command, with what it sets from `environment`.
    func run<R, E: Error>(in environment: ShellEnvironment, _ body: () throws(E) -> R) throws(E) -> R
}
