import FluxShellJSON
import FluxShellSystem
import FluxShellValues

/// Makes a typed action of a text one for every loaded store that accepts it, remembering the
/// last: scripts repeat actions a lot (`dispatch increment`), and a repeated one is not decoded
/// again. Also checks actions with the stores that validate them before anything is dispatched.
final class ActionResolver {
    /// An invocation, the typed action of each store that takes it, and its printed form.
    final class Resolved {
        var invocation: ActionInvocation
        var payloads: [SessionAction.Payload]
        /// The invocation as its values print (“Printed values” in the reference), when that
        /// differs from the text as typed.
        var retyped: ActionInvocation?

        /// The invocation as its values print, for history, `save` and JSON.
        var printed: ActionInvocation { retyped ?? invocation }

        init(_ invocation: ActionInvocation, _ payloads: [SessionAction.Payload], retyped: ActionInvocation?) {
            self.invocation = invocation
            self.payloads = payloads
            self.retyped = retyped
        }
    }

    private struct Memo {
        var last: Resolved?
        var anyStoreValidates = false
    }

    // NB: a resolver belongs to one session, used from one thread at a time (a session is not
    // Sendable): what every dispatch reads is one value, whose accesses skip the run-time
    // exclusivity checks (see `SingleThreadCell`).
    private let memo = SingleThreadCell(Memo())

    /// Whether any loaded store checks actions before they are dispatched.
    var anyStoreValidates: Bool { memo.value.anyStoreValidates }

    /// Forgets what was resolved for an earlier set of stores.
    func storesChanged(_ stores: [Session.LoadedStore]) {
        memo.value.last = nil
        memo.value.anyStoreValidates = stores.contains { $0.runtime.validates }
    }

    /// The typed action of every store in `stores` that accepts `invocation`.
    ///
    /// - Throws: the first store's refusal, or "unknown action" (with a suggestion) when no store
    ///   has the case.
    func resolve(_ invocation: ActionInvocation, in stores: [Session.LoadedStore]) throws(ShellError) -> Resolved {
        if let last = memo.value.last, last.invocation == invocation { return last }
        var payloads: [SessionAction.Payload] = []
        // NB: the last record, when nothing else holds it, is refilled, its array emptied with
        // its storage kept: an action never seen before allocates neither.
        var record: Resolved?
        if memo.value.last != nil, isKnownUniquelyReferenced(&memo.value.last!) {
            record = memo.value.last.take()
            swap(&payloads, &record!.payloads)
            payloads.removeAll(keepingCapacity: true)
        }
        // NB: the printed form stands for the command only when every store that takes it prints
        // it the same way; else the text as typed does, which every store reads as it did.
        var printed: ActionInvocation??
        var printedAlike = true
        var rejections: [(Session.LoadedStore, ShellError)] = []
        for store in stores {
            switch store.runtime.decode(invocation) {
            case .accepted(let action, let printedForm):
                payloads.append(.init(storeID: store.id, action: action))
                if let first = printed {
                    printedAlike = printedAlike && first == printedForm
                } else {
                    printed = printedForm
                }
            case .unknownCase: break
            case .rejected(let error): rejections.append((store, error))
            }
        }
        guard payloads.isEmpty else {
            let form = printedAlike ? printed ?? nil : nil
            let resolved: Resolved
            if let record {
                record.invocation = invocation
                record.payloads = payloads
                record.retyped = form
                resolved = record
            } else {
                resolved = Resolved(invocation, payloads, retyped: form)
            }
            memo.value.last = resolved
            return resolved
        }
        if let (store, error) = rejections.first { throw Self.attributed(error, to: store, among: stores) }
        let names = stores.flatMap { $0.definition.actions.map(\.name) }
        let suggestion = Suggestion.didYouMean(invocation.name, among: names)
        if stores.count == 1 {
            let unlisted = stores[0].definition.actionsUnlistedBecause.map { "its actions cannot be read: \($0)" }
            throw ShellError(
                "unknown action '\(invocation.name)' for store '\(stores[0].alias)'",
                hint: suggestion ?? unlisted ?? "type 'actions' for the list")
        }
        throw ShellError(
            "no loaded store has an action '\(invocation.name)' (tried \(stores.map { "'\($0.alias)'" }.joined(separator: ", ")))",
            hint: suggestion ?? "type 'actions' for the active store's list")
    }

    /// Checks each payload with its store, when that store validates actions (call it when
    /// ``anyStoreValidates``).
    func validate(_ resolved: Resolved, in stores: [Session.LoadedStore]) throws(ShellError) {
        for payload in resolved.payloads {
            guard let store = stores.first(where: { $0.id == payload.storeID }), store.runtime.validates else {
                continue
            }
            do {
                try store.runtime.validate(payload.action)
            } catch let error as ShellError {
                throw Self.attributed(error, to: store, among: stores)
            } catch {
                throw ShellError("\(store.alias): \(error)")
            }
        }
    }

    /// With several stores loaded, an error says which store it comes from.
    private static func attributed(
        _ error: ShellError, to store: Session.LoadedStore, among stores: [Session.LoadedStore]
    ) -> ShellError {
        AliasPrefix.applies(amongStores: stores.count)
            ? ShellError("\(store.alias): \(error.message)", hint: error.hint) : error
    }
}
