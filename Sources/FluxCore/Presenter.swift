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
/// The presenter holds its view weakly, so a view may own its presenter.
open class Presenter<Action: FluxCore.Action, State: FluxCore.State> {
    /// The flux this presenter dispatches to and observes.
    public let flux: Flux<Action, State>
    @usableFromInline
    let observation: Subscription
    /// Hands a change to the view, while there is one.
    @usableFromInline
    let deliver: (StateChange<State>) -> Void

    /// Creates a presenter for `view` on a shared or injected `flux`.
    @inlinable
    public init<V: View>(view: V, flux: Flux<Action, State>) where V.State == State {
        self.flux = flux
        let deliver: (StateChange<State>) -> Void = { [weak view] change in view?.reflect(change: change) }
        self.deliver = deliver
        self.observation = flux.store.observe(deliver)
    }

    /// Reflects the current state to the view as a change from nothing (`old` is `nil`), so
    /// that every `changedProperty` is non-nil: a view shows its whole state at once.
    @inlinable
    public final func reflect() { deliver(StateChange(old: nil, new: state)) }

    /// Creates a presenter for `view` with a flux of its own.
    @inlinable
    public convenience init<V: View, M: Mutation>(view: V, state: State, mutation: M)
    where V.State == State, M.Action == Action, M.State == State {
        self.init(view: view, flux: Flux(state: state, mutation: mutation))
    }

    /// Creates a presenter for `view` with a flux of its own; an action that leaves
    /// the (`Equatable`) state equal is not reflected.
    @inlinable
    public convenience init<V: View, M: Mutation>(view: V, state: State, mutation: M)
    where V.State == State, M.Action == Action, M.State == State, State: Equatable {
        self.init(view: view, flux: Flux(state: state, mutation: mutation))
    }

    /// The current state.
    @inlinable
    public final var state: State { flux.store.state }

    /// Dispatches `action` through the flux's dispatcher.
    @inlinable
    public final func dispatch(_ action: Action) {
        flux.dispatcher.dispatch(action)
    }

    deinit {
        flux.store.removeObserver(observation)
    }
}
