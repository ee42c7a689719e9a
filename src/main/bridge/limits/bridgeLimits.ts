import type { Settings } from '../../../shared/settings'

export interface BridgeLimits {
  /** Agent runs executing at once. */
  maxConcurrent: number
  /** Requests allowed to wait for a slot (429 beyond). */
  maxQueued: number
  /** Largest JSON request body in bytes (413 beyond). */
  maxRequestBytes: number
  /** Largest uploaded file in bytes (413 beyond). */
  maxFileBytes: number
  /** All stored files together, in bytes (413 beyond). */
  maxStorageBytes: number
  /** Hours a stored file lives before it expires. */
  fileExpiryHours: number
}

/** The limits in effect: `serve` flags win over the `bridge.*` settings, which are read on every request. */
export function limitsFrom(
  settings: { get(): Settings },
  overrides: Partial<BridgeLimits> = {},
): () => BridgeLimits {
  return () => {
    const fromSettings = settings.get().bridge
    return {
      maxConcurrent: overrides.maxConcurrent ?? fromSettings.maxConcurrent,
      maxQueued: overrides.maxQueued ?? fromSettings.maxQueued,
      maxRequestBytes: overrides.maxRequestBytes ?? fromSettings.maxRequestBytes,
      maxFileBytes: overrides.maxFileBytes ?? fromSettings.maxFileBytes,
      maxStorageBytes: overrides.maxStorageBytes ?? fromSettings.maxStorageBytes,
      fileExpiryHours: overrides.fileExpiryHours ?? fromSettings.fileExpiryHours,
    }
  }
}
