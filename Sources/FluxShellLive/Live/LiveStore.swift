import FluxCore
import FluxShellJSON
import FluxShellSession
import FluxShellSystem
import FluxShellValues

/// A store of a running app that a shell can attach to, and that ``ScenarioRecorder`` records:
/// a FluxCore store with its dispatcher, or a store of any other form whose hook tells each
/// action it applied (``record(_:state:)``), with the alias the shell knows it by.
///
/// ```swift
/// let agent = try ShellAgent(serving: [LiveStore(todos, as: "todos"), LiveStore(settings, as: "settings")], as: "notes")
/// ```
///
/// The FluxCore stores of one agent share one dispatcher, as the fluxes of one app do.
public struct LiveStore: Sendable {
    /// The name the shell prints in paths, `history` and saved scenarios.
    public let alias: String
    /// The identity of where its actions come from (a dispatcher, or the store's own tap): stores
    /// served together must share it.
    @usableFromInline let dispatcherID: ObjectIdentifier
    /// The store's actions, for `actions`, completion and `dispatch`; it has no maker: an app's
    /// store is attached, never loaded.
    @usableFromInline let definition: StoreDefinition
    /// A feed of the store's actions, for one attached session (made once per session): a
    /// ``LiveSource``.
    @usableFromInline let makeFeed: @Sendable (_ capacity: Int, _ wake: @escaping @Sendable () -> Void) -> AnyObject
    /// This store's runtime in an attached session, on the feed the first store made: a
    /// ``LiveRuntime``.
    @usableFromInline let makeRuntime: @Sendable (LiveContext) -> AnyObject
    /// What writes its actions as a scenario, for a ``ScenarioRecorder``: `header` first, then a
    /// line for each action the store applies from then on.
    @usableFromInline let makeWriter:
        @Sendable (
            _ file: OutputFile, _ path: String, _ header: String, _ report: @escaping @Sendable (String) -> Void
        ) -> any RecordingWriter
    /// Where the app's hook records each action: a ``LiveHub``, for a store of another form.
    @usableFromInline let hub: (any AnyObject & Sendable)?
    /// Records an action and a state given as other types than the hub's (a concrete action
    /// where the store takes `any Action`): false when they are not the hub's.
    @usableFromInline let recordAny: (@Sendable (_ action: Any, _ state: Any) -> Bool)?
    /// The sessions attached to the app through this store.
    @usableFromInline let peers = LivePeers()

    /// The store of `flux`, with its dispatcher.
    @inlinable
    public init<Action, State>(_ flux: Flux<Action, State>, as alias: String) {
        self.init(store: flux.store, dispatcher: flux.dispatcher, as: alias)
    }

    /// A store and the dispatcher whose actions change it (the store listens to it already).
    ///
    /// NB: inlinable, as the feed and the state copies it makes: what the app pays per action
    /// is compiled where the store is served, for its own types.
    @inlinable
    public init<Action, State>(store: Store<State>, dispatcher: Dispatcher<Action>, as alias: String) {
        self.alias = alias
        self.dispatcherID = ObjectIdentifier(dispatcher)
        let actionCases = ActionCases.Lazy(Action.self)
        let definition = StoreDefinition(live: actionCases, name: alias)
        self.definition = definition
        self.hub = nil
        self.recordAny = nil
        self.makeFeed = { capacity, wake in
            LiveFeed(
                dispatcher, capacity: capacity, announce: { actionCases.value.announcement(of: $0) }, wake: wake)
        }
        self.makeRuntime = { context in
            let states = LiveStates<State>()
            return LiveStoreRuntime<Dispatcher<Action>, State>(
                alias: alias, read: { store.state },
                set: {
                    StoreSetListeners.shared.storeWillBeSet(ObjectIdentifier(store), to: $0)
                    _ = store.replace(with: $0)
                }, states: states,
                capture: states.capture(from: store), definition: definition, context: context,
                attachment: StoreSetListeners.shared.attach(ObjectIdentifier(store)))
        }
        self.makeWriter = { file, path, header, report in
            let writer = ScenarioWriter<Action, State>(
                file: file, path: path, readState: { store.state }, actionCases: actionCases.value, report: report)
            writer.write(header)
            dispatcher.use(writer)
            StoreSetListeners.shared.add(writer, store: ObjectIdentifier(store))
            return writer
        }
    }

    /// A running app's store of any form (a ReSwift or TCA store, a class-based store, the app's
    /// own), which the app's hook tells of each action it applied with ``record(_:state:)``.
    ///
    /// ```swift
    /// let live = LiveStore(as: "todos", state: { store.state },
    ///                      actionTypes: [AddTodo.self, ToggleTodo.self, ClearCompleted.self],
    ///                      send: { store.dispatch($0) })
    /// // in the library's hook (a middleware), after the action was applied:
    /// live.record(action, state: newState)
    /// ```
    ///
    /// - Parameters:
    ///   - alias: the name the shell knows the store by.
    ///   - state: reads the store's state as a value (for a class-based state, a struct that
    ///     copies what it holds), when a shell attaches.
    ///   - actionTypes: for actions that are types (ReSwift, ClassyFlux): the types, as for
    ///     <doc:/documentation/FluxShellSession/StoreDefinition>; `nil` when the action is one enum.
    ///   - send: hands the store an action the shell dispatched. It may apply it on a thread of
    ///     its own (a TCA store's main actor), and should return once it did: what the hook
    ///     records until then is the shell's.
    ///   - restore: sets the store's state, for `undo`, `redo` and `reset`; without it they are
    ///     refused.
    @inlinable
    public init<State, Action>(
        as alias: String, state: @escaping () -> State, actionTypes: [Any.Type]? = nil,
        send: @escaping (Action) -> Void, restore: ((State) -> Void)? = nil
    ) {
        self.alias = alias
        let hub = LiveHub<Action, State>(state: state, send: send, restore: restore)
        self.hub = hub
        self.recordAny = { action, state in
            guard let action = action as? Action, let state = state as? State else { return false }
            hub.record(action, state: state)
            return true
        }
        self.dispatcherID = ObjectIdentifier(hub)
        let actionCases = actionTypes.map { ActionCases.Lazy(types: $0) } ?? ActionCases.Lazy(Action.self)
        let definition = StoreDefinition(live: actionCases, name: alias)
        self.definition = definition
        self.makeFeed = { capacity, wake in
            LiveFeed(hub, capacity: capacity, announce: { actionCases.value.announcement(of: $0) }, wake: wake)
        }
        self.makeRuntime = { context in
            let states = LiveStates<State>()
            return LiveStoreRuntime<LiveHub<Action, State>, State>(
                alias: alias, read: { hub.stateNow() },
                set: hub.restore.value == nil
                    ? nil
                    : {
                        StoreSetListeners.shared.storeWillBeSet(ObjectIdentifier(hub), to: $0)
                        hub.restoreState($0)
                    },
                states: states,
                capture: states.capture(from: hub), definition: definition, context: context,
                attachment: StoreSetListeners.shared.attach(ObjectIdentifier(hub)))
        }
        self.makeWriter = { file, path, header, report in
            let writer = ScenarioWriter<Action, State>(
                file: file, path: path, readState: { hub.state }, actionCases: actionCases.value, report: report)
            writer.write(header)
            writer.listen(to: hub)
            StoreSetListeners.shared.add(writer, store: ObjectIdentifier(hub))
            return writer
        }
    }

    /// Tells the shells attached to the app, and the recorder, that the store applied `action`
    /// and now holds `state`: call it from the store's hook (a ReSwift middleware after `next`, a
    /// TCA `Reduce` at the end of the body, a ClassyFlux handler), for every action. With no shell
    /// attached it costs the app one uncontended lock, and it never waits for a shell.
    ///
    /// NB: `action` is an autoclosure so that an existential (ReSwift's `any Action`) keeps its
    /// type: passed to a plain generic parameter, Swift would open it into the concrete action
    /// type, which is not the type the store was served with. Non-escaping: nothing is allocated.
    @inlinable
    public func record<Action, State>(_ action: @autoclosure () -> Action, state: State) {
        if let hub = hub as? LiveHub<Action, State> { return hub.record(action(), state: state) }
        guard let recordAny, recordAny(action(), state) else {
            preconditionFailure(
                "LiveStore '\(alias)': record(_:state:) was given \(Action.self) and \(State.self), "
                    + "not the types the store was served with"
                    + (hub == nil ? " (a FluxCore store records itself)" : ""))
        }
    }
}

extension LiveStore {
    /// Throws unless `stores` can be served together: at least one, one dispatcher, one alias each.
    public static func check(_ stores: [LiveStore]) throws(ShellError) {
        guard let first = stores.first else { throw ShellError("no store to serve") }
        guard stores.allSatisfy({ $0.dispatcherID == first.dispatcherID }) else {
            throw ShellError(
                "the stores served together must share one dispatcher",
                hint:
                    "serve the stores of another dispatcher, and each store that records its own actions, with an agent of their own"
            )
        }
        var seen = Set<String>()
        for store in stores where !seen.insert(store.alias).inserted {
            throw ShellError("two stores are served as '\(store.alias)'", hint: "give each store an alias of its own")
        }
    }
}

/// What a live store's runtime is given by the session attaching it.
@usableFromInline
struct LiveContext {
    /// The feed of the app's dispatcher, shared by the session's live stores.
    let feed: any LiveSource
    /// The session's dispatcher, on which the store takes the shell's actions.
    let dispatcher: Dispatcher<SessionAction>
    let trace: DispatchTrace
    /// Records the app's actions that arrived before sequence number `limit` as steps of their
    /// own: called by the first store right after the shell's action was delivered, so that a
    /// dispatch's diff holds only its own changes.
    let absorbAppActions: (_ before: Int) -> Void
}
