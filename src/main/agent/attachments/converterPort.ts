/*
 * What the agent needs from the converter service (src/main/convert). Its `Converter` fits this
 * shape; this is the one place the agent depends on it, so a change there is adapted here.
 */

export interface ConvertedAttachment {
  markdown: string
  format: string
  truncated: boolean
  warnings?: string[]
  title?: string
}

export interface AttachmentConverter {
  convert(
    input: { name: string; bytes: Uint8Array },
    options?: { maxChars?: number; signal?: AbortSignal; localOnly?: boolean },
  ): Promise<ConvertedAttachment>
}

/** The user-facing reason a conversion failed: the converter's message names the file already. */
export function conversionFailure(name: string, error: unknown): string {
  if (error instanceof Error && error.message) {
    const first = error.message.split('\n')[0] ?? error.message
    return first.includes(name) ? first : `Cannot convert "${name}": ${first}`
  }
  return `Cannot convert "${name}".`
}

/** Failures that the same bytes will meet again (not a timeout, a cancel or a vision model that failed). */
const STABLE_FAILURES = new Set(['not_a_document', 'unsupported', 'damaged', 'encrypted', 'too_large'])

export function isStableFailure(error: unknown): boolean {
  const failure = (error as { failure?: unknown } | null)?.failure
  return typeof failure === 'string' && STABLE_FAILURES.has(failure)
}
