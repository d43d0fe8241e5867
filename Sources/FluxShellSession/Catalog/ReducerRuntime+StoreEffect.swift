import FluxShellValues

/// The effects a reducer returns (``StoreEffect``), run as the session runs every effect: `.send`
/// at once, as a follow-up; `.run` as a task of the session's; the others made of those.
extension ReducerRuntime {
    /// Runs `effect`, which the reducer returned with `action`; `ids` are the cancellation ids of
    /// the effects it starts.
    @usableFromInline
    func perform(_ effect: StoreEffect<Action>, after action: Action, ids: [AnyHashable] = []) {
        switch effect.operation {
        case .none:
            return
        case .send(let followUp):
            parts.value.onFollowUp?(
                actionCases.announcement(of: followUp), TypedActionBox(followUp), ObjectIdentifier(self))
        case .run(let operation):
            start(
                { _, _, context in
                    try await operation(context)
                    return []
                }, after: action, ids: ids)
        case .merge(let effects):
            for effect in effects { perform(effect, after: action, ids: ids) }
        case .concatenate:
            // NB: one task runs the parts in turn: an id inside it cancels that task.
            let inner = Self.cancellations(in: effect)
            for (id, cancelInFlight) in inner where cancelInFlight {
                effects.cancel(id: id, of: ObjectIdentifier(self))
            }
            let whole = AppValue(effect)
            start(
                { _, _, context in
                    try await Self.run(whole.value, in: context)
                    return []
                }, after: action, ids: ids + inner.map(\.id))
        case .cancellable(let inner, let id, let cancelInFlight):
            if cancelInFlight { effects.cancel(id: id, of: ObjectIdentifier(self)) }
            perform(inner, after: action, ids: ids + [id])
        case .cancel(let id):
            effects.cancel(id: id, of: ObjectIdentifier(self))
        }
    }

    /// The cancellation ids inside `effect`, and whether each cancels the effects of its id in
    /// flight when it starts.
    static func cancellations(in effect: StoreEffect<Action>) -> [(id: AnyHashable, cancelInFlight: Bool)] {
        switch effect.operation {
        case .none, .send, .run, .cancel: []
        case .merge(let effects), .concatenate(let effects): effects.flatMap(cancellations(in:))
        case .cancellable(let inner, let id, let cancelInFlight): [(id, cancelInFlight)] + cancellations(in: inner)
        }
    }

    /// Runs `effect` inside a task of the session's (a concatenation's): each part once the one
    /// before ended, a merge's parts at once. An id inside it stands for the whole task's (see
    /// ``cancellations(in:)``).
    static func run(_ effect: StoreEffect<Action>, in context: EffectContext<Action>) async throws {
        switch effect.operation {
        case .none:
            return
        case .send(let action):
            context.send(action)
        case .run(let operation):
            try await operation(context)
        case .merge(let effects):
            let parts = effects.map(AppValue.init)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for part in parts { group.addTask { try await run(part.value, in: context) } }
                try await group.waitForAll()
            }
        case .concatenate(let effects):
            for part in effects { try await run(part, in: context) }
        case .cancellable(let inner, _, _):
            try await run(inner, in: context)
        case .cancel(let id):
            context.cancel(id: id)
        }
    }
}
