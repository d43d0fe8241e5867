import Foundation
import MiniVue

/// The counter's state, as a VueFlux app writes it: a class of variables that only this file's
/// mutations change, and that views read through `Computed`.
public final class CounterState: State {
    public typealias Action = CounterAction
    public typealias Mutations = CounterMutations

    fileprivate let max: Int
    fileprivate let count = Variable(0)
    fileprivate let step = Variable(1)
    fileprivate let interval = Variable<TimeInterval>(0)
    fileprivate let marks = Variable<[Int]>([])

    /// A counter that never goes above `max`, nor below 0.
    public init(max: Int) {
        self.max = max
    }
}

extension Computed where State == CounterState {
    public var count: Constant<Int> { state.count.constant }
    public var step: Constant<Int> { state.step.constant }
    public var interval: Constant<TimeInterval> { state.interval.constant }
    public var marks: Constant<[Int]> { state.marks.constant }
    public var max: Int { state.max }

    public var countText: String { "\(state.count.value) of \(state.max)" }
}

/// The only code that changes a `CounterState`.
public struct CounterMutations: Mutations {
    public init() {}

    public func commit(action: CounterAction, state: CounterState) {
        switch action {
        case .increment:
            state.count.value = min(state.count.value + state.step.value, state.max)
        case .decrement:
            state.count.value = max(state.count.value - state.step.value, 0)
        case .reset:
            state.count.value = 0
        case .setStep(let step):
            state.step.value = min(max(step, 1), 100)
        case .update(let interval):
            state.interval.value = interval
        case .mark:
            state.marks.value.append(state.count.value)
        }
    }
}
