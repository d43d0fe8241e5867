import FluxShellSystem

/// The recorders of the app's stores, told when shells attach to a store and leave it, and when
/// one sets the store's state (`undo`, `redo`, `reset`), whichever agent, page or session the
/// shell came through: keyed by the store itself (a FluxCore `Store`, or the tap of a store of
/// another form), so that an agent and a recorder made from separate `LiveStore` values of one
/// FluxCore store, under other names, find each other.
@usableFromInline
final class StoreSetListeners: Sendable {
    @usableFromInline static let shared = StoreSetListeners()

    private struct Weak: Sendable {
        weak var writer: (any RecordingWriter)?
    }

    private struct Listeners {
        var writers: [Weak] = []
        /// How many attached sessions hold the store.
        var shells = 0
    }

    private let stores = LockedValue<[ObjectIdentifier: Listeners]>([:])

    /// `writer` is told of `store`'s shells and of the states they set, for as long as it lives.
    @usableFromInline
    func add(_ writer: any RecordingWriter, store: ObjectIdentifier) {
        let shells = stores.withLock { stores in
            stores[store, default: Listeners()].writers.removeAll { $0.writer == nil }
            stores[store, default: Listeners()].writers.append(Weak(writer: writer))
            return stores[store]?.shells ?? 0
        }
        if shells > 0 { writer.shellsAttached(true) }
    }

    /// A session attached to `store`; it leaves with ``Attachment/end()``.
    @usableFromInline
    func attach(_ store: ObjectIdentifier) -> Attachment {
        let writers = stores.withLock { stores -> [any RecordingWriter] in
            stores[store, default: Listeners()].shells += 1
            return stores[store]?.shells == 1 ? stores[store]?.writers.compactMap(\.writer) ?? [] : []
        }
        for writer in writers { writer.shellsAttached(true) }
        return Attachment(store: store, listeners: self)
    }

    fileprivate func leave(_ store: ObjectIdentifier) {
        let writers = stores.withLock { stores -> [any RecordingWriter] in
            stores[store, default: Listeners()].shells -= 1
            guard stores[store]?.shells == 0 else { return [] }
            let writers = stores[store]?.writers.compactMap(\.writer) ?? []
            if writers.isEmpty { stores[store] = nil }
            return writers
        }
        for writer in writers { writer.shellsAttached(false) }
    }

    /// An attached shell is about to set `store` to `state`: its recorders write how the replay
    /// gets there, before the app's observers see the new state (and dispatch what they do).
    @usableFromInline
    func storeWillBeSet(_ store: ObjectIdentifier, to state: Any) {
        let writers = stores.withLock { $0[store]?.writers.compactMap(\.writer) ?? [] }
        for writer in writers { writer.storeWillBeSet(to: state) }
    }

    /// A session's hold on a store, for as long as it is attached.
    @usableFromInline
    final class Attachment: Sendable {
        private let store: ObjectIdentifier
        private let listeners: StoreSetListeners
        private let isEnded = LockedValue(false)

        fileprivate init(store: ObjectIdentifier, listeners: StoreSetListeners) {
            self.store = store
            self.listeners = listeners
        }

        /// The session left the store (once, however often it is called).
        @usableFromInline func end() {
            let wasEnded = isEnded.withLock { isEnded in
                defer { isEnded = true }
                return isEnded
            }
            if !wasEnded { listeners.leave(store) }
        }

        deinit { end() }
    }
}
