/** "Check the card before it goes live", remembered in this browser; on by default. */
import { localStore } from '../../../api/local-store';

const STORAGE_KEY = 'slabdesk.new-listing.review.v1';

/** The remembered choice; on when nothing is remembered (or storage is unavailable). */
export function reviewPreference(): boolean {
  try {
    return localStore()?.getItem(STORAGE_KEY) !== 'off';
  } catch {
    return true;
  }
}

export function rememberReviewPreference(on: boolean): void {
  try {
    localStore()?.setItem(STORAGE_KEY, on ? 'on' : 'off');
  } catch {
    // Storage full or blocked: the choice holds for this form only.
  }
}
