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
      "import { listingKeys } from '../listings/listing-keys';\nexport const keys = listingKeys;\n",
    );
    expect(messages).toContainEqual({
      rule: 'import-x/no-restricted-paths',
      text: expect.stringContaining('A feature must not import another feature'),
    });
  });

  it('lets a feature import its own files, lib/ and components/', async () => {
    const messages = await lintAs(
      'src/features/listings/boundary-fixture.ts',
      "import { listingKeys } from './listing-keys';\nimport { paths } from '../../lib/paths';\nexport const both = [listingKeys, paths];\n",
    );
    expect(messages).toEqual([]);
  });

  it('reports shared code importing a feature or the app shell', async () => {
    const messages = await lintAs(
      'src/lib/boundary-fixture.ts',
      "import { listingKeys } from '../features/listings/listing-keys';\nexport const keys = listingKeys;\n",
    );
    expect(messages.map((m) => m.rule)).toContain('import-x/no-restricted-paths');
  });

  it('reports a sandbox store file importing the domain', async () => {
    const messages = await lintAs(
      'src/sandbox/store/boundary-fixture.ts',
      "import { formatCents } from '../domain/money';\nexport const format = formatCents;\n",
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
});
