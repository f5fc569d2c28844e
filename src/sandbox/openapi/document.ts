import { CURRENT_VERSION } from '../platform/versions';
import { ALL_SCOPES } from '../platform/scopes';
import { MAX_BODY_BYTES } from '../../shared/spec-limits';
import { componentHeaders, componentParameters, componentResponses, paths } from './paths';
import { componentSchemas, type JsonSchema } from './schemas';

/** Where the repository keeps its copy of the document (`npm run openapi` writes it). */
export const OPENAPI_COPY_PATH = 'openapi/partner-api-2026-07.json';

/** The OpenAPI 3.1 document from the sandbox's own constants; the version is the server path. */
export function buildOpenApiDocument(serverUrl = 'http://127.0.0.1:4010'): JsonSchema {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Graded-Card Marketplace Partner API',
      version: CURRENT_VERSION,
      description: [
        'The Partner API 2026-07 as the Slabdesk sandbox serves it. Every response carries',
        'X-Service-Api-Call-Limit, X-Service-Api-Version, X-Service-Api-Mode and X-Request-Id.',
        'Collections page through the Link header (rel="next"). Objects may carry members beyond',
        `those documented. Request bodies are at most ${MAX_BODY_BYTES} bytes.`,
      ].join(' '),
    },
    servers: [{ url: `${serverUrl.replace(/\/$/, '')}/${CURRENT_VERSION}` }],
    security: [{ accessToken: [] }, { bearer: [] }],
    paths: paths(),
    components: {
      securitySchemes: {
        accessToken: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Service-Access-Token',
          description: `A svc_live_ or svc_test_ key; scopes: ${ALL_SCOPES.join(', ')}`,
        },
        bearer: { type: 'http', scheme: 'bearer' },
      },
      schemas: componentSchemas(),
      responses: componentResponses(),
      parameters: componentParameters(),
      headers: componentHeaders(),
    },
  };
}

/** The document as the repository keeps it: stable server URL, two-space JSON, final newline. */
export function openApiCopyText(): string {
  return `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
}
