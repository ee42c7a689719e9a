import type { PublicSettings } from '../../../../shared/settings'
import { SpeechModels } from '../../voice/SpeechModels'
import { VoiceSettingsForm } from '../../voice/VoiceSettingsForm'

/** Voice: every engine with its state, the engines chosen, and the speech models to download. */
export function VoiceSection({ settings }: { settings: PublicSettings }) {
  return (
    <section className="settings-card" aria-labelledby="voice-title" id="voice">
      <header>
        <h2 id="voice-title">Voice</h2>
        <p className="muted">
          Speaking to Bureau and hearing it. Offline engines keep your words on this computer; a cloud engine
          is used only when you choose it.
        </p>
      </header>
      <VoiceSettingsForm settings={settings} />
      <SpeechModels />
    </section>
  )
}
