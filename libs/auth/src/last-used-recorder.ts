/**
 * Records "last used" at most once per interval per credential and process, so authenticating
 * a request costs no database write. The write itself is fire-and-forget.
 */
export class LastUsedRecorder {
  private readonly lastTouched = new Map<string, number>();

  constructor(
    private readonly touch: (credentialId: string, at: Date, staleBefore: Date) => Promise<void>,
    private readonly onError: (error: unknown) => void,
    private readonly intervalMs = 60_000,
  ) {}

  record(credentialId: string, now: Date): void {
    const last = this.lastTouched.get(credentialId) ?? 0;
    if (now.getTime() - last < this.intervalMs) return;
    if (this.lastTouched.size > 100_000) this.lastTouched.clear();
    this.lastTouched.set(credentialId, now.getTime());
    this.touch(credentialId, now, new Date(now.getTime() - this.intervalMs)).catch(this.onError);
  }
}
