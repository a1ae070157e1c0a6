import type { AttributeInstallRequest, AttributeInstallResponse } from './schemas.ts';

// Install attribution for the mobile app (docs/product/attribution.md#install-attribution).

export interface AttributionFunctions {
  /**
   * Called by the app at first launch (public, rate limited per IP). Answers the install's attribution:
   * a second call for the same app user answers the first one's; an install not attributed yet may
   * still be attributed by a tracking id or a typed code. Unknown ids and codes attribute nothing.
   */
  attributeInstall: { request: AttributeInstallRequest; response: AttributeInstallResponse };
}
