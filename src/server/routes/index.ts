import type { FastifyInstance } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { jsonBody } from '../plugins/json-body';
import { answerRefusals } from '../error-envelope';
import type { ProxyOptions, Upstream } from '../api-proxy';
import type { ActivityStore } from '../activity/activity-store';
import type { CostStore } from '../costs/cost-store';
import type { PhotoStore } from '../photos/photo-store';
import type { PushPart } from '../push/push-part';
import type { Replica } from '../replica/replica';
import type { RuleRunner } from '../rules/rule-runner';
import type { RulesStore } from '../rules/rules-store';
import type { ServerHub } from '../hub/server-hub';
import type { ShowStore } from '../shows/show-store';
import type { AuthGate } from '../auth/auth-gate';
import { activityRoutes } from './activity';
import { apiProxyRoutes } from './api-proxy';
import { costRoutes } from './costs';
import { hubRoutes } from './hub';
import { photoRoutes } from './photos';
import { pushRoutes } from './push';
import { replicaRoutes } from './replica';
import { rulesRoutes } from './rules';
import { showRoutes } from './shows';
import { signInRoutes } from './sign-in';

/** What the routes serve: the server's parts, opened by app-server.ts. */
export interface RouteParts {
  gate: AuthGate;
  upstream: Upstream;
  proxy: ProxyOptions;
  hub: ServerHub;
  activity: ActivityStore | undefined;
  rules: { store: RulesStore; runner: RuleRunner } | undefined;
  shows: ShowStore | undefined;
  costs: CostStore;
  photos: PhotoStore;
  replica: Replica;
  push: PushPart;
  publicUrl: string | undefined;
  allowLoopbackPush: boolean;
}

/**
 * Every route of the server, one plugin per resource; each route states who may use it. Every
 * schema is zod (fastify-type-provider-zod: it validates and types the handler's data); every
 * refusal, the schemas' and Fastify's, in the one envelope; JSON bodies read bounded.
 */
export async function registerRoutes(app: FastifyInstance, parts: RouteParts): Promise<void> {
  app.setValidatorCompiler(validatorCompiler);
  answerRefusals(app);
  jsonBody(app);
  await app.register(signInRoutes, { gate: parts.gate });
  await app.register(apiProxyRoutes, {
    upstream: parts.upstream,
    governor: parts.hub.governor,
    proxy: parts.proxy,
  });
  await app.register(hubRoutes, { hub: parts.hub });
  await app.register(activityRoutes, { store: parts.activity });
  if (parts.rules) {
    await app.register(rulesRoutes, { ...parts.rules, governor: parts.hub.governor });
  }
  await app.register(showRoutes, { store: parts.shows });
  await app.register(costRoutes, { store: parts.costs });
  await app.register(photoRoutes, { store: parts.photos, publicUrl: parts.publicUrl });
  await app.register(replicaRoutes, { replica: parts.replica });
  await app.register(pushRoutes, {
    store: parts.push.store,
    keys: parts.push.keys,
    allowLoopbackEndpoints: parts.allowLoopbackPush,
  });
}
