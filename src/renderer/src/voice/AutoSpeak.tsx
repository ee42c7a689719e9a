import { useRef } from 'react'
import type { PublicSettings } from '../../../shared/settings'
import { useSettings } from '../settings/useSettings'
import { useAutoSpeak } from './voiceApi'

/**
 * Speaks chat answers as they stream while the `voice.autoSpeak` setting is on (loaded only then).
 * Each run takes the speech settings of its start, so saving other settings does not cut it off.
 */
export default function AutoSpeak() {
  const settings = useRef<PublicSettings | undefined>(undefined)
  settings.current = useSettings().data
  useAutoSpeak(settings)
  return null
}
