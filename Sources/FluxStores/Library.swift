import FluxCore
import FluxShell

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// A reading list whose state holds every kind of value “Printed values” in the reference prints,
// the way an app holds them: not `Encodable`, a model with custom `CodingKeys`, an `Error`, a
// class, a tuple, a closure.

struct Book: Codable, Equatable, Sendable {
    var id: UUID
    var title: String
    var link: URL?
    var added: Date
    var price: Decimal?
    var format: Format
    var tags: Set<String> = []

    /// NB: the JSON API's names; the shell shows the Swift names (`link`, `added`).
    enum CodingKeys: String, CodingKey {
        case id, title
        case link = "link_url"
        case added = "added_at"
        case price, format, tags
    }
}

enum Format: Int, Codable, CaseIterable, Sendable {
    case paperback = 1
    case hardcover = 2
    case ebook = 3
}

enum SortOrder: String, Codable, CaseIterable, Sendable {
    case title
    case added
    case price
}

enum SyncStatus: Codable, Equatable, Sendable {
    case idle
    case syncing(since: Date)
    case failed(reason: String, attempts: Int)
}

struct LibraryError: Error, CustomStringConvertible {
    var reason: String
    var description: String { "sync failed: \(reason)" }
}

final class Librarian: Sendable {
    let name: String
    let since: Date

    init(name: String, since: Date) {
        self.name = name
        self.since = since
    }
}

struct LibraryState: State {
    var name = "My library"
    var initial: Character = "M"
    var isOpen = true
    var books: [Book] = []
    var nextNumber = 1
    var visits = 0
    var rating = 0.0
    var volume: Float = 0.5
    var budget: Decimal = Decimal(string: "100.5")!
    var shelves: [Int: String] = [1: "Fiction", 2: "History", 10: "Science"]
    var tags: Set<String> = []
    var status: SyncStatus = .idle
    var sort: SortOrder = .title
    var cover = Data()
    var lastError: (any Error & Sendable)?
    var openedAt: Date?
    var hours: (open: Int, close: Int) = (9, 17)
    var librarian = Librarian(name: "Ada", since: Date(timeIntervalSince1970: 1_700_000_000))
    var homepage = URL(string: "https://example.com/library")!
    var onChange: @Sendable () -> Void = {}
}

enum LibraryAction: Action, Codable, Equatable {
    case add(title: String, added: Date, link: URL? = nil, price: Decimal? = nil, format: Format? = nil)
    case tag(book: UUID, tag: String)
    case untag(book: UUID, tag: String)
    case remove(book: UUID)
    case setStatus(SyncStatus)
    case sort(by: SortOrder)
    case rate(Double)
    case setVolume(Float)
    case setBudget(Decimal)
    case setShelf(id: Int, name: String?)
    case setCover(Data)
    case fail(reason: String)
    case open(at: Date)
    case close
    case visit
    case setHours(open: Int, close: Int)
}

struct LibraryMutation: Mutation, Sendable {
    func mutate(action: LibraryAction, state: inout LibraryState) {
        switch action {
        case .add(let title, let added, let link, let price, let format):
            let id = UUID(uuidString: "00000000-0000-0000-0000-" + String(state.nextNumber).leftPadded(to: 12))!
            state.books.append(
                Book(id: id, title: title, link: link, added: added, price: price, format: format ?? .paperback))
            state.nextNumber += 1
        case .tag(let book, let tag):
            guard let index = state.books.firstIndex(where: { $0.id == book }) else { return }
            state.books[index].tags.insert(tag)
            state.tags.insert(tag)
        case .untag(let book, let tag):
            guard let index = state.books.firstIndex(where: { $0.id == book }) else { return }
            state.books[index].tags.remove(tag)
            state.tags = Set(state.books.flatMap(\.tags))
        case .remove(let book):
            state.books.removeAll { $0.id == book }
        case .setStatus(let status): state.status = status
        case .sort(let order):
            state.sort = order
            switch order {
            case .title: state.books.sort { $0.title < $1.title }
            case .added: state.books.sort { $0.added < $1.added }
            case .price: state.books.sort { ($0.price ?? 0) < ($1.price ?? 0) }
            }
        case .rate(let rating): state.rating = rating
        case .setVolume(let volume): state.volume = volume
        case .setBudget(let budget): state.budget = budget
        case .setShelf(let id, let name): state.shelves[id] = name
        case .setCover(let data): state.cover = data
        case .fail(let reason):
            state.lastError = LibraryError(reason: reason)
            // NB: saturating: `setStatus` can set any count, `Int.max` included.
            let attempts = attempts(state.status)
            state.status = .failed(reason: reason, attempts: attempts == .max ? .max : attempts + 1)
        case .open(let date):
            state.isOpen = true
            state.openedAt = date
        case .close:
            state.isOpen = false
            state.openedAt = nil
        case .visit: state.visits += 1
        case .setHours(let open, let close): state.hours = (open, close)
        }
    }

    private func attempts(_ status: SyncStatus) -> Int {
        if case .failed(_, let attempts) = status { return attempts }
        return 0
    }
}

/// An unknown book is an error and changes nothing.
@Sendable
func validateLibrary(_ action: LibraryAction, _ state: LibraryState) throws {
    let book: UUID
    switch action {
    case .tag(let id, _), .untag(let id, _), .remove(let id): book = id
    default: return
    }
    guard state.books.contains(where: { $0.id == book }) else {
        throw ShellError(
            "no book has id \(book.uuidString)",
            hint: state.books.isEmpty
                ? "the library is empty" : "ids: \(state.books.prefix(5).map(\.id.uuidString).joined(separator: ", "))")
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}

extension StoreDefinition {
    /// A reading list whose state uses every printed form of “Printed values” in the reference.
    public static let library = StoreDefinition(
        "library", summary: "a reading list holding every kind of Swift value: add, tag, setStatus, fail, …",
        state: LibraryState(), mutation: LibraryMutation(), validate: validateLibrary
    ).demonstration()
}
