/// Connects a ``View`` to a ``Flux``: it reflects every state change to the view, and turns the
/// view's user interactions into dispatched actions.
///
/// Extend it for one feature, or subclass it:
///
/// ```swift
/// extension Presenter where Action == CounterAction, State == CounterState {
///     func increment() { dispatch(.increment) }
/// }
/// ```
///
/// The presenter holds its view weakly, so a view may own its presenter. It reflects on the main
/// thread, as Prex does: at once when the action was dispatched there, else asynchronously on
/// the main queue (so a view updated from a network callback is safe). Pass another
/// ``Executor`` to choose otherwise: `.immediate` reflects on the dispatching thread.
open class Presenter<Action: FluxCore.Action, State: FluxCore.State> {
    /// The flux this presenter dispatches to and observes.
    public let flux: Flux<Action, State>
    @usableFromInline
    let observation: Subscription<State>
    /// Hands a change to the view, while there is one.
    @usableFromInline
    let deliver: (StateChange<State>) -> Void
    /// Where the view is called.
    public let executor: Executor

    /// Creates a presenter for `view` on a shared or injected `flux`, reflecting in `executor`'s
    /// context (the main thread unless told otherwise).
    @inlinable
    public init<V: View>(view: V, flux: Flux<Action, State>, executor: Executor = .mainThread)
    where V.State == State {
        self.flux = flux
        self.executor = executor
        let weakView = WeakReference(view)
        let deliver: (StateChange<State>) -> Void = { change in weakView.object?.reflect(change: change) }
        self.deliver = deliver
        self.observation = flux.store.observe(on: executor, deliver)
    }

    /// Reflects the current state to the view as a change from nothing (`old` is `nil`), so
    /// that every `changedProperty` is non-nil: a view shows its whole state at once. Called in
    /// the presenter's executor, as every reflection.
    @inlinable
    public final func reflect() { executor.execute(deliver, with: StateChange(old: nil, new: state)) }

    /// Creates a presenter for `view` with a flux of its own.
    @inlinable
    public convenience init<V: View, M: Mutation>(
        view: V, state: State, mutation: M, executor: Executor = .mainThread
    ) where V.State == State, M.Action == Action, M.State == State {
        self.init(view: view, flux: Flux(state: state, mutation: mutation), executor: executor)
    }

    /// Creates a presenter for `view` with a flux of its own; an action that leaves
    /// the (`Equatable`) state equal is not reflected.
    @inlinable
    public convenience init<V: View, M: Mutation>(
        view: V, state: State, mutation: M, executor: Executor = .mainThread
    ) where V.State == State, M.Action == Action, M.State == State, State: Equatable {
        self.init(view: view, flux: Flux(state: state, mutation: mutation), executor: executor)
    }

    /// The current state. A subclass may override it, as in Prex (to expose a derived view of it,
    /// say); ``reflect()`` reflects what it returns.
    open var state: State { flux.store.state }

    /// Dispatches `action` through the flux's dispatcher.
    @inlinable
    public final func dispatch(_ action: Action) {
        flux.dispatcher.dispatch(action)
    }

    deinit {
        flux.store.removeObserver(observation)
    }
}

/// An object held weakly, read by reflections.
///
/// NB: a struct, which the reflecting closure captures as a constant: reading it is a weak load
/// and nothing else, what a `weak let` (Swift 6.2) would be. A `[weak view]` capture is a mutable
/// box that Swift checks at run time on every read, on every action; a class holding the
/// reference in a `weak var` pays the same checks.
@usableFromInline
struct WeakReference<Object: AnyObject> {
    @usableFromInline weak var object: Object?

    @inlinable
    init(_ object: Object) { self.object = object }
}
