import FluxCore
import Foundation

/// Applies `NotesAction`s. Deterministic: dates come from the actions, ids from `nextNumber`.
public struct NotesMutation: Mutation, Sendable {
    public init() {}

    public func mutate(action: NotesAction, state: inout NotesState) {
        switch action {
        case .add(let title, let date, let link):
            let note = Note(id: Self.id(number: state.nextNumber), title: title, link: link, createdAt: date)
            state.notes.append(note)
            state.nextNumber += 1
            state.notes = Self.sorted(state.notes, by: state.sort)
        case .rename(let id, let title):
            state.update(id) { $0.title = title }
            state.notes = Self.sorted(state.notes, by: state.sort)
        case .pin(let id):
            state.update(id) { $0.pinned = true }
            state.notes = Self.sorted(state.notes, by: state.sort)
        case .unpin(let id):
            state.update(id) { $0.pinned = false }
            state.notes = Self.sorted(state.notes, by: state.sort)
        case .tag(let id, let tags):
            guard state.notes.contains(where: { $0.id == id }) else { return }
            state.update(id) { $0.tags.formUnion(tags) }
            state.tags.formUnion(tags)
        case .untag(let id, let tag):
            state.update(id) { $0.tags.remove(tag) }
            state.tags = Set(state.notes.flatMap(\.tags))
        case .remove(let id):
            state.notes.removeAll { $0.id == id }
            state.tags = Set(state.notes.flatMap(\.tags))
        case .restore(let note):
            guard !state.notes.contains(where: { $0.id == note.id }) else { return }
            state.notes.append(note)
            state.notes = Self.sorted(state.notes, by: state.sort)
            state.tags.formUnion(note.tags)
        case .setFolder(let id, let name):
            state.folders[id] = name
        case .setFolders(let folders):
            state.folders = folders
        case .sort(let order):
            state.sort = order
            state.notes = Self.sorted(state.notes, by: order)
        case .setSync(let sync):
            state.sync = sync
            if case .idle = sync { state.lastError = nil }
        case .fail(let reason):
            state.lastError = SyncError(reason: reason)
            // `notesh explore notes` found `+ 1` trapping after a `setSync` with attempts Int.max.
            let (attempts, overflow) = Self.attempts(state.sync).addingReportingOverflow(1)
            state.sync = .failed(reason: reason, attempts: overflow ? Int.max : attempts)
        case .open(let date):
            state.openedAt = date
        case .close:
            state.openedAt = nil
        case .zoom(let size):
            state.fontSize = size
        case .setLayout(let columns, let preview):
            state.layout = Layout(columns: columns, showsPreview: preview)
        }
    }

    /// `00000000-0000-0000-0000-000000000001`, `…002`, …: ids a script can name.
    static func id(number: Int) -> UUID {
        let digits = String(number)
        return UUID(
            uuidString: "00000000-0000-0000-0000-" + String(repeating: "0", count: max(0, 12 - digits.count)) + digits)!
    }

    /// A stable sort: equal keys keep their order.
    static func sorted(_ notes: [Note], by order: SortOrder) -> [Note] {
        let numbered = notes.enumerated()
        let precedes: ((offset: Int, element: Note), (offset: Int, element: Note)) -> Bool
        switch order {
        case .title:
            precedes = { ($0.element.title, $0.offset) < ($1.element.title, $1.offset) }
        case .created:
            precedes = { ($0.element.createdAt, $0.offset) < ($1.element.createdAt, $1.offset) }
        case .pinnedFirst:
            precedes = { a, b in
                a.element.pinned != b.element.pinned ? a.element.pinned : a.offset < b.offset
            }
        }
        return numbered.sorted(by: precedes).map(\.element)
    }

    static func attempts(_ sync: Sync) -> Int {
        if case .failed(_, let attempts) = sync { return attempts }
        return 0
    }
}

extension NotesState {
    /// Changes the note with `id`; an unknown id changes nothing.
    fileprivate mutating func update(_ id: UUID, _ change: (inout Note) -> Void) {
        guard let index = notes.firstIndex(where: { $0.id == id }) else { return }
        change(&notes[index])
    }
}
