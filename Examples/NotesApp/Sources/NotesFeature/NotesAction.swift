import FluxCore
import Foundation

/// What the notes screen can do. Its synthesized `Codable` form is what the shell types.
public enum NotesAction: Action, Codable, Equatable {
    case add(title: String, at: Date, link: URL? = nil)
    case rename(id: UUID, title: String)
    case pin(UUID)
    case unpin(id: UUID)
    case tag(id: UUID, tags: Set<String>)
    case untag(id: UUID, tag: String)
    case remove(id: UUID)
    case restore(Note)
    case setFolder(id: Int, name: String?)
    case setFolders([Int: String])
    case sort(by: SortOrder)
    case setSync(Sync)
    case fail(reason: String)
    case open(at: Date)
    case close
    case zoom(Double)
    case setLayout(columns: Int, preview: Bool)
}
