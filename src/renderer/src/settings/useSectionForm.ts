import { type ChangeEvent, useEffect, useState } from 'react'
import type { SettingsPatch } from '../../../shared/settings'
import { issuesByPath } from './issuesByPath'
import { useUpdateSettings } from './useSettings'

/** What a section's card needs from its form: Save, and the saving/saved/failed state. */
export interface SectionFormStatus {
  dirty: boolean
  saving: boolean
  saved: boolean
  error: string | undefined
  save(extraCheck?: () => boolean): void
}

type KeysWith<T, V> = { [K in keyof T]: T[K] extends V ? K : never }[keyof T]
type TextControl = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement

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

  const set = <K extends keyof T>(key: K, value: T[K]) => {
    setWasSaved(false)
    setDraft((d) => ({ ...d, [key]: value }))
  }
  return {
    draft,
    set,
    /** `value` and `onChange` of an input, textarea or select bound to a text field of the draft. */
    text: <K extends KeysWith<T, string>>(key: K) => ({
      value: draft[key] as string,
      onChange: (event: ChangeEvent<TextControl>) => set(key, event.currentTarget.value as T[K]),
    }),
    /** `checked` and `onChange` of a checkbox bound to a boolean field of the draft. */
    checkbox: <K extends KeysWith<T, boolean>>(key: K) => ({
      checked: draft[key] as boolean,
      onChange: (event: ChangeEvent<HTMLInputElement>) => set(key, event.currentTarget.checked as T[K]),
    }),
    dirty: JSON.stringify(draft) !== savedKey,
    saving: update.isPending,
    saved: wasSaved,
    issues: issuesByPath(update.error),
    error: update.error?.message,
    save: (extraCheck?: () => boolean) => {
      if (extraCheck && !extraCheck()) return
      update.mutate(toPatch(draft), { onSuccess: () => setWasSaved(true) })
    },
  }
}
