import FluxCore

/// A loaded store, seen through the types the session knows: text in, JSON out.
protocol StoreRuntime: AnyObject {
    var alias: String { get set }
    var storeName: String { get }
    var signatures: [ActionSignature] { get }
    /// Called with each follow-up action an effect produced, in order.
    var onFollowUp: ((ActionInvocation) -> Void)? { get set }

    /// The typed action for `invocation`, or why this store does not take it.
    func decode(_ invocation: ActionInvocation) -> DecodeOutcome
    /// Throws when the store refuses `action` in its current state.
    func validate(_ action: any Action) throws
    /// The current state as JSON.
    func encodeState() throws -> JSONValue
    /// The current state, to restore later.
    func snapshot() -> any Sendable
    func restore(_ snapshot: any Sendable)
    /// The initial state, as a snapshot.
    var initialSnapshot: any Sendable { get }
    func detach()
}

enum DecodeOutcome {
    case accepted(any Action)
    /// The store has no action of that name.
    case unknownCase
    /// The store has that action, but not with these arguments.
    case rejected(ShellError)
}

final class TypedStoreRuntime<M: Mutation & Sendable>: StoreRuntime
where M.Action: Codable, M.State: Encodable {
    var alias: String
    let storeName: String
    let signatures: [ActionSignature]
    var onFollowUp: ((ActionInvocation) -> Void)?
    let store: Store<M.State>
    private let initialState: M.State
    private let mutation: M
    private let validateAction: (@Sendable (M.Action, M.State) throws -> Void)?
    private let effect: (@Sendable (M.Action, M.State) -> [M.Action])?
    private let dispatcher: Dispatcher<SessionAction>
    private var subscription: Subscription?
    private let caseNames: Set<String>

    init(
        alias: String, storeName: String, initialState: M.State, mutation: M,
        signatures: [ActionSignature],
        validate: (@Sendable (M.Action, M.State) throws -> Void)?,
        effect: (@Sendable (M.Action, M.State) -> [M.Action])?,
        dispatcher: Dispatcher<SessionAction>
    ) {
        self.alias = alias
        self.storeName = storeName
        self.initialState = initialState
        self.mutation = mutation
        self.signatures = signatures
        self.caseNames = Set(signatures.map(\.name))
        self.validateAction = validate
        self.effect = effect
        self.dispatcher = dispatcher
        self.store = Store(state: initialState)
        let id = ObjectIdentifier(self)
        subscription = dispatcher.register { [unowned self] envelope in
            guard let action = envelope.payload(for: id) as? M.Action else { return }
            self.apply(action)
        }
    }

    func detach() {
        if let subscription { dispatcher.unregister(subscription) }
        subscription = nil
    }

    private func apply(_ action: M.Action) {
        let mutation = self.mutation
        store.update { mutation.mutate(action: action, state: &$0) }
        guard let effect, let onFollowUp else { return }
        for followUp in effect(action, store.state) {
            guard let invocation = try? ActionText.invocation(of: followUp) else { continue }
            onFollowUp(invocation)
        }
    }

    func decode(_ invocation: ActionInvocation) -> DecodeOutcome {
        let signature = signatures.first { $0.name == invocation.name }
        if !signatures.isEmpty, signature == nil { return .unknownCase }
        let payload: JSONObject
        do {
            payload = try ActionText.payload(for: invocation, signature: signature)
        } catch {
            return .rejected(error)
        }
        do {
            let action = try JSONValueDecoder().decode(
                M.Action.self, from: .object(JSONObject([(invocation.name, .object(payload))])))
            return .accepted(action)
        } catch let error as DecodingError {
            if signature == nil, ActionText.isUnknownCase(error) { return .unknownCase }
            return .rejected(ActionText.describe(error, invocation: invocation, signature: signature))
        } catch {
            return .rejected(ShellError("\(error)"))
        }
    }

    func validate(_ action: any Action) throws {
        guard let validateAction, let action = action as? M.Action else { return }
        try validateAction(action, store.state)
    }

    func encodeState() throws -> JSONValue {
        try JSONValueEncoder().encode(store.state)
    }

    func snapshot() -> any Sendable { store.state }

    func restore(_ snapshot: any Sendable) {
        guard let state = snapshot as? M.State else { return }
        store.replace(with: state)
    }

    var initialSnapshot: any Sendable { initialState }
}
