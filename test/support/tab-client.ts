import { createClient } from '../../src/client';

/**
 * The dashboard's client as a tab makes it, against our server at `appUrl` (with the same-origin
 * headers a browser adds); `fetched` lists every fetch.
 */
export function tabClient(appUrl: string) {
  const fetched: string[] = [];
  const client = createClient({
    baseUrl: `${appUrl}/api`,
    pacing: { enabled: false, maxInFlight: 6 },
    sendPriority: true,
    fetch: (input, init) => {
      fetched.push(String(input));
      const headers = { ...(init?.headers as Record<string, string>) };
      return fetch(input, {
        ...init,
        headers: { ...headers, 'sec-fetch-site': 'same-origin', origin: appUrl },
      });
    },
  });
  return { client, fetched };
}
