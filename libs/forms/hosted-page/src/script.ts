import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { build, type Metafile, type Plugin } from 'esbuild';

export interface HostedFormScript {
  body: string;
  /** A strong, quoted ETag. */
  etag: string;
  /** `form.<hash>.js`: the name changes with the content, so it can be cached as immutable. */
  fileName: string;
}

let bundled: Promise<HostedFormScript> | undefined;

/** The hosted page's script, bundled once per process (a failed build is retried on the next call). */
export function hostedFormScript(): Promise<HostedFormScript> {
  if (!bundled) {
    bundled = bundleHostedFormScript().then(({ body }) => {
      const hash = createHash('sha256').update(body).digest('hex');
      return { body, etag: `"${hash.slice(0, 32)}"`, fileName: `form.${hash.slice(0, 8)}.js` };
    });
    bundled.catch(() => (bundled = undefined));
  }
  return bundled;
}

/**
 * Bundles `client/main` (the `.ts` source under tests and ts paths, the `.js` output once built) for browsers.
 * `@forms/draft-schema` is narrowed to its browser-safe modules (model + answers) so the zod validator stays out.
 */
export async function bundleHostedFormScript(): Promise<{ body: string; metafile: Metafile }> {
  const fromSource = existsSync(path.join(__dirname, 'client', 'main.ts'));
  const entry = path.join(__dirname, 'client', fromSource ? 'main.ts' : 'main.js');
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2019',
    minify: true,
    legalComments: 'none',
    metafile: true,
    logLevel: 'silent',
    plugins: [workspacePackages(fromSource)],
  });
  return { body: result.outputFiles[0].text, metafile: result.metafile };
}

function workspacePackages(fromSource: boolean): Plugin {
  const runtimeDir = packageEntryDir('@forms/runtime', fromSource);
  const draftSchemaDir = packageEntryDir('@forms/draft-schema', fromSource);
  return {
    name: 'forms-workspace-packages',
    setup(build) {
      build.onResolve({ filter: /^@forms\/runtime$/ }, () => ({ path: moduleFile(runtimeDir, 'index') }));
      build.onResolve({ filter: /^@forms\/draft-schema$/ }, () => ({ path: 'browser', namespace: 'draft-schema' }));
      build.onLoad({ filter: /.*/, namespace: 'draft-schema' }, () => ({
        contents: "export * from './model'; export * from './answers';",
        resolveDir: draftSchemaDir,
        loader: 'js',
      }));
    },
  };
}

/**
 * The directory of a workspace package's entry module: its `src/` through the repo's tsconfig path aliases when
 * running from sources, its built `dist/` through node resolution (the pnpm workspace links) otherwise.
 */
function packageEntryDir(name: string, fromSource: boolean): string {
  if (!fromSource) return path.dirname(require.resolve(name, { paths: [__dirname] }));
  const tsconfig = findUp(__dirname, 'tsconfig.base.json');
  const { compilerOptions } = JSON.parse(readFileSync(tsconfig, 'utf8')) as { compilerOptions: { baseUrl?: string; paths: Record<string, string[]> } };
  const target = compilerOptions.paths[name]?.[0];
  if (!target) throw new Error(`${tsconfig} has no path alias for ${name}`);
  return path.dirname(path.resolve(path.dirname(tsconfig), compilerOptions.baseUrl ?? '.', target));
}

function findUp(from: string, fileName: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, fileName))) return path.join(dir, fileName);
    if (path.dirname(dir) === dir) throw new Error(`no ${fileName} above ${from}`);
  }
}

function moduleFile(dir: string, name: string): string {
  const file = ['.ts', '.js'].map((extension) => path.join(dir, name + extension)).find(existsSync);
  if (!file) throw new Error(`no ${name}.ts or ${name}.js in ${dir}`);
  return file;
}
