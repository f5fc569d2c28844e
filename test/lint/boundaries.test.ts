import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The layers are kept by the linter (eslint.config.js), not by habit: each case lints a file
 * that would sit in the tree and checks that the rule on it reports the import.
 */
const eslint = new ESLint({ cwd: process.cwd() });

async function lintAs(filePath: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.map((message) => ({ rule: message.ruleId, text: message.message }));
}

describe('lint keeps the boundaries', () => {
  it('reports a feature importing another feature', async () => {
    const messages = await lintAs(
      'src/features/orders/boundary-fixture.ts',
      "import { toCatalogueRow } from '../listings/catalogue/catalogue-row';\nexport const rows = toCatalogueRow;\n",
    );
    expect(messages).toContainEqual({
      rule: 'import-x/no-restricted-paths',
      text: expect.stringContaining('A feature must not import another feature'),
    });
  });

  it('lets a feature import its own files, api/, lib/ and components/', async () => {
    const messages = await lintAs(
      'src/features/listings/boundary-fixture.ts',
      "import { toCatalogueRow } from './catalogue/catalogue-row';\nimport { listingKeys } from '../../api/listings/listing-keys';\nimport { paths } from '../../shared/paths';\nexport const all = [toCatalogueRow, listingKeys, paths];\n",
    );
    expect(messages).toEqual([]);
  });

  it('reports shared code importing a feature or the app shell', async () => {
    const messages = await lintAs(
      'src/lib/boundary-fixture.ts',
      "import { toCatalogueRow } from '../features/listings/catalogue/catalogue-row';\nexport const rows = toCatalogueRow;\n",
    );
    expect(messages.map((m) => m.rule)).toContain('import-x/no-restricted-paths');
  });

  it('reports the data layer importing shared UI helpers, a feature or the shell', async () => {
    const messages = await lintAs(
      'src/api/boundary-fixture.ts',
      "import { formatMoney } from '../lib/format';\nexport const money = formatMoney;\n",
    );
    expect(messages).toContainEqual({
      rule: 'import-x/no-restricted-paths',
      text: expect.stringContaining('The data layer stands on the client alone'),
    });
  });

  it('reports a sandbox store file importing the domain', async () => {
    const messages = await lintAs(
      'src/sandbox/store/boundary-fixture.ts',
      "import { TAX_BP } from '../domain/marketplace';\nexport const tax = TAX_BP;\n",
    );
    expect(messages).toContainEqual({
      rule: 'import-x/no-restricted-paths',
      text: expect.stringContaining('The store is the sandbox’s ground floor'),
    });
  });

  it('reports the sandbox domain importing a serializer', async () => {
    const messages = await lintAs(
      'src/sandbox/domain/boundary-fixture.ts',
      "import { orderView } from '../serializers/order-view';\nexport const view = orderView;\n",
    );
    expect(messages.map((m) => m.rule)).toContain('import-x/no-restricted-paths');
  });

  it('reports the server importing sandbox internals or the dashboard', async () => {
    for (const code of [
      "import { ApiError } from '../sandbox/platform/api-error';\nexport const e = ApiError;\n",
      "import { startSandbox } from '../sandbox/index';\nexport const s = startSandbox;\n",
      "import { formatMoney } from '../lib/format';\nexport const m = formatMoney;\n",
    ]) {
      const messages = await lintAs('src/server/boundary-fixture.ts', code);
      expect(messages, code).toContainEqual({
        rule: 'import-x/no-restricted-paths',
        text: expect.stringContaining('The server imports only src/shared and src/client'),
      });
    }
  });

  it('lets the server import src/shared and src/client', async () => {
    const messages = await lintAs(
      'src/server/boundary-fixture.ts',
      "import { MAX_BODY_BYTES } from '../shared/spec-limits';\nimport { parseLinkHeader } from '../client/link-header';\nexport const all = [MAX_BODY_BYTES, parseLinkHeader];\n",
    );
    expect(messages).toEqual([]);
  });

  it('keeps the SQLite helper out of the browser, and lets the sandbox use it', async () => {
    const page = await lintAs(
      'src/lib/boundary-fixture.ts',
      "import { openStore } from '../shared/sqlite/open-store';\nexport const open = openStore;\n",
    );
    expect(page).toContainEqual({
      rule: 'no-restricted-imports',
      text: expect.stringContaining('Browser code must not import Node-only code'),
    });
    const sandbox = await lintAs(
      'src/sandbox/store/boundary-fixture.ts',
      "import { openStore } from '../../shared/sqlite/open-store';\nexport const open = openStore;\n",
    );
    expect(sandbox).toEqual([]);
  });
});
