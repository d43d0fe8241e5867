import FluxShell
import MiniComposable
import WeatherFeature

/// The search feature in its library's `Store`, with a `Reduce` at the end of its body that
/// reports each action the store applied to the shell's feed (the `observe:` hook).
@MainActor
final class CityStore {
    let hook = FeedHook()
    let store:
        Store<
            ReducerBuilder<CitySearch.State, CitySearch.Action>._Sequence<
                CitySearch, Reduce<CitySearch.State, CitySearch.Action>
            >
        >

    init() {
        let hook = self.hook
        store = Store(initialState: CitySearch.State()) {
            CitySearch()
            Reduce { state, action in
                hook.feed?.record(action, state: state)
                return .none
            }
        }
    }
}

/// Where the store's `Reduce` finds the shell's feed, once `observe:` gave it.
final class FeedHook: @unchecked Sendable {
    // NB: @unchecked Sendable is safe: `feed` is set once by `observe:`, before any action is sent.
    var feed: StoreFeed<CitySearch.Action, CitySearch.State>?
}

extension MiniComposable.Effect where Action: Sendable {
    /// The effect as the shell runs a reducer's: its actions at once, its work on the session's clock.
    var shell: StoreEffect<Action> {
        .merge(
            actions.map { StoreEffect.send($0) }
                + operations.map { operation in .run { send in await operation(Send { await send($0) }) } })
    }
}
