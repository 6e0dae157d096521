/** Shared by the server (first step) and the script (every later one), so both say the same. */
export const stepProgressText = (position: number, total: number) => `Step ${position} of ${total}`;

/** The bar's fill: the steps reached so far, the current one included. */
export const stepProgressPercent = (position: number, total: number) => Math.round((position / total) * 100);
