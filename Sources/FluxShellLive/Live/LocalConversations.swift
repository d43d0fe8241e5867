import Dispatch
import FluxShellSession
import FluxShellSystem

/// The page on a session of local stores (`fluxsh web`): one session, one tab at a time. A tab
/// that opens takes the session over; the one before is told so (`{"bye":"…"}`) and closed,
/// and nothing of the session changes.
///
/// NB: the session and the tabs' shells are touched only in the jobs `perform` runs, one at a
/// time (a tab's shell is made in one): what they change is in cells, which ask just that.
package final class LocalConversations: PageConversations {
    /// What the tab that lost the session is told.
    static let takenOver = "the session was opened in another tab"

    private struct Served {
        /// The session each tab opens: replaced when a tab opens a scenario.
        var session: Session
        var current: Tab?
    }
    private let served: SingleThreadCell<Served>
    private var session: Session {
        get { served.value.session }
        set { served.value.session = newValue }
    }
    private var current: Tab? {
        get { served.value.current }
        set { served.value.current = newValue }
    }
    private let name: String
    /// Runs a job of the session's, one at a time: on a queue of its own, or on the main thread.
    private let perform: @Sendable (@escaping @Sendable () -> Void) -> Void

    /// - Parameter onMainThread: whether the session runs on the main thread (where the caller
    ///   then runs ``MainQueue/serve(until:)``), as the shell's does: a store its library binds
    ///   to the main actor is used there.
    public init(session: Session, name: String, onMainThread: Bool = false) {
        self.served = SingleThreadCell(Served(session: session))
        self.name = name
        if onMainThread {
            perform = MainQueue.perform
        } else {
            let queue = DispatchQueue(label: "fluxsh.web.session")
            perform = { queue.async(execute: $0) }
        }
    }

    final class Tab: PageConversation {
        let owner: LocalConversations
        private struct Status {
            var shell: AttachedShell?
            var isClosed = false
        }
        // NB: touched only in the owner's jobs, one at a time.
        private let status = SingleThreadCell(Status())
        /// Made in the job that opens the tab, on the session it has then (a tab may have opened
        /// a scenario in its place just before).
        var shell: AttachedShell? {
            get { status.value.shell }
            set { status.value.shell = newValue }
        }
        let send: @Sendable (String) -> Void
        let end: @Sendable () -> Void
        /// Closed, or taken over: what it sends is dropped.
        var isClosed: Bool {
            get { status.value.isClosed }
            set { status.value.isClosed = newValue }
        }

        init(owner: LocalConversations, send: @escaping @Sendable (String) -> Void, end: @escaping @Sendable () -> Void)
        {
            self.owner = owner
            self.send = send
            self.end = end
        }

        func receive(_ line: String) async {
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                owner.perform {
                    self.run(line)
                    done.resume()
                }
            }
        }

        func close() {
            owner.perform {
                self.isClosed = true
                if self.owner.current === self { self.owner.current = nil }
            }
        }

        private func run(_ line: String) {
            guard !isClosed, let shell else { return }
            var output = OutputBuffer()
            shell.receive((line + "\n").utf8, to: &output)
            // NB: a scenario the tab opened is the session the next tab opens.
            owner.session = shell.session
            deliver(output.text)
            if shell.isFinished {
                isClosed = true
                end()
            }
        }

        func deliver(_ text: String) {
            for line in text.split(separator: "\n") { send(String(line)) }
        }
    }

    public func open(send: @escaping @Sendable (String) -> Void, end: @escaping @Sendable () -> Void)
        -> any PageConversation
    {
        let tab = Tab(owner: self, send: send, end: end)
        perform {
            tab.shell = AttachedShell(session: self.session, name: self.name, readsFiles: true)
            if let before = self.current, !before.isClosed {
                before.isClosed = true
                before.send(AttachWire.Frame.bye(Self.takenOver).line)
                before.end()
            }
            self.current = tab
        }
        return tab
    }
}
