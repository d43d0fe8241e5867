import FluxCore

/// A store of a running app that a shell can attach to: the app's `Store`, the `Dispatcher` its
/// actions go through, and the alias the shell knows it by.
///
/// ```swift
/// let agent = try ShellAgent(serving: [LiveStore(todos, as: "todos"), LiveStore(settings, as: "settings")], as: "notes")
/// ```
///
/// The stores of one agent share one dispatcher, as the fluxes of one app do.
public struct LiveStore: Sendable {
    /// The name the shell prints in paths, `history` and saved scenarios.
    public let alias: String
    /// The dispatcher's identity: stores served together must share it.
    @usableFromInline let dispatcherID: ObjectIdentifier
    /// The store's actions, for `actions`, completion and `dispatch`; it has no maker: an app's
    /// store is attached, never loaded.
    @usableFromInline let definition: StoreDefinition
    /// A feed of the dispatcher's actions, for one attached session (made once per session): a
    /// ``LiveSource``.
    @usableFromInline let makeFeed: @Sendable (_ capacity: Int, _ wake: @escaping @Sendable () -> Void) -> AnyObject
    /// This store's runtime in an attached session, on the feed the first store made: a
    /// ``LiveRuntime``.
    @usableFromInline let makeRuntime: @Sendable (LiveContext) -> AnyObject
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
        let definition = StoreDefinition(live: ActionCases.Lazy(Action.self), name: alias)
        self.definition = definition
        self.makeFeed = { capacity, wake in LiveFeed(dispatcher, capacity: capacity, wake: wake) }
        self.makeRuntime = { context in
            let states = LiveStates<State>()
            return LiveStoreRuntime<Action, State>(
                alias: alias, store: store, states: states, capture: states.capture(from: store),
                definition: definition, context: context)
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
                hint: "serve the stores of another dispatcher with an agent of their own")
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
