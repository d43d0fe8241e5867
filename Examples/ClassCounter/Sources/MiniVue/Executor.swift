/// Where a store commits the actions it receives (VueFlux's `Executor`).
public struct Executor {
    private let run: (() -> Void) -> Void

    /// Commits each action at once, on the thread that dispatched it.
    public static var immediate: Executor {
        Executor(run: { body in body() })
    }

    // NB: VueFlux also has `.mainThread` and `.queue(DispatchQueue)`, which run the commit later on
    // another thread; this stand-in has only `.immediate`, which is what a shell and tests use.

    func execute(_ body: () -> Void) {
        run(body)
    }
}
