import { writeFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { OPENAPI_COPY_PATH, openApiCopyText } from './document';

/** `npm run openapi`: writes the repository's copy of the document. */
mkdirSync(dirname(OPENAPI_COPY_PATH), { recursive: true });
writeFileSync(OPENAPI_COPY_PATH, openApiCopyText());
console.log(`wrote ${OPENAPI_COPY_PATH}`);
