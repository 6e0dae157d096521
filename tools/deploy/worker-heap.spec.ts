import { readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

/** The lines of `text` from the one matching `start` up to the next line indented no deeper than it. */
function block(text: string, start: RegExp): string {
  const lines = text.split('\n');
  const first = lines.findIndex((line) => start.test(line));
  if (first < 0) throw new Error(`no line matches ${start}`);
  const indent = lines[first].search(/\S/);
  const end = lines.findIndex((line, i) => i > first && line.trim() !== '' && line.search(/\S/) <= indent);
  return lines.slice(first, end < 0 ? undefined : end).join('\n');
}

describe("the workers' V8 heap limits", () => {
  it.each([
    ['email-jobs-worker', 256],
    ['forms-worker', 192],
  ])('%s has the same limit wherever it is launched: Compose, Kubernetes and npm start', (worker, mb) => {
    const flag = `--max-old-space-size=${mb}`;
    expect(block(read('docker/compose.yaml'), new RegExp(`^ {2}${worker}:`))).toContain(`NODE_OPTIONS: ${flag}`);
    expect(read(`k8s/${worker}.yaml`)).toContain(`{ name: NODE_OPTIONS, value: "${flag}" }`);
    expect(read('scripts/lib/launch.mjs')).toMatch(new RegExp(`name: '${worker}'.*nodeArgs: \\['${flag}'\\]`));
  });
});
