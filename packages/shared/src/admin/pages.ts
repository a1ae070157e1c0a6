// The operator console (BRIEF §5.10). One page whose tabs live in the URL hash: prerendered in both
// languages as a titled loading state that is never indexed, like the affiliate's signed-in pages.

export const ADMIN_PAGE = '/admin';
export const ADMIN_PAGES = [ADMIN_PAGE] as const;
