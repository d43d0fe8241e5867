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

/// Refuses an action that would take the count past `Int.max` or `Int.min`: the counter does not
/// wrap around.
func validateCounter(_ action: CounterAction, _ state: CounterState) throws {
    let amount: Int
    switch action {
    case .increment: amount = 1
    case .decrement: amount = -1
    case .add(let value): amount = value
    case .set: return
    }
    guard state.count.addingReportingOverflow(amount).overflow else { return }
    throw ShellError(
        "count \(state.count) \(amount < 0 ? "-" : "+") \(amount.magnitude) is out of range for Int",
        hint: "the counter does not wrap around; set it to a smaller number first")
}

extension StoreDefinition {
    /// `{"count":0}`; `increment`, `decrement`, `add(Int)`, `set(Int)`.
    public static let counter = StoreDefinition(
        "counter", summary: "a number: increment, decrement, add(Int), set(Int)",
        state: CounterState(), mutation: CounterMutation(), validate: validateCounter
    ).demonstration()
}
