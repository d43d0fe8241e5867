import FluxCore
import FluxShell
import FluxShellCommand

// A user's shell with stores planted to break `fluxsh explore`'s checks, for the end-to-end
// tests: none of them is a built-in store.

/// `divide(by: 0)` traps (division by zero) after any number of other actions.
struct Quotient: State { var value = 100 }

enum QuotientAction: Action {
    case add(Int)
    case divide(by: Int)
}

struct QuotientMutation: Mutation {
    func mutate(action: QuotientAction, state: inout Quotient) {
        switch action {
        case .add(let amount): state.value = state.value &+ amount
        case .divide(let divisor): state.value = state.value / divisor
        }
    }
}

var catalog = StoreCatalog([StoreDefinition("quotient", state: Quotient(), mutation: QuotientMutation())])
FluxShellMain.run(catalog: catalog)
