import { useEffect } from 'react'
import type { AttachmentCheckResult, IpcClient } from '../../../../shared/ipc'
import { useBureau } from '../../ipc/BureauProvider'
import { useVoice } from '../../voice/voiceStore'
import { useComposer } from './composerStore'

/** Asks the host to convert a chosen file now (off the UI thread), so its chip tells the truth. */
function checkPendingFile(bureau: Pick<IpcClient, 'invoke'>) {
  return async (file: File, count: number): Promise<AttachmentCheckResult> => {
    const bytes = new Uint8Array(await file.arrayBuffer())
    return bureau.invoke('attachments.check', {
      name: file.name,
      bytes,
      ...(file.type ? { mimeType: file.type } : {}),
      count,
    })
  }
}

/**
 * Gives the composer and the voice panel their pre-send check, on the client of the nearest BureauProvider.
 * The stores hold no client themselves: where no host exists (tests, a store used alone) files are not checked.
 */
export function usePendingFileChecks(): void {
  const bureau = useBureau()
  useEffect(() => {
    const checkFile = checkPendingFile(bureau)
    useComposer.setState({ checkFile })
    useVoice.setState({ checkFile })
  }, [bureau])
}
