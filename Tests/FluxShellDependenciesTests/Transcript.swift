import FluxShell
import FluxShellLanguage

/// A session driven line by line, as the shell's own tests drive one (FluxShellTests'
/// `Transcript`): each line's output as the shell prints it.
final class Transcript {
    let session: Session

    init(catalog: StoreCatalog) {
        session = Session(catalog: catalog)
    }

    /// Runs a line; returns its output lines, or `error: …` and its detail lines for a failure.
    @discardableResult
    func run(_ line: String) -> [String] {
        do throws(ShellError) {
            guard let command = try CommandParser.parse(line).command else { return [] }
            let result = try session.execute(command)
            let problems = session.takeEffectProblems().flatMap { Renderer().lines(of: Diagnostic($0)) }
            return Renderer().lines(of: result, watching: session.watchFilter) + problems
        } catch {
            return Renderer().lines(of: Diagnostic(error))
        }
    }

    /// Runs `lines` in order; returns every line's output, each after its command.
    func run(script lines: [String]) -> [String] {
        lines.flatMap { ["> " + $0] + run($0) }
    }
}
