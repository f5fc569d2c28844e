import { DEFAULT_LIMIT, MAX_LIMIT } from '../platform/collection-query';
import type { ApiScope } from '../platform/scopes';
import type { JsonSchema } from './schemas';

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

/** The error responses, each the error envelope with the four headers (and Retry-After where due). */
export function componentResponses(): Record<string, JsonSchema> {
  const error = (description: string, retryAfter = false): JsonSchema => ({
    description,
    headers: retryAfter
      ? { ...EVERY_RESPONSE_HEADERS, 'Retry-After': ref('headers', 'RetryAfter') }
      : EVERY_RESPONSE_HEADERS,
    content: { 'application/json': { schema: ref('schemas', 'ErrorEnvelope') } },
  });
  return {
    BadRequest: error(
      'A cursor error (invalid_page_info, page_info_*_mismatch) or a bad parameter',
    ),
    Unauthorized: error('invalid_api_key: missing, malformed, revoked, expired or in the query'),
    Forbidden: error(
      'insufficient_scope, test_mode_forbidden, seller states, listing_write_forbidden',
    ),
    NotFound: error('not_found, or unknown_api_version with supported_versions'),
    Conflict: error('listing_write_conflict, idempotency_key_reuse, idempotency_request_in_flight'),
    TooLarge: error('body_too_large, with max_bytes'),
    Unprocessable: error(
      'validation_error (errors keyed by field), invalid_json, card_not_listable, cert_not_found',
    ),
    RateLimited: error('rate_limited: the bucket is full', true),
    Internal: error('internal_error'),
    Unavailable: error(
      'cert_lookup_unavailable, partner_api_writes_disabled, partner_api_disabled',
    ),
  };
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

const errors = (...statuses: number[]): Record<string, JsonSchema> => {
  const byStatus: Record<number, string> = {
    400: 'BadRequest',
    401: 'Unauthorized',
    403: 'Forbidden',
    404: 'NotFound',
    409: 'Conflict',
    413: 'TooLarge',
    422: 'Unprocessable',
    429: 'RateLimited',
    500: 'Internal',
    503: 'Unavailable',
  };
  return Object.fromEntries(
    statuses.map((status) => [String(status), ref('responses', byStatus[status]!)]),
  );
};

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
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: [envelope],
            properties: { [envelope]: schema },
            additionalProperties: true,
          },
        },
      },
    },
  };
}

function collection(
  operationId: string,
  envelope: string,
  item: string,
  scope: ApiScope,
  extra: JsonSchema[] = [],
): JsonSchema {
  return {
    get: {
      operationId,
      summary: `Lists ${envelope.replace(/_/g, ' ')}, oldest first; the next page is the Link rel="next"`,
      'x-scope': scope,
      parameters: [
        ref('parameters', 'limit'),
        ref('parameters', 'fields'),
        ref('parameters', 'updated_at_min'),
        ref('parameters', 'page_info'),
        ...extra,
      ],
      responses: {
        ...ok(
          `A page of ${envelope}`,
          envelope,
          {
            type: 'array',
            items: {
              anyOf: [
                ref('schemas', item),
                ref('schemas', 'DegradedRecord'),
                ref('schemas', `${item}Fields`),
              ],
            },
          },
          '200',
          true,
        ),
        ...errors(400, 422, ...COMMON),
      },
    },
  };
}

function single(operationId: string, envelope: string, schema: string, scope: ApiScope) {
  return {
    operationId,
    'x-scope': scope,
    parameters: [ref('parameters', 'id'), ref('parameters', 'fields')],
    responses: {
      ...ok(`The ${envelope}`, envelope, {
        anyOf: [
          ref('schemas', schema),
          ref('schemas', 'DegradedRecord'),
          ref('schemas', `${schema}Fields`),
        ],
      }),
      ...errors(400, 422, ...COMMON),
    },
  };
}

function writeBody(input: string, required: boolean): JsonSchema {
  const envelope = (name: string) => ({
    type: 'object',
    required: [name],
    properties: { [name]: ref('schemas', input) },
    additionalProperties: false,
  });
  return {
    required,
    content: {
      'application/json': { schema: { anyOf: [envelope('listing'), envelope('product')] } },
    },
  };
}

function write(
  operationId: string,
  summary: string,
  output: string,
  status: '200' | '201',
  body?: string,
): JsonSchema {
  return {
    operationId,
    summary,
    'x-scope': 'write_listings',
    parameters: [ref('parameters', 'Idempotency-Key')],
    ...(body ? { requestBody: writeBody(body, true) } : {}),
    responses: {
      ...ok(summary, 'listing', ref('schemas', output), status),
      ...errors(400, 409, 413, 422, ...COMMON),
    },
  };
}

/** The /products aliases: the same writes, answered in the product shape under `product`. */
function productWrite(operationId: string, summary: string, status: '200' | '201', body?: string) {
  const operation = write(operationId, summary, 'Product', status, body);
  const responses = operation.responses as Record<string, JsonSchema>;
  responses[status] = ok(summary, 'product', ref('schemas', 'Product'), status)[status]!;
  return operation;
}

export function paths(): Record<string, JsonSchema> {
  const listingPath = {
    parameters: [ref('parameters', 'id')],
    get: single('getListing', 'listing', 'ListingDetail', 'read_listings'),
    put: {
      ...write(
        'updateListing',
        'Changes the fields sent',
        'ListingUpdated',
        '200',
        'ListingUpdateInput',
      ),
      parameters: [ref('parameters', 'Idempotency-Key')],
    },
    delete: {
      ...write(
        'deleteListing',
        'Deactivates the listing (soft, idempotent)',
        'ListingDeleted',
        '200',
      ),
      parameters: [ref('parameters', 'Idempotency-Key')],
    },
  };
  return {
    '/ping': {
      get: {
        operationId: 'ping',
        summary: 'Shows that the token, version, rate limiter and seller eligibility work',
        responses: { ...ok('The ping', 'ping', ref('schemas', 'Ping')), ...errors(...COMMON) },
      },
    },
    '/listings.json': {
      ...collection('listListings', 'listings', 'ListingListItem', 'read_listings'),
      post: write(
        'createListing',
        'Creates a listing from a cert or a card',
        'ListingCreated',
        '201',
        'ListingCreateInput',
      ),
    },
    '/listings/{id}.json': listingPath,
    '/products.json': {
      ...collection('listProducts', 'products', 'Product', 'read_listings'),
      post: productWrite(
        'createProduct',
        'Creates a listing (product shape)',
        '201',
        'ListingCreateInput',
      ),
    },
    '/products/{id}.json': {
      parameters: [ref('parameters', 'id')],
      get: single('getProduct', 'product', 'Product', 'read_listings'),
      put: productWrite(
        'updateProduct',
        'Changes a listing (product shape)',
        '200',
        'ListingUpdateInput',
      ),
      delete: productWrite('deleteProduct', 'Deactivates a listing (product shape)', '200'),
    },
    '/orders.json': collection('listOrders', 'orders', 'Order', 'read_orders', [
      {
        name: 'status',
        in: 'query',
        schema: { type: 'string', enum: ['open', 'closed', 'cancelled', 'any'], default: 'any' },
      },
    ]),
    '/orders/{id}.json': {
      get: {
        ...single('getOrder', 'order', 'Order', 'read_orders'),
        description: 'The id is the order id or the order code (name)',
      },
    },
    '/inventory_items.json': collection(
      'listInventoryItems',
      'inventory_items',
      'InventoryItem',
      'read_inventory',
    ),
    '/inventory_levels.json': collection(
      'listInventoryLevels',
      'inventory_levels',
      'InventoryLevel',
      'read_inventory',
    ),
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
