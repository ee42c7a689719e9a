/** Bump when a stored field changes meaning or place, and add the step to `migrations.ts`. */
export const SETTINGS_SCHEMA_VERSION = 1
