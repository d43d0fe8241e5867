import Dispatch
import FluxShell

/// `fluxsh attach NAME --web` and `fluxsh listen --web`: each tab of the page is one shell
/// attached to the app, its lines passed to the app's socket as they are, and the app's answers
/// back (the app's agent runs the session, as for `fluxsh attach`).
final class AttachRelay: PageConversations {
    /// Opens a tab's connection to the app; throws why it cannot.
    private let connect: @Sendable () throws(ShellError) -> AttachConnection

    /// A connection to the app's socket at `path` for each tab.
    convenience init(path: String) {
        self.init { () throws(ShellError) in
            guard let connection = AttachConnection(path: path) else { throw ShellError(AttachWire.appExited) }
            try connection.checkPeer(path)
            return connection
        }
    }

    /// The one connection of a pairing (`fluxsh listen --web`), for the first tab; later tabs are
    /// told that it is taken.
    convenience init(paired connection: AttachConnection) {
        // NB: the connection is handed from this lock to the first tab's thread, and used there only.
        let left = LockedValue<AttachConnection?>(connection)
        self.init { () throws(ShellError) in
            guard
                let connection = left.withLock({ left in
                    defer { left = nil }
                    return left
                })
            else {
                throw ShellError(
                    "the app is attached to the first tab: a pairing is one connection (run \(ProgramName.current) listen again for another)"
                )
            }
            return connection
        }
    }

    private init(connect: @escaping @Sendable () throws(ShellError) -> AttachConnection) {
        self.connect = connect
    }

    func open(send: @escaping @Sendable (String) -> Void, end: @escaping @Sendable () -> Void) -> any PageConversation {
        let connection: AttachConnection
        do throws(ShellError) {
            connection = try connect()
        } catch {
            send(AttachWire.Frame.bye(error.message).line)
            end()
            return Tab(connection: nil)
        }
        let tab = Tab(connection: connection)
        // NB: one thread a tab, blocked on the app's socket: the app's answers and its own
        // actions are passed on as they come. `send` waits while the tab is behind; the app's
        // socket then fills, and the app's agent drops what the shell reads too slowly to see,
        // as it does for `fluxsh attach` (the page gets the states again). A queue of its own,
        // not a global one: a blocked thread of the global pool is one fewer for everything else.
        DispatchQueue(label: "fluxsh.web.relay.read").async {
            while let frames = tab.connection?.receive() {
                for frame in frames { send(frame.line) }
            }
            end()
        }
        return tab
    }

    /// The connection's writes are made on `writes`, one at a time, in order; its reads on the
    /// one thread above.
    final class Tab: PageConversation {
        let connection: AttachConnection?
        /// Where the tab's lines are written to the app: a write blocks while the app is slow to
        /// read, which no thread of Swift's concurrency pool may do.
        private let writes = DispatchQueue(label: "fluxsh.web.relay")

        init(connection: AttachConnection?) {
            self.connection = connection
        }

        /// Returns once the line was written to the app's socket: a tab that floods waits for
        /// the app to read.
        func receive(_ line: String) async {
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                writes.async {
                    self.connection?.sendLine(line)
                    done.resume()
                }
            }
        }

        func close() {
            writes.async { self.connection?.finishSending() }
        }
    }
}
