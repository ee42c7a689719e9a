import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import type { PublicSettings, SettingsPatch } from '../../../shared/settings'
import { useBureau } from '../ipc/BureauProvider'
import { queryKeys } from '../ipc/queryKeys'

export const SETTINGS_KEY = queryKeys.settings()

/** The masked settings, kept fresh by `settings.changed` (another window or the CLI may change them). */
export function useSettings() {
  const bureau = useBureau()
  const queryClient = useQueryClient()
  useEffect(
    () => bureau.on('settings.changed', (settings) => queryClient.setQueryData(SETTINGS_KEY, settings)),
    [bureau, queryClient],
  )
  return useQuery({ queryKey: SETTINGS_KEY, queryFn: () => bureau.invoke('settings.get'), retry: false })
}

/** `settings.update` with a merge patch; the answer replaces the cached settings. */
export function useUpdateSettings() {
  const bureau = useBureau()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (patch: SettingsPatch) => bureau.invoke('settings.update', patch),
    onSuccess: (settings: PublicSettings) => queryClient.setQueryData(SETTINGS_KEY, settings),
  })
}

export function useSecretMutations() {
  const bureau = useBureau()
  const queryClient = useQueryClient()
  const onSuccess = (settings: PublicSettings) => queryClient.setQueryData(SETTINGS_KEY, settings)
  const set = useMutation({
    mutationFn: (input: { name: string; value: string }) => bureau.invoke('settings.setSecret', input),
    onSuccess,
  })
  const clear = useMutation({
    mutationFn: (name: string) => bureau.invoke('settings.clearSecret', { name }),
    onSuccess,
  })
  return { set, clear }
}
