import FluxCore
@_spi(Engine) import FluxShell
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

/// `set(n)` dies one way above 20 and another way at exactly 20: shrinking must keep the first.
struct Level: State { var value = 0 }
enum LevelAction: Action { case set(Int) }
struct LevelMutation: Mutation {
    func mutate(action: LevelAction, state: inout Level) {
        guard case .set(let value) = action else { return }
        if value > 20 { fatalError("A: above twenty") }
        if value == 20 { fatalError("B: exactly twenty") }
        state.value = value
    }
}

/// `fill` keeps a set's elements in its hash order: another process prints them in another.
struct Bag: State { var items: [String] = [] }
enum BagAction: Action { case fill, clear }
struct BagMutation: Mutation {
    func mutate(action: BagAction, state: inout Bag) {
        switch action {
        case .fill: state.items = Array(Set((0..<12).map { "item\($0)" }))
        case .clear: state.items = []
        }
    }
}

/// `fill` copies a set made once per process: every replay in this process prints the same
/// order, and only a replay in another process (another hash seed) prints another.
struct Tags: State { var items: [String] = [] }
enum TagsAction: Action { case fill, clear }
struct TagsMutation: Mutation {
    static let all = Set((0..<12).map { "tag\($0)" })

    func mutate(action: TagsAction, state: inout Tags) {
        switch action {
        case .fill: state.items = Array(Self.all)
        case .clear: state.items = []
        }
    }
}

let catalog = StoreCatalog([
    StoreDefinition("quotient", state: Quotient(), mutation: QuotientMutation()),
    StoreDefinition("level", state: Level(), mutation: LevelMutation()),
    StoreDefinition("bag", state: Bag(), mutation: BagMutation()),
    StoreDefinition("tags", state: Tags(), mutation: TagsMutation()),
])
FluxShellMain.run(catalog: catalog)
