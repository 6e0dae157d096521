import { INestApplication } from '@nestjs/common';
import { existsSync } from 'node:fs';
import { Browser, chromium } from 'playwright-core';

/** Debian's Chromium, which the browser tests drive. */
export const CHROMIUM = '/usr/bin/chromium';

/** Headless Chromium with no sandbox, GPU or background traffic; fails loudly when it is not installed. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is required and was not found at ${CHROMIUM} (apt-get install -y chromium).`);
  return chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
}

/** Starts the app on a free loopback port and returns its origin, for a browser to open. */
export async function listenOnLoopback(app: INestApplication): Promise<string> {
  await app.listen(0, '127.0.0.1');
  return (await app.getUrl()).replace('[::1]', '127.0.0.1');
}
