// The operator console (docs/product/routes-and-screens.md#operator-console). One page whose tabs live in the URL hash: prerendered in both
// languages as a titled loading state that is never indexed, like the affiliate's signed-in pages.

export const ADMIN_PAGE = '/admin';
export const ADMIN_PAGES = [ADMIN_PAGE] as const;
