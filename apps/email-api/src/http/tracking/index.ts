import { Provider } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@shared/config';
import { EngagementRepository } from '@email/audience-engine';
import { TrackingTokens } from '@email/delivery';
import { EngagementGroupCommit } from './engagement-group-commit';
import { TrackingRoutes } from './tracking-routes';

/** The open pixel and click redirect routes with what they need; tracking links are signed with a key derived from CURSOR_SECRET. */
export const TRACKING_PROVIDERS: Provider[] = [
  { provide: TrackingTokens, useFactory: (config: AppConfig) => new TrackingTokens(config.cursorSecret), inject: [APP_CONFIG] },
  { provide: EngagementGroupCommit, useFactory: (engagement: EngagementRepository) => new EngagementGroupCommit(engagement), inject: [EngagementRepository] },
  TrackingRoutes,
];
