/** The header that opens a sandbox's control API closed with a token (none when it is open). */
export const controlHeaders = (controlToken: string | undefined): Record<string, string> =>
  controlToken ? { authorization: `Bearer ${controlToken}` } : {};

/**
 * Registers our webhook path with an embedded sandbox (reusing one for the same URL), so `npm run
 * dev` is live with no set-up; resolves to the signing secret.
 */
export async function registerWithSandbox(
  sandboxUrl: string,
  sellerId: string,
  receiverUrl: string,
  controlToken?: string,
): Promise<{ id: string; secret: string }> {
  const control = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${sandboxUrl}/_sandbox${path}`, {
      method,
      headers: {
        ...controlHeaders(controlToken),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) {
      throw new Error(`sandbox ${method} ${path}: ${response.status} ${await response.text()}`);
    }
    return (await response.json()) as T;
  };
  type Webhook = { id: string; url: string; secret: string; enabled?: boolean };
  const { webhooks } = await control<{ webhooks: Webhook[] }>(
    'GET',
    `/webhooks?seller_id=${encodeURIComponent(sellerId)}`,
  );
  const existing = webhooks.find((webhook) => webhook.url === receiverUrl);
  if (existing) {
    const { webhook } = await control<{ webhook: Webhook }>('PATCH', `/webhooks/${existing.id}`, {
      enabled: true,
    });
    return { id: webhook.id, secret: webhook.secret };
  }
  const { webhook } = await control<{ webhook: Webhook }>('POST', '/webhooks', {
    seller_id: sellerId,
    url: receiverUrl,
  });
  return { id: webhook.id, secret: webhook.secret };
}
