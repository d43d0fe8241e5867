import FluxCore
import FluxShell

struct CounterState: State, Codable, Equatable {
    var count = 0
}

enum CounterAction: Action, Codable, Equatable {
    case increment
    case decrement
    case add(Int)
    case set(Int)
}

/// NB: the count wraps around past `Int.max` and `Int.min`, as `&+` does, and the reference says
/// so: a `validate:` that refused it would cost every piped line of the counter, the store the
/// shell's speed is measured on (docs/performance.md, "The piped line").
struct CounterMutation: Mutation {
    func mutate(action: CounterAction, state: inout CounterState) {
        switch action {
        case .increment: state.count &+= 1
        case .decrement: state.count &-= 1
        case .add(let amount): state.count &+= amount
        case .set(let value): state.count = value
        }
    }
}

extension StoreDefinition {
    /// `{"count":0}`; `increment`, `decrement`, `add(Int)`, `set(Int)`.
    public static let counter = StoreDefinition(
        "counter", summary: "a number: increment, decrement, add(Int), set(Int)",
        state: CounterState(), mutation: CounterMutation()
    ).demonstration()
}
