import { readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const FLAG = '--max-old-space-size=256';

/** The lines of `text` from the one matching `start` up to the next line indented no deeper than it. */
function block(text: string, start: RegExp): string {
  const lines = text.split('\n');
  const first = lines.findIndex((line) => start.test(line));
  if (first < 0) throw new Error(`no line matches ${start}`);
  const indent = lines[first].search(/\S/);
  const end = lines.findIndex((line, i) => i > first && line.trim() !== '' && line.search(/\S/) <= indent);
  return lines.slice(first, end < 0 ? undefined : end).join('\n');
}

describe("email-jobs-worker's V8 heap limit", () => {
  it('is the same wherever the worker is launched: Compose, Kubernetes and npm start', () => {
    expect(block(read('docker/compose.yaml'), /^ {2}email-jobs-worker:/)).toContain(`NODE_OPTIONS: ${FLAG}`);
    expect(read('k8s/email-jobs-worker.yaml')).toContain(`{ name: NODE_OPTIONS, value: "${FLAG}" }`);
    expect(read('scripts/lib/launch.mjs')).toMatch(new RegExp(`name: 'email-jobs-worker'.*nodeArgs: \\['${FLAG}'\\]`));
  });
});
