import FluxCore

// NB: these types live in the benchmark module on purpose: a user's state, action and mutation are
// always in another module than FluxCore, so this measures the cross-module (specialised) path.

struct CounterState: State {
    var count = 0
}

enum CounterAction: Action {
    case increment
}

struct CounterMutation: Mutation {
    func mutate(action: CounterAction, state: inout CounterState) {
        switch action {
        case .increment: state.count &+= 1
        }
    }
}

final class CounterView: View {
    var last = 0
    func reflect(change: StateChange<CounterState>) {
        if let count = change.count?.value { last = count }
    }
}

/// 50 `Int` properties and a 1,000-element array: the size must not matter.
struct WideState: State {
    var p00 = 0, p01 = 0, p02 = 0, p03 = 0, p04 = 0, p05 = 0, p06 = 0, p07 = 0, p08 = 0, p09 = 0
    var p10 = 0, p11 = 0, p12 = 0, p13 = 0, p14 = 0, p15 = 0, p16 = 0, p17 = 0, p18 = 0, p19 = 0
    var p20 = 0, p21 = 0, p22 = 0, p23 = 0, p24 = 0, p25 = 0, p26 = 0, p27 = 0, p28 = 0, p29 = 0
    var p30 = 0, p31 = 0, p32 = 0, p33 = 0, p34 = 0, p35 = 0, p36 = 0, p37 = 0, p38 = 0, p39 = 0
    var p40 = 0, p41 = 0, p42 = 0, p43 = 0, p44 = 0, p45 = 0, p46 = 0, p47 = 0, p48 = 0, p49 = 0
    var names: [String] = (0..<1_000).map { "name \($0)" }
}

struct WideMutation: Mutation {
    func mutate(action: CounterAction, state: inout WideState) {
        switch action {
        case .increment: state.p00 &+= 1
        }
    }
}

final class WideView: View {
    var reads = 0
    func reflect(change: StateChange<WideState>) {
        // Asks for one property that the action does not change.
        if change.names != nil { reads += 1 }
    }
}

final class Tally: @unchecked Sendable {
    // NB: only touched from the benchmark's single thread.
    var total = 0
}
