// The operator console's server functions (BRIEF §5.10), `access: 'admin'`. Filled in by the admin feature.

export interface AdminFunctions {}
