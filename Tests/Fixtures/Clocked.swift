import FluxShellSession
import Foundation

/// A feature with effects that take time, as a TCA reducer and its `.run` effects are written
/// for the shell: a search that answers after 300 ms, a timer that ticks every second, and the
/// effects that misbehave (spin, throw, send after they were cancelled).
package enum Clocked {
    package struct State: Equatable {
        package var query = ""
        package var results: [String] = []
        package var ticks = 0
        package var ids: [UUID] = []
        package init() {}
    }

    package enum Action: Equatable {
        case search(String)
        case response([String])
        case startTimer
        case tick
        case spin
        case fail
        case stubborn
        case newID
        case stamped(UUID)
    }

    package struct Failure: Error, CustomStringConvertible {
        package var description: String { "the server said no" }
        package init() {}
    }

    package static func reduce(_ state: inout State, _ action: Action) {
        switch action {
        case .search(let query): state.query = query
        case .response(let results): state.results = results
        case .tick: state.ticks += 1
        case .stamped(let id): state.ids.append(id)
        case .startTimer, .spin, .fail, .stubborn, .newID: break
        }
    }

    package static func effect(_ action: Action, _ state: State, _ context: EffectContext<Action>) async throws
        -> [Action]
    {
        let clock = context.environment.clock
        switch action {
        case .search(let query):
            try await clock.sleep(for: .milliseconds(300))
            return [.response([query + "-1", query + "-2"])]
        case .startTimer:
            while true {
                try await clock.sleep(for: .seconds(1))
                context.send(.tick)
            }
        case .spin:
            while true { await Task.yield() }
        case .fail:
            throw Failure()
        case .stubborn:
            // NB: ignores its cancellation, and sends anyway.
            try? await clock.sleep(for: .seconds(10))
            context.send(.tick)
            return []
        case .newID:
            return [.stamped(context.environment.uuid())]
        case .response, .tick, .stamped:
            return []
        }
    }

    package static let catalog = StoreCatalog([
        StoreDefinition("clocked", state: State(), reduce: reduce, effect: effect)
    ])
}
