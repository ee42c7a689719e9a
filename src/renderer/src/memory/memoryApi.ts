import { useQuery } from '@tanstack/react-query'
import { useMemo } from 'react'
import type { RouteInput, Routes } from '../../../shared/ipc'
import { useBureau } from '../ipc/BureauProvider'
import { queryKeys } from '../ipc/queryKeys'

/** The memories matching `query`, with the preferences and the workspace they were listed for. */
export function useMemoryList(query: string) {
  const bureau = useBureau()
  return useQuery({
    queryKey: queryKeys.memory.list(query),
    queryFn: () => bureau.invoke('memory.list', { query }),
  })
}

/** The memory routes that change something, bound to the client; callers refresh `queryKeys.memory.all()`. */
export function useMemoryActions() {
  const bureau = useBureau()
  return useMemo(
    () => ({
      add: (input: RouteInput<Routes, 'memory.add'>) => bureau.invoke('memory.add', input),
      update: (input: RouteInput<Routes, 'memory.update'>) => bureau.invoke('memory.update', input),
      remove: (id: string) => bureau.invoke('memory.delete', { id }),
      restore: (input: RouteInput<Routes, 'memory.restore'>) => bureau.invoke('memory.restore', input),
      setPreferences: (patch: RouteInput<Routes, 'memory.preferences'>) =>
        bureau.invoke('memory.preferences', patch),
      forgetAll: () => bureau.invoke('memory.forgetAll', {}),
      undoForget: (undoToken: string) => bureau.invoke('memory.undoForget', { undoToken }),
      importJson: (json: string) => bureau.invoke('memory.import', { json }),
      exportJson: () => bureau.invoke('memory.export', {}),
    }),
    [bureau],
  )
}
