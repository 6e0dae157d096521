import { readFileSync } from 'node:fs';
import path from 'node:path';

export const README = readFileSync(path.resolve(__dirname, '../../README.md'), 'utf8');

/** The text under a `## title` heading, up to the next `## ` heading. */
export function section(markdown: string, title: string): string {
  const start = markdown.indexOf(`\n## ${title}\n`);
  if (start === -1) throw new Error(`README.md has no "## ${title}" section`);
  const end = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, end === -1 ? undefined : end);
}

/** The one fenced code block whose info string is exactly `info` (e.g. "sh email-walkthrough"). */
export function codeBlock(markdown: string, info: string): string {
  const blocks = [...markdown.matchAll(/^```([^\n]*)\n([\s\S]*?)^```$/gm)].filter((match) => match[1].trim() === info).map((match) => match[2]);
  if (blocks.length !== 1) throw new Error(`README.md has ${blocks.length} code blocks marked "${info}", expected one`);
  return blocks[0];
}
