/**
 * README's configuration tables and libs/config agree: every variable loadConfig reads is listed with a default and a
 * meaning, and every listed variable is one loadConfig reads.
 */
import { loadConfig } from '@shared/config';
import { README, section } from './readme';

/** The names loadConfig looks up, found by handing it an environment that records every read. */
function variablesTheConfigReads(): string[] {
  const read = new Set<string>();
  const recording = new Proxy<Record<string, string | undefined>>(
    {},
    {
      get: (_target, name) => {
        if (typeof name === 'string') read.add(name);
        return undefined;
      },
    },
  );
  loadConfig(recording);
  return [...read].sort();
}

/** Rows of the tables under "## Configuration": the variables of the first cell, and the other cells. */
function configurationRows(): Array<{ variables: string[]; cells: string[] }> {
  return section(README, 'Configuration')
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|[-| ]+\|$/.test(line))
    .map((line) =>
      line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim()),
    )
    .map(([first, ...cells]) => ({ variables: [...first.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((match) => match[1]), cells }))
    .filter((row) => row.variables.length > 0);
}

describe('README configuration tables', () => {
  it('list exactly the variables libs/config reads', () => {
    const documented = [...new Set(configurationRows().flatMap((row) => row.variables))].sort();
    const read = variablesTheConfigReads();
    expect(read.length).toBeGreaterThan(40);
    expect({ undocumented: read.filter((name) => !documented.includes(name)), notRead: documented.filter((name) => !read.includes(name)) }).toEqual({
      undocumented: [],
      notRead: [],
    });
  });

  it('give each variable a default and a meaning', () => {
    for (const { variables, cells } of configurationRows()) {
      expect({ variables, cells: cells.length, empty: cells.filter((cell) => cell === '').length }).toEqual({ variables, cells: 2, empty: 0 });
    }
  });
});
