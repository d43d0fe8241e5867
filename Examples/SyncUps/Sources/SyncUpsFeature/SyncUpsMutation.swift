import FeatureKit
import FluxCore

public struct SyncUpsMutation: Mutation, Sendable {
    public init() {}

    public func mutate(action: SyncUpsAction, state: inout SyncUpsState) {
        switch action {
        case .addSyncUpButtonTapped(let id):
            state.addSyncUp = SyncUpForm(syncUp: SyncUp(id: id))
        case .addSyncUp(.dismiss):
            state.addSyncUp = nil
        case .addSyncUp(.presented(let formAction)):
            state.addSyncUp?.apply(formAction)
        case .confirmAddSyncUp:
            guard let form = state.addSyncUp else { return }
            state.syncUps.append(form.syncUp)
            state.addSyncUp = nil
        case .syncUps(.element(let id, let syncUpAction)):
            guard state.syncUps[id: id] != nil else { return }
            apply(syncUpAction, to: id, in: &state)
        case .onDelete(let offsets):
            for offset in offsets.reversed() where offset < state.syncUps.count {
                state.recentlyOpened.remove(state.syncUps[offset].id)
                state.syncUps.remove(at: offset)
            }
        case .importSyncUps(let syncUps):
            for syncUp in syncUps { state.syncUps[id: syncUp.id] = syncUp }
        }
    }

    private func apply(_ action: SyncUpAction, to id: SyncUp.ID, in state: inout SyncUpsState) {
        switch action {
        case .opened:
            state.recentlyOpened.remove(id)
            state.recentlyOpened.insert(id, at: 0)
        case .rename(let title):
            state.syncUps[id: id]?.title = title
        case .setDuration(let duration):
            state.syncUps[id: id]?.duration = max(duration, .zero)
        case .recordMeeting(let meetingID, let date, let transcript):
            state.syncUps[id: id]?.meetings.insert(Meeting(id: meetingID, date: date, transcript: transcript), at: 0)
        case .deleteMeetings(let offsets):
            guard var syncUp = state.syncUps[id: id] else { return }
            for offset in offsets.reversed() where offset < syncUp.meetings.count { syncUp.meetings.remove(at: offset) }
            state.syncUps[id: id] = syncUp
        }
    }
}
