import FluxShellJSON
import FluxShellValues

/// What `skip`, `unskip`, `replace` and `sweep` ask each store to replay: from the state with
/// the first `start` history entries done, each later entry up to now, as recorded or edited
/// (see "Editing the past" in the reference). Effects do not run again: the actions they sent
/// were recorded in their steps, and are applied as recorded.
@usableFromInline
package struct ReplayPlan {
    package enum Treatment: Equatable {
        /// The entry's actions (or, for a reset, its state) as recorded.
        case asRecorded
        /// A skipped step, or an edit of the timeline: nothing of it is applied.
        case leftOut
        /// Another action in place of the step's (and of what its effects sent).
        case replaced(ActionInvocation)
    }

    package struct Step {
        /// The step's number, as `history` lists it.
        package var number: Int
        package var treatment: Treatment
        /// The action the step dispatched (not those its effects sent), which a store that
        /// validates checks again as `dispatch` did.
        package var action: ActionInvocation?
    }

    /// How many history entries are done in the state the replay begins from.
    package var start: Int
    /// One per history entry from `start` up to the cursor.
    package var steps: [Step]
}
