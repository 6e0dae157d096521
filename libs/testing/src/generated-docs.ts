import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const REPO_ROOT = path.resolve(__dirname, '../../..');
const REGENERATE = 'UPDATE_ERROR_DOCS=1 npm run test:unit -- error-reference';

/**
 * Holds a generated docs file to what its source renders: with UPDATE_ERROR_DOCS=1 the file is (re)written first;
 * otherwise a missing or drifted file fails, naming the command that regenerates it.
 */
export function expectGeneratedDoc(repoPath: string, expected: string): void {
  const file = path.join(REPO_ROOT, repoPath);
  if (process.env.UPDATE_ERROR_DOCS === '1') {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, expected);
  }
  const actual = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  if (actual !== expected) throw new Error(`${repoPath} is ${actual === undefined ? 'missing' : 'out of date'}: run \`${REGENERATE}\`.`);
}
