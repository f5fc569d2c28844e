import { DEFAULT_LIMIT, MAX_LIMIT } from '../platform/collection-query';
import type { ApiScope } from '../platform/scopes';
import { ORDER_STATUSES } from '../store/orders-store';
import { object, type JsonSchema } from './schemas';

/** The operations: parameters, bodies, every documented status with body and headers. */

const ref = (kind: 'schemas' | 'responses' | 'parameters' | 'headers', name: string) => ({
  $ref: `#/components/${kind}/${name}`,
});

/** The four headers of every response, errors included. */
const EVERY_RESPONSE_HEADERS = {
  'X-Service-Api-Call-Limit': ref('headers', 'CallLimit'),
  'X-Service-Api-Version': ref('headers', 'ApiVersion'),
  'X-Service-Api-Mode': ref('headers', 'ApiMode'),
  'X-Request-Id': ref('headers', 'RequestId'),
};

export function componentHeaders(): Record<string, JsonSchema> {
  const header = (description: string, schema: JsonSchema, required = true) => ({
    description,
    required,
    schema,
  });
  return {
    CallLimit: header('The bucket as used/capacity', {
      type: 'string',
      pattern: '^\\d+/\\d+$',
    }),
    ApiVersion: header('The version that served the call', { type: 'string' }),
    ApiMode: header('The mode of the key', { type: 'string', enum: ['live', 'test'] }),
    RequestId: header('The request id to quote to support', { type: 'string', minLength: 1 }),
    Link: header(
      'RFC 8288 links: rel="next" (and rel="previous") cursors',
      { type: 'string' },
      false,
    ),
    RetryAfter: header('Seconds to wait before retrying', { type: 'string' }),
  };
}

/** Each error status: its response's name and what it carries. */
const ERRORS: Record<number, [name: string, description: string]> = {
  400: [
    'BadRequest',
    'A cursor error (invalid_page_info, page_info_*_mismatch) or a bad parameter',
  ],
  401: ['Unauthorized', 'invalid_api_key: missing, malformed, revoked, expired or in the query'],
  403: [
    'Forbidden',
    'insufficient_scope, test_mode_forbidden, seller states, listing_write_forbidden',
  ],
  404: ['NotFound', 'not_found, or unknown_api_version with supported_versions'],
  409: ['Conflict', 'listing_write_conflict, idempotency_key_reuse, idempotency_request_in_flight'],
  413: ['TooLarge', 'body_too_large, with max_bytes'],
  422: [
    'Unprocessable',
    'validation_error (errors keyed by field), invalid_json, card_not_listable, cert_not_found',
  ],
  429: ['RateLimited', 'rate_limited: the bucket is full'],
  500: ['Internal', 'internal_error'],
  503: [
    'Unavailable',
    'cert_lookup_unavailable, partner_api_writes_disabled, partner_api_disabled',
  ],
};

/** The error responses: the error envelope with the four headers (Retry-After on a 429). */
export function componentResponses(): Record<string, JsonSchema> {
  return Object.fromEntries(
    Object.entries(ERRORS).map(([status, [name, description]]) => [
      name,
      {
        description,
        headers:
          status === '429'
            ? { ...EVERY_RESPONSE_HEADERS, 'Retry-After': ref('headers', 'RetryAfter') }
            : EVERY_RESPONSE_HEADERS,
        content: { 'application/json': { schema: ref('schemas', 'ErrorEnvelope') } },
      },
    ]),
  );
}

export function componentParameters(): Record<string, JsonSchema> {
  return {
    limit: {
      name: 'limit',
      in: 'query',
      description: `Rows per page (default ${DEFAULT_LIMIT})`,
      schema: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT },
    },
    fields: {
      name: 'fields',
      in: 'query',
      description: 'Comma-separated top-level keys; omit for the full resource',
      schema: { type: 'string', pattern: '^[a-z_]+(,[a-z_]+)*$' },
    },
    updated_at_min: {
      name: 'updated_at_min',
      in: 'query',
      description: 'Rows updated at or after this ISO 8601 date or date-time',
      schema: { type: 'string' },
    },
    page_info: {
      name: 'page_info',
      in: 'query',
      description: 'The opaque cursor from a Link header, verbatim',
      schema: { type: 'string', minLength: 1 },
    },
    id: { name: 'id', in: 'path', required: true, schema: { type: 'string', minLength: 1 } },
    'Idempotency-Key': {
      name: 'Idempotency-Key',
      in: 'header',
      description: 'Replays the first outcome for a retry with the same key (ideally a UUID)',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    },
  };
}

const errors = (...statuses: number[]): Record<string, JsonSchema> =>
  Object.fromEntries(statuses.map((code) => [String(code), ref('responses', ERRORS[code]![0])]));

/** Every call may meet these: a refused key, a seller state, a version, the bucket, an incident. */
const COMMON = [401, 403, 404, 429, 500, 503];

function ok(
  description: string,
  envelope: string,
  schema: JsonSchema,
  status = '200',
  link = false,
) {
  return {
    [status]: {
      description,
      headers: link
        ? { ...EVERY_RESPONSE_HEADERS, Link: ref('headers', 'Link') }
        : EVERY_RESPONSE_HEADERS,
      content: { 'application/json': { schema: object({ [envelope]: schema }) } },
    },
  };
}

const pascal = (name: string) => name.replace(/(^|_)(\w)/g, (_, __, c: string) => c.toUpperCase());
/** The record, or a degraded one, or its `fields=` form. */
const record = (item: string) => ({
  anyOf: [ref('schemas', item), ref('schemas', 'DegradedRecord'), ref('schemas', `${item}Fields`)],
});

function collection(envelope: string, item: string, scope: ApiScope, extra: JsonSchema[] = []) {
  return {
    get: {
      operationId: `list${pascal(envelope)}`,
      summary: `Lists ${envelope.replace(/_/g, ' ')}, oldest first; the next page is the Link rel="next"`,
      'x-scope': scope,
      parameters: [
        ...['limit', 'fields', 'updated_at_min', 'page_info'].map((p) => ref('parameters', p)),
        ...extra,
      ],
      responses: {
        ...ok(
          `A page of ${envelope}`,
          envelope,
          { type: 'array', items: record(item) },
          '200',
          true,
        ),
        ...errors(400, 422, ...COMMON),
      },
    },
  };
}

function single(envelope: string, item: string, scope: ApiScope) {
  return {
    operationId: `get${pascal(envelope)}`,
    'x-scope': scope,
    parameters: [ref('parameters', 'id'), ref('parameters', 'fields')],
    responses: { ...ok(`The ${envelope}`, envelope, record(item)), ...errors(400, 422, ...COMMON) },
  };
}

/** A write body's envelope: the input alone (closed). */
const writeEnvelope = (name: string, input: string) => ({
  ...object({ [name]: ref('schemas', input) }),
  additionalProperties: false,
});

/** A listing write; with `Product` as its output, the alias answering under `product`. */
function write(operationId: string, summary: string, output: string, body?: 'Create' | 'Update') {
  const input = `Listing${body}Input`;
  const schema = { anyOf: [writeEnvelope('listing', input), writeEnvelope('product', input)] };
  const envelope = output === 'Product' ? 'product' : 'listing';
  return {
    operationId,
    summary,
    'x-scope': 'write_listings',
    parameters: [ref('parameters', 'Idempotency-Key')],
    ...(body && { requestBody: { required: true, content: { 'application/json': { schema } } } }),
    responses: {
      ...ok(summary, envelope, ref('schemas', output), body === 'Create' ? '201' : '200'),
      ...errors(400, 409, 413, 422, ...COMMON),
    },
  };
}

export function paths(): Record<string, JsonSchema> {
  const id = [ref('parameters', 'id')];
  return {
    '/ping': {
      get: {
        operationId: 'ping',
        summary: 'Shows that the token, version, rate limiter and seller eligibility work',
        responses: { ...ok('The ping', 'ping', ref('schemas', 'Ping')), ...errors(...COMMON) },
      },
    },
    '/listings.json': {
      ...collection('listings', 'ListingListItem', 'read_listings'),
      post: write(
        'createListing',
        'Creates a listing from a cert or a card',
        'ListingCreated',
        'Create',
      ),
    },
    '/listings/{id}.json': {
      parameters: id,
      get: single('listing', 'ListingDetail', 'read_listings'),
      put: write('updateListing', 'Changes the fields sent', 'ListingUpdated', 'Update'),
      delete: write(
        'deleteListing',
        'Deactivates the listing (soft, idempotent)',
        'ListingDeleted',
      ),
    },
    '/products.json': {
      ...collection('products', 'Product', 'read_listings'),
      post: write('createProduct', 'Creates a listing (product shape)', 'Product', 'Create'),
    },
    '/products/{id}.json': {
      parameters: id,
      get: single('product', 'Product', 'read_listings'),
      put: write('updateProduct', 'Changes a listing (product shape)', 'Product', 'Update'),
      delete: write('deleteProduct', 'Deactivates a listing (product shape)', 'Product'),
    },
    '/orders.json': collection('orders', 'Order', 'read_orders', [
      {
        name: 'status',
        in: 'query',
        schema: { type: 'string', enum: ORDER_STATUSES, default: 'any' },
      },
    ]),
    '/orders/{id}.json': {
      get: {
        ...single('order', 'Order', 'read_orders'),
        description: 'The id is the order id or the order code (name)',
      },
    },
    '/inventory_items.json': collection('inventory_items', 'InventoryItem', 'read_inventory'),
    '/inventory_levels.json': collection('inventory_levels', 'InventoryLevel', 'read_inventory'),
    '/locations.json': {
      get: {
        operationId: 'listLocations',
        'x-scope': 'read_inventory',
        responses: {
          ...ok('Exactly two locations', 'locations', {
            type: 'array',
            minItems: 2,
            maxItems: 2,
            items: ref('schemas', 'Location'),
          }),
          ...errors(...COMMON),
        },
      },
    },
  };
}
