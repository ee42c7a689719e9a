import type { AttachmentCheckResult } from '../../../../shared/ipc'

/** Asks the host to convert a chosen file now (off the UI thread), so its chip tells the truth. */
export async function checkPendingFile(file: File, count: number): Promise<AttachmentCheckResult> {
  // Loaded on first use: the stores that hold pending files are also used where no host exists.
  const { bureau } = await import('../../ipc/bureauClient')
  const bytes = new Uint8Array(await file.arrayBuffer())
  return bureau.invoke('attachments.check', {
    name: file.name,
    bytes,
    ...(file.type ? { mimeType: file.type } : {}),
    count,
  })
}
