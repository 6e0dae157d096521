import { z } from 'zod';
import { DEFAULT_THANK_YOU_SCREEN } from '../defaults';
import { SLUG_PATTERN } from '../formats';
import { LIMITS } from '../limits';
import { DEFAULT_THANK_YOU_SCREEN_ID } from '../model';
import { coded, color, description, httpUrl, id, label, nonEmptyLabel } from './common';

const attribution = z.strictObject({
  provider: z.literal('unsplash'),
  photographerName: label,
  photographerUrl: httpUrl,
  sourceName: label,
  sourceUrl: httpUrl,
  photoUrl: httpUrl,
});

/** Everything an ending screen has besides its id and title. */
const screenProperties = {
  description: description.optional(),
  redirectUrl: httpUrl.optional(),
  showSocialShareIcons: z.boolean().optional(),
  socialShareLinks: z.strictObject({ facebook: httpUrl.optional(), x: httpUrl.optional(), linkedin: httpUrl.optional() }).optional(),
  showButton: z.boolean().optional(),
  buttonLabel: label.optional(),
  buttonUrl: httpUrl.optional(),
  buttonOpenInNewTab: z.boolean().optional(),
  mediaUrl: httpUrl.optional(),
  mediaType: z.enum(['image', 'video']).optional(),
  mediaAlt: label.optional(),
  mediaAttribution: attribution.optional(),
  logoUrl: httpUrl.optional(),
  logoAttribution: attribution.optional(),
  titleSize: z.enum(['small', 'medium', 'large']).optional(),
  textAlign: z.enum(['left', 'center', 'right']).optional(),
  backgroundColor: color.optional(),
  backgroundImageUrl: httpUrl.optional(),
  backgroundImageAttribution: attribution.optional(),
  backgroundImageBrightness: z.int().min(0).max(200).optional(),
  headingColor: color.optional(),
  descriptionColor: color.optional(),
  buttonBackgroundColor: color.optional(),
  buttonTextColor: color.optional(),
  buttonRadius: z.int().min(0).max(48).optional(),
};

const defaultScreen = z.strictObject({
  id: z.literal(DEFAULT_THANK_YOU_SCREEN_ID).default(DEFAULT_THANK_YOU_SCREEN_ID),
  title: label.default(DEFAULT_THANK_YOU_SCREEN.title),
  ...screenProperties,
});
/** An extra ending screen; also the shape of any thank-you screen a submission is answered with. */
export const thankYouScreenSchema = z.strictObject({ id: id.optional(), title: label.default(''), ...screenProperties });

const variable = z.strictObject({
  id: id.optional(),
  name: nonEmptyLabel.max(100),
  type: z.enum(['number', 'text']),
  initialValue: z.union([z.number(), label]).optional(),
});

export const settingsSchema = z
  .strictObject({
    name: label.optional(),
    slug: z
      .string()
      .max(LIMITS.slug)
      .refine((s) => SLUG_PATTERN.test(s), coded('invalid_slug', 'Use lower-case letters, digits and single hyphens (my-form).'))
      .meta({ pattern: SLUG_PATTERN.source })
      .optional(),
    submitButtonLabel: label.optional(),
    hidden: z
      .strictObject({
        variables: z
          .array(variable)
          .max(LIMITS.variables)
          .default(() => []),
      })
      .prefault({}),
    submissions: z
      .strictObject({
        thankYou: defaultScreen.prefault({ description: DEFAULT_THANK_YOU_SCREEN.description }),
        thankYouScreens: z
          .array(thankYouScreenSchema)
          .max(LIMITS.thankYouScreens)
          .default(() => []),
      })
      .prefault({}),
  })
  .prefault({});
