import type { FastifyInstance } from 'fastify';
import type { Replica } from './replica';

/** Where the hub says what its replica holds: rows, change number, records set aside by id. */
export const REPLICA_PATH = '/hub/replica';

export interface ReplicaRouteDeps {
  replica: Replica;
}

/** The replica's status for anyone signed in: the degraded records are reported by id here. */
export async function replicaRoutes(app: FastifyInstance, deps: ReplicaRouteDeps): Promise<void> {
  app.get(REPLICA_PATH, { config: { access: 'viewer' } }, async (_request, reply) =>
    reply.header('cache-control', 'no-store').send(deps.replica.status()),
  );
}
