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
    }),
    [bureau],
  )
}
