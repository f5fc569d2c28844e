import { readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { figureAsked, type Bench } from './bench-api';
import { QUICK } from './quick';

/**
 * `npm run bench [-- PREFIX[,PREFIX...]]`: runs the benches, prints `name: value` lines, writes
 * bench-results.json.
 */
const here = dirname(fileURLToPath(import.meta.url));
const prefixes = (process.argv[2] ?? '').split(',');
// A quick run's figures (small sizes, one run) are not comparable: they go to a file of their own.
const resultsFile = join(here, '..', QUICK ? 'bench-results.quick.json' : 'bench-results.json');
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .sort();

const results: Record<string, number> = existsSync(resultsFile)
  ? (JSON.parse(readFileSync(resultsFile, 'utf8')) as Record<string, number>)
  : {};
let ran = 0;
for (const file of files) {
  const bench = (await import(pathToFileURL(join(here, file)).href)).default as Bench;
  const wanted = bench.figures.some(figureAsked);
  if (!wanted) continue;
  ran++;
  const started = performance.now();
  await bench.run((name, value) => {
    if (!figureAsked(name)) return;
    console.log(`${name}: ${value}`);
    results[name] = value;
    writeFileSync(resultsFile, `${JSON.stringify(results, null, 2)}\n`);
  });
  if (QUICK) console.log(`(${file}: ${Math.round((performance.now() - started) / 1000)} s)`);
}
if (ran === 0) {
  console.error(`no bench produces a figure starting with "${prefixes.join('" or "')}"`);
  process.exit(1);
}
process.exit(0);
