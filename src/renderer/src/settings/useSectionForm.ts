import { useEffect, useState } from 'react'
import type { SettingsPatch } from '../../../shared/settings'
import { issuesByPath } from './issuesByPath'
import { useUpdateSettings } from './useSettings'

/**
 * A section's draft: starts from the saved values, resets when they change elsewhere, and saves
 * through settings.update; server-side validation issues come back keyed by dotted path.
 */
export function useSectionForm<T extends object>(saved: T, toPatch: (draft: T) => SettingsPatch) {
  const savedKey = JSON.stringify(saved)
  const [draft, setDraft] = useState(saved)
  const [wasSaved, setWasSaved] = useState(false)
  const update = useUpdateSettings()

  // biome-ignore lint/correctness/useExhaustiveDependencies: savedKey is the value identity of `saved`
  useEffect(() => setDraft(saved), [savedKey])

  const dirty = JSON.stringify(draft) !== savedKey
  const issues = issuesByPath(update.error)
  return {
    draft,
    set: <K extends keyof T>(key: K, value: T[K]) => {
      setWasSaved(false)
      setDraft((d) => ({ ...d, [key]: value }))
    },
    dirty,
    saving: update.isPending,
    saved: wasSaved,
    issues,
    error: update.error?.message,
    save: (extraCheck?: () => boolean) => {
      if (extraCheck && !extraCheck()) return
      update.mutate(toPatch(draft), { onSuccess: () => setWasSaved(true) })
    },
  }
}
