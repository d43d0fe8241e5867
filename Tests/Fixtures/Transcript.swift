import FluxShellLanguage
import FluxShellRunner
import FluxShellSession
import FluxShellSystem
import FluxShellValues
import FluxStores

/// The engine with strings in and strings out.
package final class Transcript {
    package let session: Session

    package init(catalog: StoreCatalog = .builtIn) {
        session = Session(catalog: catalog)
    }

    package init(session: Session) {
        self.session = session
    }

    /// Runs a line; returns its output lines, or `error: …` and its detail lines for a failure.
    @discardableResult
    package func run(_ line: String) -> [String] {
        // NB: what the stores did with no command prints first, as the runner prints it.
        var own: [String] = []
        for step in session.takeChangesOnTheirOwn() {
            var output = OutputBuffer()
            Renderer().write(step, to: &output)
            own += output.text.split(separator: "\n").map(String.init)
        }
        return own + runCommand(line)
    }

    private func runCommand(_ line: String) -> [String] {
        do throws(ShellError) {
            guard let command = try CommandParser.parse(line).command else { return [] }
            let result = try session.execute(command)
            // NB: what effects did wrong follows the command's own lines, as the runner reports it.
            let problems = session.takeEffectProblems().flatMap { Renderer().lines(of: Diagnostic($0)) }
            return Renderer().lines(of: result, watching: session.watchFilter) + problems
        } catch {
            return Renderer().lines(of: Diagnostic(error, line: line))
        }
    }

    /// Runs `lines` in order; returns every line's output, each after its command.
    package func run(script lines: [String]) -> [String] {
        lines.flatMap { ["> " + $0] + run($0) }
    }
}
