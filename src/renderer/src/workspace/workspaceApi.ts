import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useMemo } from 'react'
import { useBureau } from '../ipc/BureauProvider'
import { queryKeys } from '../ipc/queryKeys'

/** One folder of the workspace, read again whenever the host reports a change in it. */
export function useWorkspaceListing(folder: string) {
  const bureau = useBureau()
  const queryClient = useQueryClient()
  useEffect(
    () =>
      bureau.on(
        'workspace.changed',
        () => void queryClient.invalidateQueries({ queryKey: queryKeys.workspace.all() }),
      ),
    [bureau, queryClient],
  )
  return useQuery({
    queryKey: queryKeys.workspace.list(folder),
    queryFn: () => bureau.invoke('workspace.list', { path: folder }),
    retry: false,
  })
}

/** The workspace routes a button calls, bound to the client. */
export function useWorkspaceActions() {
  const bureau = useBureau()
  return useMemo(
    () => ({
      /** Opens a file in its own app, or shows it in the file manager when `reveal`. */
      open: (path: string, reveal: boolean) => bureau.invoke('workspace.open', { path, reveal }),
      /** Opens with the system app (desktop only); the reason comes back when it could not. */
      async openWithSystem(agentPath: string): Promise<string | undefined> {
        const { opened, reason } = await bureau.invoke('workspace.open', { path: agentPath })
        return opened ? undefined : (reason ?? 'The file could not be opened.')
      },
      /** Saves a workspace file through the browser: the web host's way to hand a file over. */
      async downloadFile(agentPath: string): Promise<void> {
        const { name, mimeType, bytes } = await bureau.invoke('workspace.readFile', { path: agentPath })
        const url = URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: mimeType }))
        const link = document.createElement('a')
        link.href = url
        link.download = name
        link.rel = 'noopener'
        document.body.append(link)
        link.click()
        link.remove()
        setTimeout(() => URL.revokeObjectURL(url), 10_000)
      },
    }),
    [bureau],
  )
}
