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
