import type { AgentAttachment } from '../../agent'
import { BridgeError, bridgeErrors } from '../errors'
import type { FileStore } from '../files/fileStore'
import type { FileRef } from './messagesToTask'

/** Loads the files a request refers to; an unknown id is the caller's mistake (400), not a missing URL. */
export async function resolveAttachments(
  refs: readonly FileRef[],
  store: FileStore,
  owner: string,
  maxFileBytes: number,
): Promise<AgentAttachment[]> {
  const attachments: AgentAttachment[] = []
  for (const ref of refs) {
    if (ref.kind === 'inline') {
      if (ref.bytes.byteLength > maxFileBytes) throw bridgeErrors.fileTooLarge(maxFileBytes)
      attachments.push({
        name: ref.filename,
        bytes: ref.bytes,
        ...(ref.mimeType ? { mimeType: ref.mimeType } : {}),
      })
      continue
    }
    try {
      const { file, bytes } = await store.readBytes(owner, ref.fileId)
      attachments.push({ name: file.filename, bytes: new Uint8Array(bytes), mimeType: file.mime_type })
    } catch (error) {
      if (error instanceof BridgeError && error.status === 404)
        throw new BridgeError(
          400,
          `Invalid file id: ${ref.fileId.slice(0, 100)} (upload it with POST /v1/files).`,
          {
            param: ref.param,
            code: 'file_not_found',
            cause: error,
          },
        )
      throw error
    }
  }
  return attachments
}
