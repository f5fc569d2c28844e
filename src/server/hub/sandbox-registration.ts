import { reportBackgroundError } from './background-error';

/** An embedded sandbox to register with once the server listens (its control token if closed). */
export interface SandboxTarget {
  sandboxUrl: string;
  sellerId: string;
  controlToken?: string;
}

interface Webhook {
  id: string;
  url: string;
  secret: string;
  enabled?: boolean;
}

/** The hub as the registration sees it: its signing secrets, and what it is told. */
interface Hub {
  secrets(): readonly string[];
  useSecret(secret: string, registered: boolean): void;
  deliveriesLost(): void;
}

/** Registers the hub's webhook with an embedded sandbox, again when a reset drops it; follows rotations. */
export class SandboxRegistration {
  private registration: { id: string; receiverUrl: string } | undefined;
  private watch: ReturnType<typeof setInterval> | undefined;
  private checking = false;

  constructor(
    private readonly target: SandboxTarget,
    private readonly hub: Hub,
  ) {}

  async start(receiverUrl: string): Promise<void> {
    await this.register(receiverUrl);
    this.watch = setInterval(() => {
      this.check().catch((error: unknown) =>
        reportBackgroundError('checking the sandbox registration', error),
      );
    }, 1000).unref();
  }

  stop(): void {
    clearInterval(this.watch);
  }

  /** A call to the sandbox's control API; undefined when it refuses. */
  private async control<T>(method: string, path: string, body?: unknown): Promise<T | undefined> {
    const { sandboxUrl, controlToken } = this.target;
    const response = await fetch(`${sandboxUrl}/_sandbox${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(controlToken ? { authorization: `Bearer ${controlToken}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (response.ok) return (await response.json()) as T;
    await response.body?.cancel();
    return undefined;
  }

  /** Registers our webhook path (one for the same URL reused); its secret goes first. */
  private async register(receiverUrl: string): Promise<void> {
    const { sandboxUrl, sellerId } = this.target;
    const query = `?seller_id=${encodeURIComponent(sellerId)}`;
    const listed = await this.control<{ webhooks: Webhook[] }>('GET', `/webhooks${query}`);
    if (!listed) throw new Error(`The sandbox at ${sandboxUrl} did not list its webhooks`);
    const known = listed.webhooks.find((webhook) => webhook.url === receiverUrl);
    const [method, path, body] = known
      ? ['PATCH', `/webhooks/${known.id}`, { enabled: true }]
      : ['POST', '/webhooks', { seller_id: sellerId, url: receiverUrl }];
    const made = await this.control<{ webhook: Webhook }>(method, path, body);
    if (!made) throw new Error(`The sandbox at ${sandboxUrl} refused our webhook`);
    this.registration = { id: made.webhook.id, receiverUrl };
    this.hub.useSecret(made.webhook.secret, true);
  }

  private async check(): Promise<void> {
    if (this.checking || !this.registration) return;
    this.checking = true;
    try {
      const path = `/webhooks/${encodeURIComponent(this.registration.id)}`;
      const webhook = (await this.control<{ webhook?: Partial<Webhook> }>('GET', path))?.webhook;
      if (!webhook || webhook.enabled === false) {
        await this.register(this.registration.receiverUrl);
        this.hub.deliveriesLost();
      } else if (webhook.secret && webhook.secret !== this.hub.secrets()[0]) {
        this.hub.useSecret(webhook.secret, false);
      }
    } catch {
      // The sandbox is stopping or busy: look again in a second.
    } finally {
      this.checking = false;
    }
  }
}
