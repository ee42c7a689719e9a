import type { FlushFailure } from '../../tools'

function listed(failures: readonly FlushFailure[]): string {
  return failures.map((f) => (f.path ? `${f.path} (${f.error.replace(/\.$/, '')})` : f.error)).join('; ')
}

/** What the model reads when its `done` came while pending changes could not be saved. */
export function saveFailedText(failures: readonly FlushFailure[]): string {
  return `done: not accepted yet, pending changes could not be saved: ${listed(failures)}. Save them where it works (e.g. spreadsheet save_as to another path) and call done again, or call done again and tell the user what was not saved.`
}

/** The line added to the answer for the user when changes stayed unsaved. */
export function unsavedNote(failures: readonly FlushFailure[]): string | undefined {
  if (failures.length === 0) return undefined
  return `Not saved: ${listed(failures)}. Nothing was written: what is on disk is as it was before these changes.`
}

function samePath(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase()
}

/** Attachments without the files whose pending changes could not be saved. */
export function withoutUnsaved(attachments: readonly string[], failures: readonly FlushFailure[]): string[] {
  const paths = failures.flatMap((f) => (f.path ? [f.path] : []))
  return attachments.filter((a) => !paths.some((p) => samePath(p, a)))
}
