import type { IpcClient } from '../../../shared/ipc'
import { bureau } from '../ipc/bureauClient'

/** Saves a workspace file through the browser: the web host's way to hand a file over. */
export async function downloadFile(agentPath: string, client: IpcClient = bureau): Promise<void> {
  const { name, mimeType, bytes } = await client.invoke('workspace.readFile', { path: agentPath })
  const url = URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: mimeType }))
  const link = document.createElement('a')
  link.href = url
  link.download = name
  link.rel = 'noopener'
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}

/** Opens with the system app (desktop only); the reason comes back when it could not. */
export async function openWithSystem(agentPath: string): Promise<string | undefined> {
  const { opened, reason } = await bureau.invoke('workspace.open', { path: agentPath })
  return opened ? undefined : (reason ?? 'The file could not be opened.')
}
