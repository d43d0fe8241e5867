import FluxCore
import FluxShell
import FluxShellCommand
import FluxStores
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

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

/// `descend` recurses without end, until the stack runs out; `halt` stops the process as a failed
/// check of a release build does: SIGILL, and no message.
struct Depth: State { var value = 0 }
enum DepthAction: Action {
    case add(Int)
    case descend, halt
}
struct DepthMutation: Mutation {
    func mutate(action: DepthAction, state: inout Depth) {
        switch action {
        case .add(let amount): state.value &+= amount
        case .descend: Self.descend(from: 0, &state)
        case .halt: raise(SIGILL)
        }
    }

    /// NB: not a tail call (the state is written after it), so that no optimizer makes it a loop.
    static func descend(from depth: Int, _ state: inout Depth) {
        if depth >= 0 { descend(from: depth + 1, &state) }
        state.value = depth
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

/// A TCA-style reducer that pops with `removeLast()`: it traps on an empty stack, which happens
/// only when an edit of the past takes a push out from under a pop.
struct Stack { var items: [Int] = [] }
enum StackAction {
    case push(Int)
    case pop
}
func reduceStack(_ state: inout Stack, _ action: StackAction) {
    switch action {
    case .push(let value): state.items.append(value)
    case .pop: state.items.removeLast()
    }
}

/// 10,000 rows, one flipped by `flip(Int)` at once: the diff of one field among 10,000, a path
/// the performance budget counts (Scripts/budget.py).
struct Roster: State {
    struct Row: Equatable {
        var id: Int
        var name: String
        var active = false
    }

    var rows = (0..<10_000).map { Row(id: $0, name: "row \($0)") }
}
enum RosterAction: Action { case flip(Int) }
struct RosterMutation: Mutation {
    func mutate(action: RosterAction, state: inout Roster) {
        guard case .flip(let index) = action, state.rows.indices.contains(index) else { return }
        state.rows[index].active.toggle()
    }
}

// Stores of other forms, written as a ReSwift app and a class-based store are.

/// A ReSwift-style ledger: struct actions and a pure reducer; `Withdraw` does not check the
/// balance, which its invariant says is never negative.
protocol LedgerAction {}
struct Deposit: LedgerAction { let amount: Int }
struct Withdraw: LedgerAction { let amount: Int }
struct Close: LedgerAction {}
struct Ledger {
    var balance = 0
    var isClosed = false
}

func ledgerReducer(action: LedgerAction, state: Ledger?) -> Ledger {
    var state = state ?? Ledger()
    switch action {
    case let deposit as Deposit where deposit.amount > 0: state.balance &+= deposit.amount
    case let withdrawal as Withdraw where withdrawal.amount > 0: state.balance &-= withdrawal.amount
    case is Close: state.isClosed = true
    default: break
    }
    return state
}

/// A class-based store whose every tick reads a clock of the process: a new store sent the same
/// actions reaches another state.
final class Meter {
    nonisolated(unsafe) static var clock = 0
    var reading = 0
    enum Action { case tick, zero }

    func send(_ action: Action) {
        switch action {
        case .tick:
            Meter.clock += 1
            reading = Meter.clock
        case .zero: reading = 0
        }
    }
}

/// A store whose library applies what comes later on a queue of its own: `start` makes it tick
/// once, 0.3 s later. Its subscriber reports each action (`observe:`), so the tick prints at once,
/// above the line being typed.
final class Ticker: @unchecked Sendable {
    // NB: @unchecked Sendable is safe: `current` is touched under `lock`; `onApply` is set once,
    // when the shell hooks the store, before any action.
    enum Action { case start, tick }
    struct State { var ticks = 0 }

    private let lock = NSLock()
    private var current = State()
    var onApply: ((Action, State) -> Void)?

    var state: State { lock.withLock { current } }

    func send(_ action: Action) {
        apply(action)
        guard case .start = action else { return }
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { self.apply(.tick) }
    }

    private func apply(_ action: Action) {
        let state = lock.withLock { () -> State in
            if case .tick = action { current.ticks += 1 }
            return current
        }
        onApply?(action, state)
    }
}

/// A model of the main actor's, as SwiftUI apps write one: `set` starts a task of its own that
/// sleeps two seconds on the clock it was made with, then rings; its hook reports each action.
@MainActor
final class Alarm {
    enum Action { case set, ring }
    struct State { var isSet = false, rings = 0 }

    private(set) var state = State()
    let clock: ShellClock
    var onApply: ((Action, State) -> Void)?

    init(clock: ShellClock) { self.clock = clock }

    func send(_ action: Action) {
        switch action {
        case .set: state.isSet = true
        case .ring: (state.isSet, state.rings) = (false, state.rings + 1)
        }
        onApply?(action, state)
        guard case .set = action else { return }
        Task {
            try await clock.sleep(for: .seconds(2))
            send(.ring)
        }
    }
}

/// An action type that is a class: refused when the store is registered.
final class Shout: LedgerAction {}

// NB: a demonstration store first, as a user's shell may list one: its banner still suggests
// one of its own (`quotient`).
var definitions = [
    .counter,
    StoreDefinition("quotient", state: Quotient(), mutation: QuotientMutation()),
    StoreDefinition("level", state: Level(), mutation: LevelMutation()),
    StoreDefinition("depth", state: Depth(), mutation: DepthMutation()),
    StoreDefinition("stack", state: Stack(), reduce: reduceStack),
    StoreDefinition("roster", state: Roster(), mutation: RosterMutation()),
    StoreDefinition("bag", state: Bag(), mutation: BagMutation()),
    StoreDefinition("tags", state: Tags(), mutation: TagsMutation()),
    StoreDefinition(
        "ledger", state: Ledger(), actionTypes: [Deposit.self, Withdraw.self, Close.self],
        reducer: { action, state in ledgerReducer(action: action, state: state) },
        invariants: [StoreInvariant("the balance is never negative") { $0.balance >= 0 }]),
    StoreDefinition("meter", make: { Meter() }, state: { $0.reading }, send: { meter, action in meter.send(action) }),
    radarDefinition,
    StoreDefinition(
        "ticker", make: { Ticker() }, state: { $0.state }, send: { ticker, action in ticker.send(action) },
        observe: { ticker, feed in ticker.onApply = { feed.record($0, state: $1) } }),
    StoreDefinition(
        "alarm", make: { env in MainActor.assumeIsolated { Alarm(clock: env.clock) } },
        state: { alarm in MainActor.assumeIsolated { alarm.state } },
        send: { alarm, action in MainActor.assumeIsolated { alarm.send(action) } },
        observe: { alarm, feed in MainActor.assumeIsolated { alarm.onApply = { feed.record($0, state: $1) } } }),
    // The same store with no hook: its state is read again while the user types.
    StoreDefinition("drift", make: { Ticker() }, state: { $0.state }, send: { ticker, action in ticker.send(action) }),
    // An effect written here, in code of the main actor's, as a user's shell writes it.
    StoreDefinition(
        "beacon", state: 0,
        reduce: { (count: inout Int, action: RadarAction) in if case .clear = action { count += 1 } },
        effect: { action, _, context in
            guard case .sweep = action else { return [] }
            try await context.environment.clock.sleep(for: .seconds(1))
            return [.clear]
        }),
]
if getenv("PLANTED_CLASS_ACTION") != nil {
    definitions.append(
        StoreDefinition(
            "shouts", state: Ledger(), actionTypes: [Deposit.self, Shout.self],
            reducer: { action, state in ledgerReducer(action: action, state: state) }))
}
FluxShellMain.run(catalog: StoreCatalog(definitions))
