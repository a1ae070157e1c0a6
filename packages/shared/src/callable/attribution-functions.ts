// Install attribution for the mobile app (BRIEF §5.5). Filled in by the attribution feature.

export interface AttributionFunctions {}
