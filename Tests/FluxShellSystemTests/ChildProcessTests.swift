import Glibc
import Testing

@testable import FluxShellSystem

/// What a child that died says, as `run`, `test` and `explore` report it: the same words as piped
/// mode's trap report.
struct ChildProcessTests {
    @Test func aReleaseBuildsTrapIsWordedAsPipedModeWordsIt() {
        #expect(
            ChildProcess.cause("", signal: SIGILL)
                == "illegal instruction (SIGILL), a failed runtime check: an overflow, a force-unwrapped nil, an index out of range, … (a debug build names it)"
        )
        #expect(ChildProcess.cause("", signal: SIGSEGV) == "segmentation fault (SIGSEGV)")
        #expect(ChildProcess.cause("", signal: 40) == "signal 40")
    }

    @Test func theRuntimesFatalErrorLineComesFirst() {
        let errors = "noise\nSwift/IntegerTypes.swift:9012: Fatal error: Division by zero\nmore"
        #expect(
            ChildProcess.cause(errors, signal: SIGILL) == "Swift/IntegerTypes.swift:9012: Fatal error: Division by zero"
        )
    }
}
