/** What a failing call sends: a degraded record inside a 200, and the two error envelopes. */
import * as z from 'zod/mini';
import { fields } from '../shared/lazy-fields';

/** A record reduced to its id plus why it could not be serialized (inside a 200). */
export const DegradedRecord = z.object(
  fields({
    id: () => z.string(),
    svc_serialization_error: () => z.object({ code: z.string(), message: z.string() }),
  }),
);
export type DegradedRecord = z.infer<typeof DegradedRecord>;

export const SupportedVersion = z.object(
  fields({
    version: () => z.string(),
    status: () => z.string(),
    released: () => z.optional(z.string()),
    sunset: () => z.optional(z.nullable(z.string())),
  }),
);

export const SvcError = z.object(
  fields({
    code: () => z.string(),
    // The dashboard's own server answers its refusals (sign-in, CSRF, roles, an unreachable API)
    // with `request_id: null`: no API request was made.
    request_id: () => z.optional(z.nullable(z.string())),
    changed_params: () => z.optional(z.array(z.string())),
    supported_versions: () => z.optional(z.array(SupportedVersion)),
    max_bytes: () => z.optional(z.number()),
    reason: () => z.optional(z.string()),
    /** `upstream_paused` (the dashboard's server): seconds left, and when the pause ends (ISO). */
    retry_after_seconds: () => z.optional(z.number()),
    until: () => z.optional(z.string()),
  }),
);
export type SvcError = z.infer<typeof SvcError>;

/** `errors`: a bare string (most failures), or a 422's messages keyed by field. */
export const ErrorEnvelope = z.object(
  fields({
    errors: () => z.union([z.string(), z.record(z.string(), z.array(z.string()))]),
    svc_error: () => SvcError,
  }),
);
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;
