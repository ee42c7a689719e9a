import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect } from 'react'
import { useBureau } from '../ipc/BureauProvider'
import { queryKeys } from '../ipc/queryKeys'
import type { PassageRef } from '../workspace/workspaceNav'

/** The knowledge index's progress, kept live by `knowledge.status`; the second value pauses or resumes it. */
export function useIndexStatus() {
  const bureau = useBureau()
  const queryClient = useQueryClient()
  const status = useQuery({
    queryKey: queryKeys.knowledge.status(),
    queryFn: () => bureau.invoke('knowledge.status'),
    retry: false,
  })
  useEffect(
    () =>
      bureau.on('knowledge.status', (next) => queryClient.setQueryData(queryKeys.knowledge.status(), next)),
    [bureau, queryClient],
  )
  const pause = useCallback(
    (paused: boolean) =>
      bureau
        .invoke('knowledge.pause', { paused })
        .then((next) => queryClient.setQueryData(queryKeys.knowledge.status(), next)),
    [bureau, queryClient],
  )
  return [status, pause] as const
}

/** The converted Markdown around a cited passage. */
export function usePassage(passage: PassageRef) {
  const bureau = useBureau()
  return useQuery({
    queryKey: queryKeys.knowledge.passage(passage.path, passage.start, passage.end),
    queryFn: () =>
      bureau.invoke('knowledge.passage', { path: passage.path, start: passage.start, end: passage.end }),
    retry: false,
  })
}
