/**
 * Bundles the hosted page's client (`src/client/main.ts`) for browsers with esbuild. The build runs this module
 * (`node dist/client-bundle.js`, see the `build` target) and writes the bundle beside the compiled lib; running from
 * the sources (tests, ts paths), `hostedFormScript()` loads it on first use. Production never loads it.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build, type Metafile, type Plugin } from 'esbuild';
import { PREBUILT_BUNDLE } from './prebuilt-bundle';

/** `src/` whether this module runs from `src/` or from `dist/`. */
const sourceDir = path.resolve(__dirname, '..', 'src');

/** `@forms/draft-schema` is narrowed to its browser-safe modules (model + answers) so the zod validator stays out. */
export async function bundleHostedFormScript(): Promise<{ body: string; metafile: Metafile }> {
  const result = await build({
    entryPoints: [path.join(sourceDir, 'client', 'main.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2019',
    minify: true,
    legalComments: 'none',
    metafile: true,
    logLevel: 'silent',
    plugins: [workspacePackages()],
  });
  return { body: result.outputFiles[0].text, metafile: result.metafile };
}

/** The build step: the bundle as `dist/form.bundle.js`, where `hostedFormScript()` reads it. */
export async function writeHostedFormBundle(outputDir = __dirname): Promise<void> {
  writeFileSync(path.join(outputDir, PREBUILT_BUNDLE), (await bundleHostedFormScript()).body);
}

function workspacePackages(): Plugin {
  const runtimeDir = sourceEntryDir('@forms/runtime');
  const draftSchemaDir = sourceEntryDir('@forms/draft-schema');
  return {
    name: 'forms-workspace-packages',
    setup(build) {
      build.onResolve({ filter: /^@forms\/runtime$/ }, () => ({ path: path.join(runtimeDir, 'index.ts') }));
      build.onResolve({ filter: /^@forms\/draft-schema$/ }, () => ({ path: 'browser', namespace: 'draft-schema' }));
      build.onLoad({ filter: /.*/, namespace: 'draft-schema' }, () => ({
        contents: "export * from './model'; export * from './answers';",
        resolveDir: draftSchemaDir,
        loader: 'js',
      }));
    },
  };
}

/** The `src/` directory of a workspace package, through the repo's tsconfig path aliases. */
function sourceEntryDir(name: string): string {
  const tsconfig = findUp(sourceDir, 'tsconfig.base.json');
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

if (require.main === module) {
  writeHostedFormBundle().catch((error: unknown) => {
    process.stderr.write(`could not bundle the hosted form script: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 1;
  });
}
