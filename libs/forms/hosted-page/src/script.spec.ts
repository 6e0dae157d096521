import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { bundleHostedFormScript, writeHostedFormBundle } from './client-bundle';
import { PREBUILT_BUNDLE } from './prebuilt-bundle';
import { hostedFormScript, hostedFormScriptIn } from './script';

/** The budget for the hosted page's script as browsers download it (issue 17). */
const MAX_GZIPPED_BYTES = 40 * 1024;

describe('hostedFormScript', () => {
  let buildDir: string;

  beforeEach(() => {
    buildDir = mkdtempSync(path.join(tmpdir(), 'hosted-page-dist-'));
  });

  afterEach(() => rmSync(buildDir, { recursive: true, force: true }));

  it('bundles the client once into a small, content-named file', async () => {
    const script = await hostedFormScript();
    expect(script.fileName).toMatch(/^form\.[0-9a-f]{8}\.js$/);
    expect(script.etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(script.body.length).toBeGreaterThan(1000);
    expect(gzipSync(script.body).length).toBeLessThanOrEqual(MAX_GZIPPED_BYTES);
    expect(script.body).toMatch(/^("use strict";)?\(\(\)=>\{/);
    await expect(hostedFormScript()).resolves.toBe(script);
  });

  it('takes only the browser-safe draft-schema modules and no third-party code', async () => {
    const inputs = Object.keys((await bundleHostedFormScript()).metafile.inputs);
    expect(inputs).toEqual(
      expect.arrayContaining([expect.stringMatching(/draft-schema\/src\/answers\.ts$/), expect.stringMatching(/runtime\/src\/index\.ts$/)]),
    );
    expect(inputs.filter((input) => /node_modules|zod|validate|schemas\//.test(input))).toEqual([]);
    expect(inputs.filter((input) => /hosted-page\/src\/(page|fields|thank-you|theme|script)\.ts$/.test(input))).toEqual([]);
  });

  it('from the build output, serves the bundle the build wrote, named and tagged by its content, without loading esbuild', async () => {
    await writeHostedFormBundle(buildDir);
    const fromSources = await hostedFormScript();
    let esbuildLoaded = false;
    let prebuilt: unknown;
    await jest.isolateModulesAsync(async () => {
      jest.doMock('esbuild', () => {
        esbuildLoaded = true;
        return {};
      });
      prebuilt = await (await import('./script')).hostedFormScriptIn(buildDir);
    });
    expect(prebuilt).toEqual(fromSources);
    expect(esbuildLoaded).toBe(false);
  });

  it('from a build output without the bundle, says to build', async () => {
    await expect(hostedFormScriptIn(buildDir)).rejects.toThrow(`${path.join(buildDir, PREBUILT_BUNDLE)} is missing: build @forms/hosted-page`);
    writeFileSync(path.join(buildDir, PREBUILT_BUNDLE), 'x');
    await expect(hostedFormScriptIn(buildDir)).resolves.toMatchObject({ body: 'x', fileName: `form.2d711642.js` });
  });
});
