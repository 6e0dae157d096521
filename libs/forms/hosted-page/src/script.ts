import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { contentNamedAsset, type HostedAsset } from './assets';
import { PREBUILT_BUNDLE } from './prebuilt-bundle';

export type HostedFormScript = HostedAsset;

let loaded: Promise<HostedFormScript> | undefined;

/** The hosted page's script, loaded once per process (a failed load is retried on the next call). */
export function hostedFormScript(): Promise<HostedFormScript> {
  if (!loaded) {
    loaded = hostedFormScriptIn(__dirname);
    loaded.catch(() => (loaded = undefined));
  }
  return loaded;
}

/**
 * The script for the lib's modules in `moduleDir`: from `src/` (tests, ts paths) bundled from the sources by esbuild,
 * imported only then; from the build output, the prebuilt bundle, so no bundler runs in production.
 */
export async function hostedFormScriptIn(moduleDir: string): Promise<HostedFormScript> {
  const body = existsSync(path.join(moduleDir, 'client', 'main.ts')) ? await bundleFromSources() : await readPrebuilt(moduleDir);
  return contentNamedAsset(body, 'js');
}

async function bundleFromSources(): Promise<string> {
  const { bundleHostedFormScript } = await import('./client-bundle');
  return (await bundleHostedFormScript()).body;
}

async function readPrebuilt(moduleDir: string): Promise<string> {
  const file = path.join(moduleDir, PREBUILT_BUNDLE);
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new Error(`The hosted form script ${file} is missing: build @forms/hosted-page (npm run build).`, { cause: error });
  }
}
