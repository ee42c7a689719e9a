import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useMemo, useRef } from 'react'
import type { EventPayload, Events, RouteInput, Routes } from '../../../shared/ipc'
import { useBureau } from '../ipc/BureauProvider'
import { queryKeys } from '../ipc/queryKeys'

type RunEnded = EventPayload<Events, 'automations.runEnded'>

/** The automations, refreshed when the host says they changed or one finished (`onRunEnded` then hears of it). */
export function useAutomations(onRunEnded?: (ended: RunEnded) => void) {
  const bureau = useBureau()
  const client = useQueryClient()
  const latest = useRef(onRunEnded)
  latest.current = onRunEnded
  useEffect(() => {
    const refresh = () => void client.invalidateQueries({ queryKey: queryKeys.automations.all() })
    const offChanged = bureau.on('automations.changed', refresh)
    const offEnded = bureau.on('automations.runEnded', (ended) => {
      refresh()
      latest.current?.(ended)
    })
    return () => {
      offChanged()
      offEnded()
    }
  }, [client, bureau])
  return useQuery({
    queryKey: queryKeys.automations.list(),
    queryFn: () => bureau.invoke('automations.list', {}),
  })
}

/** The runs of one automation, newest first. */
export function useAutomationHistory(id: string) {
  const bureau = useBureau()
  return useQuery({
    queryKey: queryKeys.automations.history(id),
    queryFn: () => bureau.invoke('automations.history', { id }),
  })
}

/** The next five times a schedule fires; a schedule that does not parse is the query's error. */
export function useSchedulePreview(schedule: string) {
  const bureau = useBureau()
  return useQuery({
    queryKey: queryKeys.automations.preview(schedule),
    queryFn: () => bureau.invoke('automations.preview', { schedule, count: 5 }),
    enabled: schedule.trim().length > 0,
    retry: false,
  })
}

/** The automation routes that change something, bound to the client; callers refresh `queryKeys.automations.all()`. */
export function useAutomationActions() {
  const bureau = useBureau()
  return useMemo(
    () => ({
      create: (input: RouteInput<Routes, 'automations.create'>) => bureau.invoke('automations.create', input),
      setEnabled: (input: RouteInput<Routes, 'automations.setEnabled'>) =>
        bureau.invoke('automations.setEnabled', input),
      runNow: (id: string) => bureau.invoke('automations.runNow', { id }),
    }),
    [bureau],
  )
}
