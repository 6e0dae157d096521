/** User-supplied colours, sizes and URLs go into CSS and attributes only when plainly safe; others are dropped. */
const COLOR = /^(#[0-9a-fA-F]{3,8}|[a-zA-Z]{3,20}|rgba?\(\s*[\d.%]+\s*,\s*[\d.%]+\s*,\s*[\d.%]+\s*(,\s*[\d.%]+\s*)?\))$/;
const SIZE = /^\d{1,3}(\.\d{1,2})?(px|em|rem|%|pt)$/;
const LINK_URL = /^(https?:\/\/|mailto:|tel:)/i;
const IMAGE_URL = /^https?:\/\//i;

export const safeColor = (value: string | undefined): string | null => (value !== undefined && COLOR.test(value.trim()) ? value.trim() : null);
export const safeSize = (value: string | undefined): string | null => (value !== undefined && SIZE.test(value.trim()) ? value.trim() : null);
export const safeLinkUrl = (value: string): string | null => (LINK_URL.test(value.trim()) ? value.trim() : null);
export const safeImageUrl = (value: string | undefined): string | null => (value !== undefined && IMAGE_URL.test(value.trim()) ? value.trim() : null);
