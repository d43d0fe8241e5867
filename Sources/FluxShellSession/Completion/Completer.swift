import FluxShellJSON
import FluxShellLanguage
import FluxShellSystem
import FluxShellValues

/// Tab completion for the shell's language, context-aware: command words; store names after
/// `load`; aliases after `use`; action names after `dispatch`, then that action's argument labels
/// and enum values; state paths after `state`, `expect`, `why`, `watch` and `unwatch`; file names after `save`.
///
/// ```swift
/// Completer(session: session).complete("dispatch ad")
/// // Completion(word: "ad", candidates: ["add"])
/// ```
package struct Completer {
    public struct Completion: Equatable, Sendable {
        /// The partial word before the cursor that candidates replace.
        public var word: String
        /// Full replacements for `word`, without duplicates: an action's arguments in the order of
        /// its parameters (values of the next one, then the labels not given yet), anything else
        /// sorted.
        public var candidates: [String]

        /// The text every candidate continues `word` with (what Tab inserts at once).
        public var commonExtension: String {
            guard var common = candidates.first else { return "" }
            for candidate in candidates.dropFirst() {
                while !candidate.hasPrefix(common) { common.removeLast() }
            }
            return common.count > word.count ? String(common.dropFirst(word.count)) : ""
        }
    }

    let session: Session
    /// Lists a folder's entries for file-name completion; replaceable in tests.
    var listFolder: (String) -> [String] = FileSystem.entries(in:)

    public init(session: Session) { self.session = session }

    /// Completions for the text before the cursor.
    public func complete(_ textBeforeCursor: String) -> Completion {
        var text = Substring(textBeforeCursor)
        if text.hasPrefix("! ") { text = text.dropFirst(2) }
        var words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        let word = text.last == " " || text.isEmpty ? "" : (words.popLast() ?? "")
        let candidates = candidatesFor(word: word, after: words).filter { $0.hasPrefix(word) }
        // NB: a parameter's labels and values read in the order the action declares them.
        guard words.first == "dispatch", words.count >= 2 else {
            return Completion(word: word, candidates: Set(candidates).sorted())
        }
        var seen = Set<String>()
        return Completion(word: word, candidates: candidates.filter { seen.insert($0).inserted })
    }

    private func candidatesFor(word: String, after words: [String]) -> [String] {
        let commandWords = session.isAttached ? CommandParser.attachedCommandWords : CommandParser.commandWords
        guard let command = words.first else { return commandWords }
        let position = words.count  // index of the word being completed
        switch command {
        case "help":
            return position == 1 ? commandWords : []
        case "load":
            if position == 1 { return session.catalog.names }
            if position == 2 { return ["as", "with"] }
            return position == 4 && words[2] == "as" ? ["with"] : []
        case "use", "actions":
            return position == 1 ? session.loadedAliases : []
        case "dispatch":
            return position == 1
                ? actionNames() : argumentCandidates(action: words[1], given: Array(words.dropFirst(2)))
        case "state":
            return position == 1 ? pathCandidates(word, every: true) : []
        case "why":
            return position == 1 ? pathCandidates(word, every: false) : []
        case "find":
            if position == 1 { return pathCandidates(word, every: true) }
            return position == 2 ? ["~"] : []
        case "watch", "unwatch":
            return pathCandidates(word, every: true)
        case "expect":
            if position == 1 { return pathCandidates(word, every: true) }
            if position == 2 { return Expectation.Operator.allCases.map(\.rawValue) }
            return []
        case "undo", "redo":
            return []
        case "skip", "unskip":
            return position == 1 ? session.timeline.editableSteps(for: words[0]) : []
        case "replace":
            if position == 1 { return session.timeline.editableSteps(for: "replace") }
            return position == 2
                ? actionNames() : argumentCandidates(action: words[2], given: Array(words.dropFirst(3)))
        case "save", "read", "output":
            return position == 1 ? fileCandidates(word) : []
        case "format":
            return position == 1 ? ["json", "text"] : []
        case "timer":
            return position == 1 ? ["on", "off"] : []
        case "exhaustive":
            return position == 1 ? ["on", "off"] : []
        default:
            return []
        }
    }

    private var loadedSignatures: [ActionSignature] {
        // The active store's actions first, then those of the other loaded stores.
        let active = session.activeActions
        let others = session.stores.flatMap { $0.definition.actions }
        return active + others
    }

    private func actionNames() -> [String] { loadedSignatures.map(\.name) }

    private func argumentCandidates(action: String, given: [String]) -> [String] {
        guard let signature = loadedSignatures.first(where: { $0.name == action }) else { return [] }
        // After `label:`, that parameter's values.
        if let last = given.last, last.hasSuffix(":") {
            let label = String(last.dropLast())
            return signature.parameters.first { $0.label == label }?.completions ?? []
        }
        let usedLabels = Set(given.filter { $0.hasSuffix(":") }.map { String($0.dropLast()) })
        var candidates: [String] = []
        let positionalIndex = given.count
        if positionalIndex < signature.parameters.count {
            candidates += signature.parameters[positionalIndex].completions
        }
        for parameter in signature.parameters {
            if let label = parameter.label, !usedLabels.contains(label) { candidates.append(label + ":") }
        }
        return candidates
    }

    /// Paths into the active store's state: keys of objects, `[i]` of arrays (and `[*]` where the
    /// command takes it), and `.count`.
    private func pathCandidates(_ word: String, every: Bool) -> [String] {
        guard let state = session.activeState else { return [] }
        // Split the word into a complete parent path and the partial last segment.
        let separators: Set<Character> = [".", "["]
        let cut = word.lastIndex { separators.contains($0) }
        let parentText = cut.map { String(word[..<$0]) } ?? ""
        let parent: JSONValue
        if parentText.isEmpty || parentText == "." {
            parent = state
        } else if let path = try? ValuePath.parse(parentText[...]),
            let value = try? (every ? path.firstElement : path).lookup(in: state)
        {
            // NB: under a `[*]`, the first element's members stand for every element's.
            parent = value
        } else {
            return []
        }
        let base = parentText.isEmpty && word.hasPrefix(".") ? "." : parentText
        var candidates: [String] = []
        switch parent {
        case .object(let object):
            for (key, value) in object.members {
                let keyText: String
                if ValuePath.isPlainKey(key) {
                    keyText = (base.isEmpty || base == "." ? base : base + ".") + key
                } else {
                    keyText = base + "[" + JSONText.quoted(key) + "]"
                }
                candidates.append(keyText)
                if case .array = value { candidates.append(keyText + "[") }
            }
        case .array(let elements):
            if every { candidates.append(base + "[*]") }
            for index in elements.indices.prefix(50) { candidates.append(base + "[\(index)]") }
            candidates.append(base + ".count")
        default:
            break
        }
        return candidates
    }

    private func fileCandidates(_ word: String) -> [String] {
        let slash = word.lastIndex(of: "/")
        let folder = slash.map { String(word[...$0]) } ?? ""
        return listFolder(folder.isEmpty ? "." : folder).map { folder + $0 }
    }
}
