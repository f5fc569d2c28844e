import { ActivityRecorder } from './activity-recorder';
import { ActivityStore } from './activity-store';

/** The activity log of one server: its store and the recorder the proxy tells of each call. */
export interface ActivityLog {
  store: ActivityStore;
  recorder: ActivityRecorder;
  close(): void;
}

/** Opens the log at `path` (a file, made with its folder, or `:memory:`). */
export function openActivityLog(path: string): ActivityLog {
  const store = new ActivityStore(path);
  const recorder = new ActivityRecorder(store);
  return {
    store,
    recorder,
    close: () => {
      recorder.stop();
      store.close();
    },
  };
}

/** Where the servers keep the log: `SLABDESK_ACTIVITY_DB`, default `.sandbox/activity.db`. */
export function activityPathFor(env: NodeJS.ProcessEnv = process.env): string {
  return env.SLABDESK_ACTIVITY_DB?.trim() || '.sandbox/activity.db';
}
