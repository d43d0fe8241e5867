import FluxShell
import FluxShellLanguage
import FluxStores

#if canImport(Glibc)
    import Glibc
#endif

/// Inputs may say `save FILE`: run them inside a throwaway folder, never the checkout.
private let sandbox: Bool = {
    var template = Array("/tmp/fluxfuzz-XXXXXX".utf8CString)
    guard let folder = mkdtemp(&template) else { return false }
    return chdir(folder) == 0
}()

/// What runs before each input: every store loaded (`search` active, as before the stores of
/// `FormStores.swift` were added) and a few steps, so that `undo` has steps to go back over, and
/// `$PATH`s values to read, from the first line.
private let preamble = Array(
    """
    load redux
    load rstore
    load weather
    load vcounter
    load vrestore
    load counter
    load todos
    load search
    dispatch add x
    dispatch AddTodo x
    dispatch increment
    dispatch forecastResponse {"failure":{"_0":"offline"}}

    """.utf8)

/// One fuzz input: parsed as a command line, as a JSON literal and as a path, each of its lines
/// printed back and parsed again, then run as a script against the built-in stores and stores of
/// the forms apps are written in (`FormStores.swift`). Nothing may crash, trap or hang.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard sandbox else { fatalError("fluxfuzz: cannot enter a temporary folder") }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let text = String(validating: bytes, as: UTF8.self) {
        _ = try? CommandParser.parse(text)
        _ = try? JSONParser.parse(text)
        _ = try? ValuePath.parse(text[...])
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            checkPrintedBack(line)
        }
    }
    let session = Session(catalog: fuzzCatalog)
    // NB: what each line prints is rendered too (and dropped): the renderer is fuzzed with the rest.
    let printer = Printer(
        renderer: Renderer(),
        streams: .init(
            appendToStandardOutput: { write in
                var output = OutputBuffer()
                write(&output)
            }, standardError: { _ in }))
    let runner = ScriptRunner(session: session, options: ScriptRunner.Options(), output: printer)
    runner.run(preamble + bytes, file: "fuzz")
    _ = Completer(session: session).complete(String(decoding: bytes.prefix(200), as: UTF8.self))
    return 0
}

/// The names a `dispatch` in `history` and `save` can have: those of the stores' actions.
private let actionNames = Set(fuzzCatalog.definitions.flatMap { $0.actions.map(\.name) })

/// A command that `history` and `save` write prints as a line that parses back to it, so that what
/// they write replays (`$PATH`s inside JSON printed back in their places).
///
/// NB: not the commands that take a path (`state`, `expect`, `why`, `watch`) or an alias (`load`,
/// `use`): a path whose first key is printed in brackets (`state a-b.c` as `state ["a-b"].c`) and
/// an alias given in quotes (`load todos as "a b"`) do not parse back today (`FuzzFindingsTests`).
/// A `dispatch` of a name no store has is an error, which neither writes.
private func checkPrintedBack(_ line: Substring) {
    guard let command = try? CommandParser.parse(line).command else { return }
    switch command {
    case .dispatch(let invocation), .dispatchReading(let invocation, _):
        guard actionNames.contains(invocation.name) else { return }
    case .undo, .redo, .reset: break
    default: return
    }
    let printed = command.description
    let again: Command?
    do {
        again = try CommandParser.parse(printed).command
    } catch {
        fatalError("fluxfuzz: \(String(reflecting: String(line))) prints as \(printed), which does not parse: \(error)")
    }
    precondition(
        again == command,
        "fluxfuzz: \(String(reflecting: String(line))) prints as \(printed), which parses to another command")
}
