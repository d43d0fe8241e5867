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
            let whole = AppValue(effect)
            start(
                { _, _, context in
                    try await Self.run(whole.value, in: context)
                    return []
                }, after: action, ids: ids)
        case .cancellable(let inner, let id, let cancelInFlight):
            if cancelInFlight { effects.cancel(id: id, of: ObjectIdentifier(self)) }
            perform(inner, after: action, ids: ids + [id])
        case .cancel(let id):
            effects.cancel(id: id, of: ObjectIdentifier(self))
        }
    }

    /// Runs `effect` inside a task of the session's (a concatenation's): each part once the one
    /// before ended, a merge's parts at once. An id inside it stands for the whole task's.
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
