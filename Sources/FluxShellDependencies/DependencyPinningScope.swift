import Dependencies
import FluxShell

/// What `pinningDependencies()` runs every command inside: swift-dependencies' values set from
/// the session's environment, then the scope the catalog had before, if any.
struct DependencyPinningScope: SessionScope {
    /// The catalog's scope before it was pinned: it runs inside the pinned values.
    let inner: (any SessionScope)?
    /// The values of the sessions that ran a command last, made once for each.
    let prepared = PreparedDependencies()

    func run<R, E: Error>(in environment: ShellEnvironment, _ body: () throws(E) -> R) throws(E) -> R {
        // NB: `withDependencies` rethrows untyped errors: the body's typed error crosses it in a
        // `Result`, so no cast is needed to throw it again.
        let result = withDependencies { values in
            values = prepared.values(pinning: environment, over: values)
        } operation: { () -> Result<R, E> in
            do throws(E) {
                guard let inner else { return .success(try body()) }
                return .success(try inner.run(in: environment, body))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
