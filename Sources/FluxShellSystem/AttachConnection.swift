#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `fluxsh attach`'s end of the socket: whole lines out, whole lines in. Plain
/// blocking calls and `poll`: the shell waits on its input and on the app, nothing else.
///
/// One thread at a time may receive, and one at a time may send (the page's relay receives on a
/// thread of its own and sends on a queue): each side keeps what it changes in a cell of its own.
package final class AttachConnection: Sendable {
    package let descriptor: Int32
    /// The frames received: the agent's lines are not cut at any length.
    private let receiving = SingleThreadCell(LineSplitter(maximumLineLength: .max))
    private var received: LineSplitter {
        _read { yield receiving.value }
        _modify { yield &receiving.value }
    }
    private let sending = SingleThreadCell(false)
    /// `finishSending()` was called.
    package private(set) var isFinishedSending: Bool {
        get { sending.value }
        set { sending.value = newValue }
    }

    /// Connects to the app's socket at `path`; `nil` with `errno` set when no app listens there.
    package init?(path: String) {
        let descriptor = AttachSockets.connected(to: path)
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
    }

    /// The session's lines on a socket already connected (`fluxsh listen`'s end of a pairing),
    /// which it now owns.
    package init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Throws unless the process listening at the other end runs as this user (as the kernel
    /// recorded it when it began to listen): a shell sends nothing to another user's socket.
    package func checkPeer(_ path: String) throws(ShellError) {
        let user = getuid()
        guard let peer = AttachSockets.peerUser(of: descriptor) else {
            throw ShellError("refused: cannot tell which user serves '\(path)': no command was sent")
        }
        guard peer == user else {
            throw ShellError(
                "refused: '\(path)' is served by another user (uid \(peer)), not by this one (uid \(user)): no command was sent",
                hint: "attach to an app of your own")
        }
    }

    /// Sends `line` and a newline, whole (false when the app is gone).
    @discardableResult
    package func sendLine(_ line: String) -> Bool {
        sendBytes(Array((line + "\n").utf8)[...])
    }

    /// Sends bytes, whole (false when the app is gone).
    @discardableResult
    func sendBytes(_ bytes: ArraySlice<UInt8>) -> Bool {
        // NB: SIGPIPE is ignored (`Platform.ignoreBrokenPipe`): a closed socket fails the write.
        Platform.write(descriptor, bytes) == 0
    }

    /// Sends what the socket takes now without waiting: how many bytes (0 when it is full), or
    /// `nil` when the app is gone.
    package func sendAvailable(_ bytes: ArraySlice<UInt8>) -> Int? {
        Platform.sendAvailable(bytes, to: descriptor)
    }

    /// No more lines will be sent: the agent ends the session once it has answered them.
    package func finishSending() {
        isFinishedSending = true
        #if canImport(Glibc)
            shutdown(descriptor, Int32(SHUT_WR))
        #else
            shutdown(descriptor, SHUT_WR)
        #endif
    }

    /// Reads what is available (blocking until something is); `nil` at the end of the stream (or
    /// when the app reset the connection).
    /// Returns the whole lines received, as bytes without their newlines.
    package func receiveLines() -> [ArraySlice<UInt8>]? {
        let count = received.fill { bytes, count in
            Platform.read(descriptor, appendingTo: &bytes, upTo: count, retryingInterrupts: false)
        }
        if count < 0, errno == EINTR { return [] }
        guard count > 0 else { return nil }
        var lines: [ArraySlice<UInt8>] = []
        while let (line, _) = received.nextLine() { lines.append(line) }
        return lines
    }

    /// Whether an app still listens at `path` once a connection to it ended without a last word.
    ///
    /// NB: an app that exits closes its connections before its listening socket (the kernel
    /// releases them in reverse order): a listener still there is asked again, up to 300 ms, before
    /// the app is said to run on.
    package static func isStillServed(_ path: String) -> Bool {
        for _ in 0..<3 {
            guard AttachSockets.isServed(path) else { return false }
            _ = poll(nil, 0, 100)
        }
        return AttachSockets.isServed(path)
    }

    /// Waits until the socket or `other` (a descriptor, or -1 for none) has something to read,
    /// or, with `writing`, the socket takes more; returns which.
    package func wait(alsoOn other: Int32, writing: Bool = false) -> (socket: Bool, writable: Bool, other: Bool) {
        let events = Int16(POLLIN) | (writing ? Int16(POLLOUT) : 0)
        var descriptors = [pollfd(fd: descriptor, events: events, revents: 0)]
        if other >= 0 { descriptors.append(pollfd(fd: other, events: Int16(POLLIN), revents: 0)) }
        while poll(&descriptors, nfds_t(descriptors.count), -1) < 0, errno == EINTR {}
        let ready = Int16(POLLIN | POLLHUP | POLLERR)
        return (
            descriptors[0].revents & ready != 0, descriptors[0].revents & Int16(POLLOUT) != 0,
            other >= 0 && descriptors[1].revents & ready != 0
        )
    }
}
