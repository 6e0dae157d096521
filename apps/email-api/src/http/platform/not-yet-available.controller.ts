import { All, Controller } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '@shared/auth';
import { featureNotAvailable, unavailableFeature, UnavailableFeatureCode } from '@email/platform';

const routesOf = (code: UnavailableFeatureCode): string[] => [...unavailableFeature(code).paths];

/** The advertised URLs of features this server does not offer yet: a clear 501 for every method, not a 404. */
@ApiExcludeController()
@Public()
@Controller()
export class NotYetAvailableController {
  @All(routesOf('oauth_not_available'))
  oauth(): never {
    throw featureNotAvailable('oauth_not_available');
  }
}
