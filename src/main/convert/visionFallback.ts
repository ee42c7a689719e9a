import { isAppError } from '../../shared/errors'
import type { VisionChoice, VisionHook } from './types'

/**
 * What the stand-in hook throws when the vision model that was asked for cannot be used. Stays in the
 * convert service: it only picks the warning (OCR was used instead) and crosses the worker as its own kind.
 */
export class VisionUnavailable extends Error {
  readonly reason: string
  constructor(reason: string) {
    super(reason)
    this.name = 'VisionUnavailable'
    this.reason = reason
  }
}

/**
 * The warning when a picture went to OCR instead of the vision model. `failed` says what the model
 * could not do ("could not describe the image"); an unavailable model gets one message per file.
 */
export function visionFallbackWarning(error: unknown, failed: string): string {
  if (error instanceof VisionUnavailable)
    return `${error.reason}; images and scanned pages were read with OCR instead`
  return `the vision model ${failed}${appErrorDetail(error)}; used OCR instead`
}

/** ` (message)` of an AppError from the provider layer (short and safe to show); '' for anything else. */
export function appErrorDetail(error: unknown): string {
  return isAppError(error) ? ` (${error.message.replace(/\.$/, '')})` : ''
}

/** The hook a conversion uses for a choice, and whether it ever failed (such results are not cached). */
export function hookFor(choice: VisionChoice): { hook: VisionHook | undefined; failed(): boolean } {
  let failed = false
  if (choice.kind === 'off') return { hook: undefined, failed: () => false }
  if (choice.kind === 'unavailable') {
    return {
      hook: async () => {
        throw new VisionUnavailable(choice.reason)
      },
      failed: () => false,
    }
  }
  return {
    hook: async (image, options) => {
      try {
        return await choice.hook(image, options)
      } catch (error) {
        failed = true
        throw error
      }
    },
    failed: () => failed,
  }
}

/** Part of the cache key: the same bytes read by another model (or by OCR) give another result. */
export function visionCacheId(choice: VisionChoice): string {
  if (choice.kind === 'model') return `model:${choice.id}`
  if (choice.kind === 'unavailable') return `unavailable:${choice.reason}`
  return 'off'
}
