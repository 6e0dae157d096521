/**
 * Screenshots compared with committed baselines (`libs/forms/hosted-page/screenshots/`). Every shot is also kept under
 * `reports/screenshots/hosted-page/` for a person to look at, with a `-diff.png` beside it when it differs.
 * `UPDATE_SCREENSHOTS=1` rewrites the baselines.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import type { Page } from 'playwright-core';

const BASELINES = path.resolve(__dirname, '..', 'screenshots');
export const SCREENSHOT_ARTEFACTS = path.resolve(__dirname, '..', '..', '..', '..', 'reports', 'screenshots', 'hosted-page');

/** pixelmatch's per-pixel colour tolerance (0..1) and the share of pixels allowed to differ beyond it. */
const PIXEL_THRESHOLD = 0.1;
const MAX_DIFFERENT_RATIO = 0.001;

/** Takes a full-page shot once fonts are in, keeps it as an artefact, and fails with a clear message on a difference. */
export async function expectScreenshot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  const shot = await page.screenshot({ fullPage: true, animations: 'disabled', caret: 'hide' });
  mkdirSync(SCREENSHOT_ARTEFACTS, { recursive: true });
  const artefact = path.join(SCREENSHOT_ARTEFACTS, `${name}.png`);
  writeFileSync(artefact, shot);
  const baseline = path.join(BASELINES, `${name}.png`);
  if (process.env.UPDATE_SCREENSHOTS === '1' || !existsSync(baseline)) {
    if (process.env.CI && !existsSync(baseline)) throw new Error(`no baseline ${baseline}: run with UPDATE_SCREENSHOTS=1 and commit it`);
    mkdirSync(BASELINES, { recursive: true });
    writeFileSync(baseline, shot);
    return;
  }
  const expected = PNG.sync.read(readFileSync(baseline));
  const actual = PNG.sync.read(shot);
  const help = `see ${artefact}; if the change is intended, rerun with UPDATE_SCREENSHOTS=1 and commit the baseline`;
  if (expected.width !== actual.width || expected.height !== actual.height) {
    throw new Error(`screenshot ${name} is ${actual.width}x${actual.height}, its baseline ${expected.width}x${expected.height} (${help})`);
  }
  const diff = new PNG({ width: actual.width, height: actual.height });
  const different = pixelmatch(expected.data, actual.data, diff.data, actual.width, actual.height, { threshold: PIXEL_THRESHOLD });
  const ratio = different / (actual.width * actual.height);
  if (ratio > MAX_DIFFERENT_RATIO) {
    const diffFile = path.join(SCREENSHOT_ARTEFACTS, `${name}-diff.png`);
    writeFileSync(diffFile, PNG.sync.write(diff));
    throw new Error(`screenshot ${name} differs from its baseline in ${different} pixels (${(ratio * 100).toFixed(2)}%, diff in ${diffFile}; ${help})`);
  }
}

/** A solid-colour PNG, for the images a form links (served through the browser's request routing). */
export function solidPng(width: number, height: number, [red, green, blue]: [number, number, number]): Buffer {
  const png = new PNG({ width, height });
  for (let offset = 0; offset < png.data.length; offset += 4) png.data.set([red, green, blue, 255], offset);
  return PNG.sync.write(png);
}
