import { createHmac } from 'node:crypto';
import type { RunningAppServer } from '../../src/server/app-server';
import type { World } from '../rules/rules-world';

/** Every row of a collection as the sandbox answers it now (its own walk, by `Link`). */
export async function sandboxRows(
  world: World,
  token: string,
  path: string,
  envelope: string,
): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  let next: string | undefined = `${world.harness.url}/2026-07${path}?limit=250`;
  while (next) {
    const answer = await world.harness.api(next, { token });
    if (answer.status !== 200) throw new Error(`${path}: ${answer.status}`);
    const body = (await answer.json()) as Record<string, Record<string, unknown>[]>;
    rows.push(...(body[envelope] ?? []));
    next = /<([^>]+)>;\s*rel="next"/.exec(answer.headers.get('link') ?? '')?.[1];
  }
  return rows;
}

/** A delivery signed with the server's current secret, as the API sends one. */
export async function deliver(
  server: RunningAppServer,
  topic: string,
  payload: unknown,
  eventId: string,
): Promise<number> {
  const raw = JSON.stringify(payload);
  const t = Math.floor(Date.now() / 1000);
  const secret = server.hub.secrets()[0]!;
  const signature = `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${raw}`).digest('hex')}`;
  const answer = await fetch(`${server.url}/hub/webhooks`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-service-webhook-signature': signature,
      'x-service-webhook-topic': topic,
      'x-service-webhook-id': eventId,
    },
    body: raw,
  });
  await answer.text();
  return answer.status;
}

/** The replica's status as a signed-in page reads it. */
export async function replicaStatus(server: RunningAppServer) {
  const answer = await fetch(`${server.url}/hub/replica`);
  if (answer.status !== 200) throw new Error(`/hub/replica: ${answer.status}`);
  return (await answer.json()) as {
    changeNumber: number;
    epoch: number;
    collections: Record<
      string,
      { rows: number; filled: boolean; syncedAt: string | null; denied: boolean }
    >;
    degraded: { collection: string; id: string; code: string; lastSeen: string }[];
  };
}
