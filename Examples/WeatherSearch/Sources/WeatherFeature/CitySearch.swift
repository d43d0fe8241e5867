import Dependencies
import Foundation
import MiniComposable

/// Search as you type, debounced as a TCA app debounces it, on swift-dependencies: each change of
/// the query is a request, stamped with an id (`@Dependency(\.uuid)`) and the time it was typed
/// (`@Dependency(\.date)`); the request waits 300 ms on `@Dependency(\.continuousClock)` for the
/// typing to settle, then the geocoder answers it. An answer to a query typed over is dropped, so
/// only the last query's places show.
public struct CitySearch: Reducer {
    public struct State: Equatable, Sendable {
        public var query = ""
        /// The last query's request, until its answer arrives.
        public var pending: Request?
        public var results: [Location] = []
        /// When the places shown arrived.
        public var answeredAt: Date?

        public init() {}
    }

    /// A query sent to the geocoder: its id, and when it was typed.
    public struct Request: Equatable, Sendable {
        public var id: UUID
        public var query: String
        public var typedAt: Date
    }

    public enum Action: Equatable, Sendable {
        case queryChanged(String)
        case searchResponse(id: UUID, [Location])
    }

    @Dependency(\.uuid) var uuid
    @Dependency(\.date) var date
    @Dependency(\.continuousClock) var clock

    public init() {}

    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .queryChanged(let query):
            state.query = query
            guard !query.isEmpty else {
                state.pending = nil
                state.results = []
                state.answeredAt = nil
                return .none
            }
            let request = Request(id: uuid(), query: query, typedAt: date.now)
            state.pending = request
            // The request waits for the typing to settle, then the geocoder's answer comes back.
            return .run { [clock] send in
                try await clock.sleep(for: .milliseconds(300))
                await send(.searchResponse(id: request.id, Self.geocode(request.query)))
            }

        case .searchResponse(let id, _) where id != state.pending?.id:
            // The answer to a query typed over: too late.
            return .none

        case .searchResponse(_, let locations):
            state.pending = nil
            state.results = locations
            state.answeredAt = date.now
            return .none
        }
    }

    /// The places whose names begin with `query` (the geocoding API, answered from a fixture).
    static func geocode(_ query: String) -> [Location] {
        places.filter { $0.name.lowercased().hasPrefix(query.lowercased()) }
    }

    static let places = [
        Location(id: 1, name: "Paris", country: "France", latitude: 48.85, longitude: 2.35),
        Location(id: 2, name: "Paris", country: "United States", latitude: 33.66, longitude: -95.56),
        Location(id: 3, name: "Parma", country: "Italy", latitude: 44.8, longitude: 10.33),
        Location(id: 4, name: "Oslo", country: "Norway", latitude: 59.91, longitude: 10.75),
    ]
}
