import { AttemptLimiter, type LimiterSettings } from './attempt-limiter';

/** One sign-in attempt as the slowing sees it. */
export interface SignInAttempt {
  /** The account name asked for, lower case. */
  account: string;
  address: string;
  /** The id of a valid device cookie for this account, or null. */
  device: string | null;
}

/** How far an attempt is trusted: a known device, an address this account signed in from, or neither. */
export type Trust = 'device' | 'address' | 'none';

const KNOWN_ADDRESS_MS = 30 * 24 * 3600_000;
const MAX_KNOWN_ADDRESSES = 10_000;

/**
 * Slows password guessing without locking the owner out. A known device is slowed only by its own
 * failures. Anyone else is slowed per account and address and per address; and the attempts from
 * addresses the account never signed in from share one more count per account, so a guesser
 * rotating addresses is slowed while the owner at a known device or address is not.
 */
export class SignInSlowing {
  private readonly byDevice: AttemptLimiter;
  private readonly byAccountAddress: AttemptLimiter;
  private readonly byAddress: AttemptLimiter;
  private readonly strangersByAccount: AttemptLimiter;
  /** `account\naddress` → when it last signed in, oldest first. */
  private readonly knownAddresses = new Map<string, number>();

  constructor(private readonly settings: LimiterSettings) {
    this.byDevice = new AttemptLimiter(settings);
    this.byAccountAddress = new AttemptLimiter(settings);
    this.byAddress = new AttemptLimiter(settings);
    this.strangersByAccount = new AttemptLimiter(settings);
  }

  trust(attempt: SignInAttempt): Trust {
    if (attempt.device) return 'device';
    const at = this.knownAddresses.get(pair(attempt));
    return at !== undefined && this.settings.now() - at < KNOWN_ADDRESS_MS ? 'address' : 'none';
  }

  /** Seconds before this attempt may be checked, or 0. */
  retryAfterSeconds(attempt: SignInAttempt): number {
    const trust = this.trust(attempt);
    if (trust === 'device') return this.byDevice.retryAfterSeconds(attempt.device ?? '');
    return Math.max(
      this.byAccountAddress.retryAfterSeconds(pair(attempt)),
      this.byAddress.retryAfterSeconds(attempt.address),
      trust === 'none' ? this.strangersByAccount.retryAfterSeconds(attempt.account) : 0,
    );
  }

  failed(attempt: SignInAttempt): void {
    const trust = this.trust(attempt);
    if (trust === 'device') return this.byDevice.fail(attempt.device ?? '');
    this.byAccountAddress.fail(pair(attempt));
    this.byAddress.fail(attempt.address);
    if (trust === 'none') this.strangersByAccount.fail(attempt.account);
  }

  /**
   * The right password: this device's and address's counts forgotten, the address known. The
   * strangers' count is forgotten only on a stranger's success: the owner signing in at home
   * must not lift the slowing of a guesser elsewhere.
   */
  succeeded(attempt: SignInAttempt): void {
    if (this.trust(attempt) === 'none') this.strangersByAccount.clear(attempt.account);
    if (attempt.device) this.byDevice.clear(attempt.device);
    this.byAccountAddress.clear(pair(attempt));
    const key = pair(attempt);
    this.knownAddresses.delete(key);
    this.knownAddresses.set(key, this.settings.now());
    if (this.knownAddresses.size > MAX_KNOWN_ADDRESSES) {
      const oldest = this.knownAddresses.keys().next().value;
      if (oldest !== undefined) this.knownAddresses.delete(oldest);
    }
  }
}

const pair = (attempt: SignInAttempt) => `${attempt.account}\n${attempt.address}`;
