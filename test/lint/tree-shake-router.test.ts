import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { treeShakeRouter } from '../../vite.config';

/** The router package's production build: its entry and the chunks the entry imports. */
function routerBuild(): { id: string; code: string }[] {
  const entry = fileURLToPath(
    new URL('../../node_modules/react-router/dist/production/index.mjs', import.meta.url),
  );
  const chunks = new Set(
    [...readFileSync(entry, 'utf8').matchAll(/from "\.\/(chunk-[\w-]+\.mjs)"/g)].map((m) => m[1]!),
  );
  return [...chunks].map((name) => {
    const id = join(dirname(entry), name);
    return { id, code: readFileSync(id, 'utf8') };
  });
}

type Transform = (code: string, id: string) => { code: string } | null;

const DISPLAY_NAME = /^[A-Za-z_$][\w$]*\.displayName = "[^"\n]*";$/gm;
const COMPONENT =
  /^var [\w$]+ = (\/\* @__PURE__ \*\/ )?React\d*\.(forwardRef|createContext|memo)\(/gm;

/**
 * The build's plugin that lets the bundler drop the router package's unused components: on the
 * package as installed, it finds what it rewrites (an upgrade that writes its components another
 * way makes this fail, instead of 20 KB coming back into the first load unseen) and leaves no
 * component unmarked and no display name assigned.
 */
describe('treeShakeRouter', () => {
  // The plugin's transform is a plain function (no hook object, no plugin context used).
  const transform = treeShakeRouter().transform as Transform;

  it('marks every component of the installed router pure and drops their display names', () => {
    let components = 0;
    let names = 0;
    for (const { id, code } of routerBuild()) {
      components += [...code.matchAll(COMPONENT)].length;
      names += [...code.matchAll(DISPLAY_NAME)].length;
      const shakable = transform(code, id)?.code ?? code;
      expect(shakable.match(DISPLAY_NAME)).toBeNull();
      for (const match of shakable.matchAll(COMPONENT)) expect(match[1]).toBeDefined();
    }
    expect(components).toBeGreaterThanOrEqual(10);
    expect(names).toBeGreaterThanOrEqual(10);
  });

  it('leaves every other module alone', () => {
    expect(transform('var Link = React.forwardRef(f);', '/src/components/link.tsx')).toBeNull();
  });
});
