import Dispatch
@_spi(Engine) import FluxShell

/// `fluxsh attach NAME --web`: each tab of the page is one shell attached to the app, its lines
/// passed to the app's socket as they are, and the app's answers back (the app's agent runs the
/// session, as for `fluxsh attach`).
final class AttachRelay: PageConversations {
    let path: String

    init(path: String) {
        self.path = path
    }

    func open(send: @escaping @Sendable (String) -> Void, end: @escaping @Sendable () -> Void) -> any PageConversation {
        guard let connection = AttachConnection(path: path) else {
            send(AttachWire.Frame.bye(AttachWire.appExited).line)
            end()
            return Tab(connection: nil)
        }
        do throws(ShellError) {
            try connection.checkPeer(path)
        } catch {
            send(AttachWire.Frame.bye(error.message).line)
            end()
            return Tab(connection: nil)
        }
        let tab = Tab(connection: connection)
        // NB: one thread a tab, blocked on the app's socket: the app's answers and its own
        // actions are passed on as they come.
        DispatchQueue.global().async {
            while let frames = tab.connection?.receive() {
                for frame in frames { send(frame.line) }
            }
            end()
        }
        return tab
    }

    /// NB: @unchecked Sendable is safe: the connection's writes come from the one task that reads
    /// the tab's messages, in order; its reads from the one thread above.
    final class Tab: PageConversation, @unchecked Sendable {
        let connection: AttachConnection?

        init(connection: AttachConnection?) {
            self.connection = connection
        }

        func receive(_ line: String) async {
            connection?.sendLine(line)
        }

        func close() {
            connection?.finishSending()
        }
    }
}
