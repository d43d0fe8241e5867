import CLibEdit
import EditLineShim
import FluxShellSystem

/// A line editor over libedit: emacs key bindings, history in a file, Tab completion.
///
/// libedit's callbacks are told their editor, and find this object by it (``object(for:)``); the
/// strings handed to libedit are copied by the shim, and the ones it gives (a line read, the text
/// before the cursor) are copied into Swift strings at once, so this file keeps no memory of
/// libedit's or the shim's. One editor per process reads the terminal.
public final class LineEditor {
    public enum Input: Equatable {
        case line(String)
        /// Ctrl-C: the line was abandoned.
        case interrupted
        /// Ctrl-D on an empty line, or the end of input.
        case endOfInput
    }

    /// Given the text before the cursor: the partial word and its full replacements.
    public typealias Completer = (String) -> (word: String, candidates: [String])

    private let editor: OpaquePointer
    private let history: OpaquePointer
    public var completer: Completer?
    /// Called while a line is edited when the watched descriptor is ready (see ``watch(_:_:)``).
    private var onWatchedReady: (() -> Bool)?

    /// - Parameter historySize: how many lines the history keeps (duplicates collapse).
    public init?(program: String, historySize: Int = 1_000) {
        guard let editor = fluxsh_el_open(program) else { return nil }
        guard let history = fluxsh_history_open(Int32(historySize)) else {
            fluxsh_el_close(editor)
            return nil
        }
        self.editor = editor
        self.history = history
        Self.editors.withLock { $0[editor] = Opened(object: self) }
        fluxsh_el_set_history(editor, history)
        fluxsh_el_set_prompt_text(editor, prompt)
        fluxsh_el_bind_function(
            editor, "fluxsh-complete", "complete the word before the cursor",
            { editor, _ in
                guard let editor, let object = LineEditor.object(for: editor) else { return UInt8(CC_ERROR) }
                return object.complete()
            }, "^I")
        fluxsh_install_interrupt_handler()
    }

    deinit {
        Self.editors.withLock { $0[editor] = nil }
        fluxsh_el_close(editor)
        fluxsh_history_close(history)
    }

    /// The editors open, by libedit's editor, which each callback is told.
    private static let editors = LockedValue<[OpaquePointer: Opened]>([:])

    private struct Opened {
        weak var object: LineEditor?
    }

    /// The object of libedit's `editor`, for its callbacks.
    private static func object(for editor: OpaquePointer) -> LineEditor? { editors.withLock { $0[editor]?.object } }

    /// The prompt shown before each line.
    public var prompt: String = "> " {
        didSet { fluxsh_el_set_prompt_text(editor, prompt) }
    }

    /// While a line is edited, also waits on `descriptor`: when it is ready, `onReady` runs (it
    /// may print with ``printAboveLine(_:)``) and, when it printed, the line being typed is drawn
    /// again below; it returns true to end the input, as Ctrl-D does.
    public func watch(_ descriptor: Int32, _ onReady: @escaping () -> Bool) {
        onWatchedReady = onReady
        fluxsh_el_watch(editor, descriptor) { editor in
            guard let editor, let object = LineEditor.object(for: editor) else { return 1 }
            object.printedAbove = false
            guard object.onWatchedReady?() == false else { return 1 }
            // NB: a wake that printed nothing leaves the line as it is drawn (no flicker).
            return object.printedAbove ? 0 : 2
        }
    }

    /// Whether ``printAboveLine(_:)`` printed since the watched descriptor's callback began.
    private var printedAbove = false

    /// Prints `lines` where the line being typed is (it is drawn again after them, see
    /// ``watch(_:_:)``).
    public func printAboveLine(_ lines: [String]) {
        guard !lines.isEmpty else { return }
        printedAbove = true
        fluxsh_print("\r\u{1B}[K" + lines.joined(separator: "\n") + "\n")
    }

    /// Whether Ctrl-C was pressed since the last call, outside a line being edited (while the
    /// caller waited for something else).
    public static func takeInterrupt() -> Bool { fluxsh_take_interrupt() != 0 }

    /// Reads one line (without its newline).
    public func readLine() -> Input {
        var count: Int32 = 0
        _ = fluxsh_take_interrupt()
        guard let pointer = fluxsh_el_gets(editor, &count) else {
            if count == -1 || fluxsh_take_interrupt() != 0 {
                fluxsh_el_reset(editor)
                return .interrupted
            }
            return .endOfInput
        }
        var line = String(cString: pointer)
        if line.hasSuffix("\n") { line.removeLast() }
        return .line(line)
    }

    /// Adds a line to the history (trailing blanks trimmed; empty lines are not kept).
    public func remember(_ line: String) {
        var trimmed = Substring(line)
        while let last = trimmed.last, last == " " || last == "\t" { trimmed = trimmed.dropLast() }
        guard !trimmed.isEmpty else { return }
        fluxsh_history_enter(history, String(trimmed))
    }

    /// Loads the history file; a missing file is not an error.
    @discardableResult
    public func loadHistory(from path: String) -> Bool {
        fluxsh_history_load(history, path) >= 0
    }

    /// Saves the history file.
    public func saveHistory(to path: String) -> Bool {
        fluxsh_history_save(history, path) >= 0
    }

    private func complete() -> UInt8 {
        guard let completer, let before = fluxsh_el_text_before_cursor(editor) else { return UInt8(CC_ERROR) }
        let (word, candidates) = completer(String(cString: before))
        switch TabCompletion(word: word, candidates: candidates) {
        case .beep:
            return UInt8(CC_REFRESH_BEEP)
        case .insert(let text):
            if !text.isEmpty { el_insertstr(editor, text) }
            return UInt8(CC_REFRESH)
        case .list(let text):
            fluxsh_print(text)
            return UInt8(CC_REDISPLAY)
        }
    }
}
