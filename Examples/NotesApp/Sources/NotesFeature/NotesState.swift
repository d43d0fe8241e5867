import FluxCore
import Foundation

/// Everything the notes screen shows. Not `Encodable` (an `Error`, a `Layout`), and it need not be.
public struct NotesState: State {
    public var notes: [Note] = []
    public var nextNumber = 1
    public var tags: Set<String> = []
    public var folders: [Int: String] = [1: "Inbox", 2: "Work", 10: "Archive"]
    public var createdAt = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z
    public var openedAt: Date?
    public var sync: Sync = .idle
    public var sort: SortOrder = .created
    public var lastError: (any Error & Sendable)?
    public var layout = Layout()
    public var fontSize = 14.0
    public var owner = "Zoë"

    public init() {}
}
