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
    /// The current state as JSON (encoded once per change, when asked).
    func encodeState() throws -> JSONValue
    var json: JSONValue { get }
    /// The diff since the last recorded step, and the current state becomes that step.
    func recordStep() -> [DiffEntry]
    /// The diff from `snapshot` to the current state.
    func entries(since snapshot: any Sendable) -> [DiffEntry]
    /// The current state, to restore later.
    func snapshot() -> any Sendable
    /// Puts `snapshot` back; returns the diff from the state before.
    func restore(_ snapshot: any Sendable) -> [DiffEntry]
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
    /// The state as of the last recorded step.
    private var recorded: M.State
    /// The recorded state's members, so each step encodes only the new state.
    private var recordedForm: ShallowEncoding.Form?
    private var cachedJSON: JSONValue?

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
        self.validateAction = validate
        self.effect = effect
        self.dispatcher = dispatcher
        self.store = Store(state: initialState)
        self.recorded = initialState
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

    var json: JSONValue {
        // NB: valid while nothing changed since; a recorded step that changed something clears it.
        if let cachedJSON { return cachedJSON }
        let json = (try? JSONValueEncoder().encode(store.state)) ?? .null
        cachedJSON = json
        return json
    }

    func recordStep() -> [DiffEntry] {
        let current = store.state
        let (entries, form) = StructuralDiff.entries(from: recorded, shallow: recordedForm, to: current)
        recorded = current
        recordedForm = form
        if !entries.isEmpty { cachedJSON = nil }
        return entries
    }

    func entries(since snapshot: any Sendable) -> [DiffEntry] {
        guard let before = snapshot as? M.State else { return [] }
        return StructuralDiff.entries(from: before, to: store.state)
    }

    func snapshot() -> any Sendable { store.state }

    func restore(_ snapshot: any Sendable) -> [DiffEntry] {
        guard let state = snapshot as? M.State else { return [] }
        store.replace(with: state)
        return recordStep()
    }

    var initialSnapshot: any Sendable { initialState }
}
