import type { ImageAttribution, ThankYouScreen } from '@forms/draft-schema';
import { cssColor, cssString, escapeHtml, safeUrl } from './escape';
import { tag, voidTag } from './html';
import { screenHeadingId, screenSectionId } from './ids';
import { SHARE_NETWORKS } from './share';

/** A hidden ending screen; the script reveals the one the server names after submitting. */
export function renderThankYouScreen(screen: ThankYouScreen): string {
  const headingId = screenHeadingId(screen.id);
  const titleClass = screen.titleSize === 'small' ? 'ty-small' : screen.titleSize === 'large' ? 'ty-large' : undefined;
  const content = [
    logo(screen),
    tag('h2', { id: headingId, class: titleClass, tabindex: -1 }, escapeHtml(screen.title)),
    screen.description ? tag('p', { class: 'ty-description' }, escapeHtml(screen.description)) : '',
    media(screen),
    button(screen),
    share(screen),
    screen.backgroundImageAttribution && safeUrl(screen.backgroundImageUrl) ? attribution(screen.backgroundImageAttribution) : '',
  ].join('');
  return tag(
    'section',
    {
      class: 'card thank-you',
      id: screenSectionId(screen.id),
      'data-screen': screen.id,
      'aria-labelledby': headingId,
      style: screenStyle(screen) || undefined,
      hidden: true,
    },
    backdrop(screen) + tag('div', { class: 'ty-content' }, content),
  );
}

function screenStyle(screen: ThankYouScreen): string {
  const radius = screen.buttonRadius === undefined ? null : `${Math.min(Math.max(screen.buttonRadius, 0), 48)}px`;
  const align = screen.textAlign && ['left', 'center', 'right'].includes(screen.textAlign) ? screen.textAlign : null;
  const properties: [string, string | null][] = [
    ['--ty-bg', cssColor(screen.backgroundColor)],
    ['--ty-heading', cssColor(screen.headingColor)],
    ['--ty-description', cssColor(screen.descriptionColor)],
    ['--ty-button-bg', cssColor(screen.buttonBackgroundColor)],
    ['--ty-button-text', cssColor(screen.buttonTextColor)],
    ['--ty-button-radius', radius],
    ['--ty-align', align],
    ['--ty-justify', align],
  ];
  return properties
    .filter(([, value]) => value !== null)
    .map(([name, value]) => `${name}:${value}`)
    .join(';');
}

function backdrop(screen: ThankYouScreen): string {
  const url = safeUrl(screen.backgroundImageUrl);
  if (!url) return '';
  const brightness = Math.min(Math.max(screen.backgroundImageBrightness ?? 100, 0), 200) / 100;
  return tag('div', { class: 'ty-backdrop', 'aria-hidden': 'true', style: `background-image:url(${cssString(url)});filter:brightness(${brightness})` });
}

function logo(screen: ThankYouScreen): string {
  const url = safeUrl(screen.logoUrl);
  if (!url) return '';
  return `<p>${voidTag('img', { class: 'ty-logo', src: url, alt: 'Logo' })}</p>${screen.logoAttribution ? attribution(screen.logoAttribution) : ''}`;
}

function media(screen: ThankYouScreen): string {
  const url = safeUrl(screen.mediaUrl);
  if (!url) return '';
  const element =
    screen.mediaType === 'video'
      ? tag('video', { src: url, controls: true, preload: 'metadata', 'aria-label': screen.mediaAlt }, tag('a', { href: url }, 'Watch the video'))
      : voidTag('img', { src: url, alt: screen.mediaAlt ?? '' });
  const caption = screen.mediaAttribution ? tag('figcaption', {}, attributionContent(screen.mediaAttribution)) : '';
  return tag('figure', { class: 'ty-media' }, element + caption);
}

function button(screen: ThankYouScreen): string {
  const url = safeUrl(screen.buttonUrl);
  if (!screen.showButton || !url) return '';
  const newTab = screen.buttonOpenInNewTab === true;
  return tag(
    'p',
    {},
    tag(
      'a',
      { class: 'button ty-button', href: url, target: newTab ? '_blank' : undefined, rel: newTab ? 'noopener noreferrer' : undefined },
      escapeHtml(screen.buttonLabel || 'Continue'),
    ),
  );
}

/** Links the author gave are used as they are; the rest get a share URL for the page, which the script fills in. */
function share(screen: ThankYouScreen): string {
  if (!screen.showSocialShareIcons) return '';
  const items = SHARE_NETWORKS.map(({ key, name }) => {
    const given = safeUrl(screen.socialShareLinks?.[key]);
    const link = tag(
      'a',
      { class: 'button', href: given ?? '#', 'data-share': given ? undefined : key, target: '_blank', rel: 'noopener noreferrer' },
      `<span class="sr-only">Share on </span>${name}`,
    );
    return `<li>${link}</li>`;
  });
  return tag('p', { class: 'share-title', 'aria-hidden': 'true' }, 'Share') + tag('ul', { class: 'share', 'aria-label': 'Share' }, items.join(''));
}

function attribution(credit: ImageAttribution): string {
  return tag('p', { class: 'attribution' }, attributionContent(credit));
}

function attributionContent(credit: ImageAttribution): string {
  const link = (url: string, text: string) => {
    const href = safeUrl(url);
    return href ? tag('a', { href, target: '_blank', rel: 'noopener noreferrer' }, escapeHtml(text)) : escapeHtml(text);
  };
  return `Photo by ${link(credit.photographerUrl, credit.photographerName)} on ${link(credit.sourceUrl, credit.sourceName)}`;
}
