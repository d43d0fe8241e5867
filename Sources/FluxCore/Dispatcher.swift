/// Delivers actions to its handlers: synchronously, in registration order, one action at a time.
///
/// `dispatch(_:)` may be called from any thread. Actions from different threads are delivered one
/// after the other (the caller waits for the dispatcher), and none is lost, duplicated or
/// reordered relative to the order of its thread's calls. An action dispatched *while* another is
/// being delivered on the same thread — from a handler, a middleware or an effect — is queued and
/// delivered right after it, never recursively; `dispatch` returns once the queue is empty.
///
/// NB: handlers run while the dispatcher's lock is held. A handler that blocks on another thread
/// which itself dispatches on this dispatcher deadlocks, as with any synchronous bus.
public final class Dispatcher<Action: FluxCore.Action>: Sendable {
    @usableFromInline
    typealias Handler = (Action) -> Void

    /// What the dispatcher reads and writes only while its lock is held.
    @usableFromInline
    struct Deliveries {
        @usableFromInline var handlers: ContiguousArray<(id: UInt64, handle: Handler)> = []
        @usableFromInline var middlewares: ContiguousArray<any Middleware<Action>> = []
        @usableFromInline var pending: ContiguousArray<Action> = []
        @usableFromInline var pendingStart = 0
        @usableFromInline var isDelivering = false
        @usableFromInline var deliversFollowUps = false
        @usableFromInline var nextID: UInt64 = 0
        @usableFromInline var hasTombstones = false

        @usableFromInline init() {}
    }

    @usableFromInline
    let lock = PlatformLock(recursive: true, guarding: Deliveries())
    @inlinable var handlers: ContiguousArray<(id: UInt64, handle: Handler)> {
        _read { yield lock.guarded.handlers }
        _modify { yield &lock.guarded.handlers }
    }
    @inlinable var middlewares: ContiguousArray<any Middleware<Action>> {
        _read { yield lock.guarded.middlewares }
        _modify { yield &lock.guarded.middlewares }
    }
    @inlinable var pending: ContiguousArray<Action> {
        _read { yield lock.guarded.pending }
        _modify { yield &lock.guarded.pending }
    }
    @inlinable var pendingStart: Int {
        get { lock.guarded.pendingStart }
        set { lock.guarded.pendingStart = newValue }
    }
    @inlinable var isDelivering: Bool {
        get { lock.guarded.isDelivering }
        set { lock.guarded.isDelivering = newValue }
    }
    @inlinable var deliversFollowUps: Bool {
        get { lock.guarded.deliversFollowUps }
        set { lock.guarded.deliversFollowUps = newValue }
    }
    @inlinable var nextID: UInt64 {
        get { lock.guarded.nextID }
        set { lock.guarded.nextID = newValue }
    }
    @inlinable var hasTombstones: Bool {
        get { lock.guarded.hasTombstones }
        set { lock.guarded.hasTombstones = newValue }
    }
    @usableFromInline
    static var tombstoneID: UInt64 { .max }

    /// Creates a dispatcher with no handlers; share one between several stores to broadcast.
    public init() {}

    /// Delivers `action` to every handler, after the middlewares saw it.
    @inlinable
    public func dispatch(_ action: Action) {
        lock.lock()
        defer { lock.unlock() }
        if isDelivering {
            pending.append(action)
            return
        }
        isDelivering = true
        deliver(action)
        // NB: the follow-up flag is set only here, so an action with no follow-ups pays one
        // comparison for it.
        if pendingStart < pending.count {
            deliversFollowUps = true
            while pendingStart < pending.count {
                let next = pending[pendingStart]
                pendingStart += 1
                deliver(next)
            }
            deliversFollowUps = false
            pending.removeAll(keepingCapacity: pending.count < 1024)
            pendingStart = 0
        }
        if hasTombstones { removeTombstones() }
        isDelivering = false
    }

    @inlinable
    func deliver(_ action: Action) {
        if middlewares.isEmpty {
            deliverToHandlers(action)
            return
        }
        var action = action
        // NB: a copy: a middleware may add another while it runs.
        let chain = middlewares
        // NB: by index, so each middleware is called in place rather than copied out first.
        for index in chain.indices {
            switch chain[index].willDispatch(action, on: self) {
            case .pass: continue
            case .replace(let replacement): action = replacement
            case .stop: return
            }
        }
        deliverToHandlers(action)
        for index in chain.indices { chain[index].didDispatch(action, on: self) }
    }

    @inlinable @inline(__always)
    func deliverToHandlers(_ action: Action) {
        // NB: a handler may register or unregister while we iterate (same thread: the lock is
        // recursive). Registration appends, so indexing by position sees every handler registered
        // before the action; unregistration during delivery leaves a no-op in place (see
        // `unregister`), so positions stay put until delivery ends.
        var index = 0
        while index < handlers.count {
            // NB: the handler is copied out before it is called, so no access to the handlers is
            // open while it runs (it may register another).
            let handle = handlers[index].handle
            handle(action)
            index += 1
        }
    }

    /// Adds a handler that receives every action after the ones registered before it.
    ///
    /// - Returns: the subscription to pass to ``unregister(_:)``.
    @discardableResult
    public func register(_ handler: @escaping (Action) -> Void) -> Subscription<Action> {
        lock.withLock {
            nextID &+= 1
            handlers.append((nextID, handler))
            return Subscription(id: nextID)
        }
    }

    /// Prex's spelling of ``register(_:)``, with its label.
    ///
    /// NB: disfavoured, so that `register { action in … }` (a trailing closure, which could fill
    /// either) keeps meaning ``register(_:)``.
    @_disfavoredOverload @inlinable @discardableResult
    public func register(handler: @escaping (Action) -> Void) -> Subscription<Action> { register(handler) }

    /// Removes a handler; it is released at once and sees no later action.
    public func unregister(_ subscription: Subscription<Action>) {
        // NB: the handler is released after the lock, with no access to the handlers open: its
        // captures may hold the last reference to a store, whose `deinit` leaves this dispatcher.
        let removed = lock.withLock { () -> Handler? in
            guard let index = handlers.firstIndex(where: { $0.id == subscription.id }) else {
                return nil
            }
            let handler = handlers[index].handle
            if isDelivering {
                handlers[index] = (Self.tombstoneID, { _ in })
                hasTombstones = true
            } else {
                handlers.remove(at: index)
            }
            return handler
        }
        _ = removed
    }

    @usableFromInline
    func removeTombstones() {
        handlers.removeAll { $0.id == Self.tombstoneID }
        hasTombstones = false
    }

    /// Adds a middleware after the ones already added.
    public func use(_ middleware: some Middleware<Action>) {
        lock.withLock { middlewares.append(middleware) }
    }

    /// Runs `body` between two deliveries: no action is delivered while it runs (a `dispatch`
    /// from another thread waits for it), so what it reads of the stores and sets in them is not
    /// interleaved with an action. Called from a handler or a middleware, it runs at once, within
    /// the delivery under way.
    ///
    /// A tool attached to the app uses it to set stores (`undo`) or read them together.
    public func betweenDeliveries<T>(_ body: () throws -> T) rethrows -> T {
        try lock.withLock(body)
    }

    /// The number of registered handlers.
    public var handlerCount: Int { lock.withLock { handlers.count } }

    /// Whether the action being delivered is a follow-up: one dispatched (and queued) while
    /// another action was being delivered, by a middleware or a handler.
    ///
    /// Meaningful from a middleware or a handler, on the thread that delivers: `didDispatch` of
    /// `.searchResponse` dispatched from `didDispatch` of `.search` sees `true`, and of `.search`
    /// itself `false`. Read from another thread, it waits for the delivery under way to end and
    /// is `false`.
    public var isDeliveringFollowUp: Bool { lock.withLock { deliversFollowUps } }
}
