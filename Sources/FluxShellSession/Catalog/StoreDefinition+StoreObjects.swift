import FluxShellSystem
import FluxShellValues

/// The form of a store that is an object the app's library runs: TCA's `Store`, ReSwift's
/// `Store`, a class-based store (VueFlux), the app's own store object.
extension StoreDefinition {
    /// A store object: each `load` makes a new one, each action is sent to it, and each command's
    /// diff is the difference between its state before and after.
    ///
    /// ```swift
    /// StoreDefinition("vcounter", make: { CounterStore() }, state: { $0.snapshot },
    ///                 send: { store, action in store.commit(action) })
    /// ```
    ///
    /// - Parameters:
    ///   - name: the name for `load NAME`.
    ///   - summary: one line for `stores`.
    ///   - make: creates a new store, every time it is called (a store returned twice is refused).
    ///   - state: the store's state as a value: for a class-based state, a struct that copies
    ///     what it holds (a class instance is refused).
    ///   - send: hands the store one action, which its own library runs (reducers, middleware,
    ///     the follow-ups it dispatches at once).
    ///   - restore: sets the store's state, for `undo`, `redo` and `reset`. Without it they make a
    ///     new store and send it the kept actions again; the state it reaches must be the one
    ///     shown at that step, or the command is refused.
    ///   - observe: hooks the shell into the library's own hook, once for each store made: the
    ///     hook calls `feed.record(action, state:)` after every action the library applied (see
    ///     ``StoreFeed``). With it, a command is complete once its action came back through the
    ///     hook, and what the library applies later on its own prints as `<= ACTION`.
    @inlinable
    public init<Object: AnyObject, State, Action>(
        _ name: String,
        summary: String = "",
        make: @escaping () -> Object,
        state: @escaping (Object) -> State,
        send: @escaping (Object, Action) -> Void,
        restore: ((Object, State) -> Void)? = nil,
        observe: ((Object, StoreFeed<Action, State>) -> Void)? = nil
    ) {
        self.init(
            objects: name, summary: summary, actionCases: ActionCases.Lazy(Action.self),
            form: StoreObjectForm(
                make: { _ in make() }, state: state, send: .now(send), restore: restore, observe: observe),
            actionTypes: nil)
    }

    /// A store object whose actions are types (ReSwift's and mini-swift's stores): each type in
    /// `actionTypes` is dispatched by its name, as for
    /// `init(_:summary:state:actionTypes:reducer:validate:effect:invariants:)`.
    ///
    /// - Parameters:
    ///   - name: the name for `load NAME`.
    ///   - summary: one line for `stores`.
    ///   - make: creates a new store, every time it is called (a store returned twice is refused).
    ///   - state: the store's state as a value (a class instance is refused).
    ///   - actionTypes: the action types, structs or enums, in the order `actions` lists them.
    ///   - send: hands the store one action, which its own library runs.
    ///   - restore: sets the store's state, for `undo`, `redo` and `reset` (see
    ///     `init(_:summary:make:state:send:restore:observe:)`).
    ///   - observe: hooks the shell into the library's own hook (see
    ///     `init(_:summary:make:state:send:restore:observe:)`).
    @inlinable
    public init<Object: AnyObject, State, Action>(
        _ name: String,
        summary: String = "",
        make: @escaping () -> Object,
        state: @escaping (Object) -> State,
        actionTypes: [Any.Type],
        send: @escaping (Object, Action) -> Void,
        restore: ((Object, State) -> Void)? = nil,
        observe: ((Object, StoreFeed<Action, State>) -> Void)? = nil
    ) {
        self.init(
            objects: name, summary: summary, actionCases: ActionCases.Lazy(types: actionTypes),
            form: StoreObjectForm(
                make: { _ in make() }, state: state, send: .now(send), restore: restore, observe: observe),
            actionTypes: actionTypes)
    }

    /// A store object made with the session's environment, so that what it reads of the world
    /// (the date, new ids, random numbers, a clock to sleep on) is the same in every run:
    ///
    /// ```swift
    /// StoreDefinition("todos", make: { env in TodoStore(now: { env.now }, uuid: { env.uuid() }) },
    ///                 state: { $0.state }, send: { $0.dispatch($1) })
    /// ```
    ///
    /// The parameters are those of `init(_:summary:make:state:send:restore:observe:)`; `make` is given
    /// the session's ``ShellEnvironment``.
    @inlinable
    public init<Object: AnyObject, State, Action>(
        _ name: String,
        summary: String = "",
        make: @escaping (ShellEnvironment) -> Object,
        state: @escaping (Object) -> State,
        send: @escaping (Object, Action) -> Void,
        restore: ((Object, State) -> Void)? = nil,
        observe: ((Object, StoreFeed<Action, State>) -> Void)? = nil
    ) {
        self.init(
            objects: name, summary: summary, actionCases: ActionCases.Lazy(Action.self),
            form: StoreObjectForm(make: make, state: state, send: .now(send), restore: restore, observe: observe),
            actionTypes: nil)
    }

    /// A store object whose actions are types, made with the session's environment (see
    /// `init(_:summary:make:state:send:restore:observe:)`).
    @inlinable
    public init<Object: AnyObject, State, Action>(
        _ name: String,
        summary: String = "",
        make: @escaping (ShellEnvironment) -> Object,
        state: @escaping (Object) -> State,
        actionTypes: [Any.Type],
        send: @escaping (Object, Action) -> Void,
        restore: ((Object, State) -> Void)? = nil,
        observe: ((Object, StoreFeed<Action, State>) -> Void)? = nil
    ) {
        self.init(
            objects: name, summary: summary, actionCases: ActionCases.Lazy(types: actionTypes),
            form: StoreObjectForm(make: make, state: state, send: .now(send), restore: restore, observe: observe),
            actionTypes: actionTypes)
    }

    /// A store object whose `send:` is `async` (a store that hops to the main actor, awaits its
    /// own queue, or returns once its effects ran): the shell awaits it, bounded in real time as
    /// effects are, and the command's diff is taken once it returned. The other parameters are
    /// those of `init(_:summary:make:state:send:restore:observe:)`.
    ///
    /// ```swift
    /// StoreDefinition("feed", make: { FeedModel() }, state: { $0.snapshot },
    ///                 send: { model, action in await model.send(action) })
    /// ```
    @inlinable
    public init<Object: AnyObject, State, Action>(
        _ name: String,
        summary: String = "",
        make: @escaping () -> Object,
        state: @escaping (Object) -> State,
        send: @escaping (Object, Action) async -> Void,
        restore: ((Object, State) -> Void)? = nil,
        observe: ((Object, StoreFeed<Action, State>) -> Void)? = nil
    ) {
        self.init(
            objects: name, summary: summary, actionCases: ActionCases.Lazy(Action.self),
            form: StoreObjectForm(
                make: { _ in make() }, state: state, send: .later(send), restore: restore, observe: observe),
            actionTypes: nil)
    }

    /// A store object whose actions are types and whose `send:` is `async` (see
    /// `init(_:summary:make:state:send:restore:observe:)`).
    @inlinable
    public init<Object: AnyObject, State, Action>(
        _ name: String,
        summary: String = "",
        make: @escaping () -> Object,
        state: @escaping (Object) -> State,
        actionTypes: [Any.Type],
        send: @escaping (Object, Action) async -> Void,
        restore: ((Object, State) -> Void)? = nil,
        observe: ((Object, StoreFeed<Action, State>) -> Void)? = nil
    ) {
        self.init(
            objects: name, summary: summary, actionCases: ActionCases.Lazy(types: actionTypes),
            form: StoreObjectForm(
                make: { _ in make() }, state: state, send: .later(send), restore: restore, observe: observe),
            actionTypes: actionTypes)
    }

    /// A store object made with the session's environment whose `send:` is `async` (see
    /// `init(_:summary:make:state:send:restore:observe:)`).
    @inlinable
    public init<Object: AnyObject, State, Action>(
        _ name: String,
        summary: String = "",
        make: @escaping (ShellEnvironment) -> Object,
        state: @escaping (Object) -> State,
        send: @escaping (Object, Action) async -> Void,
        restore: ((Object, State) -> Void)? = nil,
        observe: ((Object, StoreFeed<Action, State>) -> Void)? = nil
    ) {
        self.init(
            objects: name, summary: summary, actionCases: ActionCases.Lazy(Action.self),
            form: StoreObjectForm(make: make, state: state, send: .later(send), restore: restore, observe: observe),
            actionTypes: nil)
    }

    /// A store object made with the session's environment, whose actions are types and whose
    /// `send:` is `async` (see `init(_:summary:make:state:send:restore:observe:)`).
    @inlinable
    public init<Object: AnyObject, State, Action>(
        _ name: String,
        summary: String = "",
        make: @escaping (ShellEnvironment) -> Object,
        state: @escaping (Object) -> State,
        actionTypes: [Any.Type],
        send: @escaping (Object, Action) async -> Void,
        restore: ((Object, State) -> Void)? = nil,
        observe: ((Object, StoreFeed<Action, State>) -> Void)? = nil
    ) {
        self.init(
            objects: name, summary: summary, actionCases: ActionCases.Lazy(types: actionTypes),
            form: StoreObjectForm(make: make, state: state, send: .later(send), restore: restore, observe: observe),
            actionTypes: actionTypes)
    }

    @inlinable
    init<Object: AnyObject, State, Action>(
        objects name: String, summary: String, actionCases: ActionCases.Lazy,
        form: StoreObjectForm<Object, State, Action>, actionTypes: [Any.Type]?
    ) {
        let app = AppValue(form)
        self.init(
            name: name, summary: summary, actionCases: actionCases, invariantNames: [],
            registrationError: Self.registrationError(
                name, stateType: State.self, actionType: Action.self, actionTypes: actionTypes, ofStoreObject: true),
            makeRuntime: { load throws(ShellError) in
                let runtime = try StoreObjectRuntime(
                    alias: load.alias, form: app.value, actionCases: actionCases.value, trace: load.trace,
                    historyEntries: load.historyEntries, effects: load.effects, startingState: load.state)
                runtime.attach(to: load.dispatcher)
                return runtime
            }, isStoreObject: true)
    }
}
