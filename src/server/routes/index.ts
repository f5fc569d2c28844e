import type { FastifyInstance } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { ActivityLog } from '../activity/activity-recorder';
import type { ProxyOptions, Upstream } from '../api-proxy';
import type { AuthGate } from '../auth/auth-gate';
import type { CostStore } from '../costs/cost-store';
import { answerRefusals } from '../error-envelope';
import type { ServerHub } from '../hub/server-hub';
import type { PhotoStore } from '../photos/photo-store';
import { jsonBody } from '../plugins/json-body';
import type { PushPart } from '../push/push-part';
import type { Replica } from '../replica/replica';
import type { RuleRunner } from '../rules/rule-runner';
import type { RulesStore } from '../rules/rules-store';
import type { ShowStore } from '../shows/show-store';
import type { ViewStore } from '../views/view-store';
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
import { viewRoutes } from './views';

/** Every route, one plugin per resource, each stating who may use it; refusals in one envelope. */
export async function registerRoutes(
  app: FastifyInstance,
  parts: {
    gate: AuthGate;
    upstream: Upstream;
    proxy: ProxyOptions;
    hub: ServerHub;
    activity: ActivityLog | undefined;
    rules: { store: RulesStore; runner: RuleRunner } | undefined;
    shows: ShowStore | undefined;
    costs: CostStore;
    views: ViewStore;
    photos: PhotoStore;
    replica: Replica;
    push: PushPart;
    publicUrl: string | undefined;
    allowLoopbackPush: boolean;
  },
): Promise<void> {
  const { governor } = parts.hub;
  app.setValidatorCompiler(validatorCompiler);
  answerRefusals(app);
  jsonBody(app);
  await app.register(signInRoutes, { gate: parts.gate });
  await app.register(apiProxyRoutes, { upstream: parts.upstream, governor, proxy: parts.proxy });
  await app.register(hubRoutes, { hub: parts.hub });
  await app.register(activityRoutes, { store: parts.activity?.store });
  if (parts.rules) await app.register(rulesRoutes, { ...parts.rules, governor });
  await app.register(showRoutes, { store: parts.shows });
  await app.register(costRoutes, { store: parts.costs });
  await app.register(viewRoutes, { store: parts.views });
  await app.register(photoRoutes, { store: parts.photos, publicUrl: parts.publicUrl });
  await app.register(replicaRoutes, { replica: parts.replica });
  const { store, keys } = parts.push;
  const allowLoopbackEndpoints = parts.allowLoopbackPush;
  await app.register(pushRoutes, { store, keys, allowLoopbackEndpoints });
}
