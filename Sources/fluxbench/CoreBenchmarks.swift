import FluxCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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

/// Only touched from the benchmark's single thread.
final class Tally {
    var total = 0
}

// MARK: - The hand-written floor

/// What a view of the counter needs at the least: the one-view benchmark is compared with it.
protocol FloorView: AnyObject {
    func reflect(old: CounterState, new: CounterState)
}

final class FloorCounterView: FloorView {
    var last = 0
    func reflect(old: CounterState, new: CounterState) {
        if old.count != new.count { last = new.count }
    }
}

/// Lock, copy, mutate, unlock, and call a weakly held view through an existential: no
/// dispatcher, no observer list, no change value.
final class FloorStore {
    // NB: a heap mutex whose address never moves, as FluxCore's own lock; single-threaded here.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t> = {
        let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        return mutex
    }()
    private var state = CounterState()
    weak var view: (any FloorView)?

    var count: Int { state.count }

    func increment() {
        pthread_mutex_lock(mutex)
        let old = state
        state.count &+= 1
        let new = state
        pthread_mutex_unlock(mutex)
        view?.reflect(old: old, new: new)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }
}
