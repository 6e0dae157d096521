/** `text` with LIKE's wildcards (`%`, `_`) and its escape character (`\`) escaped, so it matches only itself. */
export const likeLiteral = (text: string): string => text.replace(/[\\%_]/g, (char) => `\\${char}`);
