import MiniComposable

/// The child feature: the forecast of the location tapped in the search results, which the
/// parent fills in when it arrives, the day selected in it, and the unit it is shown in.
public struct LocationWeather: Reducer {
    public struct State: Equatable {
        public var location: Location?
        public var isLoading = false
        public var days: [Forecast.Day] = []
        public var selectedDay: Int?
        public var unit = TemperatureUnit.celsius
        /// What went wrong with the last forecast request, as the error describes it.
        public var failure: String?

        public init() {}
    }

    public enum TemperatureUnit: String, Sendable {
        case celsius
        case fahrenheit
    }

    public enum Action {
        case daySelected(Int)
        case unitToggled
    }

    public init() {}

    public var body: some Reducer<State, Action> {
        Reduce { state, action in
            switch action {
            case .daySelected(let index):
                guard state.days.indices.contains(index) else { return .none }
                state.selectedDay = index
                return .none

            case .unitToggled:
                state.unit = state.unit == .celsius ? .fahrenheit : .celsius
                return .none
            }
        }
    }
}
