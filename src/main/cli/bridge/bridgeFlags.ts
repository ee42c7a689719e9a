import { BridgeSettings } from '../../../shared/settings'
import type { BridgeLimits } from '../../bridge'
import { UsageError } from '../program'

/** The `serve --bridge-*` flags; each wins over its `bridge.*` setting. */
export interface BridgeCliOptions {
  bridgeMaxConcurrent?: number
  bridgeMaxQueued?: number
  bridgeMaxRequestBytes?: number
  bridgeMaxFileBytes?: number
}

const FLAGS: Array<[keyof BridgeCliOptions, keyof BridgeLimits, string]> = [
  ['bridgeMaxConcurrent', 'maxConcurrent', '--bridge-max-concurrent'],
  ['bridgeMaxQueued', 'maxQueued', '--bridge-max-queued'],
  ['bridgeMaxRequestBytes', 'maxRequestBytes', '--bridge-max-request-bytes'],
  ['bridgeMaxFileBytes', 'maxFileBytes', '--bridge-max-file-bytes'],
]

/** Checked against the same ranges as the settings. */
export function bridgeLimitOverrides(options: BridgeCliOptions): Partial<BridgeLimits> {
  const overrides: Partial<BridgeLimits> = {}
  for (const [option, limit, flag] of FLAGS) {
    const value = options[option]
    if (value === undefined) continue
    const checked = BridgeSettings.shape[limit].safeParse(value)
    if (!checked.success)
      throw new UsageError(`${flag} ${value}: ${checked.error.issues[0]?.message ?? 'out of range'}`)
    overrides[limit] = checked.data
  }
  return overrides
}
