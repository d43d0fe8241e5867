/// Holds a state, applies changes to it, and tells its observers what each change did.
///
/// Reading ``state`` is safe from any thread. Observers are called in the order they were added,
/// by default synchronously on the thread that changed the state; an ``Executor`` picks another
/// context for one observer (`observe(on: .mainThread)`).
///
/// A store made by a ``Flux`` listens to the flux's dispatcher for as long as the store lives,
/// whether or not the flux does; when the store goes, it leaves the dispatcher and its mutation
/// is released.
public final class Store<State: FluxCore.State>: Sendable {
    @usableFromInline
    let storage: StoreStorage<State>

    /// Creates a store holding `state`; every update is announced.
    public init(state: State) {
        storage = StoreStorage(state: state, isUnchanged: nil)
    }

    /// Creates a store holding `state`; an update that leaves the state equal is not announced.
    public init(state: State) where State: Equatable {
        storage = StoreStorage(state: state, isUnchanged: { $0 == $1 })
    }

    deinit {
        for farewell in storage.farewells { farewell() }
    }

    /// Adds work to do when the store goes (leaving a dispatcher).
    @usableFromInline
    func onDeinit(_ farewell: @escaping () -> Void) {
        storage.lock.withLock { storage.farewells.append(farewell) }
    }

    /// The current state.
    @inlinable
    public var state: State { storage.state }

    /// Changes the state in place and announces the change to every observer.
    ///
    /// - Returns: the change, or `nil` when an `Equatable` state stayed equal.
    @inlinable @discardableResult
    public func update(_ body: (inout State) -> Void) -> StateChange<State>? { storage.update(body) }

    /// Changes the state in place and announces the change to every observer, as ``update(_:)``
    /// does; with no observer, no copy of the old state is made (a dispatcher's handler, which
    /// does not need the change, uses this).
    @inlinable
    public func mutate(_ body: (inout State) -> Void) { storage.mutate(body) }

    /// Replaces the whole state and announces the change.
    @discardableResult
    public func replace(with state: State) -> StateChange<State>? {
        storage.update { $0 = state }
    }

    /// Adds an observer of every announced change, called in `executor`'s context: by default at
    /// once, on the thread that changed the state.
    @discardableResult
    public func observe(
        on executor: Executor = .immediate, _ observer: @escaping (StateChange<State>) -> Void
    ) -> Subscription<State> {
        storage.observe(on: executor, observer)
    }

    /// Removes an observer; it is released at once.
    public func removeObserver(_ subscription: Subscription<State>) {
        storage.removeObserver(subscription)
    }

    /// Prex's name for ``observe(on:_:)``: `callback` gets every change.
    ///
    /// - Returns: the subscription to pass to ``removeListener(with:)``.
    @inlinable @discardableResult
    public func addListener(callback: @escaping (StateChange<State>) -> Void) -> Subscription<State> {
        observe(callback)
    }

    /// Prex's name for ``removeObserver(_:)``.
    @inlinable
    public func removeListener(with subscription: Subscription<State>) { removeObserver(subscription) }

    /// The changes announced from now on, as an asynchronous sequence.
    ///
    /// ```swift
    /// for await change in flux.store.changes {
    ///     print(change.newState.count)
    /// }
    /// ```
    public var changes: AsyncStream<StateChange<State>> {
        let (stream, continuation) = AsyncStream<StateChange<State>>.makeStream()
        let subscription = observe { continuation.yield($0) }
        continuation.onTermination = { [weak self] _ in
            self?.removeObserver(subscription)
        }
        return stream
    }
}

/// What a ``Store`` holds: its state, its lock and its observers. A flux's dispatcher handler
/// holds the storage strongly, so delivering an action costs no weak load; the ``Store`` around
/// it is what users hold, and its `deinit` unregisters that handler.
@usableFromInline
final class StoreStorage<State: FluxCore.State>: Sendable {
    @usableFromInline
    typealias Observer = (StateChange<State>) -> Void

    /// What the store reads and writes only while its lock is held, but for the read of
    /// `farewells` in the store's `deinit`: only a live store appends to them
    /// (`Store.onDeinit`), so none can be appended then.
    @usableFromInline
    struct Guarded {
        @usableFromInline var current: State
        @usableFromInline var observers: ContiguousArray<(id: UInt64, executor: Executor, observe: Observer)> = []
        @usableFromInline var nextID: UInt64 = 0
        /// Run when the store goes: it leaves the dispatchers it listens to.
        @usableFromInline var farewells: [() -> Void] = []

        @usableFromInline init(current: State) { self.current = current }
    }

    @usableFromInline
    let lock: PlatformLock<Guarded>
    @inlinable var current: State {
        _read { yield lock.guarded.current }
        _modify { yield &lock.guarded.current }
    }
    @inlinable var observers: ContiguousArray<(id: UInt64, executor: Executor, observe: Observer)> {
        _read { yield lock.guarded.observers }
        _modify { yield &lock.guarded.observers }
    }
    @inlinable var nextID: UInt64 {
        get { lock.guarded.nextID }
        set { lock.guarded.nextID = newValue }
    }
    var farewells: [() -> Void] {
        _read { yield lock.guarded.farewells }
        _modify { yield &lock.guarded.farewells }
    }
    /// When the state is `Equatable`, the test that lets an update that changed nothing go
    /// unannounced. Cheap for unchanged arrays and strings, which compare their storage first.
    @usableFromInline
    let isUnchanged: (@Sendable (State, State) -> Bool)?

    @usableFromInline
    init(state: State, isUnchanged: (@Sendable (State, State) -> Bool)?) {
        lock = PlatformLock(recursive: false, guarding: Guarded(current: state))
        self.isUnchanged = isUnchanged
    }

    @inlinable
    var state: State {
        lock.withLock { current }
    }

    /// Changes the state in place and announces the change to every observer.
    ///
    /// - Returns: the change, or `nil` when an `Equatable` state stayed equal.
    @inlinable @discardableResult
    func update(_ body: (inout State) -> Void) -> StateChange<State>? {
        lock.lock()
        return updateAndUnlock(body)
    }

    /// Changes the state in place and announces the change to every observer, as ``update(_:)``
    /// does; with no observer, no copy of the old state is made (a dispatcher's handler, which
    /// does not need the change, uses this).
    @inlinable
    func mutate(_ body: (inout State) -> Void) {
        lock.lock()
        guard observers.isEmpty else {
            updateAndUnlock(body)
            return
        }
        body(&current)
        lock.unlock()
    }

    /// The body of ``update(_:)``, entered with `lock` held: it unlocks before calling observers.
    @inlinable @discardableResult
    func updateAndUnlock(_ body: (inout State) -> Void) -> StateChange<State>? {
        let old = current
        body(&current)
        let change = StateChange(oldState: old, newState: current)
        let observers = self.observers
        lock.unlock()
        if let isUnchanged, isUnchanged(change.previous, change.new) { return nil }
        // NB: the copy's elements, lent for the loop only. Iterated as an array instead (`for
        // entry in observers`), each entry retained and released, the one-view counter took 79-81
        // ns an action rather than 52-54 (fluxbench core, same run).
        observers.withUnsafeBufferPointer { entries in
            for index in entries.indices {
                if entries[index].executor.callsAtOnce {
                    entries[index].observe(change)
                } else {
                    entries[index].executor.send(change, to: entries[index].observe)
                }
            }
        }
        return change
    }

    /// Adds an observer of every announced change, called in `executor`'s context: by default at
    /// once, on the thread that changed the state.
    @usableFromInline
    func observe(
        on executor: Executor = .immediate, _ observer: @escaping (StateChange<State>) -> Void
    ) -> Subscription<State> {
        lock.withLock {
            nextID &+= 1
            observers.append((nextID, executor, observer))
            return Subscription(id: nextID)
        }
    }

    /// Removes an observer; it is released at once.
    @usableFromInline
    func removeObserver(_ subscription: Subscription<State>) {
        // NB: the observer is released after the lock: it may hold the last reference to another
        // store, whose `deinit` takes a dispatcher's lock, and a dispatch takes the two the other
        // way round.
        let removed = lock.withLock {
            let index = observers.firstIndex { $0.id == subscription.id }
            return index.map { observers.remove(at: $0) }
        }
        _ = removed
    }
}
