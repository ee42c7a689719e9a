import { useQuery } from '@tanstack/react-query'
import { useMemo } from 'react'
import type { RouteInput, Routes } from '../../../shared/ipc'
import { useBureau } from '../ipc/BureauProvider'
import { queryKeys } from '../ipc/queryKeys'

/** The toolsets the agent can use, with their tools and what each may do. */
export function useToolsets() {
  const bureau = useBureau()
  return useQuery({ queryKey: queryKeys.tools.toolsets(), queryFn: () => bureau.invoke('tools.toolsets') })
}

/** The tool plugins found in the plugins folder, loaded or refused. */
export function useToolPlugins() {
  const bureau = useBureau()
  return useQuery({
    queryKey: queryKeys.tools.plugins(),
    queryFn: () => bureau.invoke('tools.plugins'),
    retry: false,
  })
}

/** The last `bureau eval` scores, by provider and model. */
export function useEvalResults() {
  const bureau = useBureau()
  return useQuery({
    queryKey: queryKeys.evalResults(),
    queryFn: () => bureau.invoke('eval.lastResults'),
    retry: false,
  })
}

/** The routes the tool sections call from a button: account tests, the browser, the folder picker. */
export function useToolsApi() {
  const bureau = useBureau()
  return useMemo(
    () => ({
      testEmail: (input: RouteInput<Routes, 'email.test'>) => bureau.invoke('email.test', input),
      testCalendar: (input: RouteInput<Routes, 'calendar.test'>) => bureau.invoke('calendar.test', input),
      startBrowserForBureau: () => bureau.invoke('browser.startForBureau'),
      pickFolder: (input: RouteInput<Routes, 'ui.pickFolder'>) => bureau.invoke('ui.pickFolder', input),
    }),
    [bureau],
  )
}
