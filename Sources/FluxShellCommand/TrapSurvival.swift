import FluxShell

/// `run` and `test` survive a trap in a store's mutation (an overflow, a force-unwrapped `nil`,
/// an index out of range; “Scenarios” in the reference): the work runs in a child process of this
/// executable, the same command with `--in-child`. When the child dies by a signal, the script or
/// the scenarios that were running are run again alone with `--trace-lines` (each line's location
/// written to standard error before it runs) to find the line that trapped, and the rest goes on.
enum TrapSurvival {
    /// Where and why a child run with its lines traced died.
    struct Trace {
        /// The last line that began.
        var location: SourceLocation?
        /// The fatal error's message, else the signal.
        var cause: String

        /// Reads the child's standard error: its traced lines and its fatal error.
        init(errors: String, signal: Int32) {
            cause = ChildProcess.cause(errors, signal: signal)
            if let last = errors.split(separator: "\n").last(where: { $0.hasPrefix(TrapSurvival.tracePrefix) }),
                let colon = last.lastIndex(of: ":"), let line = Int(last[last.index(after: colon)...])
            {
                location = SourceLocation(
                    file: String(last.dropFirst(TrapSurvival.tracePrefix.count)[..<colon]), line: line)
            }
        }

        /// The failure of the script or scenario `file`, at the line that trapped.
        func diagnostic(file: String) -> Diagnostic {
            Diagnostic(
                .failedLine, "the process trapped here: \(cause)",
                hint: "a store's mutation, validation or effect stopped the program",
                at: location ?? SourceLocation(file: file, line: 1))
        }
    }

    /// In a child: when a store traps, writes out the output buffered so far before the process
    /// dies (by the same signal, which its parent sees), so that no line printed before the trap
    /// is lost.
    static func flushOutputOnTrap() {
        // NB: the handler runs on the thread that trapped, in a store's code called by the
        // runner, never inside an append to the buffer: the buffer is whole lines. It only writes
        // (write(2) is async-signal-safe), then dies by the same signal with the default action.
        Platform.onTraps { number in
            StandardStreams.shared.flush()
            Platform.dieBy(number)
        }
    }

    /// The prefix of a traced line on standard error.
    static let tracePrefix = "trace: "

    /// Writes `location` to standard error at once, for a parent that reads where a child died.
    static func trace(_ location: SourceLocation) {
        Platform.writeWhole(2, tracePrefix + location.description + "\n")
    }
}
