import FeatureKit
import FluxCore
import Foundation
import IdentifiedCollections
import Tagged

public enum SyncUpsAction: Action {
    case addSyncUpButtonTapped(id: SyncUp.ID)
    case addSyncUp(PresentationAction<SyncUpForm.Action>)
    case confirmAddSyncUp
    case syncUps(IdentifiedAction<SyncUp.ID, SyncUpAction>)
    case onDelete(IndexSet)
    case importSyncUps(IdentifiedArrayOf<SyncUp>)
}

/// What one sync-up of the list does.
public enum SyncUpAction: Sendable {
    case opened
    case rename(String)
    case setDuration(Duration)
    case recordMeeting(id: Meeting.ID, date: Date, transcript: String)
    case deleteMeetings(IndexSet)
}
