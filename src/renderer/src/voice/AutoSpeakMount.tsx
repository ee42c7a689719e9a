import { lazy, Suspense } from 'react'
import { useSettings } from '../settings/useSettings'

const AutoSpeak = lazy(() => import('./AutoSpeak'))

/** Mounted by the shell: loads the speaker only when "Speak chat answers aloud" is on. */
export function AutoSpeakMount() {
  const on = useSettings().data?.voice.autoSpeak === true
  return on ? (
    <Suspense fallback={null}>
      <AutoSpeak />
    </Suspense>
  ) : null
}
