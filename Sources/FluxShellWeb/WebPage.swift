import Dispatch
import FluxShell
import FluxShellSystem
import NIOCore

/// The devtools page in a browser, for `FluxShellMain.run(catalog:page:)`: `fluxsh web` and
/// `fluxsh attach NAME --web` serve it (reference: "Devtools in the browser").
///
/// ```swift
/// import FluxShellCommand
/// import FluxShellWeb
///
/// FluxShellMain.run(catalog: StoreCatalog([.counter, cart]), page: WebPage.self)
/// ```
public enum WebPage: PageServing {
    public static func serve(
        _ conversations: any PageConversations, port: Int?, ready: @escaping @Sendable (String) -> Void
    ) throws(ShellError) {
        let token = Self.token()
        let page = Self.document
        let signal = DispatchSemaphore(value: 0)
        let outcome = LockedValue(Outcome())
        Task {
            do {
                let (actual, serving) = try await WebServer.listen(port: port ?? 0) { actual in
                    WebServer(access: WebAccess(port: actual, token: token), page: page, conversations: conversations)
                }
                outcome.withLock { $0.port = actual }
                signal.signal()
                MainQueue.wake()
                // NB: the server runs on its own threads until the process is interrupted, or
                // until it can no longer accept a connection, which ends `serve` with the reason.
                do {
                    try await serving.value
                    outcome.withLock { $0.failure = "it stopped accepting connections" }
                } catch {
                    outcome.withLock { $0.failure = "\(error)" }
                }
            } catch let error as IOError where Platform.isAddressInUse(error.errnoCode) {
                outcome.withLock {
                    $0.failure = "the port is in use"
                    $0.hint = "choose another with --port, or leave --port out for a free one"
                }
            } catch let error as IOError {
                outcome.withLock { $0.failure = Platform.describe(errorNumber: error.errnoCode).lowercased() }
            } catch {
                outcome.withLock { $0.failure = "\(error)" }
            }
            signal.signal()
            MainQueue.wake()
        }
        // NB: on the main thread, which runs the page's session meanwhile (see `LocalConversations`).
        MainQueue.wait(for: signal)
        let started = outcome.withLock { $0 }
        guard let actual = started.port else {
            throw ShellError(
                "cannot listen on 127.0.0.1:\(port ?? 0): \(started.failure ?? "unknown error")", hint: started.hint)
        }
        ready("http://127.0.0.1:\(actual)/?token=\(token)")
        MainQueue.wait(for: signal)
        throw ShellError("the page's server stopped: \(outcome.withLock { $0.failure } ?? "unknown error")")
    }

    /// What the server's task tells the thread that waits for it.
    private struct Outcome {
        var port: Int?
        var failure: String?
        var hint: String?
    }

    /// 128 random bits, as 32 hexadecimal digits.
    static func token() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in
            let word = String(generator.next() as UInt32, radix: 16)
            return String(repeating: "0", count: 8 - word.count) + word
        }.joined()
    }

    /// The page: its HTML with its style and script in it, one document.
    static let document: ByteBuffer = {
        let html = String(decoding: PackageResources.index_html, as: UTF8.self)
            .replacing("/*STYLE*/", with: String(decoding: PackageResources.page_css, as: UTF8.self))
            .replacing("/*SCRIPT*/", with: String(decoding: PackageResources.page_js, as: UTF8.self))
        return ByteBuffer(string: html)
    }()
}
