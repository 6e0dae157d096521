// Runs the TypeScript sources directly (no build): compiles .ts with swc as jest does and resolves the workspace
// aliases from tsconfig.base.json. Only for the measurement scripts here: `node -r ./ts-hook.js script.ts`.
const fs = require('node:fs');
const path = require('node:path');
const Module = require('node:module');
const { transformSync } = require('@swc/core');

const root = path.resolve(__dirname, '../../../..');
const swc = JSON.parse(fs.readFileSync(path.join(root, '.swcrc'), 'utf8'));
delete swc.$schema;
const { paths } = JSON.parse(fs.readFileSync(path.join(root, 'tsconfig.base.json'), 'utf8')).compilerOptions;
const aliases = new Map(Object.entries(paths).map(([alias, [target]]) => [alias, path.join(root, target)]));

const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return resolve.call(this, aliases.get(request) ?? request, ...rest);
};
require.extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(fs.readFileSync(filename, 'utf8'), { ...swc, swcrc: false, filename, sourceMaps: 'inline', module: { type: 'commonjs' } });
  module._compile(code, filename);
};
