import { clickSuffix, openPixelPath, TrackedMessage, TrackingTokens } from './tracking-token';

export interface MessageTrackingOptions extends TrackedMessage {
  /** The message's links, in the order the compiled template numbers them (`CompiledTemplate.links`). */
  links: readonly string[];
  trackOpens: boolean;
  trackClicks: boolean;
}

/** One recipient's tracking, in the shape the renderer's fill takes: a link hook and the open pixel's URL, when on. */
export interface RecipientTracking {
  linkHook?: (url: string, index: number) => string;
  openPixelUrl?: string;
}

/** Only web links go through the redirect; mailto: and tel: links are left as they are. */
const TRACKABLE = /^https?:\/\//i;

/**
 * A message's tracking, prepared once per message: each trackable link's signature and the part of its click URL that
 * is the same for every recipient. Per recipient, `forRecipient` signs one token and builds the URLs by concatenation.
 */
export class MessageTracking {
  private readonly base: string;
  private readonly suffixes: ReadonlyArray<string | null>;

  constructor(
    private readonly tokens: TrackingTokens,
    publicBaseUrl: string,
    private readonly message: MessageTrackingOptions,
  ) {
    this.base = publicBaseUrl.replace(/\/+$/, '');
    this.suffixes = message.trackClicks ? message.links.map((url) => (TRACKABLE.test(url) ? clickSuffix(tokens.linkSignature(message, url), url) : null)) : [];
  }

  forRecipient(subscriberId: string, issuedAt: Date): RecipientTracking {
    const { trackOpens, trackClicks, links } = this.message;
    if (!trackOpens && !trackClicks) return {};
    const token = this.tokens.sign({ workspaceId: this.message.workspaceId, subscriberId, source: this.message.source }, issuedAt);
    const clickBase = `${this.base}/c/${token}`;
    return {
      ...(trackClicks
        ? {
            linkHook: (url: string, index: number) => {
              const suffix = this.suffixes[index];
              // A URL that is not this message's link at that index (a caller's mix-up) is left untracked, never mis-signed.
              return suffix != null && links[index] === url ? clickBase + suffix : url;
            },
          }
        : {}),
      ...(trackOpens ? { openPixelUrl: `${this.base}${openPixelPath(token)}` } : {}),
    };
  }
}
