import MiniComposable

/// The root feature, after TCA's Search example: a query, the locations it found, and the weather
/// of the one tapped, which the `LocationWeather` child shows. Requests are the app's effects; the
/// responses come back as `searchResponse` and `forecastResponse` actions.
public struct Search: Reducer {
    public struct State: Equatable {
        public var searchQuery = ""
        public var results: [Location] = []
        public var isSearching = false
        /// What went wrong with the last search, as the error describes it.
        public var failure: String?
        public var weather = LocationWeather.State()

        public init() {}
    }

    public enum Action {
        case searchQueryChanged(String)
        case searchQueryChangeDebounced
        case searchResponse(Result<[Location], any Error>)
        case searchResultTapped(Location)
        case forecastResponse(id: Location.ID, Result<Forecast, any Error>)
        case weather(LocationWeather.Action)

        // NB: TCA's `@CasePathable` macro writes this as `\.weather`; no macro here.
        static var weatherCase: AnyCasePath<Action, LocationWeather.Action> {
            AnyCasePath(embed: Action.weather, extract: { if case .weather(let action) = $0 { action } else { nil } })
        }
    }

    public init() {}

    public var body: some Reducer<State, Action> {
        Scope(state: \.weather, action: Action.weatherCase) {
            LocationWeather()
        }
        Reduce { state, action in
            switch action {
            case .searchQueryChanged(let query):
                state.searchQuery = query
                // A query cleared clears what it found (the app cancels its request here).
                guard !query.isEmpty else {
                    state.results = []
                    state.isSearching = false
                    state.weather = LocationWeather.State()
                    return .none
                }
                return .none

            case .searchQueryChangeDebounced:
                // The app starts its request here: `.run { send in … }`, its answer a `searchResponse`.
                guard !state.searchQuery.isEmpty else { return .none }
                state.isSearching = true
                return .none

            case .searchResponse(.success(let locations)):
                state.isSearching = false
                state.results = locations
                state.failure = nil
                return .none

            case .searchResponse(.failure(let error)):
                state.isSearching = false
                state.results = []
                state.failure = "\(error)"
                return .none

            case .searchResultTapped(let location):
                // The app requests the forecast here; its answer is a `forecastResponse`.
                state.weather = LocationWeather.State()
                state.weather.location = location
                state.weather.isLoading = true
                return .none

            case .forecastResponse(let id, _) where id != state.weather.location?.id:
                // The answer for a location tapped before the one shown: too late.
                return .none

            case .forecastResponse(_, .success(let forecast)):
                state.weather.isLoading = false
                state.weather.days = forecast.days
                state.weather.selectedDay = forecast.days.isEmpty ? nil : 0
                state.weather.failure = nil
                return .none

            case .forecastResponse(_, .failure(let error)):
                state.weather.isLoading = false
                state.weather.days = []
                state.weather.selectedDay = nil
                state.weather.failure = "\(error)"
                return .none

            case .weather:
                return .none
            }
        }
    }
}
