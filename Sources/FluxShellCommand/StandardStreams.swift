import FluxShell

/// Buffered standard output and error. Output is flushed before anything is written to standard
/// error and before the process waits for more input, so a program driving `fluxsh` through pipes
/// sees each answer as soon as it is complete, while a large piped script is written in big blocks.
final class StandardStreams: Sendable {
    // NB: a `fluxsh` process writes from its main thread only, which is what the cells below
    // ask; the scenario runner's worker threads never touch the streams (they hand back
    // strings). The exceptions, the trap handlers of `TrapSurvival.flushOutputOnTrap` and
    // `TrapReport`, may flush from the thread that trapped, which then dies with the process:
    // a trap on a thread other than the main one may meet the main thread's write, and only
    // the bytes of the output's end are at stake then.
    static let shared = StandardStreams()

    private static let flushThreshold = 1 << 16
    // NB: written from the main thread only (see above): a cell whose accesses skip the run-time
    // exclusivity checks (see `SingleThreadCell`).
    private let cell = SingleThreadCell(OutputBuffer(capacity: flushThreshold + 4096))
    private var buffer: OutputBuffer {
        _read { yield cell.value }
        _modify { yield &cell.value }
    }

    func out(_ line: String) {
        buffer.appendLine(line)
        if buffer.count >= Self.flushThreshold { flush() }
    }

    /// Lets `write` append UTF-8 text (whole lines, each ending in a newline) to the buffer.
    func append(_ write: (inout OutputBuffer) -> Void) {
        write(&buffer)
        if buffer.count >= Self.flushThreshold { flush() }
    }

    func err(_ line: String) {
        flush()
        var bytes = Array(line.utf8)
        bytes.append(0x0A)
        Platform.write(2, bytes)
    }

    /// A diagnostic that concerns no line of a script (an option, a file), on standard error.
    func err(_ diagnostic: Diagnostic) {
        for line in Renderer().lines(of: diagnostic) { err(line) }
    }

    /// The first error writing standard output (its `errno`), after which output is dropped:
    /// the process then ends with status 1 and says so (``FluxShellMain``).
    private(set) var outputError: Int32 {
        get { firstError.value }
        set { firstError.value = newValue }
    }
    private let firstError = SingleThreadCell<Int32>(0)

    func flush() {
        guard !buffer.isEmpty else { return }
        if outputError == 0 {
            let error = buffer.write(to: 1)
            // NB: a reader that went (`| head -1`) ends the process at once and quietly, as it
            // ends the other tools of a pipeline.
            if Platform.isBrokenPipe(error) { Platform.exit(0) }
            outputError = error
        }
        buffer.removeAll()
    }

    /// From a trap handler: writes the whole lines buffered so far, leaving out a line that was
    /// being appended when the process trapped. Only write(2): async-signal-safe.
    func flushWholeLines() {
        buffer.writeWholeLines(to: 1)
    }
}

extension LineReader {
    /// Standard input in blocks of 64 KiB; standard output is flushed before each block is read,
    /// so a program driving the shell through pipes sees each answer before it sends more.
    static func standardInput() -> LineReader {
        LineReader { bytes, count in
            StandardStreams.shared.flush()
            return Platform.read(0, appendingTo: &bytes, upTo: count)
        }
    }
}
