declare const __BUREAU_VERSION__: string

/** Injected at build time (electron.vite.config.ts, vitest.config.ts) from package.json. */
export const APP_VERSION: string = typeof __BUREAU_VERSION__ === 'string' ? __BUREAU_VERSION__ : '0.0.0-dev'
export const APP_NAME = 'Bureau'
