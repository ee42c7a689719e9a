/** How long a read waits for a cookie banner to be handled, once per document. */
export const CONSENT_BUDGET_MS = 2_500
export const NAVIGATION_TIMEOUT_MS = 30_000
/** After DOMContentLoaded, how long navigate waits for `load` (slow images, hanging trackers). */
export const LOAD_GRACE_MS = 3_000
/** How long after an action a navigation or new tab may still start. */
export const ACTION_SETTLE_MS = 400
/** How long a click on a link that targets another tab waits for that tab (a loaded machine is slow to open one). */
export const NEW_TAB_TIMEOUT_MS = 5_000
