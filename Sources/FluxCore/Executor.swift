import Dispatch

/// Where an observer or a presenter's view is called (VueFlux's executors).
///
/// ```swift
/// store.observe(on: .queue(logQueue)) { change in log(change.new) }
/// Presenter(view: view, flux: flux, executor: .immediate)
/// ```
///
/// A ``Presenter`` uses ``mainThread`` unless told otherwise, as Prex does; a store's observers
/// use ``immediate``, so that a replay is delivered in order on the dispatching thread.
public struct Executor: Sendable {
    @usableFromInline
    enum Context: Sendable {
        case immediate
        case mainThread(MainThread)
        case queue(DispatchQueue)
    }

    @usableFromInline
    let context: Context

    @inlinable
    init(_ context: Context) { self.context = context }

    /// Calls at once, on the thread that changed the state.
    public static var immediate: Executor { Executor(.immediate) }

    /// Calls at once when the state changed on the main thread, else asynchronously on the main
    /// queue, in the order of the changes.
    public static var mainThread: Executor { Executor(.mainThread(.check)) }

    /// Calls asynchronously on `queue`.
    public static func queue(_ queue: DispatchQueue) -> Executor { Executor(.queue(queue)) }

    /// Calls `body` with `value` in this executor's context.
    @inlinable
    public func execute<Value>(_ body: @escaping (Value) -> Void, with value: Value) {
        if callsAtOnce {
            body(value)
        } else {
            send(value, to: body)
        }
    }

    /// Whether a call made now, on this thread, happens at once.
    ///
    /// NB: the caller calls its body itself when this is true, rather than through a generic
    /// function taking a closure, which retains and releases the closure on every action.
    @inlinable
    var callsAtOnce: Bool {
        switch context {
        case .immediate: true
        case .mainThread(let thread): thread.isCurrent
        case .queue: false
        }
    }

    /// Hands `value` to `body` in this executor's context, asynchronously unless immediate.
    @usableFromInline
    func send<Value>(_ value: Value, to body: @escaping (Value) -> Void) {
        let delivery = Delivery(body: body, value: value)
        switch context {
        case .immediate: delivery.run()
        case .mainThread: DispatchQueue.main.async { delivery.run() }
        case .queue(let queue): queue.async { delivery.run() }
        }
    }
}

/// A call handed to another context.
@usableFromInline
struct Delivery<Value>: @unchecked Sendable {
    // NB: @unchecked Sendable is safe to the extent the executor's user asked for it: the body and
    // value are handed to exactly one other context and called there once, never touched again
    // here. An observer given to `.queue(q)` or a view given to `.mainThread` is meant to be
    // called there; the compiler cannot see that choice, so the box states it.
    @usableFromInline let body: (Value) -> Void
    @usableFromInline let value: Value

    @inlinable
    init(body: @escaping (Value) -> Void, value: Value) {
        self.body = body
        self.value = value
    }

    @inlinable
    func run() { body(value) }
}

extension Executor: CustomStringConvertible {
    /// `immediate`, `mainThread` or `queue(LABEL)`.
    public var description: String {
        switch context {
        case .immediate: "immediate"
        case .mainThread: "mainThread"
        case .queue(let queue): "queue(\(queue.label))"
        }
    }
}
