/** Polls `check` every 25 ms until it returns a truthy value, which it resolves to; rejects naming `what` after `ms`. */
export async function until<T>(what: string, check: () => Promise<T | undefined | false> | T | undefined | false, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
