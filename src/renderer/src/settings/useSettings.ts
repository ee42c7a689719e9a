import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useMemo } from 'react'
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

/**
 * The answer replaces the cached settings; what is derived from them on the main side (the provider
 * in use, its models, whether its key is set) is read again, so nothing shows the old values until a reload.
 */
function storeSettings(queryClient: QueryClient, settings: PublicSettings) {
  queryClient.setQueryData(SETTINGS_KEY, settings)
  void queryClient.invalidateQueries({ queryKey: queryKeys.providers() })
}

/** `settings.update` with a merge patch; the answer replaces the cached settings. */
export function useUpdateSettings() {
  const bureau = useBureau()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (patch: SettingsPatch) => bureau.invoke('settings.update', patch),
    onSuccess: (settings: PublicSettings) => storeSettings(queryClient, settings),
  })
}

/** The settings routes bound to the client, for a handler that updates the cache itself (or needs no cache). */
export function useSettingsApi() {
  const bureau = useBureau()
  return useMemo(
    () => ({
      update: (patch: SettingsPatch) => bureau.invoke('settings.update', patch),
      setSecret: (input: { name: string; value: string }) => bureau.invoke('settings.setSecret', input),
      clearSecret: (name: string) => bureau.invoke('settings.clearSecret', { name }),
    }),
    [bureau],
  )
}

export function useSecretMutations() {
  const bureau = useBureau()
  const queryClient = useQueryClient()
  const onSuccess = (settings: PublicSettings) => storeSettings(queryClient, settings)
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
