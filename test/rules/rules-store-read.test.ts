import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RuleDefinition } from '../../src/shared/rule-definition';
import { RulesStore } from '../../src/server/rules/rules-store';
import { markdownRule } from './rules-world';

const dir = mkdtempSync(join(tmpdir(), 'slabdesk-rules-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the rules as the store keeps them read', () => {
  it('stay what a fresh read of the file gives after every make, edit, switch and delete', () => {
    const path = join(dir, 'rules.db');
    const store = new RulesStore(path);
    const at = () => new Date().toISOString();
    const fresh = () => {
      const again = new RulesStore(path);
      try {
        return again.rules();
      } finally {
        again.close();
      }
    };
    const ids: number[] = [];
    for (const grade of ['10', '9', '8', '7']) {
      ids.push(store.createRule(RuleDefinition.parse(markdownRule(grade)), 'owner', at()).id);
      expect(store.rules()).toEqual(fresh());
    }
    store.updateRule(ids[1]!, { enabled: true }, at());
    expect(store.rules()).toEqual(fresh());
    store.updateRule(
      ids[2]!,
      { definition: RuleDefinition.parse(markdownRule('8', 'Renamed')) },
      at(),
    );
    expect(store.rules().map((rule) => rule.definition.name)).toContain('Renamed');
    expect(store.rules()).toEqual(fresh());
    store.deleteRule(ids[0]!, at());
    store.deleteRule(ids[3]!, at());
    expect(store.rules().map((rule) => rule.id)).toEqual([ids[1], ids[2]]);
    expect(store.rules()).toEqual(fresh());
    // A run's progress changes the store's version but not its rules.
    const version = store.version;
    store.putOnSale(ids[1]!, 'lst_1', 2_000n, 1_800n);
    expect(store.version).not.toBe(version);
    expect(store.rules()).toEqual(fresh());
    store.close();
  });
});
