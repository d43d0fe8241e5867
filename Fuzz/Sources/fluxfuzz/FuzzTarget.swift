@_spi(Engine) import FluxShell
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

/// One fuzz input: parsed as a command line, as a JSON literal and as a path, then run as a
/// script against all three built-in stores. Nothing may crash, trap or hang.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard sandbox else { fatalError("fluxfuzz: cannot enter a temporary folder") }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let text = String(validating: bytes, as: UTF8.self) {
        _ = try? CommandParser.parse(text)
        _ = try? JSONParser.parse(text)
        _ = try? ValuePath.parse(text[...])
    }
    let session = Session(catalog: .builtIn)
    // NB: what each line prints is rendered too (and dropped): the renderer is fuzzed with the rest.
    let printer = Printer(
        renderer: Renderer(),
        streams: .init(
            appendToStandardOutput: { write in
                var output = OutputBuffer()
                write(&output)
            }, standardError: { _ in }))
    let runner = ScriptRunner(session: session, options: ScriptRunner.Options(), output: printer)
    let preamble = Array("load counter\nload todos\nload search\ndispatch add x\n".utf8)
    runner.run(preamble + bytes, file: "fuzz")
    _ = Completer(session: session).complete(String(decoding: bytes.prefix(200), as: UTF8.self))
    return 0
}
