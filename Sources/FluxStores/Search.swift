import FluxCore
import FluxShell

struct Repository: Codable, Equatable, Sendable {
    var fullName: String
    var stars: Int
}

struct SearchState: State, Codable, Equatable {
    var query = ""
    var isFetching = false
    var page = 0
    var hasNextPage = false
    var repositories: [Repository] = []
}

enum SearchAction: Action, Codable, Equatable {
    case search(query: String)
    case nextPage
    case searchResponse(page: Int, total: Int, repositories: [Repository])
}

struct SearchMutation: Mutation {
    func mutate(action: SearchAction, state: inout SearchState) {
        switch action {
        case .search(let query):
            state.query = query
            state.repositories = []
            state.page = 0
            state.isFetching = true
            state.hasNextPage = false
        case .nextPage:
            state.isFetching = true
        case .searchResponse(let page, let total, let repositories):
            state.page = page
            state.repositories += repositories
            // NB: `fluxsh explore search` found `page * pageSize` overflowing (a response for
            // page Int.max typed by hand): past Int's range, a page is past every result.
            let (shown, overflow) = page.multipliedReportingOverflow(by: RepositoryFixture.pageSize)
            state.hasNextPage = overflow ? page < 0 : shown < total
            state.isFetching = false
        }
    }
}

/// A deterministic, in-process stand-in for a repository search service.
enum RepositoryFixture {
    static let pageSize = 10

    static let all: [Repository] = {
        let owners = [
            "apple", "swiftlang", "pointfreeco", "vapor", "marty-suzuki", "ra1028", "ReSwift", "hummingbird-project",
        ]
        let names = [
            "swift", "swift-nio", "swift-collections", "swift-argument-parser", "swift-composable-architecture",
            "swift-custom-dump", "vapor", "fluent", "Prex", "VueFlux", "ReSwift", "hummingbird", "swift-log",
            "swift-syntax", "swift-format", "swift-parsing", "swift-dependencies", "swift-snapshot-testing",
            "swift-algorithms", "swift-async-algorithms", "swift-crypto", "swift-metrics", "swift-testing",
            "swift-docc", "swift-package-manager", "swift-driver", "swift-markdown", "swift-system",
            "swift-atomics", "swift-numerics", "SwiftFlux", "FluxKit", "swift-redux", "swift-tagged",
            "swift-case-paths", "swift-clocks",
        ]
        return names.enumerated().map { index, name in
            let owner = owners[(index * 5 + name.count) % owners.count]
            let stars = ((index * 7_919 + name.count * 104_729) % 60_000) + 12
            return Repository(fullName: "\(owner)/\(name)", stars: stars)
        }
    }()

    /// Page `page` (1-based) of the repositories whose full name contains `query`, ignoring case.
    static func response(query: String, page: Int) -> SearchAction {
        let needle = query.lowercased()
        let matches = all.filter { needle.isEmpty || $0.fullName.lowercased().contains(needle) }
        // NB: a page below 1 (a `searchResponse` dispatched by hand, then `nextPage`) is the first:
        // `fluxsh explore search` found it trapping on a negative index.
        let start = min(matches.count, max(0, page - 1) * pageSize)
        let slice = Array(matches[start..<min(matches.count, start + pageSize)])
        return .searchResponse(page: page, total: matches.count, repositories: slice)
    }
}

@Sendable
func validateSearch(_ action: SearchAction, _ state: SearchState) throws {
    guard case .nextPage = action else { return }
    if state.isFetching {
        throw ShellError("a search is still fetching", hint: "wait for its response")
    }
    if !state.hasNextPage {
        throw ShellError(
            "there is no next page",
            hint: state.page == 0
                ? "search first, e.g. dispatch search query: swift" : "page \(state.page) was the last")
    }
}

/// The request/response pattern: a search or next-page request is answered by the fixture.
@Sendable
func searchEffect(_ action: SearchAction, _ state: SearchState) -> [SearchAction] {
    switch action {
    case .search(let query): [RepositoryFixture.response(query: query, page: 1)]
    case .nextPage: [RepositoryFixture.response(query: state.query, page: state.page + 1)]
    case .searchResponse: []
    }
}

extension StoreDefinition {
    /// A repository search in the style of the Prex example app, served by an in-process fixture.
    public static let search = StoreDefinition(
        "search", summary: "a repository search: search(query:), nextPage; answered by a fixture",
        state: SearchState(), mutation: SearchMutation(), validate: validateSearch, effect: searchEffect
    ).demonstration()
}
