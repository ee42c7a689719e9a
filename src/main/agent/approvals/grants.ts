import { MAX_APPROVED_TOOLS } from '../../../shared/ipc'

/** A conversation's grants with `key` as the newest; when full, the oldest grant gives way. */
export function withGrant(granted: readonly string[] | undefined, key: string): string[] {
  return [...(granted ?? []).filter((existing) => existing !== key), key].slice(-MAX_APPROVED_TOOLS)
}
