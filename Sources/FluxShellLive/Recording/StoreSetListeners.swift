import FluxShellSystem

/// The recorders of the app's stores, told when an attached shell sets a store's state (`undo`,
/// `redo`, `reset`), whichever agent, page or session that shell came through: keyed by the
/// store itself (a FluxCore `Store`, or the tap of a store of another form), not by the
/// `LiveStore` value, which an app may make twice (for its agent and for its recorder, under
/// other aliases).
@usableFromInline
final class StoreSetListeners: Sendable {
    @usableFromInline static let shared = StoreSetListeners()

    private struct Weak: @unchecked Sendable {
        // NB: @unchecked Sendable is safe: read only to call `storeWasSet()`, which is.
        weak var writer: (any RecordingWriter)?
    }

    private let listeners = LockedValue<[ObjectIdentifier: [Weak]]>([:])

    /// `writer` is told when `store` is set, for as long as it lives.
    @usableFromInline
    func add(_ writer: any RecordingWriter, store: ObjectIdentifier) {
        listeners.withLock { listeners in
            listeners[store] = (listeners[store] ?? []).filter { $0.writer != nil } + [Weak(writer: writer)]
        }
    }

    /// An attached shell set `store`: its recorders write how the replay gets there.
    @usableFromInline
    func storeWasSet(_ store: ObjectIdentifier) {
        let writers = listeners.withLock { $0[store]?.compactMap(\.writer) ?? [] }
        for writer in writers { writer.storeWasSet() }
    }
}
