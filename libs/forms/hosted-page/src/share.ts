import type { SocialShareLinks } from '@forms/draft-schema';

/** The share networks a thank-you screen offers, with the default share URL for a page. */
export const SHARE_NETWORKS: { key: keyof SocialShareLinks; name: string; shareUrl: (pageUrl: string) => string }[] = [
  { key: 'facebook', name: 'Facebook', shareUrl: (page) => `https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(page)}` },
  { key: 'x', name: 'X', shareUrl: (page) => `https://x.com/intent/post?url=${encodeURIComponent(page)}` },
  { key: 'linkedin', name: 'LinkedIn', shareUrl: (page) => `https://www.linkedin.com/sharing/share-offsite/?url=${encodeURIComponent(page)}` },
];
