import { bundleHostedFormScript, hostedFormScript } from './script';

describe('hostedFormScript', () => {
  it('bundles the client once into a small, content-named file', async () => {
    const script = await hostedFormScript();
    expect(script.fileName).toMatch(/^form\.[0-9a-f]{8}\.js$/);
    expect(script.etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(script.body.length).toBeGreaterThan(1000);
    expect(Buffer.byteLength(script.body)).toBeLessThan(40 * 1024);
    expect(script.body).toMatch(/^("use strict";)?\(\(\)=>\{/);
    await expect(hostedFormScript()).resolves.toBe(script);
  });

  it('takes only the browser-safe draft-schema modules and no third-party code', async () => {
    const inputs = Object.keys((await bundleHostedFormScript()).metafile.inputs);
    expect(inputs).toEqual(expect.arrayContaining([expect.stringMatching(/draft-schema\/src\/answers\.ts$/), expect.stringMatching(/runtime\/src\/index\.ts$/)]));
    expect(inputs.filter((input) => /node_modules|zod|validate|schemas\//.test(input))).toEqual([]);
    expect(inputs.filter((input) => /hosted-page\/src\/(page|fields|thank-you|theme|script)\.ts$/.test(input))).toEqual([]);
  });
});
