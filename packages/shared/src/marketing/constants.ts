// Marketing material constants (docs/product/rules-and-constants.md#validation).

export const BANNER_SIZES = {
  horizontal: { width: 728, height: 90 },
  square: { width: 300, height: 250 },
  vertical: { width: 160, height: 600 },
  mobile: { width: 320, height: 100 },
} as const;
export type BannerSize = keyof typeof BANNER_SIZES;
export const BANNER_THEMES = ['purple', 'dark', 'light'] as const;
export type BannerTheme = (typeof BANNER_THEMES)[number];
/** Banners are previewed at half size (docs/product/routes-and-screens.md#marketing-materials-panel). */
export const BANNER_PREVIEW_SCALE = 0.5;

export const QR_DEFAULTS = {
  size: 200,
  errorCorrectionLevel: 'H',
  foreground: '#504099',
  background: '#ffffff',
} as const;
export const QR_SIZE_RANGE = { min: 100, max: 400, step: 10 } as const;
